"""The safety check beside the empathy scores (see :mod:`scorers.safety.check`)."""

from scorers.safety.check import CONCERNS, SafetyResult, check

#: How the screen is named where scores are listed (a flag's scores, a batch row).
SAFETY_ID = "safety-screen"

__all__ = ["CONCERNS", "SAFETY_ID", "SafetyResult", "check"]
