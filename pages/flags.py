"""Flags page: the latest flagged cases and a download of the whole log.

The table and the download follow the log: on load, on Refresh, the moment
the page comes into view (its tab is selected, or the browser tab shown
again) and on a timer tick, each time only when the log changed since the
tab last showed it (the log's parsed rows are kept until the file changes,
so an unchanged log is not read again). A flag made on another tab is
therefore counted as soon as the visitor opens Flags, not up to a tick
later. The download is a copy made at the same moment as the table.

Runs alone with ``python -m pages.flags``.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import time
import uuid
from pathlib import Path

import gradio as gr

from core.csvlog import write_copy
from core.flags import FIELDS, FlagLog, FlagLogError
from core.visitors import own_rows, reader_of
from pages.widgets.api_names import VISITOR, named
from pages.widgets.flag_words import _opinion_verdict as _opinion_verdict  # read here as before
from pages.widgets.flag_words import readable_scores, short_message
from pages.widgets.names import responder_name
from pages.widgets.operator_box import for_operator, operator_box
from pages.widgets.visitor import on_load, visitor_state

#: Readable headers for the viewer.
VIEW_HEADERS = [
    "When (UTC)", "Page", "Reply from", "Perturbation", "Note", "Message", "Reply", "Scores",
]  # fmt: skip
#: How long a copy made for the download button is kept.
KEEP_COPIES_S = 600
#: Seconds between two checks of the log while the page is open.
TICK_S = 5.0
#: Runs in the browser when the page is first shown: asks the server to look at the log
#: whenever the page comes into view (a tab selected, or the browser tab shown again).
LOOK_ON_SIGHT_JS = """
const own = element.closest('.block') || element;
own.style.display = 'none';  // it shows nothing, so it takes no room; it watches the page
let inView = false;
new IntersectionObserver((seen) => {
  const now = seen.some((e) => e.isIntersecting);
  if (now && !inView) trigger('click');
  inView = now;
}).observe(own.parentElement);
document.addEventListener('visibilitychange', () => {
  if (!document.hidden && inView) trigger('click');
});
"""
DISK_NOTE = (
    "On a hosted Space the disk may be wiped when the Space restarts or sleeps: "
    "download the log to keep it."
)


def _who(row: dict[str, str]) -> str:
    """Who wrote the flagged reply; a lab flag names the perturbation that made it."""
    if row.get("responder_id"):
        return responder_name(row["responder_id"])
    return "Adversarial lab variant" if row.get("perturbation_id") else "—"


def latest_rows(n: float = 20, reader: str | None = None) -> tuple[list[list[str]], str]:
    """The newest rows ``reader`` may read (None: every row; else an owner tag,
    :func:`core.visitors.reader_of`) for the viewer, and a status line."""
    log = FlagLog()
    try:
        rows = own_rows(log.read(), reader)
    except FlagLogError as exc:
        return [], f"The log could not be read: {exc}"
    view = [
        [
            row["timestamp"],
            row["page"],
            _who(row),
            row["perturbation_id"],
            row["note"][:300],
            short_message(row["message"]),
            row["reply"][:300],
            readable_scores(row["scores"]),
        ]
        for row in reversed(rows[-int(n) :])
    ]
    whose = "" if reader is None else " of yours (other visitors' flags are the operator's)"
    return view, f"{len(rows)} flagged case(s){whose}; showing the newest {len(view)}."


def download_copy(log: FlagLog) -> str | None:
    """A copy of the log as it is now, for the download button (None when there is none yet).

    Each state of the log gets its own folder (``flags.csv`` inside, the name the
    browser saves), so a download never changes under a visitor; folders older
    than :data:`KEEP_COPIES_S` are removed (Gradio has copied them by then).
    """
    stamp = log.stamp()
    if stamp is None:
        return None
    digest = hashlib.sha256(str(log.path.resolve()).encode()).hexdigest()[:12]
    root = Path(tempfile.gettempdir()) / "empathy-lab-flag-downloads"
    folder = root / f"{digest}-{'-'.join(map(str, stamp))}"
    copy = folder / log.path.name
    if not copy.exists():
        folder.mkdir(parents=True, exist_ok=True)
        part = folder / f".{uuid.uuid4().hex}.part"
        log.export(part)
        os.replace(part, copy)  # whole or not at all, for a tab making the same copy
        _remove_old_copies(root, keep=folder)
    return str(copy)


def _remove_old_copies(root: Path, keep: Path) -> None:
    """Remove copies made more than :data:`KEEP_COPIES_S` ago (never ``keep``)."""
    for folder in root.iterdir():
        try:
            if folder != keep and time.time() - folder.stat().st_mtime > KEEP_COPIES_S:
                shutil.rmtree(folder, ignore_errors=True)
        except OSError:  # another tab removed it first
            pass


def own_copy(log: FlagLog, reader: str) -> str | None:
    """A copy of ``reader``'s own flags (an owner tag), for their download (None: none yet)."""
    rows = own_rows(log.read(), reader)
    if not rows:
        return None
    root = Path(tempfile.gettempdir()) / "empathy-lab-flag-downloads"
    folder = root / f"own-{uuid.uuid4().hex}"
    folder.mkdir(parents=True, exist_ok=True)
    write_copy(folder / "my-flags.csv", FIELDS, rows)
    _remove_old_copies(root, keep=folder)
    return str(folder / "my-flags.csv")


