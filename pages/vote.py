"""Vote page: which reply is most and least empathetic? Sources hidden until you vote.

Runs alone with ``python -m pages.vote``; open a shared round with
``?round=CODE``. The page only reads inputs, calls :mod:`studies.votes.rounds`,
:mod:`studies.votes.setup` and :mod:`studies.votes.log`, and shows what they return;
the ballot (reply boxes, pickers, the Vote button) is :mod:`pages.widgets.ballot`,
its Results tab is :mod:`pages.widgets.vote_results`.
"""

from __future__ import annotations

from collections.abc import Iterator

import gradio as gr

from core.csvlog import CsvLogError
from core.progress import Progress, silent
from core.questions import by_label
from core.textinput import InputError
from core.visitors import voter_id
from pages.widgets.api_names import VISITOR, named
from pages.widgets.ballot import (
    NAME_PICKERS_JS,
    Ballot,
    after_vote,
    ballot_updates,
    ballot_widgets,
    kept_header,
    reason_box_for,
    vote_button_for,
)
from pages.widgets.keys import typed_keys
from pages.widgets.notice import REFUSALS, notice_box, problem, reports_problems
from pages.widgets.progress import follow
from pages.widgets.round_maker import (
    INPUT_NAMES,
    RESPONDER_IDS,
    TEACHER_LABEL,
    Maker,
    maker_controls,
    planned,
    round_estimate,
    teacher_view,
    timed,
)
from pages.widgets.share import hand_off
from pages.widgets.visitor import NO_VISITOR, ensure_visitor, visitor_of, visitor_state
from pages.widgets.vote_results import results_tab
from reports.vote_reveal import reveal_markdown
from scorers.registry import offered_scorer_ids
from studies.votes.log import AlreadyVoted, VoteLog, cast_vote
from studies.votes.rounds import MAX_REPLIES, load_round
from studies.votes.setup import make_round

INTRO = (
    "## Blind vote\nRead one message and the replies to it, then pick the **most** and the "
    "**least** empathetic reply. Who wrote each reply (a language model, prompted one of "
    "several ways, a licensed therapist, or your teacher) stays hidden until you vote. Everyone with the same round code votes on the "
    "same replies, each in their own order."
)
STOPPED = (
    "Stopped: no round was made. The reply that was being written is finished in the "
    "background, then nothing more is written."
)


def open_round(code: str, visitor: str) -> list[object]:
    """Show round ``code`` to this browser; returns [visitor, round code, *ballot updates].

    The voter is the server's, derived from the visitor id it issued (:func:`voter_id`), never
    a name the request gives: one browser, one vote a round.
    """
    try:
        rnd = load_round(code)
    except InputError as exc:
        raise gr.Error(str(exc)) from None
    visitor = ensure_visitor(visitor)
    voter = voter_id(visitor)
    try:
        voted = VoteLog().has_voted(rnd.code, voter)
    except CsvLogError as exc:
        raise gr.Error(f"The vote log could not be read: {exc}") from None
    note = "You have already voted in this round." if voted else ""
    earlier = VoteLog().vote_of(rnd.code, voter) if voted else None
    reveal = (  # after a reload the voter sees their vote and the reveal, not an empty ballot
        "*Your first vote stands.*\n\n" + reveal_markdown(rnd, voter, earlier) if earlier else ""
    )
    return [visitor, rnd.code, *ballot_updates(rnd, voter, note, earlier, reveal)]


