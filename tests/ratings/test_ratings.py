"""People's own ratings (issue 31): saved whole under concurrent raters, read as a labelled
set on the Trust page, exported as labels and used to retrain the head."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.ratings import RatingLog, RatingRecord
from core.textinput import InputError
from scorers.safety.check import VERSION as SAFETY_VERSION
from tests.split_writes import at_once, install

MESSAGE = "I can't sleep since my dad died."
REPLIES = [
    "I'm so sorry about your dad. Nights can be the hardest part of grief.",
    "Try melatonin.",
    "Losing a parent turns the world over; would it help to talk about him?",
    "Everyone loses their parents eventually, you'll get over it.",
    "That sounds exhausting. What has bedtime been like since he died?",
    "Grief often shows up at night. A grief group near you might help too.",
]


def rate(log: RatingLog, rater: str, reply: str, levels: tuple[int, int, int], **kw) -> dict:
    return log.append(RatingRecord("compare", rater, MESSAGE, reply, *levels, **kw))


def test_a_rating_needs_a_name_and_three_levels_and_keeps_what_was_shown(tmp_path):
    log = RatingLog(tmp_path)
    with pytest.raises(InputError, match="name or initials"):
        rate(log, " ", REPLIES[0], (3, 3, 3))
    with pytest.raises(InputError, match="1, 2 or 3"):
        log.append(RatingRecord("compare", "AB", MESSAGE, REPLIES[0], 3, None, 3))  # type: ignore[arg-type]
    shown = [{"scorer_id": "bert-head", "overall": 2.4, "setting": "bert-head/v3"}]
    row = rate(log, "=AB", REPLIES[1], (1, 2, 1), safe=0, concern="dismissive", blind=True,
               scores_shown=shown)  # fmt: skip
    (back,) = log.read()
    assert back["rater"] == "=AB" and back["safe"] == "0" and back["concern"] == "dismissive"
    assert back["blind"] == "1" and json.loads(back["scores_shown"]) == shown
    assert row["overall"] == "1.33"
    raw = (tmp_path / "ratings.csv").read_text(encoding="utf-8")
    assert "'=AB" in raw  # formula-safe on disk, as written when read back


def test_ten_raters_at_once_lose_or_mix_up_no_rating(tmp_path, monkeypatch):
    split = install(monkeypatch)  # each row in two writes: without the lock rows would tear

    def rater(n: int) -> None:
        for i, reply in enumerate(REPLIES):
            rate(RatingLog(tmp_path), f"rater-{n}", reply, (1 + (n + i) % 3, 2, 3))

    errors = at_once(rater, 10)
    rows = RatingLog(tmp_path).read()
    assert errors == [] and len(rows) == 60 and split.overlaps == 0
    for row in rows:  # each row is one rater's own rating of one reply, intact
        n = int(row["rater"].split("-")[1])
        i = REPLIES.index(row["reply"])
        assert row["cognitive"] == str(1 + (n + i) % 3), row


def test_ratings_made_here_are_a_labelled_set_with_the_raters_agreement(tmp_path, monkeypatch):
    import dataclasses

    from core import flags as log_folder  # the ratings log lives in the flag folder
    from studies.labelled import is_installed, load_bundled

    monkeypatch.setattr(
        log_folder, "SETTINGS", dataclasses.replace(log_folder.SETTINGS, flag_dir=tmp_path)
    )
    assert not is_installed("ratings-here")
    with pytest.raises(ValueError, match="No ratings made here yet"):
        load_bundled("ratings-here")
    log = RatingLog()
    for k, reply in enumerate(REPLIES):
        rate(log, "AB", reply, (1 + k % 3, 1 + k % 3, 2))
        rate(log, "CD", reply, (1 + k % 3, 1 + (k + 1) % 3, 2))
    data = load_bundled("ratings-here")
    assert len(data) == 6 and data.human["cognitive"].tolist() == [1, 2, 3, 1, 2, 3]
    assert "2 raters" in data.note and "cognitive 1.00" in data.note, data.note


def test_a_rating_travels_from_the_page_to_export_to_a_retrained_head(tmp_path, monkeypatch):
    """Page handler → ratings log → cli.py ratings export → cli.py train-head --labels."""
    import dataclasses

    import pandas as pd

    import cli
    from core import flags as log_folder  # the ratings log lives in the flag folder
    from pages.widgets.rating import save_rating

    monkeypatch.setattr(
        log_folder, "SETTINGS", dataclasses.replace(log_folder.SETTINGS, flag_dir=tmp_path)
    )
    for rater in ("AB", "CD"):
        for k, reply in enumerate(REPLIES):
            saved = {
                # three messages, so the head's message-grouped folds have groups to split
                "replies": {"human/x": {"text": reply, "message": f"{MESSAGE} ({k % 3})"}},
                "scores": {"human/x": [{"scorer_id": "bert-head", "overall": 2.0}]},
            }
            levels = (1 + k % 3, 1 + (k + 1) % 3, 2)
            status, kept = save_rating(saved, "human/x", rater, *levels, "yes", "", "", False)
            assert status.startswith("Saved") and kept == rater
    labels = tmp_path / "labels.csv"
    assert cli.main(["ratings", "export", "--output", str(labels), "--folder", str(tmp_path)]) == 0
    table = pd.read_csv(labels)
    assert len(table) == 6 and set(table.n_raters) == {2} and set(table.source) == {"ratings-here"}
    out = tmp_path / "head"
    args = ["train-head", "--labels", str(labels), "--output-dir", str(out), "--epochs", "2",
            "--heads", "1", "--folds", "2", "--recipe", "reply", "--no-checks"]  # fmt: skip
    assert cli.main(args) == 0
    card = json.loads((out / "bert_head.json").read_text(encoding="utf-8"))
    assert card["labels_by"].startswith("people: ratings made in this app (6 replies")


def test_the_comparison_downloads_with_every_reply_score_setting_and_screen(tmp_path, monkeypatch):
    """Issue 31 part 4: the reproducibility record of what was compared (CSV and JSON)."""
    import pandas as pd

    import pages.compare_updates as updates
    from responders import registry
    from scorers.base import Score, Scorer
    from tests.conftest import ScriptedResponder

    class Fixed(Scorer):
        id = "fixed"

        def setting_parts(self) -> list[str]:
            return ["v7"]

        def _score_batch(self, items):  # type: ignore[no-untyped-def]
            return [Score.from_components(self.id, 3, 1, 2) for _ in items]

    writer = ScriptedResponder("writer", ["=HYPERLINK(1) I'm so sorry."])
    monkeypatch.setitem(registry.RESPONDERS._factories, "scripted", lambda model: writer)
    monkeypatch.setitem(registry._CACHE, "scripted/writer", writer)
    monkeypatch.setattr(updates, "RESPONDER_IDS", [*updates.RESPONDER_IDS, "scripted/writer"])
    monkeypatch.setattr(updates, "SCORER_IDS", [*updates.SCORER_IDS, "fixed"])
    monkeypatch.setattr(updates, "get_scorer", lambda sid, **_: Fixed())
    *_, last = updates.run_compare(MESSAGE, ["scripted/writer"], ["fixed"], "", 32, 0.7)
    csv_path, json_path = updates.export_comparison(last[-1], "sk-typed-secret-0123456789")
    table = pd.read_csv(csv_path)
    (row,) = table.to_dict("records")
    assert row["message"] == MESSAGE and row["reply"].startswith("'=HYPERLINK")  # inert
    assert (
        row["scorer_setting"] == "fixed|v7" and row["overall"] == 2.0 and row["temperature"] == 0.7
    )
    assert row["safety_version"] == SAFETY_VERSION and row["reply_safe"] in (0, 1)
    document = json.loads(Path(json_path).read_text(encoding="utf-8"))
    assert document["replies"][0]["scores"][0]["setting"] == "fixed|v7" and document["made_at"]


def test_the_concern_is_picked_in_plain_words_and_cannot_be_typed() -> None:
    """Cold walk 2026-11-26: text typed into "If not, the concern" vanished on leaving the box
    (the save kept no concern), and the choices were codes ("missed-risk") after a bare tick."""
    import gradio as gr

    from pages.widgets.rating import rating_box

    with gr.Blocks():
        box = rating_box()
    assert box.concern.filterable is False
    labels = [label for label, _ in box.concern.choices]
    assert labels[0] == "(none)" and "misses a risk in the message" in labels
    assert ("misses a risk in the message", "missed-risk") in box.concern.choices
