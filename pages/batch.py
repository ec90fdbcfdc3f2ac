"""Batch page: many questions × responders × prompt strategies × scorers, with a shareable report.

Runs alone with ``python -m pages.batch``. The run continues where it
stopped when started again with the same name; Stop finishes the replies
already asked for and keeps them. A page always runs on this server's own
threads: the Ray engine, a cluster address and the runs folder are the
operator's settings (:mod:`config`), never a visitor's.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path

import gradio as gr
import pandas as pd
import plotly.graph_objects as go

from config import RUNS_DIR, SETTINGS
from core.textinput import InputError
from core.visitor_runs import check_room, prune
from pages.widgets.api_names import KEYS, VISITOR, named
from pages.widgets.batch_options import (
    BUNDLED,
    DEFAULT_RESPONDERS,
    MAX_TOKENS,
    UPLOAD,
    batch_options,
)
from pages.widgets.batch_outcome import outcome_text
from pages.widgets.kept_words import runs_kept
from pages.widgets.keys import key_boxes, typed_keys
from pages.widgets.notice import notice_box, reports_problems, scroll_cue
from pages.widgets.pace import measured_eta, plan_time
from pages.widgets.progress import gradio_progress
from pages.widgets.visitor import on_load, visitor_folder, visitor_state
from reports.batch import readable_headline, terms_markdown, write_report
from studies.batch.plan import (
    BatchQuestion,
    BatchSettings,
    bundled_questions,
    questions_from_csv,
)
from studies.batch.run import check_ready, run_batch
from studies.batch.store import RunBusy, RunMismatch, busy_message

NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
#: Stop flags of the runs in progress, by run folder.
_STOPS: dict[str, threading.Event] = {}
_STOPS_LOCK = threading.Lock()
INTRO = (
    "## Batch experiments\nAsk many questions of several responders, with one or more ways of "
    "prompting them, and score every reply. The result is a table of every reply (CSV) and a "
    "report to share (HTML, opens without the app). Starting again with the same run name "
    "continues where it stopped: replies already received are never asked for (or paid for) "
    "twice. Cloud models need a key. The local model writes one reply at a time: the line "
    "above the Run button says how long your plan takes."
)
_PLAN_DEFAULTS = (5, 0, BUNDLED, None, DEFAULT_RESPONDERS, ["study"], MAX_TOKENS, 1)


def run_folder(name: str, visitor: str | None) -> Path:
    """The folder of this visitor's run called ``name`` (a plain name: letters, digits, ``_ . -``).

    Each visitor's runs are their own (:mod:`pages.widgets.visitor`); the CLI keeps plain folders.
    """
    name = (name or "").strip()
    if not NAME_PATTERN.match(name):
        raise gr.Error("Give the run a plain name: letters, digits, '_', '.' or '-' (max 64).")
    return visitor_folder(RUNS_DIR, visitor, name)


def _questions(n: float, seed: float, source: str, upload: str | None) -> list[BatchQuestion]:
    if source == UPLOAD and not upload:
        raise gr.Error(
            "Upload a CSV file with a 'question' (or 'conversation') column, or pick the bundled "
            "questions."
        )
    try:
        if source == UPLOAD:
            return questions_from_csv(upload, SETTINGS.max_upload_bytes)  # type: ignore[arg-type]
        return bundled_questions(int(n), int(seed))
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
    return readable_headline(report.headline), figures[0], figures[1], files


#: The ``/batch`` endpoint's parameters before the visitor id and the key boxes:
#: :func:`run_page`'s (the inputs of :func:`~pages.widgets.batch_options.batch_options`).
BATCH_NAMES = (
    *("n", "seed", "source", "upload", "responders", "strategies", "scorers", "max_tokens"),
    *("samples", "name"),
)


def run_page(
    n: float,
    seed: float,
    source: str,
    upload: str | None,
    responders: list[str],
    strategies: list[str],
    scorers: list[str],
    max_tokens: float,
    samples: float,
    name: str,
    visitor: str | None,
    *key_values: str,
    progress: gr.Progress = gr.Progress(),  # noqa: B008 (Gradio's progress idiom)
) -> tuple[str, pd.DataFrame, go.Figure | None, go.Figure | None, list[str]]:
    """Run or continue the batch here (the local engine); status, headline, charts, files.

    Stop lets the replies already asked for finish and be written; this then
    returns with what the run holds, so the results stay on the page.
    """
    folder = run_folder(name, visitor)
    questions = _questions(n, seed, source, upload)
    settings = _settings(responders, strategies, scorers, max_tokens, samples)
    keys = typed_keys(*key_values)
    reason = check_ready(settings.responders, settings.scorers, keys)
    if reason:
        raise gr.Error(reason)
    stop = threading.Event()
    with _STOPS_LOCK:  # a second Run must not take over the first run's Stop button
        if str(folder) in _STOPS:
            raise gr.Error(busy_message(name.strip()))
        make_room(folder)
        _STOPS[str(folder)] = stop
    try:
        outcome = run_batch(
            folder,
            questions,
            settings,
            concurrency=SETTINGS.batch_concurrency,
            keys=keys,
            stop=stop,
            progress=measured_eta(gradio_progress(progress)),
        )
    except RunBusy:  # another process (the command line) holds the folder
        raise gr.Error(busy_message(name.strip())) from None
    except (RunMismatch, ValueError, KeyError) as exc:
        raise gr.Error(str(exc.args[0])) from None
    finally:
        with _STOPS_LOCK:
            if _STOPS.get(str(folder)) is stop:
                _STOPS.pop(str(folder))
    return (outcome_text(outcome, stopped=stop.is_set()), *_results(folder))


def make_room(folder: Path) -> None:
    """Remove visitors' runs past the operator's days and disk cap (never one running), then
    refuse this run when its visitor has no room left (:mod:`core.visitor_runs`)."""
    prune(RUNS_DIR / "visitors", busy=frozenset(Path(p) for p in _STOPS))
    try:
        check_room(folder.parent, folder.name)
    except InputError as exc:
        raise gr.Error(str(exc)) from None


def stop_run(name: str, visitor: str | None) -> str:
    """Ask this visitor's run called ``name`` to stop after the replies in flight."""
    folder = str(run_folder(name, visitor))
    with _STOPS_LOCK:
        stop = _STOPS.get(folder)
    if stop is None:
        return "No run with that name is in progress."
    stop.set()
    return (
        "Stopping: the replies already asked for are finishing and will be kept; this line "
        "changes once they are written. Then Run continues where it stopped."
    )