def on_load(visitor: str, request: gr.Request) -> list[object]:
    """Give the browser its visitor id, and open the round named in the page address
    (``?round=K7Q2``), if any."""
    code = (request.query_params.get("round") or "") if request else ""
    if not code.strip():
        return [gr.skip(), visitor_of(visitor, request), *[gr.skip()] * (2 + MAX_REPLIES + 3)]
    return [code.strip().upper(), *open_round(code, visitor_of(visitor, request))]


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
    visitor: str,
    *key_values: str,
    progress: Progress = silent,
) -> list[object]:
    """Make a round (replies written now, scores saved) and show it to this session."""
    question = by_label(label or "")
    text = question.question if question and not (message or "").strip() else message
    seed_text = str(seed if seed is not None else "").strip().removesuffix(".0")
    if seed_text and not seed_text.lstrip("-").isdigit():
        raise ValueError("The shuffle seed is a whole number, or blank for a random order.")
    chosen, ways = [r for r in responders or [] if r in RESPONDER_IDS], list(strategies or [])
    try:
        rnd, problems = make_round(
            text,
            chosen,
            seed=int(seed_text) if seed_text else None,
            scorer_ids=[s for s in scorers or [] if s in offered_scorer_ids()],
            strategies=ways,
            teacher_replies=teacher or "",
            # timed: the next estimates say this machine's pace
            progress=timed(progress, planned(text, chosen, ways), int(max_tokens)),
            max_tokens=int(max_tokens),
            temperature=float(temperature),
            keys=typed_keys(*key_values),
        )
    except InputError as exc:
        raise gr.Error(str(exc)) from None
    left_out = "".join(f"\n\nLeft out: {p}" for p in problems)
    share = (
        f"**Round code: `{rnd.code}`** ({len(rnd.entries)} replies, shuffle seed {rnd.seed}). "
        "Students type the code on the Vote page, or open the link below (copy it with its "
        "button, or let them scan its code)." + left_out
    )
    visitor = ensure_visitor(visitor)
    return [rnd.code, share, visitor, rnd.code, *ballot_updates(rnd, voter_id(visitor))]


def create_following(
    progress: gr.Progress = gr.Progress(),  # noqa: B008 (Gradio's progress idiom)
    *inputs: object,
) -> Iterator[list[object]]:
    """The Make button: :func:`create` in the background; every second the line under the
    buttons says which reply (or scorer) is under way and for how long; Stop ends it. The last
    input is the round on screen: a refused round leaves it there, marked as the earlier one.

    ``progress`` comes first: Gradio hands its tracker only to a parameter before ``*inputs``.
    It moves for a client of the API; on the page the line is the only readout (the page
    shows Gradio's bar on no component: it read "writing reply 1 of 4 · 3 s - 0.0%").
    """
    *made, shown = inputs
    nothing = [gr.skip()] * (MAX_REPLIES + 8)  # a tick changes only the line under the buttons
    yield [nothing[0], "", *nothing[2:]]  # an earlier refusal in the box under them goes
    try:
        made_round = yield from follow(
            lambda report: create(*made, progress=report),  # type: ignore[arg-type]
            progress,
            shown=lambda line: [nothing[0], line, *nothing[2:]],
        )
    except REFUSALS as exc:  # the reason under the button and above the round on screen
        kept = kept_header(str(shown or ""), "the new round was not made", exc)
        made_round = [nothing[0], problem(exc), *nothing[2:4], kept, *nothing[5:]]
    yield made_round


def open_or_keep(code: str, visitor: str, shown: str) -> list[object]:
    """The Open button: [notice, visitor, round code, *ballot updates]; ``shown`` is the round
    on screen, which a refused code leaves there, marked as the earlier round."""
    try:
        return ["", *open_round(code, visitor)]
    except REFUSALS as exc:
        what = f"round {(code or '').strip().upper()} was not opened"
        return [problem(exc), gr.skip(), gr.skip(), kept_header(shown, what, exc),
                *[gr.skip()] * (MAX_REPLIES + 3)]  # fmt: skip


def round_link(code: str, request: gr.Request) -> tuple[object, str]:
    """The round's full link as this visitor reached the server (in a box with a copy
    button, hidden until there is a round) and its QR code."""
    link, qr = hand_off(request, f"/vote?round={code}") if code else ("", "")
    return gr.update(value=link, visible=bool(link)), qr


