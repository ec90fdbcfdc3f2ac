"""Newcomer walk (issue 51, point 6): "Download this comparison" left out the ratings made on
the page. Now each reply in the JSON has ``your_ratings`` and ``ratings.csv`` has one row per
rating (formula-safe, keys redacted): only the ratings this browser saved, never another
visitor's, of the replies on screen.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from config import KEY_ENV_VARS
from core import flags as log_folder  # the ratings log lives in the flag folder
from core.ratings import RatingLog, RatingRecord
from core.tables import read_csv
from core.visitors import new_visitor, owner_tag
from pages.compare_updates import export_comparison
from pages.widgets.rating import save_rating
from responders.base import GenerationSettings, Reply
from studies.comparison import Comparison, Panel

HUMAN, LOCAL = "human/counselchat", "local/qwen2.5-coder-1.5b"
MESSAGE = "I can't sleep since my mother died."
NO_KEYS = ("",) * len(KEY_ENV_VARS)


@pytest.fixture(autouse=True)
def flag_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(
        log_folder, "SETTINGS", dataclasses.replace(log_folder.SETTINGS, flag_dir=tmp_path)
    )
    return tmp_path


def on_screen() -> dict:
    """The Compare page's state after a run: two replies, kept as the page keeps them."""
    panels = {}
    for rid, text in ((HUMAN, "I'm so sorry.\r\nGrief keeps people up."), (LOCAL, "Try tea.")):
        reply = Reply(rid, "m", MESSAGE, GenerationSettings(), text=text)
        panels[rid] = Panel(rid, "done", text, reply=reply)
    shown = Comparison(panels, {}, 0)
    return {"comparison": shown, "replies": {r: p.reply.to_dict() for r, p in panels.items()}}


def rate(saved: dict, rid: str, visitor: str, rater: str, levels: tuple, **more: str) -> None:
    """Save a rating as the page's rating box does (the key boxes empty, then the visitor)."""
    safe, concern, comment = more.get("safe"), more.get("concern", ""), more.get("comment", "")
    status, _ = save_rating(
        saved, rid, rater, *levels, safe, concern, comment, False, *NO_KEYS, visitor
    )
    assert status.startswith("Saved:"), status


def download(saved: dict, *key_values: str) -> dict[str, Path]:
    return {Path(p).name: Path(p) for p in export_comparison(saved, *key_values)}


def test_your_ratings_of_the_replies_on_screen_are_in_both_files() -> None:
    saved, me = on_screen(), new_visitor()
    rate(saved, HUMAN, me, "=Dr A", (3, 3, 2), safe="yes", comment="=HYPERLINK(1) warm")
    rate(saved, LOCAL, me, "AB", (1, 2, 1), safe="no", concern="dismissive")
    files = download(saved, *NO_KEYS, me)
    assert set(files) == {"comparison.csv", "comparison.json", "ratings.csv"}
    document = json.loads(files["comparison.json"].read_text(encoding="utf-8"))
    mine = {r["responder_id"]: r["your_ratings"] for r in document["replies"]}
    ((human,), (local,)) = mine[HUMAN], mine[LOCAL]
    assert (human["rater"], human["cognitive"], human["emotional"], human["behavioral"]) == (
        "=Dr A", 3, 3, 2
    )  # fmt: skip
    assert (human["overall"], human["safe"], human["comment"]) == (2.67, 1, "=HYPERLINK(1) warm")
    assert (local["safe"], local["concern"], local["overall"]) == (0, "dismissive", 1.33)
    rows = {r["responder_id"]: r for r in read_csv(str(files["ratings.csv"]))}
    assert rows[HUMAN]["cognitive"] == "3" and rows[LOCAL]["concern"] == "dismissive"
    assert rows[HUMAN]["rater"] == "=Dr A"  # read back: written as text, not a formula
    raw = files["ratings.csv"].read_text(encoding="utf-8")
    assert "'=Dr A" in raw and "'=HYPERLINK(1) warm" in raw


def test_another_visitors_ratings_and_untagged_ones_never_go_in() -> None:
    saved, me, stranger = on_screen(), new_visitor(), new_visitor()
    rate(saved, HUMAN, stranger, "Stranger", (1, 1, 1))
    rate(saved, HUMAN, "", "Nobody", (2, 2, 2))  # no id: its row has no owner tag
    rate(saved, HUMAN, me, "Me", (3, 3, 3))
    assert {r["visitor"] for r in RatingLog().read()} == {owner_tag(me), owner_tag(stranger), ""}
    document = json.loads(download(saved, *NO_KEYS, me)["comparison.json"].read_text("utf-8"))
    assert [r["rater"] for r in document["replies"][0]["your_ratings"]] == ["Me"]
    for no_id in ((), (None,), ("",), ("forged.0000",)):  # an API caller with no (real) id
        files = download(saved, *NO_KEYS, *no_id)
        assert set(files) == {"comparison.csv", "comparison.json"}, no_id
        text = files["comparison.json"].read_text("utf-8")
        assert "Nobody" not in text and "Stranger" not in text and '"Me"' not in text


def test_only_ratings_of_these_replies_go_in() -> None:
    """A rating of another reply (another message, or the same words by another responder)
    is not a rating of a reply on screen."""
    saved, me = on_screen(), new_visitor()
    tag = owner_tag(me)
    log = RatingLog()
    log.append(RatingRecord("compare", "Old", "Another message.", "Try tea.", 1, 1, 1,
                            responder_id=LOCAL, visitor=tag))  # fmt: skip
    log.append(RatingRecord("compare", "Twin", MESSAGE, "Try tea.", 1, 1, 1,
                            responder_id=HUMAN, visitor=tag))  # fmt: skip
    files = download(saved, *NO_KEYS, me)
    assert "ratings.csv" not in files
    document = json.loads(files["comparison.json"].read_text("utf-8"))
    assert [r["your_ratings"] for r in document["replies"]] == [[], []]


def test_a_typed_key_in_a_rating_is_redacted_in_the_download() -> None:
    """A rating saved before the key was typed holds it; the download scrubs the key boxes'
    values from the ratings as from the rest (tests/privacy/test_typed_keys_never_written.py)."""
    saved, me = on_screen(), new_visitor()
    key = "typedkey-RATINGS-445566"
    RatingLog().append(RatingRecord("compare", "AB", MESSAGE, "Try tea.", 2, 2, 2,
                                    comment=f"my key {key} oops", responder_id=LOCAL,
                                    visitor=owner_tag(me)))  # fmt: skip
    typed = list(NO_KEYS)
    typed[1] = key
    files = download(saved, *typed, me)
    for path in (files["ratings.csv"], files["comparison.json"]):
        written = path.read_text("utf-8")
        assert "oops" in written and key not in written and "[redacted]" in written, path


def test_the_download_button_sends_this_browsers_visitor_id() -> None:
    import gradio as gr

    from pages.compare import build
    from pages.widgets.visitor import STORAGE_KEY

    page = build()
    (event,) = [f for f in page.fns.values() if f.api_name == "export_comparison"]
    sent = event.inputs[-1]
    assert isinstance(sent, gr.BrowserState) and sent.storage_key == STORAGE_KEY
    (rating,) = [f for f in page.fns.values() if f.api_name == "rate"]
    assert rating.inputs[-1] is sent  # the id the ratings were saved under
