"""A comparison as a reproducibility record: every reply, score, setting and screen, in one go.

What a researcher downloads from the Compare page: the message, each reply
with its model settings and timings, every score with its scorer's setting,
the safety screen (and the second opinion, if asked), and when it was made,
as a CSV (one row per reply and scorer) and a JSON document (everything
nested). The ratings this browser saved on the page of the replies in it go
in too (:func:`your_ratings`): each reply's ``your_ratings`` in the JSON, and
``ratings.csv``, one row per rating, when there are any.

Both files give numbers as a person reads them (:func:`readable`): scores to two
decimals, as the page shows them, and seconds to two decimals (a reply from the
cache took ``1.4861999943605042e-05`` s: it reads ``0.0``). The JSON is rounded
too: no study reads it back, and past two decimals the digits are the machine's
rounding, not the scorer's (they differ from one computer to the next).

>>> from studies.comparison import Comparison
>>> record(Comparison({}, {}, 0))["replies"]
[]
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from config import SETTINGS
from core.ratings import COMPONENTS, shown_item_id
from core.secrets import redact_keys
from core.tables import write_table
from studies.comparison import Comparison

#: The CSV's columns, in order.
COLUMNS = (
    "made_at", "message", "responder_id", "model", "system", "max_tokens", "temperature",
    "latency_s", "reply", "scorer_id", "scorer_setting", "status", "cognitive", "emotional",
    "behavioral", "overall", "why", "reply_safe", "safety_verdict", "concerns", "safety_version",
    "second_opinion_safe", "second_opinion_concerns",
)  # fmt: skip
_REPLY_KEYS = ("model", "system", "max_tokens", "temperature", "latency_s")
#: ``ratings.csv``'s columns: one row per rating of a reply in the download.
RATING_COLUMNS = (
    "made_at", "responder_id", "item_id", "rated_at", "rater", *COMPONENTS, "overall", "safe",
    "concern", "comment", "blind",
)  # fmt: skip
#: Decimals kept of every number in the record (scores, seconds, the spread, temperature).
DECIMALS = 2


def readable(values: Mapping[str, object]) -> dict[str, object]:
    """``values`` with each float rounded to :data:`DECIMALS` (whole numbers, text, None kept).

    >>> readable({"latency_s": 1.4861999943605042e-05, "overall": 2.3333333333333335,
    ...           "max_tokens": 256, "status": "ok", "spread": None})
    {'latency_s': 0.0, 'overall': 2.33, 'max_tokens': 256, 'status': 'ok', 'spread': None}
    """
    return {k: round(v, DECIMALS) if isinstance(v, float) else v for k, v in values.items()}


def second_opinion_cells(opinion: Mapping[str, object]) -> dict[str, object]:
    """The second opinion's verdict (a :meth:`SafetyOpinion.to_row` dict, empty when none was
    asked) as the download's CSV and the flag log name it.

    >>> second_opinion_cells({"judge_reply_safe": 0, "judge_concerns": "missed-risk"})
    {'second_opinion_safe': 0, 'second_opinion_concerns': 'missed-risk'}
    """
    return {
        "second_opinion_safe": opinion.get("judge_reply_safe", ""),
        "second_opinion_concerns": opinion.get("judge_concerns", ""),
    }


def _number(text: object, kind: type = int) -> object:
    """A number the ratings log wrote as text; None when blank or not a number."""
    try:
        return kind(str(text))
    except ValueError:
        return None


def your_ratings(rid: str, reply: Mapping[str, Any], saved: Sequence[Mapping[str, str]]) -> list:
    """The ratings among ``saved`` (ratings-log rows: only this visitor's, the caller's part)
    of this reply: the same responder and the same message and reply (their item id), numbers
    as numbers.

    >>> row = {"responder_id": "a/b", "item_id": shown_item_id("m", "r"), "rater": "AB",
    ...        "cognitive": "3", "emotional": "2", "behavioral": "1", "overall": "2.00",
    ...        "safe": "", "blind": "1"}
    >>> [(r["rater"], r["cognitive"], r["overall"], r["safe"], r["blind"])
    ...  for r in your_ratings("a/b", {"message": "m", "text": "r"}, [row])]
    [('AB', 3, 2.0, None, True)]
    >>> your_ratings("c/d", {"message": "m", "text": "r"}, [row])
    []
    """
    item = shown_item_id(str(reply.get("message") or ""), str(reply.get("text") or ""))
    return [
        {
            "item_id": item,
            "rated_at": row.get("timestamp", ""),
            "rater": row.get("rater", ""),
            **{c: _number(row.get(c)) for c in COMPONENTS},
            "overall": _number(row.get("overall"), float),
            "safe": _number(row.get("safe")),
            "concern": row.get("concern", ""),
            "comment": row.get("comment", ""),
            "blind": row.get("blind") == "1",
        }
        for row in saved
        if item and row.get("item_id") == item and row.get("responder_id") == rid
    ]


def record(
    shown: Comparison, made_at: str | None = None, ratings: Sequence[Mapping[str, str]] = ()
) -> dict[str, Any]:
    """The comparison as one JSON-ready document; each reply's ``your_ratings`` are its
    ratings among ``ratings`` (this visitor's rows of the ratings log: :func:`your_ratings`)."""
    made_at = made_at or dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    replies = []
    for rid, panel in shown.panels.items():
        if panel.reply is None:
            continue
        screen = shown.safety.get(rid)
        opinion = shown.opinions.get(rid)
        replies.append(
            {
                **readable(panel.reply.to_dict()),
                "scores": [
                    {**readable(score.to_dict()), "setting": shown.settings.get(sid, sid)}
                    for (r, sid), score in sorted(shown.scores.items())
                    if r == rid
                ],
                "safety": {**screen.to_row(), "version": screen.version} if screen else None,
                "second_opinion": opinion.to_row() if opinion else None,
                "your_ratings": your_ratings(rid, panel.reply.to_dict(), ratings),
            }
        )
    return {"made_at": made_at, "replies": replies}


def rows(document: dict[str, Any]) -> list[dict[str, object]]:
    """One CSV row per reply and scorer (a reply with no score gets one row)."""
    out = []
    for reply in document["replies"]:
        safety = reply["safety"] or {}
        opinion = reply["second_opinion"] or {}
        base = {
            "made_at": document["made_at"],
            "message": reply["message"],
            "responder_id": reply["responder_id"],
            **{k: reply.get(k) for k in _REPLY_KEYS},
            "reply": reply["text"],
            "reply_safe": safety.get("reply_safe", ""),
            # "uncertain" where the page said "read it yourself" (reply_safe keeps the lean)
            "safety_verdict": safety.get("safety_verdict", ""),
            "concerns": safety.get("concerns", ""),
            "safety_version": safety.get("version", ""),
            **second_opinion_cells(opinion),
        }
        for score in reply["scores"] or [{}]:
            out.append(
                {
                    **base,
                    "scorer_id": score.get("scorer_id", ""),
                    "scorer_setting": score.get("setting", ""),
                    "status": score.get("status", ""),
                    **{c: score.get(c) for c in ("cognitive", "emotional", "behavioral")},
                    "overall": score.get("overall"),
                    "why": score.get("rationale") or score.get("reason") or "",
                }
            )
    return out


def rating_rows(document: dict[str, Any]) -> list[dict[str, object]]:
    """One ``ratings.csv`` row per rating of a reply in the record."""
    return [
        {"made_at": document["made_at"], "responder_id": reply["responder_id"], **rating}
        for reply in document["replies"]
        for rating in reply.get("your_ratings") or []
    ]


def write_record(
    folder: Path,
    shown: Comparison,
    secrets: Sequence[str] = (),
    ratings: Sequence[Mapping[str, str]] = (),
) -> tuple[Path, ...]:
    """``comparison.csv`` and ``comparison.json`` in ``folder`` (formula-safe, keys redacted),
    and ``ratings.csv`` when ``ratings`` (this visitor's ratings-log rows) rate a reply in it."""
    document = record(shown, ratings=ratings)
    csv_path, json_path = folder / "comparison.csv", folder / "comparison.json"
    write_table(csv_path, rows(document), COLUMNS, secrets)
    text = json.dumps(document, ensure_ascii=False, indent=1)
    json_path.write_text(redact_keys(text, [*SETTINGS.keys.secrets(), *secrets]), encoding="utf-8")
    rated = rating_rows(document)
    if not rated:
        return csv_path, json_path
    ratings_path = folder / "ratings.csv"
    write_table(ratings_path, rated, RATING_COLUMNS, secrets)
    return csv_path, json_path, ratings_path
