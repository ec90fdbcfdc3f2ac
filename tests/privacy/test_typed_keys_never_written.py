"""A key a visitor typed into the key boxes is never written to a file: not to the ratings log,
not to the comparison download, even when it does not look like a key.

Pattern redaction (:func:`core.secrets.redact_keys`) only catches key-shaped text
(``sk-…``, ``AIza…``, ``gsk_…``). A key that looks like nothing in particular is kept out
only because the handlers pass the typed key values on as ``secrets`` to the writers, and the
Compare page passes its key boxes to those handlers. Each test here fails when that link goes.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from config import KEY_ENV_VARS
from core import flags as log_folder  # the ratings log lives in the flag folder
from core.ratings import RATINGS_FILE_NAME
from core.secrets import redact_keys
from core.visitors import new_visitor
from responders.base import GenerationSettings, Reply
from studies.comparison import Comparison, Panel

#: A typed key that pattern redaction does not catch: only its value can scrub it.
TYPED_KEY = "typedkey-RUNHIST-998877"
RID = "human/counselchat"


def typed(key: str = TYPED_KEY) -> tuple[str, ...]:
    """The key boxes' values in :data:`KEY_ENV_VARS` order: ``key`` in the second, the rest blank."""
    values = [""] * len(KEY_ENV_VARS)
    values[1] = key
    return tuple(values)


def test_the_typed_key_does_not_look_like_a_key() -> None:
    """The premise: without its value, redaction would keep it (so the tests below test the
    value being passed, not the pattern)."""
    assert TYPED_KEY in redact_keys(f"my key is {TYPED_KEY}")
    assert len(KEY_ENV_VARS) >= 2


@pytest.fixture
def flag_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(
        log_folder, "SETTINGS", dataclasses.replace(log_folder.SETTINGS, flag_dir=tmp_path)
    )
    return tmp_path


def test_a_typed_key_in_a_rating_never_reaches_the_ratings_log(flag_dir: Path) -> None:
    from pages.widgets.rating import save_rating

    saved = {
        "replies": {
            RID: {
                "text": f"I hear you. (Pasted by mistake: {TYPED_KEY})",
                "message": f"I can't sleep. {TYPED_KEY}",
            }
        },
        "scores": {RID: [{"scorer_id": "bert-head", "overall": 2.0}]},
    }
    comment = f"The reply quotes my key {TYPED_KEY}, oops."
    visitor = new_visitor()  # the page sends this browser's id after the key boxes
    status, kept = save_rating(
        saved, RID, "AB", 2, 3, 2, "yes", "", comment, False, *typed(), visitor
    )
    assert status.startswith("Saved:") and kept == "AB", status
    written = (flag_dir / RATINGS_FILE_NAME).read_bytes()
    assert b"oops" in written  # the row is there …
    assert TYPED_KEY.encode() not in written  # … without the key
    assert written.count(b"[redacted]") == 3  # message, reply and comment each had it


def shown_with_key() -> Comparison:
    """A comparison on screen whose message and reply contain the typed key."""
    reply = Reply(
        RID,
        "answer",
        f"I can't sleep. {TYPED_KEY}",
        GenerationSettings(),
        text=f"I'm sorry. Your key {TYPED_KEY} is showing.",
    )
    return Comparison({RID: Panel(RID, "done", reply.text, reply=reply)}, {}, 0)


def test_a_typed_key_in_a_reply_never_reaches_the_comparison_download() -> None:
    from pages.compare_updates import export_comparison

    paths = export_comparison({"comparison": shown_with_key()}, *typed())
    assert {Path(p).suffix for p in paths} == {".csv", ".json"}
    for path in paths:
        written = Path(path).read_bytes()
        assert b"is showing" in written, path  # the reply is there …
        assert TYPED_KEY.encode() not in written, path  # … without the key
        assert b"[redacted]" in written, path


@pytest.mark.parametrize("api_name", ["rate", "export_comparison"])
def test_the_compare_page_hands_its_key_boxes_to_the_writers(api_name: str) -> None:
    """The handlers can only scrub the keys they are given: the save and download events send
    every key box (type="password", labelled with its variable), in order, as the handler's
    first ``*key_values`` (after its named parameters; the visitor's id may follow)."""
    import inspect

    import gradio as gr

    from pages.compare import build
    from pages.compare_updates import export_comparison
    from pages.widgets.rating import save_rating

    handler = {"rate": save_rating, "export_comparison": export_comparison}[api_name]
    named = [
        p
        for p in inspect.signature(handler).parameters.values()
        if p.kind is not inspect.Parameter.VAR_POSITIONAL
    ]
    page = build()
    (event,) = [f for f in page.fns.values() if f.api_name == api_name]
    keys = event.inputs[len(named) : len(named) + len(KEY_ENV_VARS)]
    sent = [(type(c), getattr(c, "type", None), getattr(c, "label", None)) for c in keys]
    assert sent == [(gr.Textbox, "password", name) for name in KEY_ENV_VARS]
