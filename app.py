"""Empathy Lab: the page list and the launch, nothing else.

python app.py                 # http://127.0.0.1:7860, local model, no keys needed
python app.py --port 8080     # another port (--host 0.0.0.0: every network interface)
python app.py --help          # what it does and the settings it reads; starts nothing

It prints one line with the address it serves; a port the operator chose that is taken is
refused at once, and when 7860 is taken without one chosen, the next free port is used and
the line says so (:mod:`core.app_options`).
"""

from __future__ import annotations

from core.app_options import parse_args, serve_address

if __name__ == "__main__":  # --help answers, and a taken port is refused, before the pages load
    ADDRESS = serve_address(parse_args())

import threading

import gradio as gr

from pages import adversarial, batch, compare, flags, resonance, stories, trust, vote
from pages.widgets import send_to_lab
from pages.widgets.launch import launch_options, line_writer, serve
from pages.widgets.style import CSS

#: (tab title, page module); each module's ``demo`` also runs alone, and has its own
#: URL (``/compare``, ``/adversarial`` …) so a link can open one page directly.
PAGES = (
    ("Compare", compare),
    ("Adversarial", adversarial),
    ("Flags", flags),
    ("Vote", vote),
    ("Batch", batch),
    ("Trust", trust),
    ("Stories", stories),
    ("Resonance", resonance),
)
INTRO = (
    "# Empathy Lab\nHow empathically do language models answer people in distress, "
    "and how far can the tools that score empathy be trusted? "
    "Replies here are for study, not care: if you are in crisis, contact local "
    "emergency services or a crisis line."
)


#: The line above a page opened by its own address.
CARE = (
    "**Empathy Lab** — replies here are for study, not care: if you are in crisis, contact "
    "local emergency services or a crisis line."
)


def nav_line(current: str) -> str:
    """Links (HTML: Markdown's open a new tab) from a page opened by its own address to the
    others, relative so they hold behind a proxy's path prefix; the current one in bold.

    >>> nav_line("vote")[:67]
    '<nav aria-label="Other pages">Other pages: <a href="./">All pages, '
    >>> "<strong>Vote</strong>" in nav_line("vote")
    True
    """
    links = [
        f"<strong>{title}</strong>"
        if route_of(page) == current
        else f'<a href="./{route_of(page)}">{title}</a>'
        for title, page in PAGES
    ]
    return (
        '<nav aria-label="Other pages">Other pages: <a href="./">All pages, as tabs</a> · '
        + " · ".join(links)
        + "</nav>"
    )


def route_of(page: object) -> str:
    """The URL path of a page module: ``pages.adversarial`` -> ``adversarial``."""
    return str(getattr(page, "__name__", "")).rpartition(".")[2]


def build_app() -> gr.Blocks:
    """Every page as a tab of one app, and each page again at its own URL."""
    with gr.Blocks(title="Empathy Lab") as app:
        # The tabs are this page's navigation; a link bar of the routes would repeat them.
        gr.Navbar(visible=False)
        gr.Markdown(INTRO)
        # On a phone the tab names wrap onto a second line (Gradio's default hid six of the
        # eight behind a "•••" menu); on a wide screen they fit on one line as before.
        with gr.Tabs(overflow_behavior="wrap", elem_id="page-tabs") as tabs:
            for title, page in PAGES:
                with gr.Tab(title, id=route_of(page)) as tab:
                    page.demo.render()
                if page is trust:  # its labelled sets are read again: a new rating counts
                    trust.refresh_on_select(tab)
        # A reply on Compare goes to the lab in one press (only here: a page alone has no lab).
        send_to_lab.wire(compare.TO_LAB, adversarial.LAB_INPUTS, tabs, route_of(adversarial))
    for title, page in PAGES:
        with app.route(title, route_of(page), show_in_navbar=False):
            # A page opened by its own address (a student's /vote link) says what the app is
            # for, and where to turn in a crisis, as the tabbed page does.
            gr.Markdown(CARE, elem_classes=["care-line"])
            gr.HTML(nav_line(route_of(page)), elem_classes=["care-line"])
            page.build()
    return app


demo = build_app()


def preload() -> None:
    """Import the heavy libraries once, in this thread, before any other thread starts.

    Two first imports of transformers at once (the warm-up and a visitor's
    request) fail with "cannot import name 'AutoModel'"; importing here first
    removes the race.
    """
    import llama_cpp  # noqa: F401
    import torch  # noqa: F401
    from transformers import AutoModel, AutoTokenizer  # noqa: F401


def warm_up() -> None:
    """Remove visitors' runs past the operator's days and disk cap, then load the local model
    and the empathy head before the first visitor needs them."""
    from config import RUNS_DIR
    from core.visitor_runs import prune
    from responders.local_llama import warm_up as warm_local
    from scorers.bert_head.head import load_head

    prune(RUNS_DIR / "visitors")
    load_head()
    warm_local()


def start(note: str = "", **launch: object) -> gr.Blocks:
    """Start the app as ``python app.py`` does: preload, warm up in the background, launch,
    and say where it serves (:func:`pages.widgets.launch.serve`; ``note``: why on that port).

    ``launch`` goes to :meth:`gradio.Blocks.launch` (tests pass
    ``prevent_thread_lock=True`` and a port), over the operator's upload limit
    and the runs folder (:func:`pages.widgets.launch.launch_options`).
    """
    preload()
    say = line_writer()  # before the warm-up, which hides standard output while it loads
    threading.Thread(target=warm_up, name="warm-up", daemon=True).start()
    demo.queue(default_concurrency_limit=4)
    serve(demo, note, say, **{"css": CSS, **launch_options(), **launch})
    return demo


if __name__ == "__main__":
    start(ADDRESS.note, server_name=ADDRESS.host, server_port=ADDRESS.port)
