"""The rating form never carries a private comment to another reply, and never empties a name
being typed. A cold walk of two visitors found the last rating's levels and comment (with a
neighbour's name and number) still filled after the next "Get replies", one press away from
being saved again against a new reply; and, under load, the page's late load emptied a name
typed at once ("Type your name or initials first")."""

from __future__ import annotations

import gradio as gr

from tests.ratings.test_blind_rating_holds_across_comparisons import (  # noqa: F401  (the fixture)
    _block,
    page,
)


def test_a_new_comparison_empties_the_last_ratings_answers(page) -> None:  # noqa: F811
    comment = _block(page, label="Comment (optional)")
    run = _block(page, value="Get replies")
    (clearing,) = [
        f for f in page.fns.values() if (run._id, "click") in f.targets and comment in f.outputs
    ]
    updates = dict(zip(clearing.outputs, clearing.fn(), strict=True))
    assert updates[comment] == ""
    assert all(value in (None, "") for value in updates.values()), updates


def test_a_name_typed_before_the_page_loads_is_never_emptied(page) -> None:  # noqa: F811
    rater = next(
        b for b in page.blocks.values() if str(getattr(b, "label", "")).startswith("Your name")
    )
    (loading,) = [
        f
        for f in page.fns.values()
        if any(t[1] == "load" for t in f.targets) and f.outputs == [rater]
    ]
    assert loading.fn("") == gr.skip()  # nothing remembered: the box is left as typed
    assert loading.fn("DW") == "DW"  # a remembered name fills it
