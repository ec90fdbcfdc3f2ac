"""The README is a Space card that lands, and every link in it and in docs/ resolves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from config import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_and_image_exists(page: Path) -> None:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    missing = [
        target
        for target in LINK.findall(text)
        if not re.match(r"^(https?:|mailto:|#)", target)
        and not (page.parent / target.split("#")[0]).exists()
    ]
    assert not missing, f"{page.name} links to missing files: {missing}"


def test_readme_is_a_short_space_card_with_the_pinned_gradio() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    front = readme.split("---")[1]
    pinned = re.search(r"^gradio==(\S+)$", (ROOT / "requirements.txt").read_text(), re.M)
    assert pinned and f"sdk_version: {pinned.group(1)}" in front
    short = re.search(r"^short_description: (.+)$", front, re.M)
    assert short and len(short.group(1)) <= 60
    assert len(readme.splitlines()) <= 250
    assert "make app" in readme and "make test" in readme and "crisis" in readme
