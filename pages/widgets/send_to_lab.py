""" "Try this reply in the Adversarial lab": a reply on Compare, sent to the lab in one press.

Each Compare panel holds the button (hidden); :func:`wire` shows and wires it only where
the app renders both pages as tabs, since a page alone (``/compare``) has no lab to go to.
It is inside the panel's flag controls, which stay hidden while the panel holds no reply.
A press fills the lab's Reply box with that reply and its Message box with what the reply
answered (the message, or the conversation ending on it, as the run sent it: not what the
message box holds now), read from this visitor's own ``replies`` state, and opens the
lab's tab.
"""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

import gradio as gr

from core.conversation import SEEKER, Turn, transcript
from pages.widgets.scores import names

#: The button under each reply panel.
BUTTON = "Try this reply in the Adversarial lab"
#: After the switch, the top of the tabs in view (the button may sit far down the page).
TO_TABS = "() => document.getElementById('page-tabs')?.scrollIntoView({block: 'start'})"


class LabSources(NamedTuple):
    """What Compare offers: each responder's button and this visitor's replies on screen."""

    buttons: dict[str, gr.Button]
    replies: gr.State


class LabInputs(NamedTuple):
    """What the lab takes: its example picker (emptied), Reply and Message boxes, the note
    above its chart, and the rows of the result on screen (None before any; read only)."""

    example: gr.Dropdown
    reply: gr.Textbox
    message: gr.Textbox
    note: gr.Markdown
    rows: gr.State


def lab_message(reply: dict) -> str:
    """What ``reply`` answered, as the lab's Message box reads it: the message, or the
    earlier turns then the message as ``Seeker:`` / ``Supporter:`` lines.

    >>> lab_message({"message": "I miss her.", "history": ""})
    'I miss her.'
    >>> print(lab_message({"message": "Still low.", "history": "Seeker: Hi\\nSupporter: Hey"}))
    Seeker: Hi
    Supporter: Hey
    Seeker: Still low.
    """
    message, history = str(reply.get("message") or ""), str(reply.get("history") or "")
    if not history:
        return message
    return history + "\n" + transcript([Turn(SEEKER, message)])


def sent_to_lab(
    responder_id: str, lab_tab: str, state: dict, shown_rows: object
) -> tuple[object, ...]:
    """The lab's updates for ``responder_id``'s reply on screen, and the tab ``lab_tab``
    selected: (example, reply, message, note, tabs). With no such reply, nothing moves and a
    warning says why."""
    reply = ((state or {}).get("replies") or {}).get(responder_id) or {}
    if not reply.get("text"):
        gr.Warning("This panel has no reply to send: get the replies first.")
        return (gr.skip(),) * 5
    note = (
        f"Sent from Compare: the reply by {names(responder_id)} and the message it answered. "
        "Press **Perturb and score** to see how its scores move"
    )
    note += (
        "."
        if shown_rows is None
        else "; the chart and table below are still the previous reply's until you do."
    )
    return None, reply["text"], lab_message(reply), note, gr.Tabs(selected=lab_tab)


def wire(sources: LabSources, lab: LabInputs, tabs: gr.Tabs, lab_tab: str) -> None:
    """Show each Compare panel's button (its panel still hides it while there is no reply)
    and make it send that panel's reply to ``lab`` and select the lab's tab (id ``lab_tab``)
    in ``tabs``.

    Call it inside the app's ``gr.Blocks``, after both pages are rendered and before the
    block closes (Gradio reads each component's settings then)."""
    for rid, button in sources.buttons.items():
        button.visible = True  # only here: where there is a lab tab to go to
        button.click(
            partial(sent_to_lab, rid, lab_tab),
            [sources.replies, lab.rows],
            [lab.example, lab.reply, lab.message, lab.note, tabs],
            api_name=False,
            show_progress="hidden",
        ).then(None, js=TO_TABS)
