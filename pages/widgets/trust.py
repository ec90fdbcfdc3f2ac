"""Shared pieces of the Trust page's tabs: a checked scorer, the labelled set, the tables
(their columns sized so long texts wrap), the charts' titles fitted to a phone, and each
scorer's trust note (what people would likely give for one of its scores, first)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import gradio as gr
import pandas as pd
import plotly.graph_objects as go

from config import SETTINGS
from pages.widgets.keys import typed_keys
from pages.widgets.trust_words import FEWEST_TO_READ
from reports import alignment as charts
from reports.layout import wrap
from scorers.calibration import CalibrationError
from scorers.registry import get_scorer
from studies.labelled import (
    from_rows,
    load_bundled,
    parse_mapping,
    parse_scale,
    read_rows,
    subset,
)

if TYPE_CHECKING:
    from gradio.events import Dependency

#: The choice that means "read my CSV" instead of a bundled set.
UPLOAD = "my CSV file"
#: Column names the statistics tables show before any report (the usual compared names).
TABLE_HEADERS = ["statistic", "cognitive", "emotional", "behavioral", "overall", "what it means"]


def checked_scorer(scorer_id: str, keys: tuple[str, ...]):  # type: ignore[no-untyped-def]
    """The scorer ``scorer_id`` with the typed keys; gr.Error when it cannot run now."""
    try:
        scorer = get_scorer(scorer_id, keys=typed_keys(*keys))
    except (KeyError, CalibrationError) as exc:
        raise gr.Error(str(exc.args[0])) from None
    reason = scorer.unavailable_reason()
    if reason:
        raise gr.Error(f"{scorer_id} cannot run now: {reason}")
    return scorer


def labelled_set(
    source: str, upload: str | None, mapping: str, scale: str, sample: float, rubric_id: str
):  # type: ignore[no-untyped-def]
    """The labelled set the page's controls describe (gr.Error on bad input)."""
    try:
        if source != UPLOAD:
            return load_bundled(source, int(sample) or None, 0)
        if not upload:
            raise ValueError("upload a CSV file with a 'reply' column and your rating columns")
        pairs = [p.strip() for p in mapping.replace(";", ",").split(",") if p.strip()]
        data = from_rows(
            read_rows(upload, SETTINGS.max_upload_bytes),
            parse_mapping(pairs),
            scale=parse_scale(scale.strip()),
            rubric_id=rubric_id,
            name=Path(upload).name,
        )
        return subset(data, int(sample), 0) if sample else data
    except ValueError as exc:
        raise gr.Error(str(exc)) from None


def table_frame(components: dict) -> pd.DataFrame:
    """The statistics table with a plain-language column."""
    rows = charts.table_rows(components, readable=True)
    frame = pd.DataFrame(rows, columns=["statistic", *components])
    frame["what it means"] = [charts.EXPLAIN[key] for key in charts.TABLE_KEYS]
    return frame


def statistics_table(report: dict) -> pd.DataFrame:
    """The report's statistics table; below :data:`FEWEST_TO_READ` scored replies an empty
    one (its usual headers): two ratings gave a full table of α, κ, F1 and Cohen's d under
    "no verdict yet" that looked authoritative (the summary gives the counts instead)."""
    if report["n_scored"] < FEWEST_TO_READ:
        return pd.DataFrame(columns=TABLE_HEADERS)
    return table_frame(report["components"])


#: Pixels one character of the tables' monospace font takes, and a cell's side padding.
CHAR_PX, CELL_PAD_PX = 8.4, 20
#: The width a table may take on a 1280 px screen (the page's column less its padding).
TABLE_PX = 1180
#: The height a table may take before it scrolls.
MAX_TABLE_PX = 2000
#: Pixels one line of a chart title takes (Plotly's 17 px title font, 1.3 line spacing).
TITLE_LINE_PX = 23
#: Room over a chart's title for the label Gradio draws in the plot's top-left corner.
LABEL_PX = 44


def column_widths(frame: pd.DataFrame, total_px: int = TABLE_PX) -> list[int]:
    """Pixel widths for ``frame``'s columns: each as wide as its longest text when they all
    fit in ``total_px``; otherwise the widest share what is left, never narrower than their
    longest word, and their text wraps between words.

    >>> frame = pd.DataFrame({"n": ["12"], "what it means": ["word " * 60]})
    >>> column_widths(frame, 600)
    [37, 563]
    >>> column_widths(pd.DataFrame({"a": ["x"], "b": ["y"]}), 600)
    [28, 28]
    """

    def px(chars: int) -> int:
        return round(chars * CHAR_PX + CELL_PAD_PX)

    texts = [[str(c), *map(str, frame[c])] for c in frame.columns]
    needs = [px(max(len(t) for t in col)) for col in texts]
    floors = [px(max(len(w) for t in col for w in t.split() or [""])) for col in texts]
    if sum(needs) <= total_px:
        return needs
    low, high = 0, max(needs)  # the largest cap on the widest columns that still fits
    while low < high:
        cap = (low + high + 1) // 2
        if sum(max(f, min(n, cap)) for f, n in zip(floors, needs, strict=True)) <= total_px:
            low = cap
        else:
            high = cap - 1
    return [max(f, min(n, low)) for f, n in zip(floors, needs, strict=True)]