def vote(code: str, visitor: str, most: str | None, least: str | None, reason: str) -> str:
    """Record this browser's vote (its voter derived from the visitor id the server issued),
    then reveal the sources and scores."""
    if not code:
        raise gr.Error("Open or create a round first.")
    voter = voter_id(visitor)
    if not voter:
        raise gr.Error(NO_VISITOR)
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
        voter, current = visitor_state(), gr.State("")
        with gr.Tab("Vote"):
            with gr.Row():
                code_box = gr.Textbox(label="Round code", placeholder="K7Q2", scale=3)
                open_button = gr.Button("Open round", scale=1, interactive=False)
            open_notice = notice_box()
            teacher, maker, make_button, stop_button, share, link, qr = _teacher_box()
            ballot = ballot_widgets()
            round_md, boxes, most, least, reason, vote_button, reveal = ballot
        results_code = results_tab(voter)
        shown = [round_md, *boxes, most, least, reveal]
        # A button is active only when it can act: Open needs a code, Vote an open round.
        code_box.change(
            lambda c: gr.update(interactive=bool((c or "").strip())), code_box, open_button,
            api_name=False,
        )  # fmt: skip
        current.change(  # Vote says so, and cannot be pressed (nor Why? edited), once voted
            lambda c, v: (vote_button_for(c, voter_id(v)), reason_box_for(c, voter_id(v)),
                          c or gr.skip()),
            [current, voter], [vote_button, reason, results_code], api_name=False,
        )  # fmt: skip
        open_button.click(
            named(open_or_keep, "code", VISITOR, "round_shown"), [code_box, voter, current],
            [open_notice, voter, current, *shown], api_name="open_round",
        )  # fmt: skip
        # Its own line in `share` says the step and its time; Gradio's progress, with its
        # "0.0%", is shown only on a state, which has nothing on screen (create_following).
        making = make_button.click(
            named(create_following, *INPUT_NAMES[:9], VISITOR, *INPUT_NAMES[9:], "round_shown"),
            [*maker.inputs[:9], voter, *maker.inputs[9:], current],
            [code_box, share, voter, current, *shown],
            api_name="create_round", concurrency_limit=2, show_progress_on=[current],
        )  # fmt: skip
        making.then(round_link, current, [link, qr], api_name=False)  # and a timed estimate:
        making.then(round_estimate, maker.estimate_inputs, maker.estimate, api_name=False)
        # Stop cancels the making itself (not the link step after it).
        stop_button.click(lambda: STOPPED, None, share, cancels=[making], api_name=False)
        _wire_vote(ballot, current, voter)
        page.load(on_load, voter, [code_box, voter, current, *shown], api_name=False)
        page.load(teacher_view, None, teacher, api_name=False)
        page.load(None, None, None, js=NAME_PICKERS_JS, api_name=False)  # pickers' names
        open_button.click(lambda: gr.Accordion(open=False), None, teacher, api_name=False)
    return page


def _teacher_box() -> tuple[
    gr.Accordion, Maker, gr.Button, gr.Button, gr.Markdown, gr.Textbox, gr.Markdown
]:
    """The teacher's accordion (open for a teacher; not there under a round link:
    :func:`teacher_view`, on load): the round's controls, Make and Stop, the line that says
    the step and then the round's code, the link for students and its QR code."""
    with gr.Accordion(TEACHER_LABEL, open=False) as teacher:
        maker = maker_controls()
        with gr.Row():
            make_button = gr.Button("Make the round", variant="primary")
            stop_button = gr.Button("Stop", variant="secondary")
        share = notice_box("own-clock", min_height=48)  # the round's line, then code
        link = gr.Textbox(label="The round's link for students", buttons=["copy"],
                          interactive=False, visible=False)  # fmt: skip
        qr = gr.Markdown()
    return teacher, maker, make_button, stop_button, share, link, qr


def _wire_vote(ballot: Ballot, current: gr.State, voter: gr.BrowserState) -> None:
    """The Vote button: the vote recorded and the sources revealed, then the button, both
    pickers and the "Why?" box closed once the vote is in (:func:`after_vote`)."""
    ballot.vote.click(
        named(reports_problems(0)(vote), "round_code", VISITOR, "most", "least", "reason"),
        [current, voter, ballot.most, ballot.least, ballot.reason], ballot.reveal,
        api_name="vote",
    ).then(lambda c, v: after_vote(c, voter_id(v)), [current, voter],
           [ballot.vote, ballot.most, ballot.least, ballot.reason],
           api_name=False)  # fmt: skip


demo = build()

if __name__ == "__main__":
    from pages.widgets.launch import launch_options

    demo.launch(**launch_options())