def plan_line(
    n: float,
    seed: float,
    source: str,
    upload: str | None,
    responders: list[str],
    strategies: list[str],
    max_tokens: float,
    samples: float,
) -> str:
    """What the chosen plan will take, in one line ('' until it is a plan; see plan_time)."""
    try:
        questions = _questions(n, seed, source, upload)
        settings = _settings(responders, strategies, [], max_tokens, samples)
        return plan_time(questions, settings, SETTINGS.batch_concurrency)
    except (gr.Error, ValueError, KeyError):  # the Run button gives the reason
        return ""


def build() -> gr.Blocks:
    """Build the batch page."""
    with gr.Blocks(title="Empathy Lab · Batch") as page:
        gr.Markdown(INTRO)
        visitor = visitor_state()
        on_load(page, visitor)
        options = batch_options()
        boxes, _ = key_boxes()
        plan = gr.Markdown(plan_line(*_PLAN_DEFAULTS))
        with gr.Row():
            run = gr.Button("Run", variant="primary")
            stop = gr.Button("Stop", variant="secondary", interactive=False)
        status = notice_box()
        planned = [options[i] for i in (0, 1, 2, 3, 4, 5, 7, 8)]  # what changes the plan's time
        for box in planned:
            box.change(plan_line, planned, plan, api_name=False, show_progress="hidden")
        scroll_cue()
        headline = gr.Dataframe(
            headers=["responder", "strategy", "planned", "ok"],
            label="Headline: mean [95% interval] per responder and strategy",
            wrap=True,
            # Fixed widths keep headers on a line or two; a phone scrolls the table sideways.
            column_widths=["260px", "220px", "80px", "50px", "130px", *["330px"] * 4],
        )
        with gr.Row():  # no label badge: it covered the top-left of the chart's own title
            radar = gr.Plot(label="Profile per component", show_label=False)
            bars = gr.Plot(label="Means with 95% intervals", show_label=False)
        files = gr.File(label="Report (HTML) and every reply (CSV)", file_count="multiple")
        gr.Markdown(runs_kept())
        with gr.Accordion("How to read the results (intervals, d, Wasserstein, p)", open=False):
            gr.Markdown(terms_markdown())
        busy = (gr.update(interactive=False), gr.update(interactive=True))
        idle = (gr.update(interactive=True), gr.update(interactive=False))
        run.click(lambda: busy, None, [run, stop], api_name=False).then(
            # a refusal leaves no stale results
            named(reports_problems(4, clears=True)(run_page), *BATCH_NAMES, VISITOR, *KEYS),
            [*options, visitor, *boxes],
            [status, headline, radar, bars, files],
            api_name="batch",
        ).then(lambda: idle, None, [run, stop], api_name=False)
        # Stop only raises the run's flag: the run finishes what it asked for, writes it,
        # and reports "Stopped" with its results (cancelling it would hide both).
        stop.click(
            named(stop_run, "name", VISITOR), [options[-1], visitor], status, api_name="stop_batch"
        )
    return page


demo = build()

if __name__ == "__main__":
    from pages.widgets.launch import launch_options

    demo.launch(**launch_options())