def fitted(frame: pd.DataFrame | None) -> gr.Dataframe:
    """An update giving a shown table :func:`column_widths` for its value, and the height
    its wrapped rows need: Gradio sized each column to its longest text, so a long
    explanation ran past the table's right edge at 1280 px, cut off, and its 500 px
    cut the last wrapped rows in half."""
    if frame is None or frame.empty:
        return gr.skip()
    widths = [f"{w}px" for w in column_widths(frame)]
    return gr.Dataframe(column_widths=widths, max_height=MAX_TABLE_PX)


#: The class of a statistics table (last column "what it means"), and its phone layout: at
#: 390 px the explanations ran 800 px past the screen's edge (a sideways swipe for every
#: row). A phone folds that column away (the same words are under "What do these numbers
#: mean?", just below) and shares its width among the number columns.
MEANING_TABLE = "meaning-table"
PHONE_CSS = "".join(
    f"@media (max-width: 700px) {{ .{MEANING_TABLE} {rule} }}"
    for rule in (
        ":is(.header-table, .virtual-body) { width: 100% !important; }",
        "thead tr { display: flex; padding: 0 !important; }",  # a row's padding counts in flex
        ".sizing-body { display: none; }",  # a hidden row of the longest texts, 1180 px wide
        ":is(th, .body-cell) { flex: 1 1 0 !important; width: auto !important; "
        "min-width: 84px !important; max-width: none !important; }",
        # the statistic's longest word ("Krippendorff's") is never broken
        ":is(th, .body-cell):first-child { flex-grow: 1.5 !important; min-width: 136px "
        "!important; }",
        ":is(th, .body-cell):last-child { display: none !important; }",
    )
)
#: Parts (columns of numbers) a phone shows beside the statistic without a sideways swipe.
PHONE_PARTS = 2


def result_table(headers: list[str], label: str) -> gr.Dataframe:
    """A table the page fills (read-only, its long texts wrapped; see :func:`fit_after`); a
    statistics table (:data:`TABLE_HEADERS`) gets :data:`PHONE_CSS`'s phone layout."""
    meaning = headers[-1] == TABLE_HEADERS[-1]
    if meaning:  # a style element takes no room, even hidden; Gradio 6 takes CSS at launch
        gr.HTML(f"<style>{PHONE_CSS}</style>", visible="hidden")
    classes = [MEANING_TABLE] if meaning else None
    return gr.Dataframe(
        headers=headers, label=label, wrap=True, interactive=False, elem_classes=classes
    )


def meanings() -> gr.Accordion:
    """The accordion "What do these numbers mean?": each statistic of :func:`table_frame` in
    plain words (on a phone, where the table's own column is folded away, the only place)."""
    with gr.Accordion("What do these numbers mean?", open=False) as box:
        gr.Markdown(
            "\n".join(f"- **{charts.LABELS[k]}**: {charts.EXPLAIN[k]}" for k in charts.TABLE_KEYS)
        )
    return box


def wider_than_a_phone(*frames: pd.DataFrame | None) -> dict:
    """Show a sideways cue only when a statistics table has more than :data:`PHONE_PARTS`
    columns of numbers (a phone fits those; more scroll sideways).

    >>> row = [["n", "9", "9", "9", "replies"]]
    >>> wide = pd.DataFrame(row, columns=["statistic", "a", "b", "c", "what it means"])
    >>> wider_than_a_phone(wide)["visible"], wider_than_a_phone(wide.iloc[:, 1:], None)["visible"]
    (True, False)
    """
    parts = [len(f.columns) - 2 for f in frames if f is not None and not f.empty]
    return gr.update(visible=any(n > PHONE_PARTS for n in parts))


def fit_after(
    event: Dependency, tables: list[gr.Dataframe], cue: gr.Markdown | None = None
) -> None:
    """Once ``event`` has filled ``tables``, fit each one's columns to what it holds
    (:func:`fitted`): a display step of its own, so the page's API still answers with
    plain tables. The tables must say ``interactive=False`` (:func:`result_table`): an
    event's input is otherwise made editable. ``cue``: a sideways-swipe cue shown only
    while a table is wider than a phone (:func:`wider_than_a_phone`)."""
    for table in tables:
        event.then(fitted, table, table, api_name=False, show_progress="hidden")
    if cue is not None:
        event.then(wider_than_a_phone, tables, cue, api_name=False, show_progress="hidden")


def phone_titles(fig: go.Figure, width: int = 40) -> go.Figure:
    """``fig`` with each line of its title wrapped between words to ``width`` characters and
    pinned under Gradio's label, over a top margin as tall as its lines: on a 390 px phone
    a line ran past the chart's right edge, and a third line sat on the plot's top tick.

    >>> fig = go.Figure(layout={"title": {"text": "Mean shift (scorer − people), in scale points;<br>d"}})
    >>> phone_titles(fig).layout.title.text, fig.layout.margin.t
    ('Mean shift (scorer − people), in scale<br>points;<br>d', 133)
    """
    text = fig.layout.title.text
    if not text:
        return fig
    text = "<br>".join(wrap(line, width) for line in text.split("<br>"))
    fig.update_layout(
        title={"text": text, "yref": "container", "y": 1, "yanchor": "top", "pad": {"t": LABEL_PX}},
        margin_t=LABEL_PX + TITLE_LINE_PX * (text.count("<br>") + 1) + 20,
    )
    return fig
