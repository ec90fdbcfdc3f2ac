"""train-head's checks of its labels, before anything is trained and for the card.

Holds ``FEW_REPLIES``, :func:`messages` (each row's cross-validation group),
:func:`refused_or_warned` and :func:`too_few_to_cross_validate` (whether the labels are
enough for cross-validation) and :func:`labels_by` (who made them).
:mod:`commands.train_head` imports them from here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from commands.common import say

if TYPE_CHECKING:
    import pandas as pd


#: Fewer rated replies than this and train-head warns that its cross-validated figures are wide.
FEW_REPLIES = 50


def messages(labels: pd.DataFrame) -> list[str]:
    """Each row's cross-validation group: its message (a reply without one: itself)."""
    message = labels.get("message", labels.reply)
    return message.fillna(labels.reply).astype(str).tolist()


def refused_or_warned(labels: pd.DataFrame, folds: int) -> str:
    """Why ``labels`` are too few for ``folds``-fold cross-validation (before anything is
    trained: scikit-learn's traceback was all a clinic's first ratings got), else "" after
    a warning when they are enough but few."""
    refusal = too_few_to_cross_validate(len(labels), len(set(messages(labels))), folds)
    if not refusal and len(labels) < FEW_REPLIES:
        say(
            f"warning: only {len(labels)} rated replies: the cross-validated figures will be "
            f"wide (a rough guide at best); {FEW_REPLIES} or more give steadier ones"
        )
    return refusal


def too_few_to_cross_validate(replies: int, groups: int, folds: int) -> str:
    """Why ``folds``-fold cross-validation cannot run on ``replies`` rated replies to ``groups``
    different messages (a message's replies stay in one fold), or "" when it can.

    >>> print(too_few_to_cross_validate(2, 1, 5).split(": ", 1)[1])
    rate 4 more replies, each to a message not rated yet (or use fewer --folds, at least 2)
    >>> too_few_to_cross_validate(6, 3, 2)
    ''
    """
    if folds < 2:
        return f"--folds must be at least 2 (got {folds})"
    if groups >= folds:  # a message has at least one reply, so replies >= groups too
        return ""
    had = f"{replies} repl{'y' if replies == 1 else 'ies'} to {groups} message{'s' * (groups != 1)}"
    more = folds - groups
    fewer = " (or use fewer --folds, at least 2)" if folds > 2 else ""
    return (
        f"train-head needs at least {folds} rated replies to {folds} different messages for "
        f"{folds} folds (a message's replies are held out together); you have {had}: rate "
        + ("1 more reply, to a message" if more == 1 else f"{more} more replies, each to a message")
        + f" not rated yet{fewer}"
    )


def labels_by(labels: object) -> str:
    """Who made the labels a head is trained on, for its card.

    >>> import pandas as pd
    >>> labels_by(pd.DataFrame({"source": ["ratings-here"], "n_raters": [2]}))
    'people: ratings made in this app (1 replies, up to 2 raters each; cli.py ratings export)'
    """
    from core.ratings import SOURCE

    source = getattr(labels, "source", None)
    if source is not None and len(source) and (source == SOURCE).all():
        most = int(labels.n_raters.max())  # type: ignore[attr-defined]
        return (
            f"people: ratings made in this app ({len(source)} replies, up to {most} raters "
            "each; cli.py ratings export)"
        )
    return "as given in the labels file (the bundled ones: LLM annotators, not people)"