def show_log(n: float = 20, visitor: str | None = None) -> tuple[object, ...]:
    """The newest rows, the status line, the log as it is now to download, and its stamp.

    On a public server a visitor sees and downloads their own flags only; the whole log is
    the operator's (:func:`operator_copy`). The download and the table come from the same
    moment, so what a visitor downloads is never older than the table shown.
    """
    log = FlagLog()
    stamp = log.stamp()
    reader = reader_of(visitor)
    view, status = latest_rows(n, reader)
    try:
        copy = download_copy(log) if reader is None else own_copy(log, reader)
    except (FlagLogError, OSError):  # the status line already says why
        copy = None
    return view, status, copy, stamp


def on_tick(n: float, shown: object, visitor: str | None = None) -> tuple[object, ...]:
    """A timer's tick: nothing to send while the log is as this tab last showed it."""
    if FlagLog().stamp() == shown:
        return (gr.skip(),) * 4
    return show_log(n, visitor)


def whole_flag_log() -> str | None:
    """A copy of the whole flag log, for the operator's download (None before the first flag)."""
    return download_copy(FlagLog())


def operator_copy(token: str) -> str | None:
    """The whole log for the operator (their ``EMPATHY_LAB_ADMIN_TOKEN``; on a local run of
    one's own, anyone); anyone else is refused (an empty box: nothing yet)."""
    return for_operator(token, whole_flag_log)


def build() -> gr.Blocks:
    """Build the flags page."""
    with gr.Blocks(title="Empathy Lab · Flags") as page:
        gr.Markdown(
            "## Flagged cases\nEvery flag from the other pages lands in one CSV log with what "
            f"it takes to reproduce it ({len(FIELDS)} columns: message, reply, responder and "
            "settings, every score and safety check (the second opinion too, when asked), "
            "perturbation and seed, note). API keys are never written."
        )
        # Shows nothing: in the browser it watches the page come into view.
        sight = gr.HTML("", js_on_load=LOOK_ON_SIGHT_JS, apply_default_css=False,
                        container=False, padding=False)  # fmt: skip
        # Refresh as tall as the slider's box beside it; on a phone, under it at full width.
        with gr.Row(equal_height=True):
            count = gr.Slider(5, 200, value=20, step=5, label="Rows to show", scale=3,
                              min_width=220)  # fmt: skip
            refresh = gr.Button("Refresh", scale=1, min_width=160)
        status = gr.Markdown()
        table = gr.Dataframe(
            headers=VIEW_HEADERS,
            interactive=False,
            wrap=True,
            column_widths=["190px", "110px", "190px", "150px", "200px", "260px", "420px", "300px"],
        )
        with gr.Row():
            download = gr.DownloadButton("Download the log (CSV)")
            gr.Markdown(DISK_NOTE)
        operator_box("The whole log (the operator)", "flag", whole_flag_log)
        visitor = visitor_state()
        shown = gr.State()  # the stamp of the log this tab shows (and would download)
        outputs = [table, status, download, shown]
        refresh.click(
            named(show_log, "n", VISITOR), [count, visitor], outputs, api_name="latest_flags"
        )
        count.release(show_log, [count, visitor], outputs, api_name=False)
        on_load(page, visitor)
        page.load(show_log, [count, visitor], outputs, api_name=False)
        # Flags made on other pages show up without pressing Refresh, and the download
        # follows: the moment the page comes into view, and on every tick while it is
        # open. Each sends nothing unless the log changed since this tab last showed it.
        for look in (sight.click, gr.Timer(TICK_S).tick):
            look(on_tick, [count, shown, visitor], outputs, api_name=False,
                 show_progress="hidden")  # fmt: skip
    return page


demo = build()

if __name__ == "__main__":
    from pages.widgets.launch import launch_options

    demo.launch(**launch_options())
