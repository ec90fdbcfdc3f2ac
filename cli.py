"""Empathy Lab from the command line: the same functions the pages call.

    python cli.py generate --responder local/qwen2.5-coder-1.5b --message "I feel alone"
    python cli.py responders

Replies go to stdout, errors to stderr with a non-zero exit code
(1: the call failed, 2: bad input or an unavailable responder).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from config import DEFAULT_MAX_TOKENS, DEFAULT_SYSTEM_PROMPT, DEFAULT_TEMPERATURE, SETTINGS
from responders.base import ResponderError, ResponderUnavailable
from responders.registry import default_responder_ids, get_responder
from textinput import InputError


def _fail(message: str, code: int) -> int:
    print(f"error: {message}", file=sys.stderr)
    return code


def cmd_generate(args: argparse.Namespace) -> int:
    """Stream one responder's reply to stdout."""
    try:
        responder = get_responder(args.responder)
        message = sys.stdin.read() if args.message == "-" else args.message
        generation = responder.generate(
            message,
            system=args.system,
            max_tokens=args.max_tokens,
            temperature=args.temperature,
        )
    except KeyError as exc:
        return _fail(str(exc.args[0]), 2)
    except (InputError, ValueError) as exc:
        return _fail(str(exc), 2)
    except ResponderUnavailable as exc:
        return _fail(f"{args.responder} is unavailable: {exc}", 2)
    try:
        for chunk in generation:
            sys.stdout.write(chunk)
            sys.stdout.flush()
    except ResponderError as exc:
        sys.stdout.write("\n")
        return _fail(f"{args.responder}: {exc}", 1)
    sys.stdout.write("\n")
    reply = generation.reply
    if args.verbose:
        from compare import describe_reply

        print(describe_reply(reply), file=sys.stderr)
        if reply.attribution:
            print(reply.attribution, file=sys.stderr)
    return 0


def cmd_responders(args: argparse.Namespace) -> int:
    """List the default responders and whether each can run here."""
    for rid in default_responder_ids():
        reason = get_responder(rid).unavailable_reason(SETTINGS.keys)
        print(f"{rid:40s} {'ready' if reason is None else reason}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with one sub-command per task."""
    parser = argparse.ArgumentParser(prog="cli.py", description="Empathy Lab command line")
    sub = parser.add_subparsers(dest="command", required=True)

    gen = sub.add_parser("generate", help="print one responder's reply to a message")
    gen.add_argument("--responder", required=True, help="e.g. local/qwen2.5-coder-1.5b")
    gen.add_argument("--message", required=True, help="the person's message ('-' reads stdin)")
    gen.add_argument("--system", default=DEFAULT_SYSTEM_PROMPT, help="system prompt")
    gen.add_argument("--max-tokens", type=int, default=DEFAULT_MAX_TOKENS)
    gen.add_argument("--temperature", type=float, default=DEFAULT_TEMPERATURE)
    gen.add_argument("-v", "--verbose", action="store_true", help="latency and tokens to stderr")
    gen.set_defaults(func=cmd_generate)

    lst = sub.add_parser("responders", help="list responders and what each needs")
    lst.set_defaults(func=cmd_responders)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
