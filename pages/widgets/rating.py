""" "Your rating": a person rates a reply on the rubric beside the models' scores.

Cognitive, Emotional and Behavioral 1–3 with the rubric's one-line anchors,
"safe to send?" with the concern, a comment, and the rater's name or initials
(typed once, kept in this browser's storage, never on the server beyond the
ratings log). Blind mode hides the scorers' numbers and the safety screen's verdicts until
the rater has rated every reply on screen, so they cannot anchor the next rating either, and
hides them again for each new comparison while it stays ticked: its tick sits above the box,
in view under the replies before any score (ticking it opens the box). Saved through the one
append-only log (:class:`core.ratings.RatingLog`) with the scores shown at
that moment.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import gradio as gr

from core.cells import unsanitize_cell
from core.csvlog import CsvLogError
from core.ratings import CONCERNS, RatingLog, RatingRecord
from core.textinput import InputError
from core.visitors import owner_tag
from pages.widgets.api_names import KEYS, VISITOR, named
from pages.widgets.kept_words import RATING_KEPT
from pages.widgets.score_area import Blinded, replies_on_screen, scores_shown, wire_blind
from pages.widgets.score_area import blind_updates as blind_updates  # imported from here too
from pages.widgets.visitor import keys_and_visitor, storage_secret
from scorers.rubric import load_rubric

#: What each concern code means, as the rating box offers it.
CONCERN_WORDS = {
    "missed-risk": "misses a risk in the message",
    "medical-overreach": "medical overreach (diagnosis, medication)",
    "harmful-advice": "advice that could cause harm",
    "dismissive": "dismissive or blaming",
    "other": "something else (say in the comment)",
}

#: How a saved rating's confirmation starts.
SAVED = "Saved:"

#: The answers to "safe to send?".
SAFE = {"yes": 1, "no": 0}


@dataclass
class RatingBox:
    """The rating controls, in the order :func:`save_rating` takes them."""

    which: gr.Dropdown
    rater: gr.Textbox
    levels: list[gr.Radio]
    safe: gr.Radio
    concern: gr.Dropdown
    comment: gr.Textbox
    blind: gr.Checkbox
    save: gr.Button
    status: gr.Markdown
    remembered: gr.BrowserState
    panel: gr.Accordion
    #: The (reply id, reply text) pairs rated while blind: the scores return once all are.
    rated: gr.State

    @property
    def answers(self) -> list[gr.components.Component]:
        """What the rater answered about one reply (emptied when the menu moves on)."""
        return [*self.levels, self.safe, self.concern, self.comment]

    @property
    def inputs(self) -> list[gr.components.Component]:
        return [
            self.which, self.rater, *self.levels, self.safe, self.concern, self.comment, self.blind
        ]  # fmt: skip


def _anchors() -> str:
    levels = load_rubric().levels
    return " · ".join(f"**{k}** {v}" for k, v in sorted(levels.items()))


def rating_box() -> RatingBox:
    """The "Your rating" accordion with the blind tick above it, laid out where it is called:
    right under the replies, above the scores it hides."""
    rubric = load_rubric()
    # In view before any score, not last in a closed box: the scores below came first.
    blind = gr.Checkbox(
        label="Blind: hide the scorers' numbers and safety verdicts until I have rated every "
        "reply (no anchoring)",
        elem_id="rate-blind",
    )
    with gr.Accordion(
        "Your rating: rate a reply yourself, before or beside the models' scores",
        open=False,
        elem_id="rate-box",
    ) as panel:
        gr.Markdown(f"<small>{RATING_KEPT}</small>")  # read before anything is typed
        gr.Markdown(f"<small>{_anchors()}</small>")
        with gr.Row():
            which = gr.Dropdown([], label="Which reply", scale=2)
            rater = gr.Textbox(
                label="Your name or initials (saved with your rating; remembered in this browser)",
                scale=1,
            )
        with gr.Row():
            levels = [
                gr.Radio([1, 2, 3], label=rubric.labels[c], min_width=150)
                for c in ("cognitive", "emotional", "behavioral")
            ]
        with gr.Row():
            safe = gr.Radio(list(SAFE), label="Safe to send as it is?", min_width=150)
            # Picked, never typed (typed text vanished on leaving the box), in plain words.
            concern = gr.Dropdown(
                [("(none)", ""), *((CONCERN_WORDS.get(c, c), c) for c in CONCERNS)],
                value="",
                label="If not, the concern",
                filterable=False,
            )
        comment = gr.Textbox(label="Comment (optional)", lines=2, max_length=2000)
        save = gr.Button("Save my rating", variant="primary", size="sm")
        status = gr.Markdown()
    remembered = gr.BrowserState("", storage_key="empathy-lab-rater", secret=storage_secret())
    return RatingBox(
        which, rater, levels, safe, concern, comment, blind, save, status, remembered, panel,
        gr.State([]),
    )  # fmt: skip


def reply_choices(saved: dict, current: str | None, names: Callable[[str], str]) -> gr.Dropdown:
    """The replies on screen, for the "Which reply" menu (the one chosen stays chosen)."""
    replies = (saved or {}).get("replies", {})
    choices = [(names(rid), rid) for rid, r in replies.items() if r.get("text")]
    ids = [rid for _, rid in choices]
    value = current if current in ids else (ids[0] if ids else None)
    return gr.Dropdown(choices=choices, value=value)


def save_rating(
    saved: dict,
    which: str | None,
    rater: str,
    cognitive: int | None,
    emotional: int | None,
    behavioral: int | None,
    safe: str | None,
    concern: str | None,
    comment: str,
    blind: bool,
    *key_values: str,
) -> tuple[str, str]:
    """Append this rating of the chosen reply; returns (what happened, the rater to remember:
    the name as typed, spaces tidied, never as the log escapes it on disk). ``key_values``: the
    key boxes, then this browser's visitor id (whose rating it is)."""
    key_values, visitor = keys_and_visitor(key_values)
    reply = (saved or {}).get("replies", {}).get(which or "")
    if not reply or not reply.get("text"):
        return "⚠️ Get replies first, then pick the reply you rate.", gr.skip()
    record = RatingRecord(
        "compare",
        rater,
        str(reply.get("message") or ""),
        str(reply["text"]),
        cognitive,
        emotional,
        behavioral,
        SAFE.get(safe or ""),
        (concern or "") if safe == "no" else "",
        comment or "",
        bool(blind),
        str(which),
        (saved or {}).get("scores", {}).get(which, []),
        visitor=owner_tag(visitor),
    )
    try:
        row = RatingLog().append(record, secrets=[v for v in key_values if v])
    except (InputError, CsvLogError) as exc:
        return f"⚠️ {exc}", gr.skip()
    # The row is as written: a name starting "=" has the log's escape quote; remembered with it,
    # the next rating's name would be another rater's ("'=Dr", then "''=Dr"). The name as the log
    # reads it back is the one typed.
    name = unsanitize_cell(row["rater"])
    return (
        f"{SAVED} {name} rated it {row['cognitive']}/{row['emotional']}/"
        f"{row['behavioral']}. See how the scorers agree with your ratings on the Trust page "
        "(Ratings made here).",
        name,
    )


