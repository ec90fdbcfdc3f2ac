"""Who labelled what (issue 31): the project's labels were made by LLM annotators, never "expert".

The rubric and safety labels come from language models working to a written brief; a
clinician reading "expert" would trust the numbers more than they deserve. Every page,
card, prompt, doc and data card the app ships is read here.
"""

from __future__ import annotations

import re
from pathlib import Path

from config import ROOT

#: What the app ships or says: its code, assets and docs (not the tests, nor raw annotator files).
SHIPPED = ("README.md", "app.py", "cli.py", "config.py", "assets", "docs", "pages", "scorers",
           "studies", "reports", "commands", "core", "responders", "perturbations")  # fmt: skip
#: The project's own words (bundled data such as CounselChat answers may say "expert" of people).
SUFFIXES = {".py", ".md", ".json"}


def shipped_files() -> list[Path]:
    found = []
    for name in SHIPPED:
        path = ROOT / name
        found += [path] if path.is_file() else [p for p in path.rglob("*") if p.suffix in SUFFIXES]
    return found


#: "Expert" said of people who are experts: Lend an Ear's three raters, near its name, and
#: the names of the study that reads their ratings (``cli.py experts``).
OF_PEOPLE = re.compile(
    r"lend an ear|lend_an_ear|cli\.py experts|experts_report|conversations-experts|"
    r"studies(\.|/)experts|commands(\.|/)experts|EXPERTS|expert[123]|^\s+experts,$",
    re.IGNORECASE | re.MULTILINE,
)


def said_of_people(text: str, start: int) -> bool:
    """Whether the "expert" at ``start`` is said of Lend an Ear's people or names their study."""
    return bool(OF_PEOPLE.search(text[max(0, start - 400) : start + 400]))


def test_no_shipped_text_calls_the_labels_expert():
    said = [
        f"{path.relative_to(ROOT)}: …{text[max(0, m.start() - 60) : m.end() + 40]}…"
        for path in shipped_files()
        for text in [path.read_text(encoding="utf-8", errors="replace")]
        for m in re.finditer(r"expert", text, re.IGNORECASE)
        if not said_of_people(text, m.start())
    ]
    assert not said, "\n".join(said)


def test_the_cards_say_who_labelled_and_lead_with_people_where_measured():
    import json

    head = json.loads((ROOT / "assets" / "cards" / "bert-head.json").read_text(encoding="utf-8"))
    assert "LLM-annotated" in head["caution"]
    safety = (ROOT / "docs" / "safety.md").read_text(encoding="utf-8")
    assert "LLM annotators" in safety


def test_each_scorers_trust_note_leads_with_a_plain_band():
    """Issue 30: "how much should I trust 2.42?" comes first; the statistics follow."""
    from pages.widgets.scores import judge_cautions

    for sid, lead in (
        ("bert-head", "people would likely give between"),
        ("judge-weighted/local/qwen2.5-coder-1.5b", "people would likely give between"),
    ):
        note = judge_cautions([sid])
        assert lead in note and note.index(lead) < note.index("Spearman"), note


def test_an_unticked_judge_says_how_it_ranked_beside_people_and_beside_the_head():
    """Issue 33: the default judge is left unticked on its LLM-label figure (0.52 < 0.55); the
    reason also says it ranked everyday replies closer to people than the head did, so a
    clinician reading why it is unticked sees both figures."""
    import json

    from config import CARDS_DIR
    from pages.widgets.scores import ticked_by_default

    ticked, why = ticked_by_default(["bert-head", "judge-weighted/local/qwen2.5-coder-1.5b"])
    card = json.loads((CARDS_DIR / "judge-weighted-local.json").read_text(encoding="utf-8"))
    ranked = card["external_checks"]["welivita_overall_vs_rating"]
    assert ticked == ["bert-head"] and "(Spearman 0.52)" in why
    assert (
        f"everyday replies (Welivita & Pu) it ranked them at Spearman {ranked['spearman']:.2f}"
        in why
    )
    assert f"the empathy head, on the same replies: {ranked['head_same_replies']:.2f}" in why
