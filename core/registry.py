"""One registry style for every family (responders, scorers, perturbations).

A registry maps a readable key to a factory. An id is the key, optionally
followed by ``/`` and an argument the factory takes (``openai/gpt-4o``,
``judge/local/qwen2.5-coder-1.5b``); wrappers are suffixes after ``+``
(``bert-head+normalize``), and a wrapper registered with
``takes_argument=True`` reads one after ``:`` (``bert-head+calibrated:NAME``).
Adding a member is one file and one ``add`` line.

>>> r = Registry[str]("greeting")
>>> r.add("hello", lambda arg: f"hello {arg or 'world'}")
>>> r.add_wrapper("loud", str.upper)
>>> r.add_wrapper("end", lambda s, mark: s + mark, takes_argument=True)
>>> r.get("hello/you"), r.get("hello+loud"), r.get("hello+end:!+loud")
('hello you', 'HELLO WORLD', 'HELLO WORLD!')
>>> r.get("bye")
Traceback (most recent call last):
...
KeyError: "unknown greeting 'bye'; known: hello (wrappers: +loud, +end:…)"
>>> r.get("hello+end")
Traceback (most recent call last):
...
KeyError: 'the wrapper +end needs an argument: +end:…'
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class Registry(Generic[T]):
    """Readable ids to members of one family, built by factories."""

    def __init__(self, family: str) -> None:
        self.family = family
        self._factories: dict[str, Callable[..., T]] = {}
        self._wrappers: dict[str, Callable[..., T]] = {}
        self._with_argument: set[str] = set()

    def add(self, key: str, factory: Callable[..., T]) -> None:
        """Register ``factory(argument)`` under ``key``; the argument is '' when absent."""
        if key in self._factories:
            raise ValueError(f"{self.family} {key!r} is registered twice")
        self._factories[key] = factory

    def add_wrapper(
        self, suffix: str, wrap: Callable[..., T], *, takes_argument: bool = False
    ) -> None:
        """Register a wrapper applied by the id suffix ``+suffix`` (``+suffix:arg`` with an argument)."""
        self._wrappers[suffix] = wrap
        if takes_argument:
            self._with_argument.add(suffix)

    def __iter__(self) -> Iterator[str]:
        return iter(self._factories)

    def __contains__(self, key: object) -> bool:
        return key in self._factories

    def keys(self) -> list[str]:
        """The registered keys, in the order they were added."""
        return list(self._factories)

    def wrappers(self) -> list[str]:
        """The registered wrapper suffixes (without their arguments)."""
        return list(self._wrappers)

    def parse(self, spec: str) -> tuple[str, str, list[str]]:
        """``(key, argument, wrappers)`` of an id; KeyError when it names nothing known.

        Each wrapper is returned as written (``normalize``, ``calibrated:NAME``).
        """
        base, *suffixes = spec.strip().split("+")
        key, _, argument = base.partition("/")
        names = [s.partition(":")[0] for s in suffixes]
        if key not in self._factories or any(s not in self._wrappers for s in names):
            known = ", ".join(self._factories)
            extra = ", ".join(
                f"+{w}" + (":…" if w in self._with_argument else "") for w in self._wrappers
            )
            raise KeyError(
                f"unknown {self.family} {spec.strip()!r}; known: {known}"
                + (f" (wrappers: {extra})" if extra else "")
            )
        for suffix, name in zip(suffixes, names, strict=True):
            if (name in self._with_argument) != bool(suffix.partition(":")[2]):
                need = (
                    "needs an argument: +" + name + ":…"
                    if name in self._with_argument
                    else "takes no argument"
                )
                raise KeyError(f"the wrapper +{name} {need}")
        return key, argument, suffixes

    def get(self, spec: str, **options: Any) -> T:
        """The member for ``spec``, built by its factory and wrapped by its suffixes.

        ``options`` go to the factory as keyword arguments (judges take some).
        """
        key, argument, suffixes = self.parse(spec)
        member = self._factories[key](argument, **options)
        for suffix in suffixes:
            name, _, wrapper_argument = suffix.partition(":")
            if name in self._with_argument:
                member = self._wrappers[name](member, wrapper_argument)
            else:
                member = self._wrappers[name](member)
        return member
