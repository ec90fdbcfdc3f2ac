"""Judge controls (samples, temperature, reader persona), shared by the pages that judge."""

from __future__ import annotations

from typing import Any

import gradio as gr

from scorers.judge.persona import Persona


def judge_options(
    samples: float, temperature: float, gender: str, concern: str, taking: str, shared: str
) -> dict[str, Any]:
    """Judge settings from the controls' values ('' means: not part of the persona)."""
    return {
        "samples": max(1, int(samples)),
        "temperature": float(temperature),
        "persona": Persona.from_choices(gender, concern, taking, shared),
    }


def judge_controls() -> list[gr.components.Component]:
    """The six judge controls, inside an accordion, in :func:`judge_options` order."""
    with gr.Accordion("Judge options", open=False):
        gr.Markdown(
            "Temperature 0 and one sample by default. With more samples the judge's "
            "components are averaged and the spread is shown. A reader persona asks the "
            "judge to read as a given reader (after Roshanaei et al.)."
        )
        with gr.Row():
            samples = gr.Slider(1, 5, value=1, step=1, label="Samples")
            temperature = gr.Slider(0.0, 1.5, value=0.0, step=0.1, label="Judge temperature")
        with gr.Row():
            gender = gr.Textbox(value="", label="Reader's gender (optional)", placeholder="woman")
            concern = gr.Dropdown(["", "low", "high"], value="", label="Empathic concern")
            taking = gr.Dropdown(["", "low", "high"], value="", label="Perspective taking")
            shared = gr.Dropdown(["", "yes", "no"], value="", label="Shared experience")
    return [samples, temperature, gender, concern, taking, shared]
