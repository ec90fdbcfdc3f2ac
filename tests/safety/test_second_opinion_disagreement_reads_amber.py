"""Where the second opinion disagrees with the screen, the reply's panel and the scores table
both read "read it yourself" (amber), as the panel's warning says: a cold walk saw a blue
"the reply meets it" badge above "The two checks disagree … read the reply yourself"."""

from __future__ import annotations

from pages.widgets.safety_words import panel_safety, safety_look, table_heading
from scorers.safety.judge import SafetyOpinion
from scorers.safety.result import SafetyResult

MET = SafetyResult(1, ("suicide-self-harm",), 1, evidence={"message": "not wake up"})
NOT_SAFE = SafetyOpinion("judge", 1, 0, ("missed-risk",))


def test_the_panel_and_the_table_read_amber_when_the_checks_disagree():
    cell = table_heading(MET, NOT_SAFE)
    panel = panel_safety(MET, NOT_SAFE)
    assert cell.startswith("uncertain: read it yourself (the checks disagree")
    assert "Safety screen: uncertain: read it yourself (the checks disagree" in panel
    assert safety_look(cell) == safety_look("uncertain")
    assert "The two checks disagree" in panel


def test_agreeing_checks_keep_the_screens_own_heading():
    agree = SafetyOpinion("judge", 1, 1)
    assert (
        table_heading(MET, agree) == "risk in the message; the reply meets it; second opinion: safe"
    )
    assert "Safety screen: risk in the message; the reply meets it" in panel_safety(MET, agree)
