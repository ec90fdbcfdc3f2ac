"""Join a round of written conversations and write what its annotators read (issue 32).

A writer's files are ``<prefix>_conversations.jsonl`` and ``<prefix>_candidates.csv`` in
``tools/conversation_data/``. This checks them (turns alternate, start and end on the
seeker; five candidates a conversation, one per style), joins several writers' parts into
one round, and writes ``<round>_items.md``: each conversation, then its candidates in
letter order, with no style (annotators never see it).

    python tools/conversation_items.py r3a r3b --round r3    # two writers' parts -> r3_*
    python tools/conversation_items.py heldout3              # one part, items only
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path

import pandas as pd

DATA = Path(__file__).resolve().parent / "conversation_data"
STYLES = {"attentive", "repetitive", "forgets", "advice", "generic"}


def problems(conversations: list[dict], candidates: pd.DataFrame) -> list[str]:
    """What is wrong with a round's files (nothing: an empty list).

    >>> conv = {"conversation_id": "n1", "turns": [{"role": "supporter", "text": "Hi"}]}
    >>> problems([conv], pd.DataFrame(columns=["candidate_id", "conversation_id", "style"]))
    ['n1: does not start on the seeker', 'n1: does not end on the seeker', 'n1: 0 candidates']
    """
    found = []
    for c in conversations:
        cid, roles = c["conversation_id"], [t["role"] for t in c["turns"]]
        if roles[0] != "seeker":
            found.append(f"{cid}: does not start on the seeker")
        if roles[-1] != "seeker":
            found.append(f"{cid}: does not end on the seeker")
        if any(a == b for a, b in itertools.pairwise(roles)):
            found.append(f"{cid}: two turns in a row by one side")
        if any(not t["text"].strip() for t in c["turns"]):
            found.append(f"{cid}: an empty turn")
        mine = candidates[candidates.conversation_id == cid]
        if set(mine["style"]) != STYLES or len(mine) != len(STYLES):
            found.append(f"{cid}: {len(mine)} candidates")
    ids = [c["conversation_id"] for c in conversations]
    if len(set(ids)) != len(ids) or candidates.candidate_id.duplicated().any():
        found.append("an id is used twice")
    return found


def items_text(conversations: list[dict], candidates: pd.DataFrame) -> str:
    """The annotators' reading: conversations and candidates, no styles."""
    out = [
        f"# Items to rate: {len(conversations)} conversations, 5 candidate next supporter "
        f"turns each ({len(candidates)} items)\n"
    ]
    for c in conversations:
        out.append(f"## Conversation {c['conversation_id']}\n")
        out += [f"**{t['role'].capitalize()}:** {t['text']}\n" for t in c["turns"]]
        mine = candidates[candidates.conversation_id == c["conversation_id"]]
        for row in mine.sort_values("candidate_id").itertuples():
            out.append(f"### Item {row.candidate_id} (candidate next supporter turn)\n")
            out.append(f"{row.text}\n")
        out.append("---\n")
    return "\n".join(out) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("parts", nargs="+", help="the writers' file prefixes")
    parser.add_argument("--round", help="join the parts into this prefix (one part: its own)")
    args = parser.parse_args()
    name = args.round or args.parts[0]
    conversations, frames = [], []
    for part in args.parts:
        lines = (DATA / f"{part}_conversations.jsonl").read_text("utf-8").splitlines()
        conversations += [json.loads(line) for line in lines if line.strip()]
        frames.append(pd.read_csv(DATA / f"{part}_candidates.csv"))
    candidates = pd.concat(frames, ignore_index=True).sort_values("candidate_id")
    found = problems(conversations, candidates)
    if found:
        sys.exit("\n".join(found))
    if args.round:
        text = "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in conversations)
        (DATA / f"{name}_conversations.jsonl").write_text(text, "utf-8")
        candidates.to_csv(DATA / f"{name}_candidates.csv", index=False)
    (DATA / f"{name}_items.md").write_text(items_text(conversations, candidates), "utf-8")
    print(f"{name}: {len(conversations)} conversations, {len(candidates)} candidates")


if __name__ == "__main__":
    main()
