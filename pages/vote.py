"""Vote page: which reply is most and least empathetic? Sources hidden until you vote.

Runs alone with ``python -m pages.vote``; open a shared round with
``?round=CODE``. The page only reads inputs, calls :mod:`studies.votes.rounds`,
:mod:`studies.votes.setup`, :mod:`studies.votes.log` and
:mod:`studies.votes.tally`, and shows what they return.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import gradio as gr

from core.csvlog import CsvLogError
from core.questions import by_label, load_questions
from core.textinput import InputError
from pages.widgets.keys import key_boxes, typed_keys
from pages.widgets.names import responder_choices, scorer_choices
from pages.widgets.notice import notice_box, reports_problems, scroll_cue
from pages.widgets.progress import gradio_progress
from pages.widgets.share import page_link, qr_data_uri
from pages.widgets.visitor import voter_state
from reports.votes import (
    AGREEMENT_HEADERS,
    RANKING_HEADERS,
    agreement_rows,
    ranking_rows,
    reveal_markdown,
    shares_chart,
    write_results,
)
from responders.registry import default_responder_ids
from scorers.registry import offered_scorer_ids
from studies.strategies import load_strategies
from studies.votes.log import AlreadyVoted, VoteLog, cast_vote
from studies.votes.rounds import (
    MAX_REPLIES,
    VoteRound,
    ballot,
    list_rounds,
    load_round,
    new_voter_id,
)
from studies.votes.setup import THERAPIST, make_round
from studies.votes.tally import tally

RESPONDER_IDS = [rid for rid in default_responder_ids() if rid != THERAPIST]
INTRO = (
    "## Blind vote\nRead one message and the replies to it, then pick the **most** and the "
    "**least** empathetic reply. Who wrote each reply (a language model, prompted one of "
    "several ways, a licensed therapist, or your teacher) stays hidden until you vote. Everyone with the same round code votes on the "
    "same replies, each in their own order."
)


def ballot_updates(rnd: VoteRound, voter: str, note: str = "", voted: bool = False) -> list[object]:
    """Updates for the message, every reply box and both pickers (sources hidden; the pickers
    closed for a voter who has voted)."""
    shown = ballot(rnd, voter)
    letters = [letter for letter, _ in shown]
    boxes = [
        gr.update(value=rnd.entry(source).text, label=f"Reply {letter}", visible=True)
        for letter, source in shown
    ]
    boxes += [gr.update(value="", visible=False)] * (MAX_REPLIES - len(shown))
    header = f"### Round {rnd.code}\n{note}\n\n**The message:**\n\n> " + rnd.message.replace(
        "\n", "\n> "
    )
    return [
        header,
        *boxes,
        gr.update(choices=letters, value=None, interactive=not voted),
        gr.update(choices=letters, value=None, interactive=not voted),
        "",
    ]


def open_round(code: str, voter: str) -> list[object]:
    """Show round ``code`` to this session; returns [voter, round code, *ballot updates]."""
    try:
        rnd = load_round(code)
    except InputError as exc:
        raise gr.Error(str(exc)) from None
    voter = voter or new_voter_id()
    try:
        voted = VoteLog().has_voted(rnd.code, voter)
    except CsvLogError as exc:
        raise gr.Error(f"The vote log could not be read: {exc}") from None
    note = "You have already voted in this round." if voted else ""
    return [voter, rnd.code, *ballot_updates(rnd, voter, note, voted)]


def on_load(voter: str, request: gr.Request) -> list[object]:
    """Open the round named in the page address (``?round=K7Q2``), if any."""
    code = (request.query_params.get("round") or "") if request else ""
    if not code.strip():
        return [gr.skip()] * (4 + MAX_REPLIES + 3)
    return [code.strip().upper(), *open_round(code, voter)]


def create(
    label: str | None,
    message: str,
    responders: list[str],
    strategies: list[str],
    teacher: str,
    scorers: list[str],
    seed: str | float | None,
    max_tokens: float,
    temperature: float,
    voter: str,
    *key_values: str,
    progress: gr.Progress = gr.Progress(),  # noqa: B008 (Gradio's progress idiom)
) -> list[object]:
    """Make a round (replies written now, scores saved) and show it to this session."""
    question = by_label(label or "")
    text = question.question if question and not (message or "").strip() else message
    seed_text = str(seed if seed is not None else "").strip().removesuffix(".0")
    if seed_text and not seed_text.lstrip("-").isdigit():
        raise ValueError("The shuffle seed is a whole number, or blank for a random order.")
    try:
        rnd, problems = make_round(
            text,
            [r for r in responders or [] if r in RESPONDER_IDS],
            seed=int(seed_text) if seed_text else None,
            scorer_ids=[s for s in scorers or [] if s in offered_scorer_ids()],
            strategies=list(strategies or []),
            teacher_replies=teacher or "",
            progress=gradio_progress(progress),
            max_tokens=int(max_tokens),
            temperature=float(temperature),
            keys=typed_keys(*key_values),
        )
    except InputError as exc:
        raise gr.Error(str(exc)) from None
    left_out = "".join(f"\n\nLeft out: {p}" for p in problems)
    share = (
        f"**Round code: `{rnd.code}`** ({len(rnd.entries)} replies, shuffle seed {rnd.seed}). "
        "Students type the code on the Vote page, or open the link below (or scan its code)."
        + left_out
    )
    voter = voter or new_voter_id()
    return [rnd.code, share, voter, rnd.code, *ballot_updates(rnd, voter)]


def share_link(code: str, request: gr.Request) -> str:
    """The round's full link as this visitor reached the server, and its QR code."""
    if not code:
        return ""
    link = page_link(request, f"/vote?round={code}")
    return f"`{link}`\n\n![QR code of the round's link]({qr_data_uri(link)})"


