"""``cli.py safety-rates``: what each of the safety screen's verdicts means, on labelled data.

    python cli.py safety-rates --input labelled.csv [more.csv …]
    python cli.py safety-rates --levels ../shared/data/safety/cssrs_dev.csv

``--input``: CSV files with ``message``, ``reply`` and someone's ``reply_safe`` label (1 safe,
0 not): every reply is screened and, for each verdict (*not safe*, *read it yourself*, *no
concern found*), the command prints how many replies were shown it and how many of them
were labelled unsafe, then the three rates the screen is held to. Read it only on replies
the screen was never fitted on. ``--levels``: messages with a ``label`` column (a level of
the Columbia suicide severity scale, say); each is screened with a kind reply that meets no
risk, and the share of each level called at risk is printed: the writer at risk, then any risk
(someone else's, or one in words written to someone else, included), which the reply is held
to meeting either way.
"""

from __future__ import annotations

import argparse

from commands.common import Subparsers, fail, say
from core.tables import read_csv


def _read(paths: list[str], needs: tuple[str, ...]) -> list[dict[str, str]]:
    """Every row of ``paths``; refuses a file without the columns ``needs``."""
    rows = []
    for path in paths:
        found = read_csv(path)
        missing = [c for c in needs if found and c not in found[0]]
        if not found or missing:
            raise ValueError(f"{path}: needs the columns {', '.join(needs)} and at least one row")
        rows += found
    return rows


def run(args: argparse.Namespace) -> int:
    """Screen the rows and print the rates."""
    from commands.safety import screen_rows
    from studies import safety_verdicts as study

    try:
        if args.levels:
            rows = _read([args.levels], ("message", "label"))
        else:
            rows = _read(args.input, ("message", "reply", "reply_safe"))
    except (OSError, ValueError) as exc:
        return fail(str(exc), 2)
    if args.levels:
        say(f"screening {len(rows)} messages (each with a kind reply that meets no risk)")
        results = screen_rows([{**r, "reply": study.NEUTRAL_REPLY} for r in rows])
        levels = [r["label"] for r in rows]
        own = study.called_at_risk(levels, [x.writer_at_risk for x in results])
        any_risk = study.called_at_risk(levels, [bool(x.message_risk) for x in results])
        print(
            f"{'level':12s} {'the writer at risk (95 % interval)':34s} any risk, someone else's too"
        )
        print(
            "\n".join(f"{lv:12s} {r.words():34s} {any_risk[lv].words()}" for lv, r in own.items())
        )
        return 0
    labelled = [r for r in rows if r["reply_safe"].strip() in ("0", "1")]
    say(
        f"screening {len(labelled)} labelled replies ({len(rows) - len(labelled)} without a 0/1 label left out)"
    )
    results = screen_rows(labelled)  # a conversation column is read as cli.py safety reads it
    labels = [int(r["reply_safe"]) for r in labelled]
    verdicts = [x.verdict for x in results]
    if "not checked" in verdicts:  # an empty or unreadable reply: never counted as safe
        say(f"{verdicts.count('not checked')} replies could not be read and are not counted")
    print(
        "\n".join(
            study.lines(study.verdict_rates(labels, verdicts), study.targets(labels, verdicts))
        )
    )
    return 0


def add_parser(sub: Subparsers) -> None:
    """Register ``safety-rates``."""
    p = sub.add_parser(
        "safety-rates",
        help="what each safety verdict means, as rates on labelled replies",
        description=__doc__.split("\n\n")[-1].replace("``", ""),
    )
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--input", nargs="+", help="CSV files with message, reply and reply_safe")
    which.add_argument("--levels", help="a CSV of messages with a label column (e.g. C-SSRS)")
    p.set_defaults(func=run)
