"""What each box that keeps text says about it: what is kept, for how long, who can read it.

One place for the words, so every page says the same (``docs/deployment.md`` says it whole).
On a server of one's own, "the operator" is oneself.
"""

from __future__ import annotations

import config

#: Beside a flag's note box.
FLAG_KEPT = (
    "A flag keeps the message, the reply, its scores and your note in this server's flag "
    "log, until its operator clears it. Only the operator and you (this browser) can read "
    "your flags: download yours on the Flags page. Leave out names, addresses and numbers."
)
#: Beside the rating box.
RATING_KEPT = (
    "A rating keeps the message, the reply, your levels, comment and name or initials in "
    "this server's ratings log, until its operator clears it. Only the operator and you "
    "(this browser) can read your ratings. This browser also remembers your name for next "
    "time. Leave out other people's names and details."
)
#: Beside the vote's "Why?" box.
VOTE_KEPT = (
    "Your vote and reason go to this server's vote log, kept until its operator clears it. "
    "Everyone sees the round's counts; only the operator and you (this browser) can read "
    "your reason. No name or address is kept with it."
)
#: Under the teacher's round maker.
ROUND_KEPT = (
    "A round keeps its message, replies and scores on this server until its operator clears "
    "it, and anyone with its code can read them: share the code only with your class, and "
    "leave out names and other details."
)
#: Over the operator's box on Flags and Vote results.
OPERATOR_HELP = (
    "For this server's operator: the whole log, everyone's rows, with the token set in "
    "`EMPATHY_LAB_ADMIN_TOKEN`. Visitors download only their own rows."
)
#: A wrong or missing operator token.
NOT_OPERATOR = (
    "That is not this server's operator token (EMPATHY_LAB_ADMIN_TOKEN): the whole log is "
    "for the operator. Your own rows are in the download above."
)


def runs_kept() -> str:
    """What the Batch page says of the runs it keeps (the operator's limits, read now).

    >>> "days" in runs_kept()
    True
    """
    s = config.SETTINGS
    return (
        f"Your runs are kept on this server for {s.keep_days:g} days after their last change, "
        f"at most {s.visitor_max_runs} runs and {s.visitor_max_bytes / 2**20:g} MB for one "
        "visitor; only this browser can open or download them. Download what you want to keep."
    )
