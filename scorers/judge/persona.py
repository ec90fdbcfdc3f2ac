"""A reader persona for judges (after Roshanaei et al.): whose eyes a judge reads with.

Reader attributes (gender, empathic concern and perspective taking from the
Interpersonal Reactivity Index, shared experience) shift how much empathy
people feel for a story; a judge can be asked to read as such a reader.

>>> Persona.from_choices("", "high", "", "yes").describe()
'a reader, with high empathic concern, who has been through something like what the writer describes'
>>> Persona.from_choices("", "", "", "") is None
True
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Persona:
    """A reader persona for the judge (after Roshanaei et al.).

    >>> Persona(gender="woman", empathic_concern="high", shared_experience=True).describe()
    'a woman, with high empathic concern, who has been through something like what the writer describes'
    """

    gender: str | None = None
    empathic_concern: str | None = None  # low | high
    perspective_taking: str | None = None  # low | high
    shared_experience: bool | None = None

    def describe(self) -> str:
        """The persona as a phrase for the prompt ('' when empty)."""
        parts = []
        if self.gender:
            article = "an" if self.gender[0].lower() in "aeiou" else "a"
            parts.append(f"{article} {self.gender}")
        if self.empathic_concern:
            parts.append(f"with {self.empathic_concern} empathic concern")
        if self.perspective_taking:
            parts.append(f"with {self.perspective_taking} perspective taking")
        if self.shared_experience is not None:
            verb = "has" if self.shared_experience else "has not"
            parts.append(f"who {verb} been through something like what the writer describes")
        if parts and not self.gender:
            parts.insert(0, "a reader")
        return ", ".join(parts)

    @classmethod
    def from_choices(
        cls, gender: str | None, concern: str | None, taking: str | None, shared: str | None
    ) -> Persona | None:
        """A persona from form or command-line choices ('' or None: not part of it).

        ``shared`` is ``"yes"`` or ``"no"``; None when every part is empty.
        """
        persona = cls(
            (gender or "").strip() or None,
            concern or None,
            taking or None,
            None if not shared else shared == "yes",
        )
        return persona if persona.describe() else None
