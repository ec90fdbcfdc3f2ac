"""docs/layout.md names every Python module of the repository, each in its folder's section.

The page's rule (written at its top): a folder's section starts at a heading ``### <folder>/``
(``### ./`` for the top level) and runs to the next heading of level 1 to 3; each module is
one line ``- `name.py`: what it holds``. Every ``.py`` file except ``__init__.py`` (and the
suite's own ``tests/<feature>/test_*.py``) must have its line in its folder's section, and
every line must name a file that is there, so a module added, renamed or deleted without its
line fails.

``lab/`` (experiments and probes) is walked like any folder, and its own index,
``lab/README.md``, is held to the folder too: every lab script has a row among the kept
ones, a kept row names a script that is there, and a retired row names one that is gone,
with the commit that brings it back.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from config import ROOT

PAGE = ROOT / "docs" / "layout.md"
LAB = ROOT / "lab"

SECTION = re.compile(r"^#{1,3} ")  # a heading that ends the section before it
ENTRY = re.compile(r"^- `([^`]+\.py)`")  # a line that names a module
DESCRIBED = re.compile(r"^- `[A-Za-z0-9_]+\.py`: \S+(?: \S+){2,}")  # name, colon, a few words

#: Folders that hold no source of the project: what runs and people leave behind, caches.
SKIPPED = {"__pycache__", "flagged", "runs", "test-artifacts", "node_modules", "bench/results"}


def _folder(path: Path) -> str:
    """A file's folder as the page's headings spell it: ``core/``, ``scorers/judge/``, ``./``."""
    rel = path.parent.relative_to(ROOT).as_posix()
    return "./" if rel == "." else rel + "/"


def modules_on_disk() -> set[tuple[str, str]]:
    """Every (folder, module) the page must name."""
    found: set[tuple[str, str]] = set()
    for here, dirs, files in os.walk(ROOT):
        rel = Path(here).relative_to(ROOT).as_posix()
        dirs[:] = [
            d
            for d in dirs
            if not d.startswith(".")
            and d not in SKIPPED
            and (f"{rel}/{d}" if rel != "." else d) not in SKIPPED
            and not (Path(here) / d / "pyvenv.cfg").exists()
        ]
        for name in files:
            if not name.endswith(".py") or name == "__init__.py":
                continue
            if rel.split("/")[0] == "tests" and name.startswith("test_"):
                continue
            found.add((_folder(Path(here) / name), name))
    return found


def page_sections(text: str) -> tuple[dict[str, list[str]], list[str], list[str]]:
    """The page read by its rule: ``{folder: [entry line, …]}``, the folders headed more than
    once, and the module lines that stand outside any folder's section."""
    sections: dict[str, list[str]] = {}
    twice: list[str] = []
    stray: list[str] = []
    current: str | None = None
    fenced = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            continue
        if SECTION.match(line):
            words = line.split()
            current = words[1] if len(words) > 1 and words[1].endswith("/") else None
            if current is not None:
                if current in sections:
                    twice.append(current)
                sections.setdefault(current, [])
            continue
        if ENTRY.match(line):
            if current is None:
                stray.append(line)
            else:
                sections[current].append(line)
    return sections, twice, stray


def named_on_page() -> set[tuple[str, str]]:
    sections, _, _ = page_sections(PAGE.read_text(encoding="utf-8"))
    return {
        (folder, ENTRY.match(line).group(1))  # type: ignore[union-attr]
        for folder, lines in sections.items()
        for line in lines
    }


def test_every_module_has_its_line_in_its_folders_section() -> None:
    missing = sorted(modules_on_disk() - named_on_page())
    assert not missing, "docs/layout.md has no line for " + "; ".join(
        f"{folder}{name} (add '- `{name}`: …' under '### {folder}')" for folder, name in missing
    )


