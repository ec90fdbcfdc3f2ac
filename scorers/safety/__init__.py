"""The safety check beside the empathy scores (see :mod:`scorers.safety.check`)."""

from scorers.safety.check import CONCERNS, SafetyResult, check

__all__ = ["CONCERNS", "SafetyResult", "check"]
