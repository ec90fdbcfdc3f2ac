"""Names for the parameters of the app's web API (what ``gradio_client`` shows and takes).

Gradio names an endpoint's parameters from its handler's signature, and a handler taking
``*inputs`` or ``*key_values`` gave ``param_0`` … ``param_16``: a caller could not tell the
message from a key box. :func:`named` gives the handler, where its event is wired, a signature
that names each input in order; :data:`KEYS`, :data:`JUDGE_OPTIONS` and :data:`VISITOR` are
the names every page gives the same inputs. docs/cli.md lists every endpoint with its names.

>>> def echo(*inputs):
...     return inputs
>>> wired = named(echo, "message", *KEYS)
>>> str(inspect.signature(wired))
'(message, openai_api_key, anthropic_api_key, gemini_api_key, openai_compatible_api_key)'
>>> wired("hi", "sk", "", "", openai_compatible_api_key="x")
('hi', 'sk', '', '', 'x')
>>> str(inspect.signature(named(lambda rows, note, visitor=None: note, "rows", "note", VISITOR)))
'(rows, note, visitor_id=None)'
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

import gradio as gr

from config import KEY_ENV_VARS

__all__ = ["JUDGE_OPTIONS", "KEYS", "VISITOR", "named"]

#: The key boxes, in :data:`config.KEY_ENV_VARS` order: ``openai_api_key`` …
KEYS: tuple[str, ...] = tuple(name.lower() for name in KEY_ENV_VARS)
#: This browser's visitor id (a ``gr.BrowserState``), which several handlers take last.
VISITOR = "visitor_id"
#: The six judge options (:func:`pages.widgets.judge.judge_controls`), in their order.
JUDGE_OPTIONS = (
    "judge_samples",
    "judge_temperature",
    "reader_gender",
    "empathic_concern",
    "perspective_taking",
    "shared_experience",
)

_ARGUMENT = inspect.Parameter.POSITIONAL_OR_KEYWORD


def named(fn: Callable[..., Any], *names: str) -> Callable[..., Any]:
    """``fn`` as an event runs it, its parameters called ``names`` (one per input, in the
    inputs' order: a ``gr.State`` too, which the API does not show).

    A name keeps the default of ``fn``'s own parameter in its place (``visitor=None`` last
    leaves ``visitor_id`` optional for a client, as it was). A ``progress=gr.Progress()``
    parameter of ``fn`` is kept, after the names, where Gradio looks for it (a positional
    parameter whose default is a ``gr.Progress``), and handed on as ``fn`` takes it (by
    position or by keyword). A generator stays a generator, so a streaming handler still
    streams.
    """
    tracker = _tracker(fn)
    signature = _signature(fn, names, tracker)

    def arguments(args: tuple, kwargs: dict) -> tuple[list, dict]:
        bound = signature.bind_partial(*args, **kwargs).arguments
        given = [name for name in names if name in bound]
        if given != list(names[: len(given)]):
            missing = next(name for name in names if name not in bound)
            raise TypeError(f"{fn.__name__}() missing argument {missing!r}")
        values = [bound[name] for name in given]
        if tracker is None or tracker.name not in bound:
            return values, {}
        if tracker.kind is inspect.Parameter.KEYWORD_ONLY:
            return values, {tracker.name: bound[tracker.name]}
        at = list(inspect.signature(fn).parameters).index(tracker.name)
        return [*values[:at], bound[tracker.name], *values[at:]], {}

    if inspect.isgeneratorfunction(fn):

        def call(*args: Any, **kwargs: Any) -> Any:
            values, options = arguments(args, kwargs)
            return (yield from fn(*values, **options))
    else:

        def call(*args: Any, **kwargs: Any) -> Any:
            values, options = arguments(args, kwargs)
            return fn(*values, **options)

    functools.update_wrapper(call, fn, assigned=("__module__", "__name__", "__doc__"), updated=())
    call.__signature__ = signature  # type: ignore[attr-defined]
    call.__annotations__ = {}  # the names alone: no hint of fn's (Gradio reads gr.Request from one)
    return call


def _signature(
    fn: Callable[..., Any], names: tuple[str, ...], tracker: inspect.Parameter | None
) -> inspect.Signature:
    """``names``, each with the default of ``fn``'s positional parameter in its place (only
    a trailing run of them: no name without one may follow one with one), then ``tracker``."""
    own = [
        p.default
        for p in inspect.signature(fn).parameters.values()
        if p.kind in (p.POSITIONAL_ONLY, _ARGUMENT) and not isinstance(p.default, gr.Progress)
    ]
    defaults = [own[i] if i < len(own) else inspect.Parameter.empty for i in range(len(names))]
    bare = [i for i, default in enumerate(defaults) if default is inspect.Parameter.empty]
    if bare:
        defaults[: bare[-1]] = [inspect.Parameter.empty] * bare[-1]
    listed = [
        inspect.Parameter(n, _ARGUMENT, default=d) for n, d in zip(names, defaults, strict=True)
    ]
    if tracker is not None:
        listed.append(inspect.Parameter(tracker.name, _ARGUMENT, default=tracker.default))
    return inspect.Signature(listed)


def _tracker(fn: Callable[..., Any]) -> inspect.Parameter | None:
    """``fn``'s ``gr.Progress`` parameter, if it has one."""
    parameters = inspect.signature(fn).parameters.values()
    return next((p for p in parameters if isinstance(p.default, gr.Progress)), None)
