"""Walk 5 on Resonance, in a real headless Chromium at 1280x900 and 390x844: on a phone the
results table's column-menu icon (Gradio's "⋮", shown while a header is hovered or tapped)
sat over the "Pearson r" header. The read-only table now has no column menu. Screenshots:
``/tmp/v34/``.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import require_chromium, served

pytestmark = pytest.mark.slow
SHOTS = Path("/tmp/v34")
PAIRS = [
    ("I failed my driving test twice and felt like an idiot, but passed the third time.",
     "My mother got sick last winter; I moved back home to look after her.", 1, 2, 1, 2),
    ("I lost my dog last spring and the house still feels empty.",
     "When my cat died I could not stop crying for a week.", 3, 4, 3, 4),
    ("I moved to a new city and knew nobody for months.",
     "Starting at a new school alone was the hardest year of my life.", 3, 3, 3, 3),
]  # fmt: skip
#: The header's text box (the text itself, not its cell) and the menu icon's, if shown.
BOXES_JS = """th => {
  const range = document.createRange();
  range.selectNodeContents(th.querySelector('.header-content'));
  const box = b => b && [b.left, b.right, b.top, b.bottom];
  const icon = th.querySelector('.cell-menu-button');
  const shown = icon && getComputedStyle(icon).display !== 'none';
  return {text: box(range.getBoundingClientRect()), icon: shown ? box(icon.getBoundingClientRect()) : null};
}"""

require_chromium()


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    from pages import resonance

    with served(resonance.build()) as address:
        yield address


@pytest.fixture(scope="module")
def pairs_csv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("pairs") / "pairs.csv"
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["story_a", "story_b", *(f"human_{a}" for a in
                         ("event", "emotion", "moral", "empathy"))])  # fmt: skip
        writer.writerows(PAIRS)
    return path


def overlap(a: list[float], b: list[float]) -> bool:
    """Whether two boxes ([left, right, top, bottom]) share any area.

    >>> overlap([0, 10, 0, 10], [9, 20, 0, 10]), overlap([0, 10, 0, 10], [10, 20, 0, 10])
    (True, False)
    """
    return a[0] < b[1] and b[0] < a[1] and a[2] < b[3] and b[2] < a[3]


def test_the_pearson_header_is_not_covered_by_a_menu_icon(url, pairs_csv, tab):
    from playwright.sync_api import expect

    tab.goto(url)
    expect(tab.get_by_role("button", name="Rate the file")).to_be_visible(timeout=30_000)
    tab.wait_for_timeout(1_000)  # the page's handlers are attached
    with tab.expect_file_chooser() as chooser:
        tab.get_by_role("button", name="Click to upload or drop files").click()
    chooser.value.set_files(str(pairs_csv))
    expect(tab.get_by_text(pairs_csv.name).first).to_be_visible(timeout=30_000)  # uploaded
    tab.get_by_role("button", name="Rate the file").click()
    header = tab.locator("th[title='Pearson r']")
    rated = tab.get_by_role("gridcell", name="empathy", exact=True)  # the metrics' last row
    expect(rated).to_be_visible(timeout=60_000)
    header.scroll_into_view_if_needed()
    header.click()  # a tap: the icon shows while the header is focused (and hovered)
    tab.wait_for_timeout(400)
    tab.screenshot(path=str(SHOTS / f"resonance-pearson-{tab.width}.png"))
    boxes = header.evaluate(BOXES_JS)
    assert boxes["icon"] is None or not overlap(boxes["text"], boxes["icon"]), boxes