def test_every_module_the_page_names_exists_in_that_folder() -> None:
    stale = sorted(named_on_page() - modules_on_disk())
    assert not stale, "docs/layout.md names modules that are not there: " + ", ".join(
        f"{folder}{name}" for folder, name in stale
    )


def test_the_page_keeps_its_format() -> None:
    sections, twice, stray = page_sections(PAGE.read_text(encoding="utf-8"))
    assert not twice, f"folders headed twice: {twice}"
    assert not stray, f"module lines outside any '### <folder>/' section: {stray}"
    lines = [line for entries in sections.values() for line in entries]
    bare = [line for line in lines if not DESCRIBED.match(line)]
    assert not bare, f"module lines without '- `name.py`: what it holds': {bare}"
    for folder, entries in sections.items():
        names = [ENTRY.match(line).group(1) for line in entries]  # type: ignore[union-attr]
        assert len(names) == len(set(names)), f"{folder} names a module twice: {names}"


def test_the_rule_reads_sections_and_stray_lines() -> None:
    text = (
        "# Page\n- `stray.py`: outside any folder\n### core/\n- `a.py`: holds a thing\n"
        "#### a group\n- `b.py`: still core's\n```\n### tools/\n```\n"
        "## Next\n- `c.py`: after a heading that is no folder\n### ./\n- `app.py`: the app\n"
    )
    sections, twice, stray = page_sections(text)
    assert sections == {
        "core/": ["- `a.py`: holds a thing", "- `b.py`: still core's"],
        "./": ["- `app.py`: the app"],
    }
    assert twice == []
    assert stray == [
        "- `stray.py`: outside any folder",
        "- `c.py`: after a heading that is no folder",
    ]


def lab_index(text: str) -> dict[str, dict[str, str]]:
    """``lab/README.md`` read by its rule: ``{"kept"|"retired": {script: row}}``. A row is a
    table line under a ``## Kept`` or ``## Retired`` heading; its first cell names the
    script (and any helper it runs with) in backticks."""
    index: dict[str, dict[str, str]] = {"kept": {}, "retired": {}}
    part: str | None = None
    for line in text.splitlines():
        if line.startswith("## "):
            word = line.split()[1].rstrip(":").lower()
            part = word if word in index else None
            continue
        if part and line.startswith("| `"):
            for name in re.findall(r"`([A-Za-z0-9_]+\.py)`", line.split("|")[1]):
                index[part][name] = line
    return index


def test_the_lab_index_has_a_row_for_every_lab_script_and_only_for_those() -> None:
    index = lab_index((LAB / "README.md").read_text(encoding="utf-8"))
    kept, retired = set(index["kept"]), set(index["retired"])
    on_disk = {p.name for p in LAB.glob("*.py") if p.name != "__init__.py"}
    assert not on_disk - kept, f"lab/README.md has no kept row for {sorted(on_disk - kept)}"
    assert not kept - on_disk, f"lab/README.md keeps scripts not in lab/: {sorted(kept - on_disk)}"
    there = {p.name for p in (*LAB.glob("*.py"), *(ROOT / "tools").glob("*.py"))}
    assert not retired & there, f"retired scripts still there: {sorted(retired & there)}"
    no_commit = [
        n for n, row in index["retired"].items() if not re.search(r"`[0-9a-f]{7,40}`", row)
    ]
    assert not no_commit, f"retired rows without the commit that brings them back: {no_commit}"


def test_the_lab_index_rule_reads_kept_and_retired_rows() -> None:
    text = (
        "# lab\n| `x.py` | before any part |\n## Kept: still run\n| script | question |\n"
        "|---|---|\n| `a.py` (with `b.py`) | why? `c.py` in another cell |\n"
        "## Retired: in the history\n| `d.py` | why? | `abc1234` |\n## Other\n| `e.py` | no |\n"
    )
    index = lab_index(text)
    assert set(index["kept"]) == {"a.py", "b.py"}
    assert set(index["retired"]) == {"d.py"}
