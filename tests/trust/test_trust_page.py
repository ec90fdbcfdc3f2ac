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
    # the rubric labels are LLM annotators' ratings: never called people's
    assert "rates higher than the LLM annotators" in text and "always-high" in text
    assert "with people" not in text and "than people" not in text
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
    keys = [""] * 4 + [None]  # the four key boxes, then the visitor id (none: a fresh browser)
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
    assert "say which column holds the overall rating, as overall=<column>" in notice  # walk 5
    assert after == [None] * len(results)
    for component, value in zip(align.outputs[1:], after, strict=True):
        shown = component.postprocess(value) if hasattr(component, "postprocess") else value
        assert not getattr(shown, "data", shown), type(component).__name__  # nothing shown


def test_every_tab_stays_in_the_tab_bar_on_a_phone() -> None:
    """Issue 30: Gradio's default tucked three of the four tabs behind a "⋯" menu at 390 px;
    the tab bar wraps instead, the fifth (Conversations: experts) too
    (tests/app/test_phone_layout.py sees it in a browser)."""
    tabs = [b for b in trust.demo.blocks.values() if isinstance(b, gr.Tabs)]
    assert [t.overflow_behavior for t in tabs] == ["wrap"]
    names = [b.label for b in trust.demo.blocks.values() if isinstance(b, gr.Tab)]
    assert names == [
        "Agreement with people",
        "Calibration",
        "Pairwise, both orders",
        "Judge panel",
        "Conversations: experts",
    ]


def _px(frame) -> list[int]:  # type: ignore[no-untyped-def]
    from pages.widgets.trust import MAX_TABLE_PX, fitted

    update = fitted(frame)
    assert update.max_height == MAX_TABLE_PX  # tall enough for the wrapped rows
    return [int(str(w).removesuffix("px")) for w in update.column_widths]


def test_long_texts_in_the_trust_tables_wrap_inside_the_page(monkeypatch) -> None:
    """At 1280 px the "what it means" column ran past the table's edge, cut off mid-sentence
    (Gradio sized each column to its longest text), and wrapped rows were cut at 500 px."""
    from pages.widgets.trust import CHAR_PX, TABLE_PX, fitted

    monkeypatch.setattr(trust, "checked_scorer", lambda *a: AlwaysHigh())
    (align,) = [f for f in trust.demo.fns.values() if f.api_name == "align"]
    _notice, _summary, table, *_ = align.fn(  # 10: fewer replies show no table (issue 51)
        "always-high", "welivita", None, "", "1:5", 10, 0, *[""] * 4
    )
    widths = _px(table)
    assert list(table.columns)[-1] == "what it means" and len(widths) == len(table.columns)
    assert sum(widths) <= TABLE_PX
    longest = table["what it means"].str.len().max()
    assert widths[-1] < longest * CHAR_PX  # narrower than its longest text: that text wraps
    words = [max(len(w) for w in str(h).split()) for h in table.columns]  # headers break
    assert all(w >= n * CHAR_PX for w, n in zip(widths, words, strict=True))  # between words
    # Every table of the page is fitted once its event has filled it (the API's answer
    # stays a plain table: the widths are a display step of their own).
    fits = {id(o) for f in trust.demo.fns.values() if f.fn is fitted for o in f.outputs}
    tables = [b for b in trust.demo.blocks.values() if isinstance(b, gr.Dataframe)]
    assert len(tables) == 8 and all(id(t) in fits for t in tables)
    assert all(t.interactive is False for t in tables)  # an event's input is made editable


def test_the_judge_tabs_tables_fit_too(monkeypatch) -> None:
    import math
    import types

    import scorers.judge.pairwise
    import scorers.registry
    import studies.pairwise
    import studies.replies
    from pages import trust_judges
    from pages.widgets.trust import TABLE_PX

    monkeypatch.setattr(trust_judges, "checked_scorer", lambda *a: AlwaysHigh())
    for table in trust_judges.run_panel(["always-high"], "welivita", 6, *[""] * 4):
        assert sum(_px(table)) <= TABLE_PX

    class Judge:
        def __init__(self, *args, **kwargs) -> None: ...

        def unavailable_reason(self) -> None:
            return None

    long = "I keep arguing with my husband about money and I can't breathe when he shouts. " * 3
    row = {"message": long, "reply_a_source": "human/counselchat", "error": "HTTP 500 " * 8}
    row |= {"reply_b_source": "local/qwen2.5-coder-1.5b"}
    row |= {
        f"{n}_final": "inconsistent" for n in ("cognitive", "emotional", "behavioral", "overall")
    }
    rank = {"rank": 1, "item": "human/counselchat", "strength": 0.0, "low": math.nan}
    rank |= {"high": math.nan, "wins": 1, "losses": 1}
    summary = {
        "overall": {"flip_rate": 0.5, "first_wins": 0.5, "longer_wins": 0.5, "final": {"a": 1}}
    }
    result = {"rows": [row], "ranking": [rank], "summary": summary}
    monkeypatch.setattr(scorers.registry, "judge_responder", lambda judge_id: None)
    monkeypatch.setattr(scorers.judge.pairwise, "PairwiseJudge", Judge)
    collected = types.SimpleNamespace(replies={}, failures=[])
    monkeypatch.setattr(studies.replies, "collect_replies", lambda *a, **k: collected)
    monkeypatch.setattr(studies.pairwise, "run_pairwise", lambda *a, **k: result)
    _note, *tables = trust_judges.run_pairwise("j", ["a", "b"], 1, *[""] * 4)
    for table in tables:
        assert sum(_px(table)) <= TABLE_PX
    question = tables[-1]["question"][0]
    assert question.endswith(" …") and question[:-2] in long  # cut between words, not inside


