"""``cli.py generate`` and ``cli.py responders``: one reply to stdout; who can run here."""

from __future__ import annotations

import argparse
import sys

from commands.common import Subparsers, fail
from config import DEFAULT_MAX_TOKENS, DEFAULT_SYSTEM_PROMPT, DEFAULT_TEMPERATURE
from core.conversation import asked
from core.textinput import InputError
from responders.base import ResponderError, ResponderUnavailable
from responders.registry import availability, get_responder


def run_generate(args: argparse.Namespace) -> int:
    """Stream one responder's reply to stdout."""
    try:
        responder = get_responder(args.responder)
        text = sys.stdin.read() if args.message == "-" else args.message
        generation = responder.generate(
            asked(text),  # Seeker:/Supporter: lines or JSON turns: the supporter's next turn
            system=args.system,
            max_tokens=args.max_tokens,
            temperature=args.temperature,
        )
    except KeyError as exc:
        return fail(str(exc.args[0]), 2)
    except (InputError, ValueError) as exc:
        return fail(str(exc), 2)
    except ResponderUnavailable as exc:
        return fail(f"{args.responder} is unavailable: {exc}", 2)
    try:
        for chunk in generation:
            sys.stdout.write(chunk)
            sys.stdout.flush()
    except ResponderError as exc:
        sys.stdout.write("\n")
        return fail(f"{args.responder}: {exc}", 1)
    sys.stdout.write("\n")
    reply = generation.reply
    if args.verbose:
        from studies.comparison import describe_reply

        print(describe_reply(reply), file=sys.stderr)
        if reply.attribution:
            print(reply.attribution, file=sys.stderr)
    return 0


def run_responders(args: argparse.Namespace) -> int:
    """List the offered responders and whether each can run here."""
    for rid, reason in availability().items():
        print(f"{rid:40s} {'ready' if reason is None else reason}")
    return 0


def add_parser(sub: Subparsers) -> None:
    """Register ``generate`` and ``responders``."""
    gen = sub.add_parser("generate", help="print one responder's reply to a message")
    gen.add_argument("--responder", required=True, help="e.g. local/qwen2.5-coder-1.5b")
    gen.add_argument(
        "--message",
        required=True,
        help="the person's message, or a conversation as Seeker:/Supporter: lines ending on "
        "the seeker ('-' reads stdin): the reply is the supporter's next turn",
    )
    gen.add_argument("--system", default=DEFAULT_SYSTEM_PROMPT, help="system prompt")
    gen.add_argument("--max-tokens", type=int, default=DEFAULT_MAX_TOKENS)
    gen.add_argument("--temperature", type=float, default=DEFAULT_TEMPERATURE)
    gen.add_argument("-v", "--verbose", action="store_true", help="latency and tokens to stderr")
    gen.set_defaults(func=run_generate)

    lst = sub.add_parser("responders", help="list responders and what each needs")
    lst.set_defaults(func=run_responders)
