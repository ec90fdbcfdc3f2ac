"""What the Compare page says about the replies on screen: which message they answer, how many
were written, and which of them can be flagged.

A run that starts sends its message (:func:`asked_value`) into a state of its own; that state
changing writes the "Replies to" line above the panels (:func:`replies_to_line`) and clears the
flag notes left by the last run. The line changes only when a run starts, never when a message
is refused, so it always names the message the replies on screen answer.

>>> print(replies_to_line(asked_value("My dog died last week and I can't stop crying.")))
**Replies to:** “My dog died last week and I can't stop crying.”
"""

from __future__ import annotations

import html
import re
import textwrap
import time

import gradio as gr

from core.conversation import Conversation
from studies.comparison import Comparison

#: How many characters of the message the "Replies to" line quotes (a phone's line or two).
QUOTED_CHARS = 90
#: Characters Markdown would read as formatting in a quoted message.
_MARKUP = re.compile(r"([\\`*_\[\]{}()#+!|~$])")

#: What a started run keeps: the message it answers, how many turns came before it and when
#: it started (a new run of the same message still counts as a new start).
Asked = tuple[str, int, float]


def asked_value(question: str | Conversation, started: float | None = None) -> Asked:
    """What a run that starts answers: a single message, or a conversation's last one."""
    at = time.time() if started is None else started
    if isinstance(question, Conversation):
        return question.message, len(question.turns) - 1, at
    return question, 0, at


def _quoted(text: str) -> str:
    """The first words of ``text`` in quotes, safe to show in Markdown."""
    short = textwrap.shorten(text, QUOTED_CHARS, placeholder=" …")
    plain = _MARKUP.sub(r"\\\1", html.escape(short, quote=False))
    return f"“{plain}”"


def replies_to_line(asked: Asked | None) -> str:
    """The line above the panels naming the message the replies on screen answer.

    >>> print(replies_to_line(("I feel *so* alone", 2, 0.0)))
    **Replies to** the last message of a conversation (2 turns before it): “I feel \\*so\\* alone”
    """
    if not asked:
        return ""
    message, before, _ = asked
    if before:
        turns = f"{before} turn{'s' if before != 1 else ''} before it"
        return f"**Replies to** the last message of a conversation ({turns}): {_quoted(message)}"
    return f"**Replies to:** {_quoted(message)}"


def started_updates(asked: Asked | None, flags: int) -> list[str]:
    """The "Replies to" line, then every panel's flag note and flag answer emptied (they were
    about the last run's replies)."""
    return [replies_to_line(asked), *[""] * (2 * flags)]


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def progress_line(state: Comparison, elapsed_s: float, *, final: bool) -> str:
    """The progress line above the replies: only replies actually written count as written.

    >>> from studies.comparison import Panel
    >>> panels = {"a/b": Panel("a/b", "done", "Hi"), "c/d": Panel("c/d", "unavailable")}
    >>> progress_line(Comparison(panels, {}, 0), 4.2, final=True)
    'Done. 1 reply written, 1 not available here · scores: 0 ready · 4 s'
    """
    statuses = [p.status for p in state.panels.values()]
    parts = [_count(statuses.count("done"), "reply written", "replies written")]
    for status, words in (
        ("streaming", "being written"),
        ("waiting", "waiting"),
        ("error", "failed (its panel says why)"),
        ("unavailable", "not available here"),
    ):
        if statuses.count(status):
            parts.append(f"{statuses.count(status)} {words}")
    scores = f"scores: {len(state.scores)} ready"
    if state.pending:
        scores += f", {state.pending} being computed"
    head = "Done. " if final else "Working… "
    return f"{head}{', '.join(parts)} · {scores} · {elapsed_s:.0f} s"


def flag_rows(replies: dict[str, dict], ids: list[str]) -> list[dict]:
    """Each panel's flag controls shown only when its responder wrote a reply to flag."""
    return [gr.update(visible=bool((replies.get(rid) or {}).get("text"))) for rid in ids]


def stop_lines(*status_lines: str) -> list[object]:
    """Each panel's status line once Stop is pressed: a reply still being written or waiting
    says so (it read "streaming…" under a half reply for good), any other line stays.

    >>> stop_lines("streaming…", "waiting…", "latency 2 s")[:2]
    ['stopped: Stop was pressed before this reply was finished (it is cut short above)', 'stopped: Stop was pressed before this reply began']
    """
    out: list[object] = []
    for line in status_lines:
        said = (line or "").strip()
        if said.startswith("streaming"):
            out.append(
                "stopped: Stop was pressed before this reply was finished (it is cut short above)"
            )
        elif said.startswith("waiting"):
            out.append("stopped: Stop was pressed before this reply began")
        else:
            out.append(gr.skip())
    return out
