"""Vote page: which reply is most and least empathetic? Sources hidden until you vote.

Runs alone with ``python -m pages.vote``; open a shared round with
``?round=CODE``. The page only reads inputs, calls :mod:`studies.votes.rounds`,
:mod:`studies.votes.setup` and :mod:`studies.votes.log`, and shows what they return;
its Results tab is :mod:`pages.widgets.vote_results`.
"""

from __future__ import annotations

from collections.abc import Iterator

import gradio as gr

from core.csvlog import CsvLogError
from core.progress import Progress, silent
from core.questions import by_label
from core.textinput import InputError
from pages.widgets.keys import typed_keys
from pages.widgets.notice import notice_box, reports_problems
from pages.widgets.progress import follow
from pages.widgets.round_maker import RESPONDER_IDS, maker_controls
from pages.widgets.share import page_link, qr_data_uri
from pages.widgets.visitor import voter_state
from pages.widgets.vote_results import results_tab
from reports.votes import reveal_markdown
from scorers.registry import offered_scorer_ids
from studies.votes.log import AlreadyVoted, VoteLog, cast_vote
from studies.votes.rounds import MAX_REPLIES, VoteRound, ballot, load_round, new_voter_id
from studies.votes.setup import make_round

INTRO = (
    "## Blind vote\nRead one message and the replies to it, then pick the **most** and the "
    "**least** empathetic reply. Who wrote each reply (a language model, prompted one of "
    "several ways, a licensed therapist, or your teacher) stays hidden until you vote. Everyone with the same round code votes on the "
    "same replies, each in their own order."
)
#: A reply box grows to the whole reply: a phone cannot scroll inside a read-only box
#: (8,000 characters, the longest reply, are about 250 lines on a 390 px screen).
REPLY_MAX_LINES = 1000
STOPPED = (
    "Stopped: no round was made. The reply that was being written is finished in the "
    "background, then nothing more is written."
)


def ballot_updates(
    rnd: VoteRound, voter: str, note: str = "", voted: bool = False, reveal: str = ""
) -> list[object]:
    """Updates for the message, every reply box, both pickers (sources hidden; the pickers
    closed for a voter who has voted) and the reveal (shown again to one who has)."""
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
        reveal,
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
    earlier = VoteLog().vote_of(rnd.code, voter) if voted else None
    reveal = (  # after a reload the voter sees their vote and the reveal, not an empty ballot
        "*Your first vote stands.*\n\n" + reveal_markdown(rnd, voter, earlier) if earlier else ""
    )
    return [voter, rnd.code, *ballot_updates(rnd, voter, note, voted, reveal)]


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
    progress: Progress = silent,
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
            progress=progress,
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


def create_following(
    progress: gr.Progress = gr.Progress(),  # noqa: B008 (Gradio's progress idiom)
    *inputs: object,
) -> Iterator[list[object]]:
    """The Make button: :func:`create` in the background; every second the bar says which
    reply (or scorer) is under way and for how long; Stop ends it.

    ``progress`` comes first: Gradio hands its tracker only to a parameter before ``*inputs``.
    """
    nothing = [gr.skip()] * (MAX_REPLIES + 8)  # a tick changes no output: the bar stays
    made = yield from follow(
        lambda report: create(*inputs, progress=report),  # type: ignore[arg-type]
        progress,
        shown=lambda _line: nothing,
    )
    yield made


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
                maker_inputs = maker_controls()
                with gr.Row():
                    make_button = gr.Button("Make the round", variant="primary")
                    stop_button = gr.Button("Stop", variant="secondary")
                share = notice_box(min_height=48)  # room for the progress bar
                link = gr.Markdown()
            round_md = gr.Markdown()
            boxes = [
                gr.Textbox(visible=False, interactive=False, lines=3, max_lines=REPLY_MAX_LINES)
                for _ in range(MAX_REPLIES)
            ]
            with gr.Row():
                most = gr.Radio([], label="Most empathetic reply")
                least = gr.Radio([], label="Least empathetic reply")
            reason = gr.Textbox(label="Why? (optional, a sentence)", max_length=2000)
            vote_button = gr.Button("Vote", variant="primary", interactive=False)
            reveal = gr.Markdown(elem_classes=["vote-reveal"])  # its table: style.CSS
        results_code = results_tab()
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
            reports_problems(3 + len(shown), at=1)(create_following),
            [*maker_inputs[:9], voter, *maker_inputs[9:]], [code_box, share, voter, current, *shown],
            api_name="create_round", concurrency_limit=2, show_progress_on=[share],
        )  # fmt: skip
        making.then(share_link, current, link, api_name=False)
        # Stop cancels the making itself (not the link step after it).
        stop_button.click(lambda: STOPPED, None, share, cancels=[making], api_name=False)
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
