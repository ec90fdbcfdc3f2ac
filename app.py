"""Empathy Lab: the page list and the launch, nothing else.

python app.py            # http://127.0.0.1:7860, local model, no keys needed
"""

from __future__ import annotations

import threading

import gradio as gr

from pages import adversarial, compare, flags

#: (tab title, page module); each module's ``demo`` also runs alone.
PAGES = (
    ("Compare", compare),
    ("Adversarial", adversarial),
    ("Flags", flags),
)
INTRO = (
    "# Empathy Lab\nHow empathically do language models answer people in distress, "
    "and how far can the tools that score empathy be trusted? "
    "Replies here are for study, not care: if you are in crisis, contact local "
    "emergency services or a crisis line."
)


def build_app() -> gr.Blocks:
    """Every page as a tab of one app."""
    with gr.Blocks(title="Empathy Lab") as app:
        gr.Markdown(INTRO)
        for title, page in PAGES:
            with gr.Tab(title):
                page.demo.render()
    return app


demo = build_app()


def _warm_up() -> None:
    """Load the local model and the empathy head before the first visitor needs them."""
    from responders.local_llama import warm_up
    from scorers.bert_head.head import load_head

    warm_up()
    load_head()


if __name__ == "__main__":
    threading.Thread(target=_warm_up, daemon=True).start()
    demo.queue(default_concurrency_limit=4).launch()
