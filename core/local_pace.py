"""How fast the local model writes: the one measured figure every time estimate of a local
reply reads (the Batch page, the Vote page's round maker, the command-line batch's time left
before its first reply). Gradio-free.

Measured on a 2-core CPU, the model already loaded: a batch with its defaults (5 bundled
questions, the local model and the therapists' answers, 200-token replies scored by the
empathy head) took 30 s in all. The local model's replies took 2.4–9.2 s, 100 tokens on
average: about 0.055 s a token, reading the prompt included. A keyless vote round's three
replies of up to 320 tokens took 2.5, 7.7 and 9.4 s, within the range this gives. (The
fixed 30–100 s a reply the command-line batch guessed before was about ten times too long.)

>>> reply_seconds(200)
(5.5, 11.0)
>>> reply_seconds(64)
(3.5, 3.5)
"""

from __future__ import annotations

#: Seconds a token of a local reply took (reading the prompt included).
SECONDS_PER_TOKEN = 0.055
#: Tokens a local reply took on average (56–200 at a 200-token limit).
TYPICAL_REPLY_TOKENS = 100


def reply_seconds(max_tokens: int) -> tuple[float, float]:
    """(typical, longest) seconds one local reply takes on a 2-core CPU with a ``max_tokens``
    limit: most replies stop near :data:`TYPICAL_REPLY_TOKENS` tokens; one that runs to its
    limit takes the longest.

    >>> reply_seconds(640)
    (5.5, 35.2)
    """
    tokens = max(1, int(max_tokens))
    typical = SECONDS_PER_TOKEN * min(tokens, TYPICAL_REPLY_TOKENS)
    return round(typical, 1), round(SECONDS_PER_TOKEN * tokens, 1)
