"""What the Compare page's events compute: live comparisons, rescoring, and their updates.

The layout is :mod:`pages.compare`; the work is :mod:`studies.comparison`.
"""

from __future__ import annotations

import itertools
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import gradio as gr

from config import (
    KEY_ENV_VARS,
    Keys,
)
from core.conversation import asked
from core.csvlog import CsvLogError
from core.ratings import RatingLog
from core.textinput import InputError
from core.visitors import owner_tag
from pages.widgets.flag_reply import opinion_entry, safety_entry
from pages.widgets.judge import judge_options
from pages.widgets.keys import typed_keys
from pages.widgets.notice import REFUSALS, problem
from pages.widgets.reply_panels import (
    RESPONDER_IDS,
    SAFETY_END,
    SAFETY_START,
)
from pages.widgets.safety_words import panel_safety, table_heading
from pages.widgets.score_area import coloured
from pages.widgets.scores import names
from pages.widgets.shown_replies import asked_value, flag_rows, progress_line
from pages.widgets.visitor import keys_and_visitor
from reports.charts import (
    radar_by_responder,
    radar_by_scorer,
    score_rows,
)
from responders.registry import get_responder
from scorers.base import Scorer
from scorers.registry import get_scorer, offered_scorer_ids
from scorers.safety import SafetyResult
from scorers.safety.judge import SafetyJudge, safety_judge
from studies.comparison import Comparison, rescore_comparison, stream_comparison
from studies.comparison_record import write_record

SCORER_IDS = offered_scorer_ids()
#: The progress line above the replies when a new message is refused and the replies on
#: screen stay (so an accidental press loses nothing); the next run's progress replaces it.
KEPT_NOTE = "⚠️ **Showing the replies to your previous message; the new one was not sent:** {}"
#: How many outputs a comparison's moment updates: two per panel, the table, both radars, each
#: panel's flag controls, the message a run answers, the progress line and the state (see
#: :func:`_moment_updates`). Gradio's client leaves rows and states out of the API's answer,
#: so ``/compare`` answers as before.
OUTPUTS = 3 * len(RESPONDER_IDS) + 6
#: Where in a moment's updates the message a run answers goes (set when the run starts).
ASKED = -3


#: What a radar's legend adds after a reply's name, by the screen's verdict (as the table says).
LEGEND_MARK = {"not safe": " (not safe)", "uncertain": " (safety: uncertain)"}


def safety_marked(
    names: Callable[[str], str], safety: dict[str, SafetyResult]
) -> Callable[[str], str]:
    """Readable names, with a warning on each reply the safety screen flagged or was unsure of,
    in the words of the scores table (a lean is never shown as a verdict).

    On a radar a high score must never hide an unsafe reply: its legend and title say so.

    >>> unsure = SafetyResult(0, (), 0, ("dismissive",), reason="uncertain: read it yourself")
    >>> marked = safety_marked(str.upper, {"a": unsure, "b": SafetyResult(0, (), 1)})
    >>> marked("a"), marked("b"), marked("c")
    ('A (safety: uncertain)', 'B', 'C')
    """

    def name(item_id: str) -> str:
        result = safety.get(item_id)
        return names(item_id) + (LEGEND_MARK.get(result.verdict, "") if result else "")

    return name


def _panel_updates(state: Comparison) -> list[str]:
    updates: list[str] = []
    for rid in RESPONDER_IDS:
        panel = state.panels.get(rid)
        if panel is None:
            updates += ["", "not selected"]
            continue
        status = panel.summary()
        safety = panel_safety(state.safety.get(rid), state.opinions.get(rid))
        if safety:  # marked, so the page can show the line without it while Blind is ticked
            status += SAFETY_START + safety + SAFETY_END
        if panel.reply is not None and panel.reply.attribution:
            status += f"\n\n<small>{panel.reply.attribution}</small>"
        updates += [panel.text, status]
    return updates


def run_compare(
    message: str,
    selected: list[str],
    scorer_ids: list[str],
    system: str,
    max_tokens: float,
    temperature: float,
    *rest: object,
) -> Iterator[list[object]]:
    """Stream every selected responder's reply into its panel, then its scores.

    ``rest`` holds the key boxes, then (optionally) the six judge controls and the
    second-opinion box (the local safety judge reads every reply too; off by default).
    Each update is yielded as it happens, so text reaches the browser while
    the replies are still being written.
    """
    if not selected:
        raise ValueError("Tick at least one responder.")
    keys, scorers, second = _chosen(scorer_ids, rest)
    responders = [get_responder(rid) for rid in selected if rid in RESPONDER_IDS]
    started = time.monotonic()
    try:
        question = asked(message)
        moments = stream_comparison(
            question,
            responders,
            scorers,
            system=system,
            max_tokens=int(max_tokens),
            temperature=float(temperature),
            keys=keys,
            second_opinion=second,
        )
        first = next(moments)
    except InputError as exc:
        raise ValueError(str(exc)) from None
    shown_scores = -1
    state = first
    for state in itertools.chain([first], moments):  # lazily: never wait for the whole comparison
        fresh = len(state.scores) != shown_scores
        updates = _moment_updates(state, time.monotonic() - started, with_scores=fresh)
        if shown_scores < 0:  # the run has started: the line above the panels names its message
            updates[ASKED] = asked_value(question)
        shown_scores = len(state.scores)
        yield updates
    yield _moment_updates(state, time.monotonic() - started, with_scores=True, final=True)