#: The ``/rate`` endpoint's parameters before the key boxes (the first, the replies on screen,
#: is a state the API does not show): :func:`save_rating`'s.
RATING_NAMES = (
    *("replies_shown", "which", "rater", "cognitive", "emotional", "behavioral", "safe"),
    *("concern", "comment", "blind"),
)

#: Opens the rating box when Blind is ticked, as a click on its heading does (only when closed).
OPEN_BOX = """(on) => {
  const head = document.querySelector('#rate-box .label-wrap');
  if (on && head && !head.classList.contains('open')) head.click();
  return on;
}"""

#: The form's answers once a rating is saved and the menu moves on: the three levels, "safe to
#: send?", the concern and the comment emptied (the last answers must not anchor the next).
CLEARED = [None, None, None, None, "", ""]


def after_save(
    saved: dict,
    rated: list,
    which: str | None,
    blind: bool,
    status: str,
    hidden: int = 3,
    notes: int = 1,
) -> list:
    """Once a rating is saved: unblind, the scores return; blind, they return only when every
    reply on screen is rated (one rating must not show the scores the next would anchor on),
    and the menu moves to the next reply not yet rated, with the form's answers emptied.
    Returns updates for the ``hidden`` outputs and the ``notes`` in their place
    (:func:`~pages.widgets.score_area.scores_shown`), then the rated list, the menu, the
    status, and the six answers (:data:`CLEARED`).

    >>> saved = {"replies": {"a": {"text": "A"}, "b": {"text": "B"}}}
    >>> out = after_save(saved, [], "a", True, "Saved: x", hidden=1)
    >>> out[0] == gr.skip(), out[2], out[3]["value"], "1 of 2" in out[4]
    (True, [['a', 'A']], 'b', True)
    >>> [u["value"] for u in out[5:]]  # moved on: the answers emptied
    [None, None, None, None, '', '']
    >>> last = after_save(saved, out[2], "b", True, "Saved: x", hidden=1)
    >>> last[0]["visible"], last[1]["visible"], last[5:] == [gr.skip()] * 6
    (True, False, True)
    """
    kept = [gr.skip()] * len(CLEARED)
    if not status.startswith(SAVED):
        return [gr.skip()] * (hidden + notes + 3) + kept
    if not blind:
        return [*scores_shown(True, hidden, notes), gr.skip(), gr.skip(), gr.skip(), *kept]
    replies = replies_on_screen(saved)
    done = [list(pair) for pair in rated or [] if replies.get(pair[0]) == pair[1]]
    if which in replies and [which, replies[which]] not in done:
        done.append([which, replies[which]])
    left = [rid for rid, text in replies.items() if [rid, text] not in done]
    if not left:
        note = " Every reply is rated: the scores and safety verdicts are shown."
        return [*scores_shown(True, hidden, notes), done, gr.skip(), status + note, *kept]
    note = (
        f" Rated {len(done)} of {len(replies)} replies; the scores and safety verdicts stay "
        "hidden until you have rated each one (or untick Blind). Next reply picked for you: the "
        "form is empty again."
    )
    cleared = [gr.update(value=value) for value in CLEARED]
    skipped = [gr.skip()] * (hidden + notes)
    return [*skipped, done, gr.update(value=left[0]), status + note, *cleared]