def vote(code: str, voter: str, most: str | None, least: str | None, reason: str) -> str:
    """Record this session's vote, then reveal the sources and scores."""
    if not code or not voter:
        raise gr.Error("Open or create a round first.")
    try:
        rnd = load_round(code)
        row = cast_vote(rnd, voter, most or "", least or "", reason or "")
    except AlreadyVoted:  # a second press shows the reveal again, with the first vote
        earlier = VoteLog().vote_of(rnd.code, voter)
        if earlier is None:
            raise gr.Error("This browser session has already voted in this round.") from None
        note = "*You have already voted in this round; your first vote stands.*\n\n"
        return note + reveal_markdown(rnd, voter, earlier)
    except (InputError, CsvLogError) as exc:
        raise gr.Error(str(exc)) from None
    return reveal_markdown(rnd, voter, row)


def results(code: str) -> list[object]:
    """Chart, ranking, agreement, a status line and the results CSV for one round or all."""
    code = (code or "").strip().upper() or None
    try:
        rows = VoteLog().read()
        found, agreement = tally(rows, {r.code: r for r in list_rounds()}, code, resamples=300)
    except (CsvLogError, ValueError) as exc:
        raise gr.Error(f"The votes could not be read: {exc}") from None
    if not found:
        return [
            shares_chart([]),
            [],
            [],
            f"No votes yet{' for round ' + code if code else ''}.",
            None,
        ]
    path = Path(tempfile.mkdtemp(prefix="vote-results-")) / "results.csv"
    write_results(found, path)
    votes = max(r.n for r in found)
    status = (
        f"{len(found)} sources; each was shown in up to {votes} votes. Score: Bradley–Terry "
        "log-strength from every most/least choice (0 = average, higher = more empathetic). "
        "When two intervals overlap, the class cannot tell those two apart yet."
    )
    return [shares_chart(found), ranking_rows(found), agreement_rows(agreement), status, str(path)]


def votes_file() -> str | None:
    """The vote log for the download button (None before the first vote)."""
    path = VoteLog().path
    return str(path) if path.exists() else None


def random_question() -> tuple[str, str]:
    """A bundled question picked at random: its dropdown label and its text."""
    import secrets

    question = secrets.choice(load_questions())
    return question.choice_label, question.question


def question_text(label: str | None) -> str:
    """The bundled question's text for a dropdown label (unchanged when none)."""
    question = by_label(label or "")
    return question.question if question else gr.skip()


def _maker() -> list[gr.components.Component]:
    """The teacher's controls (inside an accordion); returns the inputs of :func:`create`."""
    with gr.Row():
        picker = gr.Dropdown(
            choices=[q.choice_label for q in load_questions()],
            value=None,
            label="Bundled question (CounselChat; the therapist's real answer is added)",
            scale=4,
        )
        lucky = gr.Button("Random question", scale=1)
    message = gr.Textbox(label="Message (or paste your own)", lines=4)
    responders = gr.CheckboxGroup(
        responder_choices(RESPONDER_IDS), value=[RESPONDER_IDS[0]], label="Models that reply"
    )
    strategies = gr.CheckboxGroup(
        [(s.label, s.id) for s in load_strategies().values()],
        value=list(load_strategies()),
        label="Ways of prompting them (each model writes one reply per way)",
        info="Without any key: the local model three ways + the therapist = four replies.",
    )
    teacher = gr.Textbox(
        label="Your own replies (optional; hidden from voters until they vote)",
        lines=4,
        placeholder="Label: a friend's reply\nI'm so sorry, that sounds awful…\n---\nLabel: advice only\nYou should …",
        info="Separate replies with a line of ---; a first line 'Label: …' names one at the reveal.",
    )
    scorers = gr.CheckboxGroup(
        scorer_choices(offered_scorer_ids()),
        value=["bert-head"],
        label="Scorers shown after the vote (the empathy head takes seconds; a judge minutes)",
    )
    with gr.Row():
        seed = gr.Textbox(value="", label="Shuffle seed (blank = random)", max_length=12)
        max_tokens = gr.Slider(32, 1024, value=320, step=32, label="Max tokens per reply")
        temperature = gr.Slider(0.0, 1.5, value=0.7, step=0.05, label="Temperature")
    gr.Markdown(
        "The local model took 30–90 s a reply on a 2-core CPU: a keyless round of four "
        "replies takes a few minutes. Stop cancels it (nothing is saved)."
    )
    keys_in, _ = key_boxes()
    picker.change(question_text, picker, message, api_name=False)
    lucky.click(random_question, None, [picker, message], api_name=False)
    return [picker, message, responders, strategies, teacher, scorers, seed, max_tokens,
            temperature, *keys_in]  # fmt: skip


