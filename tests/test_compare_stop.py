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
