"""Issue 30: replies on screen can be scored again after a run was stopped early."""

from __future__ import annotations

from core.questions import load_questions
from pages.compare_updates import rescore, run_compare

NO_KEYS = ("", "", "", "")
HUMAN, LOCAL = "human/counselchat", "local/qwen2.5-coder-1.5b"


def test_a_run_stopped_while_a_reply_streams_can_still_be_rescored(local_model_path):
    question = load_questions()[0].question
    run = run_compare(question, [HUMAN, LOCAL], ["bert-head"], "", 256, 0.0, *NO_KEYS)
    saved = {}
    for updates in run:  # stop (close the run) once the therapist's reply has its score
        saved = updates[-1]
        if saved.get("comparison") and saved["scores"].get(HUMAN):
            break
    run.close()  # what Stop does to the handler
    shown = saved["comparison"]
    assert shown.panels[LOCAL].status != "done"  # stopped while the local reply was written
    assert not any(rid == LOCAL for rid, _ in shown.scores)
    last = list(rescore(saved, ["bert-head"], *NO_KEYS))[-1]
    assert str(last[-2]).startswith("Done.") and last[-1]["scores"][HUMAN]


def test_rescoring_with_a_slow_scorer_reports_progress_every_second():
    """Newcomer walk: the clock stood at "0 s" for the whole wait for the judge."""
    import time

    from responders.base import GenerationSettings, Reply
    from scorers.base import Score, Scorer
    from studies.comparison import Comparison, Panel, rescore_comparison

    class Slow(Scorer):
        id = "slow"

        def _score_batch(self, items):
            time.sleep(2.6)
            return [Score.from_components(self.id, 2, 2, 2) for _ in items]

    reply = Reply("a/b", "b", "I'm sad.", GenerationSettings(), text="I'm here.")
    shown = Comparison({"a/b": Panel("a/b", "done", reply.text, reply=reply)}, {}, 0)
    moments = list(rescore_comparison(shown, [Slow()]))
    waiting = [m for m in moments if m.pending]
    assert len(waiting) >= 3 and moments[-1].scores  # the first moment, then one a second
