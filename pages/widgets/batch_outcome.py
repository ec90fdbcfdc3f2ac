"""What a batch run on the Batch page did, in one line: replies made, failed and already
done; a stopped run says it has stopped and how to go on (:mod:`pages.batch`).
"""

from __future__ import annotations

from studies.batch.run import BatchOutcome


def outcome_text(outcome: BatchOutcome, stopped: bool) -> str:
    """What a run did, in one line; a stopped run says it HAS stopped and how to go on.

    >>> from pathlib import Path
    >>> outcome_text(BatchOutcome(Path("r"), 10, 3, 0, 2, 5), stopped=True)[:41]
    '**Stopped**: 5 of 10 replies kept (3 new,'
    """
    if stopped and outcome.not_run:
        kept = outcome.done + outcome.skipped
        return (
            f"**Stopped**: {kept} of {outcome.total} replies kept ({outcome.done} new, "
            f"{outcome.skipped} from before), {outcome.failed} failed, {outcome.not_run} not "
            "asked. Nothing is running now: press Run to continue where it stopped."
        )
    counts = (
        f"**{outcome.done}** replies made, **{outcome.failed}** failed, "
        f"**{outcome.skipped}** already done"
    )
    if not outcome.complete:
        return counts + ". Press Run again to retry what failed."
    return counts + "."
