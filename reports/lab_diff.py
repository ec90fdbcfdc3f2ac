"""The lab's changed text as HTML: a word diff, or the whole text where a diff would be all
marks (a reorder, a change nearly throughout). Replies are untrusted: every word is escaped.

>>> print(diff_html("I hear you, truly", "I h3ar you, truly"))
I <del style='color:#b00'>hear</del><mark>h3ar</mark> you, truly
"""

from __future__ import annotations

import difflib
import html
import re

#: Words, runs of spaces and single marks: what a diff compares (a changed letter marks its word).
_TOKENS = re.compile(r"\w+|\s+|[^\w\s]")
#: Below this share of words kept, a word diff is mostly marks: the new text is shown whole.
KEPT_TO_DIFF = 0.5


def diff_html(before: str, after: str) -> str:
    """``after`` with inserted words marked and deleted words struck through (escaped); the
    same sentences in a new order, or text changed nearly throughout, shown whole with a note
    (a word-by-word diff of those is unreadable).

    >>> print(diff_html("I hear you. Sleep matters.", "Sleep matters. I hear you."))
    <small><i>the same sentences in a new order:</i> (the small number is where each stood before)</small><br><sup>2</sup>Sleep matters. <sup>1</sup>I hear you.
    >>> print(diff_html("I  hear you. Sleep matters.", "I hear you. Sleep matters."))
    I hear you. Sleep matters.
    >>> print(diff_html("I hear you", "1 h34r y0u"))
    <small><i>changed throughout; the new text:</i></small><br>1 h34r y0u
    """
    said, says = _sentences(before), _sentences(after)
    if said != says and sorted(said) == sorted(says):
        return _new_order(said, says)
    a, b = _TOKENS.findall(before), _TOKENS.findall(after)
    matcher = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    if _words_kept(matcher, b) < KEPT_TO_DIFF:
        return _whole("changed throughout; the new text", after)
    out = []
    for op, a0, a1, b0, b1 in matcher.get_opcodes():
        old, new = "".join(a[a0:a1]), "".join(b[b0:b1])
        if op == "equal" or (old.isspace() and new.isspace()):  # spacing is not a change seen
            out.append(_escape(new))
            continue
        if _look_alike(old, new):  # struck "you" beside marked "yοu" read as a stammer
            out.append(f"<mark title='{LOOK_ALIKE}: was {html.escape(old)}'>{_escape(new)}</mark>")
            continue
        if old:
            out.append(f"<del style='color:#b00'>{_escape(old)}</del>")
        if new:
            out.append(f"<mark>{_escape(new)}</mark>")
    return "".join(out).replace("\n", "<br>")


#: The hover text of a word whose letters were swapped for others that look the same.
LOOK_ALIKE = "letters swapped for look-alikes"


def _look_alike(old: str, new: str) -> bool:
    """Whether ``new`` is ``old`` with some plain letters swapped for non-ASCII ones of the
    same count (a homoglyph change): the words look the same, so a diff shows only the new.

    >>> _look_alike("you", "y\u03bfu"), _look_alike("you", "y0u"), _look_alike("a b", "a b")
    (True, False, False)
    """
    if len(old) != len(new) or old == new:
        return False
    return all(o == n or (o.isascii() and not n.isascii()) for o, n in zip(old, new, strict=True))


#: Characters a reader cannot see, drawn as a marked dot where they stand.
_INVISIBLE = re.compile("[\u200b\u200c\u200d\u2060\ufeff\u00ad]")


def _escape(text: str) -> str:
    """HTML-escaped, with each invisible character shown as a marked dot.

    >>> _escape("a\u200bb<")
    "a<mark title='an invisible character'>·</mark>b&lt;"
    """
    return _INVISIBLE.sub("<mark title='an invisible character'>·</mark>", html.escape(text))


def _words_kept(matcher: difflib.SequenceMatcher, after: list[str]) -> float:
    """The share of the new text's words (not spaces) that the old text had in place."""
    words = [i for i, t in enumerate(after) if not t.isspace()]
    kept = {
        i for block in matcher.get_matching_blocks() for i in range(block.b, block.b + block.size)
    }
    return sum(i in kept for i in words) / max(len(words), 1)


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s.strip()]


def _new_order(said: list[str], says: list[str]) -> str:
    """The sentences in their new order, each after its place before as a small number
    (before and after in one view: a word diff of a reorder is all marks)."""
    places: dict[str, list[int]] = {}
    for place, sentence in enumerate(said, 1):
        places.setdefault(sentence, []).append(place)
    shown = " ".join(f"<sup>{places[s].pop(0)}</sup>{_escape(s)}" for s in says)
    return (
        "<small><i>the same sentences in a new order:</i> (the small number is where each "
        "stood before)</small><br>" + shown.replace("\n", "<br>")
    )


def _whole(note: str, text: str) -> str:
    return f"<small><i>{note}:</i></small><br>" + _escape(text).replace("\n", "<br>")
