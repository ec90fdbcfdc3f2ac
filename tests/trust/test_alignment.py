"""Alignment study, labelled sets, score cache, calibration and its wrapper (fake scorers)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from scorers.base import Score, ScoreItem, Scorer
from scorers.calibrated import CalibratedScorer
from scorers.calibration import (
    CalibrationError,
    find_calibration,
    fit_calibration,
    save_calibration,
)
from studies import alignment
from studies.labelled import from_rows, load_bundled, subset
from studies.score_cache import score_cached


class Overrater(Scorer):
    """Knows the true level (hidden in the reply text) and adds one, capped at 3."""

    id = "overrater"

    def __init__(self) -> None:
        self.calls = 0

    def _score_batch(self, items: list[ScoreItem]) -> list[Score]:
        self.calls += len(items)
        out = []
        for item in items:
            if "unscorable" in item.reply:
                out.append(Score.unscored(self.id, "the judge's answer could not be read"))
                continue
            level = float(item.reply.split()[-1])
            value = min(3.0, level + 1.0)
            out.append(Score.from_components(self.id, value, value, value))
        return out


def labelled(n: int = 60, seed: int = 0):
    rng = np.random.default_rng(seed)
    levels = rng.integers(1, 4, n)
    rows = [
        {"reply": f"reply level {lv}", "message": "m", "rating": str(2 * lv - 1)} for lv in levels
    ]
    return from_rows(rows, {"overall": "rating", "cognitive": "rating"}, scale=(1, 5))


def test_from_rows_maps_the_scale_and_refuses_bad_input() -> None:
    data = from_rows(
        [{"reply": "x", "r": "1"}, {"reply": "y", "r": "5"}, {"reply": "z", "r": ""}],
        {"overall": "r"},
        scale=(1, 5),
    )
    assert data.human["overall"][:2].tolist() == [1.0, 3.0] and np.isnan(data.human["overall"][2])
    with pytest.raises(ValueError, match="outside the declared scale"):
        from_rows([{"reply": "x", "r": "7"}], {"overall": "r"}, scale=(1, 5))
    with pytest.raises(ValueError, match="no column 'score'"):
        from_rows([{"reply": "x", "r": "1"}], {"overall": "score"}, scale=(1, 5))
    with pytest.raises(ValueError, match="not on the rubric"):
        from_rows([{"reply": "x", "r": "1"}], {"kindness": "r"}, scale=(1, 5))
    with pytest.raises(ValueError, match="no rows"):
        from_rows([], {"overall": "r"}, scale=(1, 5))
    with pytest.raises(ValueError, match="'reply'"):
        from_rows([{"text": "x", "r": "1"}], {"overall": "r"}, scale=(1, 5))


def test_bundled_sets_load_with_their_scales() -> None:
    labels = load_bundled("rubric-labels", sample=20, seed=3)
    assert len(labels) == 20 and set(labels.human) == {
        "cognitive",
        "emotional",
        "behavioral",
        "overall",
    }
    assert labels.items == load_bundled("rubric-labels", sample=20, seed=3).items  # seeded
    epitome = load_bundled("epitome", sample=10)
    assert set(epitome.human) == {"emotional", "cognitive"}
    assert set(np.unique(epitome.human["emotional"])) <= {1.0, 2.0, 3.0}
    assert set(load_bundled("welivita", sample=10).human) == {"overall"}
    with pytest.raises(ValueError, match="unknown labelled set"):
        load_bundled("nope")
    assert len(subset(labels, 5, seed=1)) == 5


def test_alignment_sees_an_overrater_and_the_cache_makes_reruns_free(tmp_path) -> None:
    data = labelled()
    scorer = Overrater()
    report = alignment.run_alignment(data, scorer, n_boot=50, cache=tmp_path)
    overall = report["components"]["overall"]
    assert overall["n"] == 60 and overall["cohens_d"] > 0.5 and overall["t_stat"] > 0
    assert overall["bias_sq"] > overall["variance_term"]  # it overrates more than it is noisy
    assert set(overall["ci"]) >= {"pearson_r", "mse", "qwk"}
    assert scorer.calls == 60
    again = alignment.run_alignment(data, scorer, n_boot=0, cache=tmp_path)
    assert scorer.calls == 60  # everything came from the cache
    assert again["components"]["overall"]["mse"] == pytest.approx(overall["mse"])
    assert report["rows"][0]["human_overall"] is not None


def test_unscored_rows_are_counted_and_left_out(tmp_path) -> None:
    rows = [{"reply": f"reply level {1 + i % 3}", "r": str(1 + i % 3)} for i in range(9)]
    rows.append({"reply": "unscorable reply", "r": "2"})
    report = alignment.run_alignment(
        from_rows(rows, {"overall": "r"}, scale=(1, 3)), Overrater(), n_boot=0, cache=tmp_path
    )
    assert report["n_scored"] == 9 and report["components"]["overall"]["n"] == 9
    assert report["unscored"] == {"the judge's answer could not be read": 1}
    # An unscored reply is asked again next time, never cached.
    scorer = Overrater()
    score_cached(scorer, [ScoreItem("unscorable reply")], tmp_path)
    assert scorer.calls == 1


def test_calibration_helps_on_rows_it_never_saw() -> None:
    data = labelled(120)
    report = alignment.run_alignment(data, Overrater(), n_boot=0, cache=None)
    study = alignment.calibration_study(data, report, n_boot=0, seed=1)
    assert len(study["fit_rows"]) == 60 and not set(study["fit_rows"]) & set(study["test_rows"])
    before, after = study["before"]["overall"], study["after"]["overall"]
    assert after["mse"] < before["mse"] / 2
    assert abs(after["cohens_d"]) < abs(before["cohens_d"])
    assert study["calibration"].methods["cognitive"] != "identity"


def test_calibrated_wrapper_refuses_another_scorer_or_setting(tmp_path, monkeypatch) -> None:
    data = labelled(60)
    inner = Overrater()
    report = alignment.run_alignment(data, inner, n_boot=0, cache=None)
    cal = alignment.calibration_for(data, report, label="fake")
    assert cal.name.startswith("fake-") and cal.setting == inner.setting
    path = save_calibration(cal, tmp_path)
    loaded = find_calibration(cal.name, [tmp_path])
    assert (
        loaded.methods == cal.methods and json.loads(path.read_text())["scorer_id"] == "overrater"
    )
    wrapped = CalibratedScorer(inner, loaded)
    assert wrapped.score("reply level 1").overall < inner.score("reply level 1").overall
    assert wrapped.id == f"overrater+calibrated:{cal.name}"

    class Other(Overrater):
        id = "other"

    with pytest.raises(CalibrationError, match="fitted for overrater"):
        CalibratedScorer(Other(), loaded)
    with pytest.raises(CalibrationError, match="no calibration"):
        find_calibration("missing", [tmp_path])
    with pytest.raises(CalibrationError, match="not a calibration name"):
        find_calibration("../etc/passwd", [tmp_path])


def test_calibrated_judge_via_the_registry_and_prompt_version_check(tmp_path, monkeypatch) -> None:
    import scorers.calibration as calibration
    from scorers.registry import get_scorer

    monkeypatch.setattr(calibration, "calibration_folders", lambda: [tmp_path])
    judge = get_scorer("judge/local/qwen2.5-coder-1.5b")
    rng = np.random.default_rng(0)
    x = rng.integers(1, 4, 40).astype(float)
    fitted = fit_calibration(
        {"overall": x},
        {"overall": x},
        scorer_id=judge.id,
        setting=judge.setting,
        low=1,
        high=3,
        label="judge",
    )
    save_calibration(fitted, tmp_path)
    wrapped = get_scorer(f"judge/local/qwen2.5-coder-1.5b+calibrated:{fitted.name}")
    assert wrapped.id.endswith(f"+calibrated:{fitted.name}")
    stale = fit_calibration(
        {"overall": x},
        {"overall": x},
        scorer_id=judge.id,
        setting=judge.setting.replace("judge-v", "judge-old-v"),
        low=1,
        high=3,
        label="stale",
    )
    save_calibration(stale, tmp_path)
    with pytest.raises(CalibrationError, match="does not apply"):
        get_scorer(f"judge/local/qwen2.5-coder-1.5b+calibrated:{stale.name}")
    with pytest.raises(KeyError, match="needs an argument"):
        get_scorer("bert-head+calibrated")


def test_cached_only_reports_on_a_run_still_going(tmp_path) -> None:
    items = [ScoreItem(f"reply {i} level {1 + i % 3}") for i in range(5)]
    scorer = Overrater()
    score_cached(scorer, items[:3], tmp_path)
    later = Overrater()
    scores = score_cached(later, items, tmp_path, cached_only=True)
    assert later.calls == 0
    assert [s.ok for s in scores] == [True, True, True, False, False]
    assert scores[4].reason == "not in the score cache"


def test_weighted_judge_calibration_refuses_another_prompt_version(monkeypatch) -> None:
    """The shipped judge calibration applies to its prompt version and to no other."""
    from scorers import registry
    from scorers.calibration import CalibrationError
    from scorers.judge import weighted

    name = "judge-weighted/local/qwen2.5-coder-1.5b+calibrated:rubric-labels-0560ac7c"
    assert registry.get_scorer(name).id == name
    other = property(lambda self: "judge-weighted-v999")
    monkeypatch.setattr(weighted.WeightedJudge, "prompt_version", other)
    with pytest.raises(CalibrationError):
        registry.get_scorer(name)
