"""Flags page: the latest flagged cases and a download of the whole log.

Runs alone with ``python -m pages.flags``.
"""

from __future__ import annotations

import json

import gradio as gr

from core.flags import FIELDS, FlagLog, FlagLogError
from pages.widgets.names import responder_name, scorer_name

#: Readable headers for the viewer.
VIEW_HEADERS = ["When (UTC)", "Page", "Reply from", "Perturbation", "Note", "Reply", "Scores"]
DISK_NOTE = (
    "On a hosted Space the disk may be wiped when the Space restarts or sleeps: "
    "download the log to keep it."
)


def readable_scores(cell: str) -> str:
    """The flag's scores as people read them, one scorer a line.

    >>> readable_scores('[{"scorer_id": "bert-head", "overall": 2.345, "status": "ok"}]')
    'Empathy head (MiniLM + trained head): overall 2.35'
    >>> readable_scores('[{"scorer_id": "bert-head", "status": "unscored", "reason": "empty"}]')
    'Empathy head (MiniLM + trained head): not scored (empty)'
    """
    try:
        scores = json.loads(cell or "[]")
    except json.JSONDecodeError:
        return cell
    lines = []
    for s in scores if isinstance(scores, list) else []:
        name = scorer_name(str(s.get("scorer_id", "")))
        if "reply_safe" in s:  # the safety screen
            verdict = {1: "no concern found", 0: f"not safe ({s.get('concerns')})"}
            lines.append(f"Safety screen: {verdict.get(s['reply_safe'], 'not checked')}")
            continue
        if s.get("status") == "ok" and isinstance(s.get("overall"), int | float):
            lines.append(f"{name}: overall {s['overall']:.2f}")
        else:
            lines.append(f"{name}: not scored ({s.get('reason') or 'no reason given'})")
    return "\n".join(lines)


def _who(row: dict[str, str]) -> str:
    """Who wrote the flagged reply; a lab flag names the perturbation that made it."""
    if row.get("responder_id"):
        return responder_name(row["responder_id"])
    return "Adversarial lab variant" if row.get("perturbation_id") else "—"


def latest_rows(n: float = 20) -> tuple[list[list[str]], str]:
    """The newest rows for the viewer, and a status line."""
    log = FlagLog()
    try:
        rows = log.read()
    except FlagLogError as exc:
        return [], f"The log could not be read: {exc}"
    view = [
        [
            row["timestamp"],
            row["page"],
            _who(row),
            row["perturbation_id"],
            row["note"][:300],
            row["reply"][:300],
            readable_scores(row["scores"]),
        ]
        for row in reversed(rows[-int(n) :])
    ]
    return view, f"{len(rows)} flagged case(s); showing the newest {len(view)}."


def log_file() -> str | None:
    """The path of the log for the download button (None when there is none yet)."""
    path = FlagLog().path
    return str(path) if path.exists() else None


def build() -> gr.Blocks:
    """Build the flags page."""
    with gr.Blocks(title="Empathy Lab · Flags") as page:
        gr.Markdown(
            "## Flagged cases\nEvery flag from the other pages lands in one CSV log with what "
            f"it takes to reproduce it ({len(FIELDS)} columns: message, reply, responder and "
            "settings, every score, perturbation and seed, note). API keys are never written."
        )
        with gr.Row():
            count = gr.Slider(5, 200, value=20, step=5, label="Rows to show")
            refresh = gr.Button("Refresh")
        status = gr.Markdown()
        table = gr.Dataframe(
            headers=VIEW_HEADERS,
            interactive=False,
            wrap=True,
            column_widths=["190px", "110px", "190px", "150px", "200px", "420px", "300px"],
        )
        with gr.Row():
            download = gr.DownloadButton("Download the log (CSV)", value=log_file)
            gr.Markdown(DISK_NOTE)
        refresh.click(latest_rows, count, [table, status], api_name="latest_flags")
        refresh.click(log_file, None, download, api_name=False)
        page.load(latest_rows, count, [table, status], api_name=False)
        # Flags made on other pages show up without pressing Refresh.
        gr.Timer(5).tick(latest_rows, count, [table, status], api_name=False)
    return page


demo = build()

if __name__ == "__main__":
    from pages.widgets.launch import launch_options

    demo.launch(**launch_options())
