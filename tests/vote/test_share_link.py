"""The Vote page's hand-off link (issue 30): a teacher who opened the app at 127.0.0.1 got a
link and QR code that no student's device can open, with nothing saying so."""

from __future__ import annotations

from types import SimpleNamespace

from pages.widgets.share import hand_off, local_only_note


def _request(host: str) -> SimpleNamespace:
    return SimpleNamespace(headers={"host": host}, url=SimpleNamespace(scheme="http"))


def test_a_link_to_this_computer_says_students_cannot_open_it():
    link, shown = hand_off(_request("127.0.0.1:7860"), "/vote?round=K7Q2")  # type: ignore[arg-type]
    assert link == "http://127.0.0.1:7860/vote?round=K7Q2"
    assert "works only on this computer (127.0.0.1)" in shown and "--host 0.0.0.0" in shown
    assert local_only_note("http://localhost:7860/vote?round=K7Q2")


def test_a_link_by_the_servers_network_name_has_no_warning():
    link, shown = hand_off(_request("lab.example.org"), "/vote?round=K7Q2")  # type: ignore[arg-type]
    assert link == "http://lab.example.org/vote?round=K7Q2"
    assert shown.startswith("![QR code of the link](data:image/png;base64,")
    assert "only on this computer" not in shown