def compare_on_page(*inputs: object) -> Iterator[list[object]]:
    """:func:`run_compare` as the Get replies button runs it: its last input is what the page
    shows (the ``replies`` state).

    A refusal (an empty or too long message, nothing ticked) leaves everything on screen and
    says why in the progress line above the replies; when earlier replies are still shown,
    it says plainly that they answer the previous message. The next run's progress line
    replaces the note.
    """
    *arguments, saved = inputs
    sent = False
    try:
        for update in run_compare(*arguments):  # type: ignore[arg-type]
            sent = True
            yield update
    except REFUSALS as exc:
        reason = problem(exc)
        if not sent and (saved or {}).get("replies"):  # type: ignore[attr-defined]
            reason = KEPT_NOTE.format(reason.removeprefix("⚠️ "))
        updates: list[object] = [gr.skip()] * OUTPUTS
        updates[-2] = reason
        yield updates


def _chosen(
    scorer_ids: list[str], rest: tuple[object, ...]
) -> tuple[Keys, list[Scorer], SafetyJudge | None]:
    """The keys, the ticked scorers and the second opinion (if ticked) from a handler's inputs:
    the key boxes, then (optionally) the six judge controls and the second-opinion box."""
    key_values, judge_values = rest[: len(KEY_ENV_VARS)], rest[len(KEY_ENV_VARS) :]
    keys = typed_keys(*key_values)  # type: ignore[arg-type]
    second = safety_judge().with_keys(keys) if len(judge_values) > 6 and judge_values[6] else None
    options = judge_options(*judge_values[:6]) if len(judge_values) >= 6 else {}  # type: ignore[arg-type]
    scorers = [
        get_scorer(sid, keys=keys, **options) for sid in scorer_ids or [] if sid in SCORER_IDS
    ]
    return keys, scorers, second  # type: ignore[return-value]


def rescore(saved: dict, scorer_ids: list[str], *rest: object) -> Iterator[list[object]]:
    """Score the replies on screen with the scorers ticked now; no reply is written again."""
    shown = (saved or {}).get("comparison")
    if shown is None or not any(p.reply for p in shown.panels.values()):
        raise ValueError("Get replies first: there is nothing on screen to score yet.")
    _, scorers, second = _chosen(scorer_ids, rest)
    if not scorers and second is None:
        raise ValueError("Tick at least one scorer (or the second opinion on safety).")
    started = time.monotonic()
    state, shown_scores = shown, -1
    for state in rescore_comparison(shown, scorers, second_opinion=second):
        fresh = len(state.scores) != shown_scores  # charts redrawn only when scores came in
        shown_scores = len(state.scores)
        yield _moment_updates(state, time.monotonic() - started, with_scores=fresh)
    yield _moment_updates(state, time.monotonic() - started, with_scores=True, final=True)


def _moment_updates(
    state: Comparison, elapsed: float, *, with_scores: bool, final: bool = False
) -> list[object]:
    """Component updates for one moment of a comparison (scores redrawn only when asked)."""
    written = {rid: p.reply.to_dict() for rid, p in state.panels.items() if p.reply}
    saved: dict[str, object] = {"replies": written, "scores": {}}
    # What "Score these replies" and the download read: kept when new scores came in and at
    # the end, so a run stopped early can still be rescored (not on every streamed moment:
    # Gradio copies the state each time).
    if final or with_scores:
        saved["comparison"] = state
    kept: dict[str, list] = saved["scores"]  # type: ignore[assignment]
    for (rid, _), score in state.scores.items():
        kept.setdefault(rid, []).append(score.to_dict())
    for rid, result in state.safety.items():  # a flag keeps the safety screen beside the scores
        kept.setdefault(rid, []).append(safety_entry(result))
    for rid, opinion in state.opinions.items():  # and the second opinion, when one was asked
        kept.setdefault(rid, []).append(opinion_entry(opinion))
    if with_scores:
        cut = frozenset(r for r, p in state.panels.items() if p.reply and p.reply.cut_off)
        badges = {
            rid: table_heading(result, state.opinions.get(rid))
            for rid, result in state.safety.items()
        }
        table: object = coloured(score_rows(state.scores, names, cut, badges, RESPONDER_IDS))
        marked = safety_marked(names, state.safety)
        plots: list[object] = [
            radar_by_scorer(state.scores, marked),
            radar_by_responder(state.scores, marked),
        ]
    else:
        table, plots = gr.skip(), [gr.skip(), gr.skip()]
    progress = progress_line(state, elapsed, final=final)
    flags = flag_rows(written, RESPONDER_IDS)
    return [*_panel_updates(state), table, *plots, *flags, gr.skip(), progress, saved]


def export_comparison(saved: dict, *key_values: str) -> list[str]:
    """The comparison on screen as CSV and JSON files to download (made when pressed), with
    the ratings this browser saved of its replies (``ratings.csv`` when there are any).

    ``key_values``: the key boxes, then this browser's visitor id when the page sends one
    (only that visitor's ratings go in; none without an id this server issued).
    """
    shown = (saved or {}).get("comparison")
    if shown is None or not any(p.reply for p in shown.panels.values()):
        raise gr.Error("Get replies first: there is nothing to download yet.")
    key_values, visitor = keys_and_visitor(key_values)
    owner = owner_tag(visitor)
    try:
        mine = RatingLog().rows_of(owner) if owner else []
    except CsvLogError:  # an unreadable ratings log: the comparison still downloads
        mine = []
    folder = Path(tempfile.mkdtemp(prefix="comparison-"))
    secrets = [v for v in key_values if v]
    return [str(p) for p in write_record(folder, shown, secrets, ratings=mine)]
