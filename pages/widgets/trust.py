"""Shared pieces of the Trust page's tabs: a checked scorer, the labelled set, the table."""

from __future__ import annotations

from pathlib import Path

import gradio as gr
import pandas as pd

from config import SETTINGS
from pages.widgets.keys import typed_keys
from reports import alignment as charts
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
