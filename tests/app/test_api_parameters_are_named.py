"""Issue 51 (7): every public endpoint names its parameters, and docs/cli.md lists them.

Gradio names an endpoint's parameters from its handler's signature; handlers taking ``*inputs``
gave ``param_0`` … ``param_16``, so a ``gradio_client`` user could not tell the message from a
key box (:mod:`pages.widgets.api_names`). Here the whole app is served and read as a client
reads it: no parameter is ``param_N``, the table in docs/cli.md ("The web API") is the live
API, and the example call written there runs.
"""

from __future__ import annotations

import contextlib
import inspect
import io
import re
from collections.abc import Iterator

import gradio as gr
import pytest
from gradio.helpers import special_args
from gradio_client import Client

from config import ROOT
from core.questions import find_question
from pages.widgets.api_names import JUDGE_OPTIONS, KEYS, named
from tests.conftest import app_client

DOC = ROOT / "docs" / "cli.md"
SECTION = "## The web API (gradio_client)"
#: A row of the docs' table: | page | `/endpoint` | `name`, `name`, … |
ROW = re.compile(r"^\| (\w+) \| `(/\w+)` \| (.*) \|$")
#: What the docs' table writes for a run of names that many endpoints share.
SHORTHAND = {"*keys*": KEYS, "*judge options*": JUDGE_OPTIONS}
#: The address the docs' example calls, replaced by the served app's.
EXAMPLE_URL = "http://127.0.0.1:7860/"


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[Client, dict[str, list[str]]]]:
    """The whole app, served; a client, and {endpoint: parameter names} as the client reads."""
    with app_client() as client:
        api = client.view_api(return_format="dict", print_info=False)
        assert not api["unnamed_endpoints"]
        names = {
            endpoint: [p["parameter_name"] for p in info["parameters"]]
            for endpoint, info in api["named_endpoints"].items()
        }
        yield client, names


def original_of(endpoint: str, names: dict[str, list[str]]) -> str:
    """The endpoint that ``endpoint`` copies (``/compare`` for ``/compare_1``, the page served
    at its own address), else ``endpoint`` itself."""
    copied = re.fullmatch(r"(.+)_\d+", endpoint)
    return copied[1] if copied and copied[1] in names else endpoint


def originals(names: dict[str, list[str]]) -> dict[str, list[str]]:
    """The endpoints without the copies of the pages served at their own address."""
    return {e: p for e, p in names.items() if original_of(e, names) == e}


def live_table() -> list[tuple[str, str, list[str]]]:
    """(page, endpoint, parameters) of every page of the app, in the app's order: the
    docs' table as it should read."""
    import app

    rows = []
    for title, page in app.PAGES:
        endpoints = page.demo.get_api_info()["named_endpoints"]
        for endpoint, info in endpoints.items():
            rows.append((title, endpoint, [p["parameter_name"] for p in info["parameters"]]))
    return rows


def read_cell(cell: str) -> list[str]:
    """The parameter names a cell of the docs' table lists, its shorthand spelled out."""
    return [n for part in cell.split(", ") for n in SHORTHAND.get(part, [part.strip("`")])]


def write_cell(names: list[str]) -> str:
    """``names`` as the docs' table writes them (the cell :func:`read_cell` reads)."""
    cell = ", ".join(f"`{n}`" for n in names)
    for short, run in SHORTHAND.items():
        cell = cell.replace(", ".join(f"`{n}`" for n in run), short)
    return cell


def docs_section() -> str:
    """The docs' section on the web API, to the next heading of its level."""
    text = DOC.read_text(encoding="utf-8")
    assert SECTION in text, f"docs/cli.md has no section {SECTION!r}"
    return text.split(SECTION, 1)[1].split("\n## ", 1)[0]


def test_no_public_endpoint_has_an_unnamed_parameter(served):
    _, names = served
    unnamed = {e: p for e, p in names.items() if any(re.fullmatch(r"param_\d+", n) for n in p)}
    assert not unnamed, f"endpoints with parameters Gradio could not name: {unnamed}"
    assert "/compare" in names and len(originals(names)) >= 30
    # the page served at its own address offers the same endpoints, under the same names
    copies = {e: p for e, p in names.items() if e not in originals(names)}
    assert copies and all(names[original_of(e, names)] == p for e, p in copies.items())
    keys = ["openai_api_key", "anthropic_api_key", "gemini_api_key", "openai_compatible_api_key"]
    assert names["/compare"][:7] == ["message", "responders", "scorers", "system_prompt",
                                     "max_tokens", "temperature", keys[0]]  # fmt: skip
    assert names["/flag_human"] == ["note", *keys, "visitor_id"]


def test_the_docs_list_every_endpoint_with_its_parameters(served):
    _, names = served
    rows = [ROW.match(line) for line in docs_section().splitlines()]
    documented = [(m[1], m[2], read_cell(m[3])) for m in rows if m]
    expected = live_table()
    table = "\n".join(f"| {t} | `{e}` | {write_cell(ps)} |" for t, e, ps in expected)
    assert documented == expected, f"docs/cli.md's table should read:\n{table}"
    assert {e: p for _, e, p in expected} == originals(names)  # the pages, as the app serves them


def test_the_docs_example_asks_the_therapist_through_compare(served):
    client, _ = served
    (code,) = re.findall(r"```python\n(.*?)```", docs_section(), re.S)
    assert EXAMPLE_URL in code and 'api_name="/compare"' in code
    message = re.search(r'message="([^"]+)"', code)
    question = find_question(message[1]) if message else None
    assert question is not None, "the example asks a bundled question (the therapist answers it)"
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(code.replace(EXAMPLE_URL, client.src), {})  # the docs' own example
    assert printed.getvalue().rstrip().endswith(question.answer.strip())  # after "Loaded as API"


def test_a_named_handler_keeps_gradios_progress_bar_and_still_streams():
    """Gradio hands its tracker to a positional parameter whose default is a ``gr.Progress``;
    a handler takes it first (before ``*inputs``) or last (keyword-only): both still get it."""

    def first(progress=gr.Progress(), *inputs):  # noqa: B008 (Gradio's progress idiom)
        yield progress, inputs

    def last(*inputs, progress=gr.Progress()):  # noqa: B008
        return progress, inputs

    tracker = gr.Progress()
    for handler in (first, last):
        wired = named(handler, "message", "visitor_id")
        assert list(inspect.signature(wired).parameters) == ["message", "visitor_id", "progress"]
        _, at, *_ = special_args(wired, ["hi", "v"])
        assert at == 2  # where Gradio puts its tracker: after the inputs
        out = wired("hi", "v", tracker)
        assert (next(out) if inspect.isgenerator(out) else out) == (tracker, ("hi", "v"))
    assert inspect.isgeneratorfunction(named(first, "x"))  # a streaming handler still streams
    from pages import adversarial, vote

    for page, api_name in ((adversarial.demo, "lab"), (vote.demo, "create_round")):
        (event,) = [f for f in page.fns.values() if f.api_name == api_name]
        assert event.tracks_progress
