"""The Vote page's ballot: the message, the reply boxes, the two pickers and the Vote button.

What a voter sees of a round before and after voting: the replies under letters (sources
hidden), the pickers and the "Why?" box (closed, holding the voter's own picks and reason,
once they have voted) and a Vote button that says so instead of looking pressable. :mod:`pages.vote` wires them up.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import NamedTuple

import gradio as gr

from core.csvlog import CsvLogError
from core.textinput import InputError
from pages.widgets.kept_words import VOTE_KEPT
from pages.widgets.notice import problem
from studies.votes.log import VoteLog
from studies.votes.rounds import MAX_REPLIES, VoteRound, ballot, load_round

#: The Vote button's words once this voter has voted in the round on screen.
VOTED = "You have voted in this round"
#: A reply box grows to the whole reply: a phone cannot scroll inside a read-only box
#: (8,000 characters, the longest reply, are about 250 lines on a 390 px screen).
REPLY_MAX_LINES = 1000
#: The pickers' names, as a screen reader reads them (their groups carry these names).
PICKERS = {"vote-most": "Most empathetic reply", "vote-least": "Least empathetic reply"}
#: Gradio draws a Radio's label as a plain span in an unnamed ``fieldset``: a screen reader
#: heard "group" twice and no question. Each picker's fieldset becomes a radio group named by
#: its label, whenever it is (re)drawn (the Vote tab of the whole app is drawn when opened).
NAME_PICKERS_JS = (
    "() => { const names = " + repr(PICKERS).replace("'", '"') + ";"
    " const name = () => { for (const [id, label] of Object.entries(names)) {"
    " const el = document.getElementById(id);"
    " if (el && el.getAttribute('aria-label') !== label) {"
    " el.setAttribute('role', 'radiogroup'); el.setAttribute('aria-label', label); } } };"
    " name(); if (!window.votePickersNamed) { window.votePickersNamed = true;"
    " new MutationObserver(name).observe(document.body, {childList: true, subtree: true}); } }"
)
#: Markdown marks a reply may carry (models write them; a reply box shows text as it is).
_MARKS = (
    (re.compile(r"!\[([^\]\n]*)\]\([^)\s]*\)"), r"\1"),  # an image: its description
    (re.compile(r"\[([^\]\n]+)\]\((\S+?)\)"), r"\1 (\2)"),  # a link: its words (its address)
    (re.compile(r"(?<!\\)(\*\*|__)(?=\S)(.+?)(?<=[^\s\\])\1"), r"\2"),  # bold
    (re.compile(r"(?<![\w*\\])\*(?=[^\s*])([^*\n]+?)(?<=[^\s\\])\*(?![\w*])"), r"\1"),  # italics
    (re.compile(r"(?<![\w\\])_(?=[^\s_])([^_\n]+?)(?<=[^\s\\])_(?!\w)"), r"\1"),
    (re.compile(r"~~(?=\S)(.+?)(?<=\S)~~"), r"\1"),  # struck through
    (re.compile(r"`([^`\n]+)`"), r"\1"),  # code
    (re.compile(r"^[ \t]{0,3}#{1,6}[ \t]+(.*?)[ \t#]*$", re.M), r"\1"),  # a heading's #s
    (re.compile(r"^[ \t]{0,3}(?:[-*_][ \t]*){3,}$", re.M), ""),  # a rule line
    (re.compile(r"^([ \t]*)[-*+][ \t]+", re.M), "\\1• "),  # a list item's dash
    (re.compile(r"^[ \t]{0,3}>[ \t]?", re.M), ""),  # a quote's >
    (re.compile(r"\\([\\`*_{}\[\]()#+\-.!>~|])"), r"\1"),  # an escaped mark
)


class Ballot(NamedTuple):
    """The ballot's components, top to bottom."""

    header: gr.Markdown
    boxes: list[gr.Textbox]
    most: gr.Radio
    least: gr.Radio
    reason: gr.Textbox
    vote: gr.Button
    reveal: gr.Markdown


def plain_reply(text: str) -> str:
    """``text`` as a voter reads it in a reply box: Markdown's marks taken away (a box shows
    text as it is: "**Be kind to yourself**" showed its asterisks), the words kept; a list
    item keeps a bullet. Nothing is rendered, so HTML in a reply stays text and never runs.

    >>> plain_reply("**Be kind to yourself**. Try *one* small step:\\n- a walk\\n- `sleep`")
    'Be kind to yourself. Try one small step:\\n• a walk\\n• sleep'
    >>> plain_reply("## Next steps\\n> Call [a helpline](https://988lifeline.org) today.")
    'Next steps\\nCall a helpline (https://988lifeline.org) today.'
    >>> plain_reply("5 * 3 = 15, snake_case_name and 2*x*y stay; \\\\*literal\\\\*")
    '5 * 3 = 15, snake_case_name and 2*x*y stay; *literal*'
    """
    for pattern, replacement in _MARKS:
        text = pattern.sub(replacement, text)
    return text