def _results_tab() -> gr.Textbox:
    """The Results tab and its events; returns its round-code box (the open round fills it)."""
    with gr.Tab("Results"):
        with gr.Row():
            results_code = gr.Textbox(label="Round code (blank = every round)", scale=3)
            refresh = gr.Button("Show results", scale=1)
        status = notice_box()
        chart = gr.Plot(label="Most and least empathetic, share of votes")
        scroll_cue()
        ranking = gr.Dataframe(headers=RANKING_HEADERS, interactive=False, wrap=True)
        gr.Markdown("How often each scorer's top (bottom) reply was the voter's most (least):")
        agreement = gr.Dataframe(headers=AGREEMENT_HEADERS, interactive=False)
        with gr.Row():
            results_download = gr.DownloadButton("Download results (CSV)", value=None)
            votes_download = gr.DownloadButton("Download votes (CSV)", value=votes_file)
    refresh.click(
        reports_problems(4, at=3)(results),
        results_code,
        [chart, ranking, agreement, status, results_download],
        api_name="results",
    )
    refresh.click(votes_file, None, votes_download, api_name=False)
    return results_code


def build() -> gr.Blocks:
    """Build the vote page."""
    with gr.Blocks(title="Empathy Lab · Vote") as page:
        gr.Markdown(INTRO)
        voter, current = voter_state(), gr.State("")
        with gr.Tab("Vote"):
            with gr.Row():
                code_box = gr.Textbox(label="Round code", placeholder="K7Q2", scale=3)
                open_button = gr.Button("Open round", scale=1, interactive=False)
            open_notice = notice_box()
            with gr.Accordion("Make a new round (teachers)", open=False):
                maker_inputs = _maker()
                with gr.Row():
                    make_button = gr.Button("Make the round", variant="primary")
                    stop_button = gr.Button("Stop", variant="secondary")
                share = notice_box()
                link = gr.Markdown()
            round_md = gr.Markdown()
            boxes = [
                gr.Textbox(visible=False, interactive=False, lines=3, max_lines=24)
                for _ in range(MAX_REPLIES)
            ]
            with gr.Row():
                most = gr.Radio([], label="Most empathetic reply")
                least = gr.Radio([], label="Least empathetic reply")
            reason = gr.Textbox(label="Why? (optional, a sentence)", max_length=2000)
            vote_button = gr.Button("Vote", variant="primary", interactive=False)
            reveal = gr.Markdown(elem_classes=["vote-reveal"])  # its table: style.CSS
        results_code = _results_tab()
        shown = [round_md, *boxes, most, least, reveal]
        # A button is active only when it can act: Open needs a code, Vote an open round.
        code_box.change(
            lambda c: gr.update(interactive=bool((c or "").strip())), code_box, open_button,
            api_name=False,
        )  # fmt: skip
        current.change(
            lambda c: (gr.update(interactive=bool(c)), c or gr.skip()),
            current, [vote_button, results_code], api_name=False,
        )  # fmt: skip
        open_button.click(
            reports_problems(2 + len(shown))(lambda c, v: ["", *open_round(c, v)]),
            [code_box, voter],
            [open_notice, voter, current, *shown],
            api_name="open_round",
        )
        making = make_button.click(
            reports_problems(4 + len(shown), at=1)(create),
            [*maker_inputs[:9], voter, *maker_inputs[9:]],
            [code_box, share, voter, current, *shown],
            api_name="create_round",
            concurrency_limit=2,
        ).then(share_link, current, link, api_name=False)
        stop_button.click(
            lambda: "Stopped: no round was made.", None, share, cancels=[making], api_name=False
        )
        vote_button.click(
            reports_problems(0)(vote), [current, voter, most, least, reason], reveal,
            api_name="vote",
        )  # fmt: skip
        page.load(on_load, voter, [code_box, voter, current, *shown], api_name=False)
    return page


demo = build()

if __name__ == "__main__":
    from pages.widgets.launch import launch_options

    demo.launch(**launch_options())