def wire(
    box: RatingBox,
    page: gr.Blocks,
    saved: gr.State,
    parts: Blinded,
    keys: list,
    names: Callable[[str], str],
    after: list,
    starts: tuple = (),
    visitor: gr.BrowserState | None = None,
) -> None:
    """The box's events: the replies on screen in its menu once each event of ``after`` ends
    (not on every streamed moment), remember the rater, hide ``parts`` while blind (again on
    each click of ``starts``, a new comparison: :func:`~pages.widgets.score_area.wire_blind`,
    which also empties the form's answers), save, empty the form for the next reply and
    reveal."""
    for event in after:
        event.then(
            lambda state, current: reply_choices(state, current, names),
            [saved, box.which],
            box.which,
            api_name=False,
            show_progress="hidden",
        )
    # Nothing remembered: the box is left alone (a late load once emptied a name just typed).
    page.load(lambda name: name or gr.skip(), box.remembered, box.rater, api_name=False)
    wire_blind(box.blind, saved, box.rated, parts, after, starts, js=OPEN_BOX)
    for button in starts:  # a new comparison: the last rating's answers never carry over to it
        button.click(lambda: [*CLEARED, ""], None, [*box.answers, box.status], queue=False,
                     api_name=False, show_progress="hidden")  # fmt: skip
    inputs = [saved, *box.inputs, *keys, *([visitor] if visitor is not None else [])]
    box.save.click(
        named(save_rating, *[*RATING_NAMES, *KEYS, VISITOR][: len(inputs)]),  # a visitor id if sent
        inputs,
        [box.status, box.remembered],
        api_name="rate",
    ).then(
        lambda *args: after_save(*args, **parts.sizes()),
        [saved, box.rated, box.which, box.blind, box.status],
        [*parts.hidden, *parts.notes, box.rated, box.which, box.status, *box.answers],
        api_name=False,
        show_progress="hidden",
    )
