"""Story ratings: how much empathy a story evokes, by judge and reader persona.

:func:`iter_rated_rows` rates the ``story`` column of any table, row by row
(the Stories page and ``cli.py story-rate`` both call it); :func:`persona_grid` rates one story
through several reader personas side by side; :func:`compare_with_humans`
sets a judge's ratings of the bundled EmpathicStories stories beside their
one-annotator "Empathizable" ratings (Pearson, Cohen's d, Wasserstein, a
paired t-test: the statistics of Roshanaei et al.'s tables), computed by
:func:`scorers.agreement.compare`. Its Cohen's d is judge − people in pooled
standard deviations: positive means the judge rates higher (the paper
reports the same overrating with the opposite sign, d = −0.34).

>>> rows = list(iter_rated_rows([{"story": "  "}], None))
>>> rows[0]["status"], rows[0]["empathy"]
('unscored', '')
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from core.progress import Progress, silent
from core.stories import BundledStory, attribution, has_human_ratings, load_stories
from scorers.agreement import compare
from scorers.base import Score, Scorer
from scorers.judge.persona import Persona
from scorers.judge.story import get_story_judge
from scorers.rubric import load_rubric

#: The rated components, in output order.
STORY_COMPONENTS: tuple[str, ...] = load_rubric("story-evocation").components
#: Columns ``iter_rated_rows`` adds to each input row.
OUTPUT_COLUMNS = (
    *STORY_COMPONENTS,
    "status",
    "reason",
    "rationale",
    "spread",
    "prompt_version",
    "note",
)
#: The default persona grid: low/high empathic concern × shared/no shared experience.
DEFAULT_GRID: tuple[Persona | None, ...] = (
    None,
    Persona(empathic_concern="low", shared_experience=False),
    Persona(empathic_concern="low", shared_experience=True),
    Persona(empathic_concern="high", shared_experience=False),
    Persona(empathic_concern="high", shared_experience=True),
)


def agreement(model: Sequence[float], human: Sequence[float], n_boot: int = 200) -> dict:
    """The story study's statistics of ``model`` against ``human`` on 1–5, with a 95 % CI for r.

    >>> out = agreement([4, 5, 3, 5], [4, 4, 2, 5], n_boot=0)
    >>> out["n"], round(out["pearson_r"], 3), out["wasserstein"], out["cohens_d"] > 0
    (4, 0.899, 0.5, True)
    """
    report = compare(human, model, low=1, high=5, n_boot=n_boot)
    ci = report["ci"].get("pearson_r", [float("nan"), float("nan")])
    return {
        "n": report["n"],
        "pearson_r": report["pearson_r"],
        "pearson_p": report["pearson_p"],
        "pearson_ci": (float(ci[0]), float(ci[1])),
        "model_mean": report["scorer_mean"],
        "human_mean": report["human_mean"],
        "cohens_d": report["cohens_d"],
        "wasserstein": report["wasserstein"],
        "t": report["t_stat"],
        "t_p": report["t_p"],
    }


def persona_name(persona: Persona | None) -> str:
    """A short name for a persona in tables and charts.

    >>> persona_name(None), persona_name(Persona(empathic_concern="high", shared_experience=True))
    ('no persona', 'high concern, shared experience')
    """
    if persona is None:
        return "no persona"
    parts = []
    if persona.gender:
        parts.append(persona.gender)
    if persona.empathic_concern:
        parts.append(f"{persona.empathic_concern} concern")
    if persona.perspective_taking:
        parts.append(f"{persona.perspective_taking} perspective taking")
    if persona.shared_experience is not None:
        parts.append("shared experience" if persona.shared_experience else "no shared experience")
    return ", ".join(parts)


def _cells(score: Score) -> dict[str, str]:
    values = {
        c: "" if score.value(c) is None else f"{score.value(c):.2f}" for c in STORY_COMPONENTS
    }
    return {
        **values,
        "status": score.status,
        "reason": score.reason or "",
        "rationale": score.rationale or "",
        "spread": "" if score.spread is None else f"{score.spread:.3f}",
        "prompt_version": score.prompt_version or "",
        "note": score.note or "",
    }


def iter_rated_rows(
    rows: Sequence[Mapping[str, str]], judge: Scorer | None, progress: Progress = silent
) -> Iterator[dict[str, str]]:
    """Each row plus the judge's ratings, one at a time (so a long run can be written as it goes).

    Rows keep their order and every input column; bad or failed rows come
    back unscored with the reason. With ``judge`` None every row is unscored
    (used for checking input alone).
    """
    for index, row in enumerate(rows):
        story = row.get("story") or ""
        if judge is None:
            score = Score.unscored("none", "no judge chosen", rubric_id="story-evocation")
        else:
            score = judge.score(story)  # cleans the text; empty or huge -> unscored
        yield {**row, **_cells(score)}
        progress(index + 1, len(rows), f"rated {index + 1}/{len(rows)} stories")


@dataclass(frozen=True)
class GridRow:
    """One persona's ratings of the story."""

    persona: Persona | None
    score: Score

    @property
    def name(self) -> str:
        return persona_name(self.persona)


