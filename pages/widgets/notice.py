"""A lasting message beside a button, instead of a toast that vanishes.

A handler wrapped with :func:`reports_problems` returns the notice text as its
first output. When it refuses (``gr.Error``, ``ValueError``) the reason stays
in the notice and every other output is left exactly as it was
(``gr.skip()``), so panels that never ran show no red "Error" badge. A
handler whose outputs are the results of one input (a report on an uploaded
file) passes ``clears=True`` instead: a refusal empties them, so the last
run's results never sit under a new input's error as if they were its own.

>>> @reports_problems(2)
... def handler(text):
...     if not text:
...         raise ValueError("Type a message first.")
...     return "", text.upper(), len(text)
>>> handler("")[0]
'⚠️ Type a message first.'
>>> handler("hi")
('', 'HI', 2)
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

import gradio as gr

#: Errors a handler raises to refuse with a reason a visitor can act on.
REFUSALS: tuple[type[BaseException], ...] = (gr.Error, ValueError)


def notice_box(*classes: str, **kwargs: Any) -> gr.Markdown:
    """The Markdown that holds the lasting message (empty until there is one); ``classes``
    are further style classes (``"own-clock"``: a progress bar there hides Gradio's timer)."""
    return gr.Markdown("", elem_classes=["notice", *classes], **kwargs)


def scroll_cue() -> gr.Markdown:
    """A line shown on narrow screens only: the table below scrolls sideways."""
    return gr.Markdown(
        "The table is wider than this screen: swipe it sideways to see every column →",
        elem_classes=["scroll-cue"],
    )


def problem(exc: BaseException) -> str:
    """The text shown for a refusal: the reason itself, marked as a problem."""
    text = getattr(exc, "message", None) or str(exc) or type(exc).__name__
    return f"⚠️ {text}"


def _skips(n_other: int, message: str, at: int, clears: bool = False) -> Any:
    if n_other == 0:  # the notice is the only output
        return message
    others = [None if clears else gr.skip() for _ in range(n_other)]
    return (*others[:at], message, *others[at:])


def reports_problems(
    n_other: int, at: int = 0, clears: bool = False
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Wrap a handler (function or generator) whose output number ``at`` is a notice box.

    ``n_other`` is how many other outputs there are; on a refusal they are
    skipped, or emptied (``None``) when ``clears`` is true.

    >>> reports_problems(2, clears=True)(lambda: int("x"))()[1:]
    (None, None)
    """

    def wrap(handler: Callable[..., Any]) -> Callable[..., Any]:
        if inspect.isgeneratorfunction(handler):

            @functools.wraps(handler)
            def gen(*args: Any, **kwargs: Any) -> Any:
                try:
                    yield from handler(*args, **kwargs)
                except REFUSALS as exc:
                    yield _skips(n_other, problem(exc), at, clears)

            return gen

        @functools.wraps(handler)
        def plain(*args: Any, **kwargs: Any) -> Any:
            try:
                return handler(*args, **kwargs)
            except REFUSALS as exc:
                return _skips(n_other, problem(exc), at, clears)

        return plain

    return wrap


def with_notice(
    handler: Callable[..., Any], n_other: int, clears: bool = False
) -> Callable[..., Any]:
    """``handler`` with a notice box as its first output: cleared when it succeeds, the
    reason when it refuses (the other outputs emptied too when ``clears``, see
    :func:`reports_problems`). Gradio's progress bar still reaches a handler that takes one.
    A handler with several outputs returns a tuple (a list is one table's rows).

    >>> def double(x):
    ...     if x < 0:
    ...         raise ValueError("Give a positive number.")
    ...     return x * 2
    >>> with_notice(double, 1)(2), with_notice(double, 1)(-1)[0]
    (('', 4), '⚠️ Give a positive number.')
    """

    def cleared(out: Any) -> tuple[Any, ...]:
        return ("", *out) if isinstance(out, tuple) else ("", out)  # a list is one table

    if "progress" in inspect.signature(handler).parameters:

        def run(*args: Any, progress: gr.Progress = gr.Progress()) -> tuple[Any, ...]:  # noqa: B008
            return cleared(handler(*args, progress=progress))
    else:

        def run(*args: Any) -> tuple[Any, ...]:
            return cleared(handler(*args))

    return reports_problems(n_other, clears=clears)(run)
