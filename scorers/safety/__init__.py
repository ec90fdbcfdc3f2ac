"""The safety check beside the empathy scores (see :mod:`scorers.safety.check`)."""

from scorers.safety.check import SafetyResult, check
from scorers.safety.wording import CONCERNS

#: How the screen is named where scores are listed (a flag's scores, a batch row).
SAFETY_ID = "safety-screen"

__all__ = ["CONCERNS", "SAFETY_ID", "SafetyResult", "check"]
