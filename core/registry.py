"""One registry style for every family (responders, scorers, perturbations).

A registry maps a readable key to a factory. An id is the key, optionally
followed by ``/`` and an argument the factory takes (``openai/gpt-4o``,
``judge/local/qwen2.5-coder-1.5b``); wrappers are suffixes after ``+``
(``bert-head+normalize``). Adding a member is one file and one ``add`` line.

>>> r = Registry[str]("greeting")
>>> r.add("hello", lambda arg: f"hello {arg or 'world'}", name=lambda arg: "A greeting")
>>> r.add_wrapper("loud", str.upper, name="shouted")
>>> r.get("hello/you"), r.get("hello+loud"), r.name("hello+loud")
('hello you', 'HELLO WORLD', 'A greeting, shouted')
>>> r.get("bye")
Traceback (most recent call last):
...
KeyError: "unknown greeting 'bye'; known: hello (wrappers: +loud)"
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
        self._wrappers: dict[str, Callable[[T], T]] = {}
        self._names: dict[str, Callable[[str], str]] = {}
        self._wrapper_names: dict[str, str] = {}

    def add(
        self, key: str, factory: Callable[..., T], name: Callable[[str], str] | None = None
    ) -> None:
        """Register ``factory(argument)`` under ``key``; the argument is '' when absent.

        ``name(argument)`` gives a readable name without building the member.
        """
        if key in self._factories:
            raise ValueError(f"{self.family} {key!r} is registered twice")
        self._factories[key] = factory
        if name is not None:
            self._names[key] = name

    def add_wrapper(self, suffix: str, wrap: Callable[[T], T], name: str = "") -> None:
        """Register a wrapper applied by the id suffix ``+suffix`` (``name`` is added to names)."""
        self._wrappers[suffix] = wrap
        self._wrapper_names[suffix] = name or suffix

    def name(self, spec: str) -> str:
        """A readable name for ``spec`` (the id itself when none was registered)."""
        try:
            key, argument, suffixes = self.parse(spec)
        except KeyError:
            return spec
        if key not in self._names:
            return spec
        return ", ".join([self._names[key](argument), *(self._wrapper_names[s] for s in suffixes)])

    def __iter__(self) -> Iterator[str]:
        return iter(self._factories)

    def __contains__(self, key: object) -> bool:
        return key in self._factories

    def keys(self) -> list[str]:
        """The registered keys, in the order they were added."""
        return list(self._factories)

    def wrappers(self) -> list[str]:
        """The registered wrapper suffixes."""
        return list(self._wrappers)

    def parse(self, spec: str) -> tuple[str, str, list[str]]:
        """``(key, argument, wrappers)`` of an id; KeyError when it names nothing known."""
        base, *suffixes = spec.strip().split("+")
        key, _, argument = base.partition("/")
        if key not in self._factories or any(s not in self._wrappers for s in suffixes):
            known = ", ".join(self._factories)
            extra = ", ".join(f"+{w}" for w in self._wrappers)
            raise KeyError(
                f"unknown {self.family} {spec.strip()!r}; known: {known}"
                + (f" (wrappers: {extra})" if extra else "")
            )
        return key, argument, suffixes

    def get(self, spec: str, **options: Any) -> T:
        """The member for ``spec``, built by its factory and wrapped by its suffixes.

        ``options`` go to the factory as keyword arguments (judges take some).
        """
        key, argument, suffixes = self.parse(spec)
        member = self._factories[key](argument, **options)
        for suffix in suffixes:
            member = self._wrappers[suffix](member)
        return member
