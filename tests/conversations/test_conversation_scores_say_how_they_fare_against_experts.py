"""A conversation's scores say how far to trust them against experts on real conversations
(Lend an Ear), not the figure on conversations LLMs wrote: the Trust page's Conversations tab
holds the experts' table from the card ``cli.py experts --card`` wrote, with who rated and
which reading the app ships, and one line beside a conversation's scores says the same.
"""

from __future__ import annotations

from pages import trust
from scorers.bert_head.context import model_ships
from studies import experts_card
from studies.experts_report import ALONE, MODEL


def test_the_trust_page_shows_the_experts_table_from_the_card():
    (box,) = [
        b
        for b in trust.demo.blocks.values()
        if getattr(b, "elem_id", "") == "experts-conversations"
    ]
    shown, data = box.value, experts_card.read_card()
    assert shown.startswith("**Against experts, real conversations.**")
    assert "three experts" in shown and "LLM annotators" not in shown
    for name, row in data["rows"].items():  # every reading, at the precision shown
        assert f"| {experts_card.shown_name(name, data)} | {row['composite']['rho']:.2f} (" in shown
    shipped = experts_card.shown_name(MODEL if model_ships() else ALONE, data)
    assert shown.split(f"| {shipped} | ")[1].split("\n")[0].endswith("| yes |")


def test_the_line_beside_a_conversations_scores_gives_the_shipped_readings_figure():
    data = experts_card.read_card()
    line = experts_card.trust_line(data)
    shipped = data["rows"][MODEL if model_ships() else ALONE]["composite"]
    assert line.startswith("Against experts, real conversations")
    assert f"Spearman {shipped['rho']:.2f}" in line
    # the written conversations' figure (0.73 on LLM-labelled data) is not what it quotes
    assert "0.73" not in line and "written" not in line


def test_the_line_follows_the_ship_rule(tmp_path):
    data = experts_card.read_card()
    data["model_ships"] = True
    line = experts_card.trust_line(data)
    assert f"Spearman {data['rows'][MODEL]['composite']['rho']:.2f}" in line
    assert "reading the conversation" in line


def test_the_heads_trust_note_says_how_it_fared_against_experts():
    from pages.widgets.trust_notes import trust_note

    data = experts_card.read_card()
    shipped = data["rows"][MODEL if model_ships() else ALONE]["composite"]
    how = trust_note("bert-head")[1]
    people = how.partition("Against LLM annotators' labels")[0]
    assert "Against experts, real conversations (Lend an Ear)" in people
    assert f"(how this app scores them): Spearman {shipped['rho']:.2f}" in people
