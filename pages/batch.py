"""Batch page: many questions × responders × prompt strategies × scorers, with a shareable report.

Runs alone with ``python -m pages.batch``. The run continues where it
stopped when started again with the same name; Stop finishes the replies
already asked for and keeps them.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path

import gradio as gr
import pandas as pd
import plotly.graph_objects as go

from config import RUNS_DIR, SETTINGS
from pages.widgets.keys import key_boxes, typed_keys
from pages.widgets.progress import gradio_progress
from reports.batch import write_report
from responders.registry import default_responder_ids
from scorers.registry import offered_scorer_ids
from studies.batch import check_ready, run_batch
from studies.batch_plan import (
    BatchQuestion,
    BatchSettings,
    bundled_questions,
    questions_from_csv,
)
from studies.batch_store import RunMismatch
from studies.strategies import load_strategies

NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
#: Stop flags of the runs in progress, by run folder.
_STOPS: dict[str, threading.Event] = {}
_STOPS_LOCK = threading.Lock()
INTRO = (
    "## Batch experiments\nAsk many questions of several responders, with one or more ways of "
    "prompting them, and score every reply. The result is a table of every reply (CSV) and a "
    "report to share (HTML, opens without the app). Starting again with the same run name "
    "continues where it stopped: replies already received are never asked for (or paid for) "
    "twice. Cloud models need a key; the local model is slow (about 10–30 s a reply)."
)


def run_folder(name: str) -> Path:
    """The folder of the run called ``name`` (a plain name: letters, digits, ``_ . -``)."""
    name = (name or "").strip()
    if not NAME_PATTERN.match(name):
        raise gr.Error("Give the run a plain name: letters, digits, '_', '.' or '-' (max 64).")
    return RUNS_DIR / name


def _questions(n: float, seed: float, upload: str | None) -> list[BatchQuestion]:
    try:
        return questions_from_csv(upload) if upload else bundled_questions(int(n), int(seed))
    except ValueError as exc:
        raise gr.Error(str(exc)) from None


def _settings(
    responders: list[str],
    strategies: list[str],
    scorers: list[str] | None,
    max_tokens: float,
    samples: float,
) -> BatchSettings:
    if not responders:
        raise gr.Error("Pick at least one responder.")
    if not strategies:
        raise gr.Error("Pick at least one prompt strategy.")
    return BatchSettings(
        tuple(responders), tuple(strategies), tuple(scorers or ()), int(samples), int(max_tokens)
    )


def _results(folder: Path) -> tuple[pd.DataFrame, go.Figure | None, go.Figure | None, list[str]]:
    report = write_report(folder)
    figures = [*report.figures, None, None]
    files = [str(report.path), str(folder / "results.csv")]
    return report.headline, figures[0], figures[1], files


def run_page(
    n: float,
    seed: float,
    upload: str | None,
    responders: list[str],
    strategies: list[str],
    scorers: list[str],
    max_tokens: float,
    samples: float,
    concurrency: float,
    engine: str,
    address: str,
    name: str,
    *key_values: str,
    progress: gr.Progress = gr.Progress(),  # noqa: B008 (Gradio's progress idiom)
) -> tuple[str, pd.DataFrame, go.Figure | None, go.Figure | None, list[str]]:
    """Run or continue the batch; returns the status, headline, two charts and the files."""
    folder = run_folder(name)
    questions = _questions(n, seed, upload)
    settings = _settings(responders, strategies, scorers, max_tokens, samples)
    keys = SETTINGS.keys.merged(typed_keys(*key_values))
    reason = check_ready(settings.responders, settings.scorers, keys)
    if reason:
        raise gr.Error(reason)
    stop = threading.Event()
    with _STOPS_LOCK:
        _STOPS[str(folder)] = stop
    try:
        outcome = run_batch(
            folder,
            questions,
            settings,
            engine=engine,
            address=address.strip() or None,
            concurrency=int(concurrency),
            keys=keys,
            stop=stop,
            progress=gradio_progress(progress),
        )
    except (RunMismatch, ValueError, KeyError) as exc:
        raise gr.Error(str(exc.args[0])) from None
    finally:
        with _STOPS_LOCK:
            _STOPS.pop(str(folder), None)
    status = (
        f"**{outcome.done}** replies made, **{outcome.failed}** failed, "
        f"**{outcome.skipped}** already done"
        + (f", **{outcome.not_run}** not run (stopped)." if outcome.not_run else ".")
    )
    if not outcome.complete:
        status += " Press Run again to continue."
    return (status, *_results(folder))


def stop_run(name: str) -> str:
    """Ask the run called ``name`` to stop after the replies in flight."""
    folder = str(run_folder(name))
    with _STOPS_LOCK:
        stop = _STOPS.get(folder)
    if stop is None:
        return "No run with that name is in progress."
    stop.set()
    return (
        "Stopping: the replies already asked for are finishing and are kept. Run again to continue."
    )


def _options() -> list[gr.components.Component]:
    with gr.Row():
        n = gr.Slider(
            1,
            100,
            value=5,
            step=1,
            label="Bundled questions to draw",
            info="start small: the local model takes 10–30 s a reply on a CPU",
        )
        seed = gr.Number(0, precision=0, label="Draw (seed)")
        upload = gr.File(label="…or your own questions (CSV, 'question' column)", type="filepath")
    responders = gr.CheckboxGroup(
        default_responder_ids(),
        value=["local/qwen2.5-coder-1.5b", "human/counselchat"],
        label="Responders (the therapists' answers ignore the prompt strategy)",
    )
    strategies = gr.CheckboxGroup(
        [(s.label, s.id) for s in load_strategies().values()],
        value=["study"],
        label="Prompt strategies",
    )
    scorers = gr.CheckboxGroup(offered_scorer_ids(), value=["bert-head"], label="Scorers")
    with gr.Row():
        max_tokens = gr.Slider(16, 2048, value=200, step=16, label="Longest reply (tokens)")
        samples = gr.Slider(1, 5, value=1, step=1, label="Replies per question")
        concurrency = gr.Slider(1, 16, value=4, step=1, label="Replies at once")
    with gr.Row():
        engine = gr.Radio(["local", "ray"], value="local", label="Run on")
        address = gr.Textbox(label="Ray cluster address (blank: start Ray here)", placeholder="")
        name = gr.Textbox(value="my-batch", label="Run name (same name = continue)")
    return [n, seed, upload, responders, strategies, scorers, max_tokens, samples, concurrency,
            engine, address, name]  # fmt: skip


def build() -> gr.Blocks:
    """Build the batch page."""
    with gr.Blocks(title="Empathy Lab · Batch") as page:
        gr.Markdown(INTRO)
        options = _options()
        boxes, _ = key_boxes()
        with gr.Row():
            run = gr.Button("Run", variant="primary")
            stop = gr.Button("Stop", variant="stop")
        status = gr.Markdown()
        headline = gr.Dataframe(
            headers=["responder", "strategy", "planned", "ok"],
            label="Headline: mean [95% interval] per responder and strategy",
        )
        with gr.Row():
            radar = gr.Plot(label="Profile per component")
            bars = gr.Plot(label="Means with 95% intervals")
        files = gr.File(label="Report (HTML) and every reply (CSV)", file_count="multiple")
        event = run.click(
            run_page,
            [*options, *boxes],
            [status, headline, radar, bars, files],
            api_name="batch",
        )
        stop.click(stop_run, options[-1], status, cancels=[event], api_name="stop_batch")
    return page


demo = build()

if __name__ == "__main__":
    demo.launch()
