"""A judge built for one request from its id, its options and the keys typed in the key boxes,
the way the Stories and Resonance pages open their handlers (each takes the boxes as
``key_1`` … ``key_4``): an unknown id, or a judge that cannot run here, is a plain refusal
before anything is asked of it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import gradio as gr

from config import Keys
from pages.widgets.keys import typed_keys

T = TypeVar("T")


def typed_judge(
    make: Callable[..., T], judge_id: str, key_values: Sequence[str | None], **options: Any
) -> tuple[T, Keys]:
    """``make(judge_id, keys=…, **options)`` with the server's keys and ``key_values`` (the key
    boxes, in :data:`config.KEY_ENV_VARS` order) over them; returns it and those keys.

    ``make`` raises KeyError for an unknown id; a judge with an ``unavailable_reason`` (an
    embedding has none) says why it cannot run. Either is a ``gr.Error``.

    >>> class Keyless:
    ...     def unavailable_reason(self):
    ...         return "no key"
    >>> typed_judge(lambda judge_id, keys: Keyless(), "judge/openai/gpt-4o", ["", ""])
    Traceback (most recent call last):
    ...
    gradio.exceptions.Error: 'judge/openai/gpt-4o cannot run: no key'
    """
    keys = typed_keys(*key_values)
    try:
        judge = make(judge_id, keys=keys, **options)
    except KeyError as exc:
        raise gr.Error(str(exc.args[0])) from None
    check = getattr(judge, "unavailable_reason", None)
    reason = check() if check is not None else None
    if reason:
        raise gr.Error(f"{judge_id} cannot run: {reason}")
    return judge, keys
