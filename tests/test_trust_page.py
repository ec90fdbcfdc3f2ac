"""The Trust page: helpers (fast) and the page driven through gradio_client (slow: real head)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import gradio as gr
import pytest

from pages import trust
from scorers.base import Score, Scorer


class AlwaysHigh(Scorer):
    id = "always-high"

    def _score_batch(self, items):
        return [Score.from_components(self.id, 3, 3, 3) for _ in items]


def test_page_helpers_explain_and_refuse(tmp_path) -> None:
    with pytest.raises(gr.Error, match="upload a CSV"):
        trust.labelled_set(trust.UPLOAD, None, "overall=r", "1:5", 0, "counselling")
    bad = tmp_path / "in.csv"
    bad.write_text("reply,r\nhello,9\n", encoding="utf-8")
    with pytest.raises(gr.Error, match="outside the declared scale"):
        trust.labelled_set(trust.UPLOAD, str(bad), "overall=r", "1:5", 0, "counselling")
    with pytest.raises(gr.Error, match="Compare with people"):
        trust.run_calibration(None, 0.5, False)
    from studies import alignment

    data = trust.labelled_set("rubric-labels", None, "", "", 30, "counselling")
    report = alignment.run_alignment(data, AlwaysHigh(), n_boot=0, cache=None)
    text = trust.summary_markdown(report)
    assert "rates higher than people" in text and "always-high" in text
    frame = trust.table_frame(report["components"])
    assert "Cohen's d > 0" in " ".join(frame["what it means"])


def test_bootstrap_resamples_past_the_maximum_are_refused_before_anything_runs(monkeypatch):
    """Issue 29: "Bootstrap resamples" had no maximum; 10**9 meant a run that never ends."""
    from studies import alignment

    monkeypatch.setattr(trust, "checked_scorer", lambda *a: pytest.fail("the scorer was loaded"))
    with pytest.raises(gr.Error, match=r"whole number from 0 to 1,000 \(got 1000000000\)"):
        trust.run_align("bert-head", "welivita", None, "", "1:5", 40, 10**9, "", "", "", "")
    with pytest.raises(gr.Error, match="from 0 to 1,000"):
        trust.run_align("bert-head", "welivita", None, "", "1:5", 40, -1, "", "", "", "")
    (box,) = [b for b in trust.demo.blocks.values() if "Bootstrap" in str(getattr(b, "label", ""))]
    assert (box.minimum, box.maximum) == (0, alignment.MAX_BOOT) == (0, 1000)
    data = trust.labelled_set("rubric-labels", None, "", "", 5, "counselling")
    with pytest.raises(ValueError, match="from 0 to 1,000"):  # the study refuses it too
        alignment.run_alignment(data, NeverScored(), n_boot=10**9, cache=None)


class NeverScored(Scorer):
    id = "never-scored"

    def _score_batch(self, items):
        raise AssertionError("scored before the resamples were checked")


@pytest.fixture(scope="module")
def client() -> Iterator:
    from gradio_client import Client

    page = trust.build()
    page.queue().launch(prevent_thread_lock=True, quiet=True, server_name="127.0.0.1")
    try:
        yield Client(page.local_url, verbose=False)
    finally:
        page.close()


@pytest.mark.slow
def test_alignment_and_calibration_from_the_page(client) -> None:
    keys = [""] * 4
    # the head trained on every rubric label: agreement there would be memory. The refusal
    # stays beside the button (a lasting notice), not in a toast.
    notice, *_ = client.predict(
        "bert-head", "rubric-labels", None, "", "1:5", 24, 20, *keys, api_name="/align"
    )
    assert notice.startswith("⚠️") and "used to train or prompt bert-head" in notice
    notice, summary, table, *_figures, files = client.predict(
        "bert-head",
        "welivita",
        None,
        "overall=rating",
        "1:5",
        24,
        20,
        *keys,
        api_name="/align",
    )
    assert notice == "" and "Empathy head" in summary and "24 of 24 replies scored" in summary
    assert table["headers"][:2] == ["statistic", "overall"]
    report_path = next(f for f in files if str(f).endswith(".json"))
    with open(report_path, encoding="utf-8") as fh:
        saved = json.load(fh)
    assert set(saved) == {"overall"}
    _notice, text, before, after = client.predict(0.5, False, api_name="/calibrate")
    assert "tested on 12 rows it never saw" in text
    assert before["headers"] == after["headers"]


def test_a_refused_upload_clears_the_last_results(monkeypatch, tmp_path) -> None:
    """Issue 30 (7a): an upload without the rating column was refused, but the Welivita
    results stayed underneath as if they were the upload's. The refusal empties them."""
    monkeypatch.setattr(trust, "checked_scorer", lambda *a: AlwaysHigh())
    (align,) = [f for f in trust.demo.fns.values() if f.api_name == "align"]
    keys = [""] * 4
    notice, *results = align.fn("always-high", "welivita", None, "", "1:5", 6, 0, *keys)
    assert notice == "" and "6 of 6 replies scored" in results[0]
    assert all(r is not None for r in results)  # summary, table, 3 plots, files, state
    upload = tmp_path / "mine.csv"
    upload.write_text("reply,warmth\nI hear you.,4\n", encoding="utf-8")
    notice, *after = align.fn(
        "always-high", trust.UPLOAD, str(upload), "overall=rating", "1:5", 0, 0, *keys
    )
    assert notice.startswith("⚠️") and "no column 'rating'" in notice
    assert after == [None] * len(results)
    for component, value in zip(align.outputs[1:], after, strict=True):
        shown = component.postprocess(value) if hasattr(component, "postprocess") else value
        assert not getattr(shown, "data", shown), type(component).__name__  # nothing shown


def test_every_tab_stays_in_the_tab_bar_on_a_phone() -> None:
    """Issue 30: Gradio's default tucked three of the four tabs behind a "⋯" menu at 390 px;
    the tab bar wraps instead (tests/test_phone_layout.py sees it in a browser)."""
    tabs = [b for b in trust.demo.blocks.values() if isinstance(b, gr.Tabs)]
    assert [t.overflow_behavior for t in tabs] == ["wrap"]
    names = [b.label for b in trust.demo.blocks.values() if isinstance(b, gr.Tab)]
    assert len(names) == 4
