"""Every visible input of the app has a name a screen reader can read (cold walk 3: the flag
note was read as "Textbox", the scorers' ticks had no name at all)."""

from __future__ import annotations

import gradio as gr

INPUTS = (
    gr.Textbox,
    gr.Dropdown,
    gr.Radio,
    gr.Number,
    gr.Slider,
    gr.Checkbox,
    gr.CheckboxGroup,
    gr.File,
)


def test_every_visible_input_has_a_label():
    import app

    unnamed = [
        f"{type(b).__name__} #{b._id} ({getattr(b, 'placeholder', '') or getattr(b, 'info', '')})"
        for b in app.demo.blocks.values()
        if isinstance(b, INPUTS) and b.visible is not False and not (b.label or "").strip()
    ]
    assert not unnamed, unnamed