def ballot_widgets() -> Ballot:
    """The ballot, empty until a round is open: the message, a hidden box per possible reply,
    the two pickers, the reason, the Vote button (not pressable yet) and the reveal."""
    header = gr.Markdown()
    boxes = [
        gr.Textbox(visible=False, interactive=False, lines=3, max_lines=REPLY_MAX_LINES)
        for _ in range(MAX_REPLIES)
    ]
    with gr.Row():
        most = gr.Radio([], label=PICKERS["vote-most"], elem_id="vote-most")
        least = gr.Radio([], label=PICKERS["vote-least"], elem_id="vote-least")
    reason = gr.Textbox(label="Why? (optional, a sentence)", max_length=2000, info=VOTE_KEPT)
    vote = gr.Button("Vote", variant="primary", interactive=False)
    reveal = gr.Markdown(elem_classes=["vote-reveal"])  # its table: style.CSS
    return Ballot(header, boxes, most, least, reason, vote, reveal)


def ballot_updates(
    rnd: VoteRound,
    voter: str,
    note: str = "",
    earlier: Mapping[str, str] | None = None,
    reveal: str = "",
) -> list[object]:
    """Updates for the message, every reply box, both pickers (sources hidden; for a voter
    who has voted, ``earlier`` is their vote: the pickers closed, holding their picks) and the
    reveal (shown again to one who has)."""
    shown = ballot(rnd, voter)
    letters = [letter for letter, _ in shown]
    boxes = [
        gr.update(value=plain_reply(rnd.entry(source).text), label=f"Reply {letter}", visible=True)
        for letter, source in shown
    ]
    boxes += [gr.update(value="", visible=False)] * (MAX_REPLIES - len(shown))
    letter_of = {source: letter for letter, source in shown}
    picks = [letter_of.get((earlier or {}).get(key, "")) for key in ("most", "least")]
    return [
        round_header(rnd, note),
        *boxes,
        *(gr.update(choices=letters, value=pick, interactive=earlier is None) for pick in picks),
        reveal,
    ]


def round_header(rnd: VoteRound, note: str = "") -> str:
    """The ballot's heading: the round's code, a note (if any) and the message."""
    return f"### Round {rnd.code}\n{note}\n\n**The message:**\n\n> " + rnd.message.replace(
        "\n", "\n> "
    )


def kept_header(shown: str, what: str, exc: BaseException) -> object:
    """The heading of round ``shown`` (still on screen) saying plainly that ``what`` failed and
    why; no change when no round is shown. The next round shown replaces the note."""
    try:
        rnd = load_round(shown) if shown else None
    except InputError:
        rnd = None
    if rnd is None:
        return gr.skip()
    reason = problem(exc).removeprefix("⚠️ ")
    return round_header(rnd, f"⚠️ **Still showing round {rnd.code}; {what}:** {reason}")


def has_voted(code: str, voter: str) -> bool:
    """Whether ``voter`` has voted in round ``code`` (False when the log cannot be read: a
    press of Vote then says what is wrong with it)."""
    return earlier_vote(code, voter) is not None


def earlier_vote(code: str, voter: str) -> Mapping[str, str] | None:
    """``voter``'s vote in round ``code`` as it was cast, or None (also when the log cannot
    be read: a press of Vote then says what is wrong with it)."""
    if not code or not voter:
        return None
    try:
        return VoteLog().vote_of(code, voter)
    except CsvLogError:
        return None


def reason_box_for(code: str, voter: str) -> dict[str, object]:
    """The "Why?" box for round ``code``: empty and editable until this voter has voted in it
    (after a reload too), then read-only, holding the reason they gave."""
    earlier = earlier_vote(code, voter)
    if earlier is None:
        return gr.update(value="", interactive=True)
    return gr.update(value=earlier.get("reason", ""), interactive=False)


def vote_button_for(code: str, voter: str) -> dict[str, object]:
    """The Vote button for round ``code``: pressable until this voter has voted in it (after a
    reload too), then greyed out and saying so; not pressable while no round is open."""
    if has_voted(code, voter):
        return gr.update(value=VOTED, interactive=False, variant="secondary")
    return gr.update(value="Vote", interactive=bool(code), variant="primary")


def after_vote(code: str, voter: str) -> list[object]:
    """After a press of Vote: the button, and both pickers and the "Why?" box closed once the
    vote is in (a refused vote leaves them open, as they were)."""
    voted = has_voted(code, voter)
    closed = [gr.update(interactive=False) if voted else gr.skip()] * 3
    return [vote_button_for(code, voter), *closed]
