"""What the Adversarial lab shows for one result: the table, the chart, the rows a visitor
can flag, the row picker and the note (why a variant is left out, a scorer that never
moved, an original already at the top of the scale), and the note for a refused run while
earlier results stay on screen; and flagging one of those rows (:func:`flag_row`)."""

from __future__ import annotations

from dataclasses import replace

import gradio as gr
import plotly.graph_objects as go

from core.flags import FlagLog, FlagLogError, FlagRecord
from core.visitors import owner_tag
from pages.widgets.scores import names
from perturbations.registry import PERTURBATIONS
from reports.lab import change_chart, lab_table, same_score_note
from scorers.base import Score
from studies import robustness as rb

#: The note above the chart when a run is refused and an earlier result stays on screen.
KEPT_NOTE = (
    "⚠️ **The chart and table below are the previous results; the new run did not start:** {}"
)


def kept_note(reason: str, shown: object) -> str:
    """The note for a refused run: the reason, and, when a result is still on screen
    (``shown``: the rows of the last result, None before any), that it is the previous one.

    >>> kept_note("⚠️ Pick a scorer.", None)
    '⚠️ Pick a scorer.'
    >>> kept_note("⚠️ Pick a scorer.", [])[:40]
    '⚠️ **The chart and table below are the p'
    """
    if shown is None:
        return reason
    return KEPT_NOTE.format(reason.removeprefix("⚠️ "))


def at_the_top(originals: dict[str, Score]) -> str:
    """A sentence naming the scorers that rated the original at the top already ('' if none).

    >>> at_the_top({"s": Score.from_components("s", 3, 3, 3)})[:48]
    ' s rated the original 3 (the top of the scale): '
    >>> at_the_top({"s": Score.from_components("s", 3, 2, 3)})
    ''
    """
    top = [sid for sid, score in originals.items() if score.ok and score.overall >= 3 - 1e-9]
    if not top:
        return ""
    return (
        f" {', '.join(names(s) for s in top)} rated the original 3 (the top of the scale): "
        "a score there cannot rise, so a +0.00 for *judge-injection* says nothing about "
        "resisting it. Try a reply scored lower."
    )


def lab_outputs(
    originals: dict[str, Score], rows: list[rb.VariantScores], message: str, note: str
) -> tuple[str, go.Figure, list[dict], gr.Dropdown, str]:
    """Table, chart, flaggable rows, the row picker and the note for one lab result. The note
    says why a variant that changed nothing is left out, and names a scorer that gave every
    version the same score, with its reasons."""
    shown = [row for row in rows if not _why_unchanged(row)]
    state = [
        {
            "variant": row.variant.to_dict(),
            "message": message,
            "scores": [c.after.to_dict() for c in row.changes.values()],
        }
        for row in shown
    ]
    choices = [row.variant.perturbation_id for row in shown]
    return (
        lab_table(originals, [message_named(row) for row in shown], names),
        change_chart(shown, names),
        state,
        gr.Dropdown(choices=choices, value=choices[0] if choices else None),
        note + same_score_note(originals, shown, names) + nothing_to_measure(rows),
    )


#: Characters of the other message a wrong-message row quotes.
MESSAGE_CHARS = 60


def quoted_start(text: str, limit: int = MESSAGE_CHARS) -> str:
    r"""The start of ``text`` on one line in quotes, cut at a word with "…" past ``limit``.

    >>> quoted_start("My dog died.\nI miss him.")
    '“My dog died. I miss him.”'
    >>> quoted_start("one two three four", limit=12)
    '“one two…”'
    """
    flat = " ".join(text.split())
    if len(flat) > limit:
        cut = flat[: limit - 1]
        flat = (cut[: cut.rfind(" ")] if " " in cut else cut).rstrip(" ,;:.") + "…"
    return f"“{flat}”"


def message_named(row: rb.VariantScores) -> rb.VariantScores:
    """The row as the table shows it: a variant scored against another message (the
    *wrong-message* control) quotes that message's start where the table says how the change
    was made; any other row as it is.

    >>> from perturbations.registry import get_perturbation
    >>> v = get_perturbation("wrong-message")("I'm sorry your dog died.", seed=0, message="m")
    >>> shown = message_named(rb.VariantScores(v, {})).variant.method
    >>> shown.startswith("rule: the same reply, scored against another person's message “")
    True
    >>> "“" + " ".join(v.message.split())[:20] in shown
    True
    """
    variant = row.variant
    if variant.message is None:
        return row
    said = quoted_start(variant.message)
    method = f"rule: the same reply, scored against another person's message {said}"
    return replace(row, variant=replace(variant, method=method))


def _why_unchanged(row: rb.VariantScores) -> str:
    perturbation = PERTURBATIONS.get(row.variant.perturbation_id)
    return perturbation.why_unchanged(row.variant) if perturbation else ""


def nothing_to_measure(rows: list[rb.VariantScores]) -> str:
    """Plain words for each variant that cannot show a change: one that left the reply word
    for word as it was (it is left out of the table and chart), or one that left nothing.

    >>> from perturbations.registry import get_perturbation
    >>> row = rb.VariantScores(get_perturbation("strip-empathy")("Book it by Friday.", seed=0), {})
    >>> print(nothing_to_measure([row]))
    <BLANKLINE>
    <BLANKLINE>
    *strip-empathy* changed nothing, so it is not in the table or the chart: this reply has no empathic language to remove.
    """
    said = []
    for row in rows:
        pid = row.variant.perturbation_id
        perturbation = PERTURBATIONS.get(pid)
        if perturbation is None:
            continue
        if why := perturbation.why_unchanged(row.variant):
            said.append(f"*{pid}* changed nothing, so it is not in the table or the chart: {why}.")
        elif why := perturbation.why_empty(row.variant):
            said.append(f"*{pid}* left nothing of the reply, so its row is unscored: {why}.")
    return "".join(f"\n\n{line}" for line in said)


def flag_row(rows: list[dict], perturbation_id: str, note: str, visitor: str | None = None) -> str:
    """Append one lab row (variant, seed, method, scores) to the flag log, as ``visitor``'s."""
    row = next((r for r in rows or [] if r["variant"]["perturbation_id"] == perturbation_id), None)
    if row is None:
        return "Run the lab first, then pick a row to flag."
    variant = row["variant"]
    record = FlagRecord(
        page="adversarial",
        message=row["message"],
        reply=variant["text"],
        scores=row["scores"],
        perturbation_id=variant["perturbation_id"],
        perturbation_seed=variant["seed"],
        perturbation_method=variant["method"],
        original_reply=variant["source"],
        note=note or "",
        visitor=owner_tag(visitor),
    )
    try:
        FlagLog().append(record)
    except FlagLogError as exc:
        raise gr.Error(str(exc)) from None
    return f"Flagged the `{perturbation_id}` row. See the Flags tab."
