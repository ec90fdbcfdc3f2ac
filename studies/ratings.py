"""What the ratings made here say: each reply's mean rating, agreement between raters, labels.

>>> import pandas as pd
>>> df = pd.DataFrame({"item_id": ["a", "a", "b", "b"], "message": ["m"] * 4,
...     "reply": ["r1", "r1", "r2", "r2"], "rater": ["x", "y", "x", "y"],
...     "cognitive": [3, 3, 1, 1], "emotional": [3, 2, 1, 1], "behavioral": [2, 2, 1, 2]})
>>> per_reply(df)[["item_id", "cognitive", "n_raters"]].values.tolist()
[['a', 3.0, 2], ['b', 1.0, 2]]
>>> rater_agreement(df)["cognitive"]
1.0
"""

from __future__ import annotations

import krippendorff
import numpy as np
import pandas as pd

from core.ratings import COMPONENTS, SOURCE, RatingLog

#: The columns of the rubric-labels format (``assets/data/rubric_labels.csv``).
LABEL_COLUMNS = ("id", "source", "source_id", "message", "reply", *COMPONENTS, "n_raters")


def per_reply(df: pd.DataFrame) -> pd.DataFrame:
    """One row per rated reply: the mean of its raters per component, and how many rated it.

    A rater who rated the same reply twice counts once (their latest rating).
    """
    if df.empty:
        return pd.DataFrame(columns=["item_id", "message", "reply", *COMPONENTS, "n_raters"])
    latest = df.drop_duplicates(["item_id", "rater"], keep="last")
    grouped = latest.groupby("item_id", sort=False)
    out = grouped[list(COMPONENTS)].mean()
    out["n_raters"] = grouped["rater"].nunique()
    texts = latest.drop_duplicates("item_id").set_index("item_id")[["message", "reply"]]
    return texts.join(out).reset_index()


def rater_agreement(df: pd.DataFrame) -> dict[str, float | None]:
    """Krippendorff's α (interval) between raters per component, over replies rated by two or
    more; None where no reply has two raters (α cannot be told)."""
    latest = df.drop_duplicates(["item_id", "rater"], keep="last")
    shared = latest.groupby("item_id")["rater"].transform("nunique") >= 2
    latest = latest[shared]
    out: dict[str, float | None] = {}
    for component in COMPONENTS:
        if latest.empty:
            out[component] = None
            continue
        table = latest.pivot(index="rater", columns="item_id", values=component)
        values = table.to_numpy(dtype=float)
        if np.nanvar(values) == 0:  # every rating the same: perfect agreement, α undefined
            out[component] = 1.0
            continue
        out[component] = round(
            float(krippendorff.alpha(values, level_of_measurement="interval")), 3
        )
    return out


def as_labels(df: pd.DataFrame) -> pd.DataFrame:
    """The ratings in the rubric-labels format, ready for ``cli.py train-head --labels``."""
    replies = per_reply(df)
    return pd.DataFrame(
        {
            "id": "here-" + replies.item_id.astype(str),
            "source": SOURCE,
            "source_id": replies.item_id.astype(str),
            "message": replies.message,
            "reply": replies.reply,
            **{c: replies[c].round(3) for c in COMPONENTS},
            "n_raters": replies.n_raters.astype(int),
        },
        columns=list(LABEL_COLUMNS),
    )


def ratings_note(df: pd.DataFrame) -> str:
    """One line on who rated what and how far they agreed.

    >>> ratings_note(pd.DataFrame(columns=["item_id", "rater", *COMPONENTS]))
    'no ratings made here yet'
    >>> ratings_note(pd.DataFrame({"item_id": [1], "rater": ["DW"], **dict.fromkeys(COMPONENTS, [2])}))[:48]
    'ratings made here by people: 1 rater, 1 reply; n'
    """
    if df.empty:
        return "no ratings made here yet"
    alphas = rater_agreement(df)
    said = ", ".join(f"{c} {a:.2f}" for c, a in alphas.items() if a is not None)
    agreement = (
        f"agreement between raters (Krippendorff's α): {said}"
        if said
        else "no reply has two raters yet, so their agreement cannot be told"
    )
    raters, replies = df.rater.nunique(), df.item_id.nunique()
    return (
        f"ratings made here by people: {raters} rater{'s' if raters != 1 else ''}, "
        f"{replies} repl{'ies' if replies != 1 else 'y'}; {agreement}"
    )


def load_ratings() -> pd.DataFrame:
    """Every rating in the app's ratings log."""
    return RatingLog().table()