def test_the_mean_shift_title_fits_a_phone_and_clears_the_plot(monkeypatch) -> None:
    """On a 390 px phone "Mean shift (scorer − people), in scale poi" was cut at the edge."""
    from pages.widgets.trust import LABEL_PX, TITLE_LINE_PX

    monkeypatch.setattr(trust, "checked_scorer", lambda *a: AlwaysHigh())
    (align,) = [f for f in trust.demo.fns.values() if f.api_name == "align"]
    *_, scatter, dist, shift, _files, _state = align.fn(
        "always-high", "welivita", None, "", "1:5", 6, 0, *[""] * 4
    )
    for fig in (scatter, dist, shift):
        lines = fig.layout.title.text.split("<br>")
        assert all(len(line) <= 40 for line in lines), lines
        assert fig.layout.margin.t >= LABEL_PX + TITLE_LINE_PX * len(lines)
    assert len(shift.layout.title.text.split("<br>")) == 3


def test_long_choice_names_wrap_instead_of_being_cut_in_a_dropdown() -> None:
    """A dropdown shows its choice on one line: "Welivita & Pu: human and ChatGPT replies
    rated 1–3 overall by people" was cut at 1280 px, and a judge's name on a phone."""
    radios = [b.label for b in trust.demo.blocks.values() if isinstance(b, gr.Radio)]
    assert radios.count("Labelled replies") == 2 and "Judge" in radios
    for block in trust.demo.blocks.values():
        if isinstance(block, gr.Dropdown):  # the scorer's: room for its longest name at 1280
            assert block.scale >= 2 and block.min_width >= 320


def test_one_rating_is_not_called_about_as_high_as_people(tmp_path) -> None:
    """Newcomer walk: with one saved rating the summary said "about as high as people
    (Cohen's d –)": a d that cannot be computed says so instead."""
    from studies import alignment

    data = trust.labelled_set("rubric-labels", None, "", "", 30, "counselling")
    report = alignment.run_alignment(data, AlwaysHigh(), n_boot=0, cache=None)
    report["components"]["overall"]["cohens_d"] = float("nan")
    text = trust.summary_markdown(report)
    assert "about as high" not in text and "too few ratings" in text


def test_two_ratings_are_called_too_few_not_a_huge_lean(tmp_path) -> None:
    """Cold walk 2026-11-26: two saved ratings gave "Overall it rates lower than people
    (Cohen's d -13.13)"; so few replies now say they are too few to read."""
    from studies import alignment

    data = trust.labelled_set("rubric-labels", None, "", "", 30, "counselling")
    report = alignment.run_alignment(data, AlwaysHigh(), n_boot=0, cache=None)
    report["n_scored"] = 2
    text = trust.summary_markdown(report)
    assert "rates higher" not in text and "2 replies are too few" in text


def test_the_labelled_sets_are_read_again_when_the_page_opens(monkeypatch) -> None:
    """Newcomer walk: "Ratings made here" stayed "not installed" after a rating was saved,
    until the server restarted (the choices were read once, when the page was built)."""
    page = trust.build()
    (load,) = [
        f
        for f in page.fns.values()
        if any(t[1] == "load" for t in f.targets) and f.fn is trust.fresh_sources
    ]
    monkeypatch.setattr(trust, "bundled_choices", lambda: [("Ratings made here", "ratings")])
    assert ("Ratings made here", "ratings") in load.fn()["choices"]


def test_the_summary_leads_with_a_plain_verdict_on_the_raters_it_names(tmp_path) -> None:
    """Cold walk (issue 30, point 7): "Compare with people" gave α −0.05 and ρ 0.12 with no
    verdict; it now leads with one in plain words, naming who rated (people or LLM annotators)."""
    from studies import alignment

    data = trust.labelled_set("rubric-labels", None, "", "", 30, "counselling")
    report = alignment.run_alignment(data, AlwaysHigh(), n_boot=0, cache=None)
    report["components"]["overall"]["spearman_rho"] = 0.12
    report["data"] = "welivita"
    first = trust.summary_markdown(report).split("\n")[0]
    assert first.startswith("**In plain words: it agrees with people hardly at all**"), first
    assert "do not use its number for a single reply" in first
    report["components"]["overall"]["spearman_rho"] = 0.66
    assert "agrees with people well" in trust.summary_markdown(report)
    report["data"] = "rubric-labels"
    assert "agrees with the LLM annotators well" in trust.summary_markdown(report)