def persona_grid(
    story: str,
    judge_id: str,
    personas: Sequence[Persona | None] = DEFAULT_GRID,
    *,
    samples: int = 1,
    temperature: float = 0.0,
    keys: Mapping[str, str] | None = None,
    progress: Progress = silent,
) -> list[GridRow]:
    """Rate one story once per persona (same judge, same settings)."""
    rows = []
    for index, persona in enumerate(personas):
        judge = get_story_judge(
            judge_id, samples=samples, temperature=temperature, persona=persona, keys=keys
        )
        rows.append(GridRow(persona, judge.score(story)))
        progress(index + 1, len(personas), f"rated as {persona_name(persona)}")
    return rows


@dataclass(frozen=True)
class HumanComparison:
    """A judge's ratings of bundled stories beside the annotators' Empathizable ratings."""

    judge_id: str
    persona: str
    stories: tuple[BundledStory, ...]
    scores: tuple[Score, ...]
    #: One row per component: n, Pearson r and p, means, Cohen's d, Wasserstein, t-test.
    table: tuple[dict[str, object], ...]

    @property
    def unscored(self) -> int:
        return sum(not s.ok for s in self.scores)


def agreement_table(
    human: Sequence[float], scores: Sequence[Score]
) -> tuple[dict[str, object], ...]:
    """Each component (and the affective/cognitive ones) against the human ratings.

    The human rating is one overall "Empathizable" answer per story, so all
    three components are compared with the same human column.
    """
    rows = []
    for component in STORY_COMPONENTS:
        pairs = [(h, s.value(component)) for h, s in zip(human, scores, strict=True) if s.ok]
        stats = agreement([p[1] for p in pairs], [p[0] for p in pairs])
        rows.append({"component": component, **stats})
    return tuple(rows)


def compare_with_humans(
    judge_id: str,
    persona: Persona | None = None,
    *,
    limit: int | None = None,
    samples: int = 1,
    temperature: float = 0.0,
    keys: Mapping[str, str] | None = None,
    progress: Progress = silent,
) -> HumanComparison:
    """Rate the first ``limit`` bundled stories and compare with their Empathizable ratings.

    Raises ValueError when the stories in use carry no human rating (EmpathicStories
    is not installed), saying how to add it.
    """
    if not has_human_ratings():
        raise ValueError(
            "The stories in use have no human ratings to compare with: " + attribution()
        )
    stories = load_stories()[:limit] if limit else load_stories()
    judge = get_story_judge(
        judge_id, samples=samples, temperature=temperature, persona=persona, keys=keys
    )
    scores = []
    for index, story in enumerate(stories):
        scores.append(judge.score(story.story))
        progress(index + 1, len(stories), f"rated {index + 1}/{len(stories)} bundled stories")
    table = agreement_table([s.empathizable for s in stories], scores)
    return HumanComparison(judge.id, persona_name(persona), stories, tuple(scores), table)


def compare_rows(
    rows: Sequence[Mapping[str, str]], human_column: str = "empathizable"
) -> tuple[dict[str, object], ...]:
    """The agreement table for rows already rated (e.g. ``story-rate``'s output).

    Rows whose human rating or judge rating is missing or not a number are
    left out; ValueError when the human column is absent.
    """
    if rows and human_column not in rows[0]:
        raise ValueError(f"no {human_column!r} column (columns: {', '.join(rows[0])})")
    table = []
    for component in STORY_COMPONENTS:
        pairs = []
        for row in rows:
            try:
                pairs.append((float(row[human_column]), float(row[component])))
            except (KeyError, TypeError, ValueError):
                continue
        stats = agreement([p[1] for p in pairs], [p[0] for p in pairs])
        table.append({"component": component, **stats})
    return tuple(table)
