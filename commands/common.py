"""What every command shares: messages for people, exit codes, reading replies.

Exit codes: 0 done, 1 a call failed, 2 bad input or an unknown or
unavailable responder or scorer.
"""

from __future__ import annotations

import argparse
import sys

from core.tables import read_csv

#: ``commands/<name>.py`` modules each expose ``add_parser(sub)``.
Subparsers = argparse._SubParsersAction


def comma_list(text: str) -> list[str]:
    """An argparse type: ``"a, b,,a"`` → ``["a", "b"]`` (trimmed, empty parts and repeats dropped).

    >>> comma_list(" bert-head, judge ,,bert-head")
    ['bert-head', 'judge']
    """
    return list(dict.fromkeys(part.strip() for part in (text or "").split(",") if part.strip()))


def say(text: str) -> None:
    """Progress for people: to stderr, at once."""
    print(text, file=sys.stderr, flush=True)


def fail(message: str, code: int) -> int:
    """Print ``error: message`` to stderr and return the exit code."""
    print(f"error: {message}", file=sys.stderr)
    return code


def load_replies(path: str | None, limit: int | None = None) -> list[dict[str, str]]:
    """Rows with a ``reply`` (and maybe ``message``): a CSV file or the bundled ones."""
    if path is None:
        from core.questions import load_questions

        rows = [{"message": q.question, "reply": q.answer} for q in load_questions()]
    else:
        rows = read_csv(path)
        if rows and "reply" not in rows[0]:
            raise ValueError(f"{path} has no 'reply' column (columns: {', '.join(rows[0])})")
    return rows[:limit] if limit else rows


def add_persona_options(parser: argparse.ArgumentParser) -> None:
    """The judge's reader-persona flags (after Roshanaei et al.)."""
    parser.add_argument("--persona-gender", default=None, help="judge reads as, e.g., 'woman'")
    parser.add_argument("--empathic-concern", choices=["low", "high"], default=None)
    parser.add_argument("--perspective-taking", choices=["low", "high"], default=None)
    parser.add_argument(
        "--shared-experience",
        choices=["yes", "no"],
        default=None,
        help="the reader has (not) been through something like the writer",
    )


def persona(args: argparse.Namespace):
    """The judge's reader persona from the command line (None when no part is given)."""
    from scorers.judge.persona import Persona

    return Persona.from_choices(
        args.persona_gender, args.empathic_concern, args.perspective_taking, args.shared_experience
    )
