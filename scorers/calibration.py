"""Calibration: map a scorer's values onto people's, per component, fitted on labelled rows.

Judges overrate and vary less than people. A calibration learns, for each
compared name (``cognitive`` … or ``overall``), a monotone map from the
scorer's value to the human rating and picks among four candidates by
5-fold cross-validated MSE (scikit-learn ``KFold``):

- ``identity``: leave the value as it is (chosen when nothing helps);
- ``linear``: scikit-learn ``LinearRegression`` (fixes a shift and a squeeze);
- ``isotonic``: scikit-learn ``IsotonicRegression`` (any monotone shape);
- ``ordinal``: statsmodels ``OrderedModel`` (logit) of the human level given
  the scorer's value; the calibrated value is the expected level. Only when
  the human ratings are whole levels.

A calibration file (JSON) keeps the fit pairs (numbers only, no texts), the
chosen method per name and the cross-validation table; loading it refits
the chosen models on those pairs (cheap, deterministic). Its name carries
the hash of the fit pairs (``rubric-3f2a9c01``), and it records the scorer
id and the scorer's setting (for a judge: its prompt version, samples,
temperature and persona; for the head: its training-data hash). A
calibration refuses to apply to any other scorer or setting.

Files: shipped ones in ``assets/calibrations/``, ones fitted by users in
``<cache dir>/calibrations/`` (see :mod:`config`); :func:`find_calibration`
looks in both. Use as a scorer wrapper: ``judge/local/qwen2.5-coder-1.5b+calibrated:NAME``.

>>> rng = np.random.default_rng(0)
>>> human = rng.integers(1, 4, 120).astype(float)
>>> judge = np.clip(human + 0.8, 1, 3)          # a judge that overrates by 0.8
>>> cal = fit_calibration({"overall": judge}, {"overall": human}, scorer_id="j",
...                       setting="j", low=1, high=3, label="demo")
>>> cal.methods["overall"] != "identity", round(cal.apply({"overall": 2.8})["overall"], 2)
(True, 2.0)
"""

from __future__ import annotations

import hashlib
import json
import warnings
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

METHODS: tuple[str, ...] = ("identity", "linear", "isotonic", "ordinal")
FOLDS = 5


class CalibrationError(ValueError):
    """A calibration cannot be fitted, found, or applied to this scorer."""


def _fit(method: str, x: np.ndarray, y: np.ndarray, low: float, high: float) -> Any:
    """A fitted model with ``predict(x) -> y`` (None for identity)."""
    if method == "identity":
        return None
    if method == "linear":
        from sklearn.linear_model import LinearRegression

        return LinearRegression().fit(x.reshape(-1, 1), y)
    if method == "isotonic":
        from sklearn.isotonic import IsotonicRegression

        return IsotonicRegression(y_min=low, y_max=high, out_of_bounds="clip").fit(x, y)
    if method == "ordinal":
        from statsmodels.miscmodels.ordinal_model import OrderedModel

        levels = np.unique(y)
        model = OrderedModel(y.astype(int), x.reshape(-1, 1), distr="logit")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = model.fit(method="bfgs", disp=False, maxiter=200)
        return (result, levels)
    raise CalibrationError(f"unknown calibration method {method!r}; known: {', '.join(METHODS)}")


def _predict(method: str, model: Any, x: np.ndarray, low: float, high: float) -> np.ndarray:
    x = np.asarray(x, dtype=float)
    if method == "identity":
        out = x
    elif method == "linear":
        out = model.predict(x.reshape(-1, 1))
    elif method == "isotonic":
        out = model.predict(x)
    else:
        result, levels = model
        probs = np.asarray(result.model.predict(result.params, exog=x.reshape(-1, 1)))
        out = probs @ levels
    return np.clip(out, low, high)


def _candidates(y: np.ndarray) -> list[str]:
    whole = bool(np.all(y == np.round(y))) and len(np.unique(y)) >= 2
    return [m for m in METHODS if m != "ordinal" or whole]


def cross_validate(
    x: np.ndarray, y: np.ndarray, low: float, high: float, seed: int = 0
) -> dict[str, float]:
    """Cross-validated MSE of each candidate method (``FOLDS`` folds, shuffled, seeded)."""
    from sklearn.metrics import mean_squared_error
    from sklearn.model_selection import KFold

    folds = KFold(min(FOLDS, len(x)), shuffle=True, random_state=seed)
    table: dict[str, float] = {}
    for method in _candidates(y):
        pred = np.empty_like(y)
        try:
            for train, test in folds.split(x):
                model = _fit(method, x[train], y[train], low, high)
                pred[test] = _predict(method, model, x[test], low, high)
        except (ValueError, np.linalg.LinAlgError):  # e.g. a fold missing a level
            continue
        table[method] = float(mean_squared_error(y, pred))
    return table


def data_hash(pairs: Mapping[str, tuple[list[float], list[float]]]) -> str:
    """A short hash of the fit pairs (scorer values, human ratings) per name."""
    blob = json.dumps(
        {k: [list(map(float, a)), list(map(float, b))] for k, (a, b) in sorted(pairs.items())}
    )
    return hashlib.sha256(blob.encode()).hexdigest()[:8]


@dataclass
class Calibration:
    """Fitted maps from a scorer's values to human ratings, per compared name."""

    name: str
    scorer_id: str
    setting: str
    low: float
    high: float
    data_hash: str
    #: name -> (scorer values, human ratings) the maps were fitted on.
    pairs: dict[str, tuple[list[float], list[float]]]
    methods: dict[str, str]
    cv_mse: dict[str, dict[str, float]]
    prompt_version: str | None = None
    note: str = ""
    _models: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def model(self, name: str) -> Any:
        """The fitted model for ``name`` (refitted from the pairs on first use)."""
        if name not in self._models:
            x, y = (np.asarray(v, dtype=float) for v in self.pairs[name])
            self._models[name] = _fit(self.methods[name], x, y, self.low, self.high)
        return self._models[name]

    def map(self, name: str, values: np.ndarray) -> np.ndarray:
        """``values`` of ``name`` calibrated (unchanged when ``name`` has no map)."""
        values = np.asarray(values, dtype=float)
        if name not in self.methods:
            return values
        return _predict(self.methods[name], self.model(name), values, self.low, self.high)

    def apply(self, values: Mapping[str, float]) -> dict[str, float]:
        """One score's values calibrated, every mapped name."""
        return {
            k: float(self.map(k, np.array([v]))[0]) if k in self.methods else float(v)
            for k, v in values.items()
        }

    def to_json(self) -> str:
        """The file's text (no fitted models: they are rebuilt from the pairs)."""
        data = asdict(self)
        data.pop("_models")
        return json.dumps(data, indent=1) + "\n"

    @classmethod
    def from_json(cls, text: str) -> Calibration:
        data = json.loads(text)
        data["pairs"] = {k: (list(v[0]), list(v[1])) for k, v in data["pairs"].items()}
        return cls(**data)


def fit_calibration(
    scorer_values: Mapping[str, np.ndarray],
    human: Mapping[str, np.ndarray],
    *,
    scorer_id: str,
    setting: str,
    low: float,
    high: float,
    label: str = "calibration",
    prompt_version: str | None = None,
    seed: int = 0,
    rubric_id: str = "counselling",
) -> Calibration:
    """Fit a map per name present in both (pairs with a missing side are dropped)."""
    pairs: dict[str, tuple[list[float], list[float]]] = {}
    for name in human:
        if name not in scorer_values:
            continue
        x, y = np.asarray(scorer_values[name], dtype=float), np.asarray(human[name], dtype=float)
        keep = ~(np.isnan(x) | np.isnan(y))
        if keep.sum() >= 10:
            pairs[name] = (x[keep].tolist(), y[keep].tolist())
    from scorers.rubric import load_rubric

    if all(c in pairs for c in load_rubric(rubric_id).components):
        pairs.pop("overall", None)  # overall follows from the calibrated components
    if not pairs:
        raise CalibrationError(
            "a calibration needs at least 10 rows with both a score and a human rating"
        )
    methods, cv = {}, {}
    for name, (x, y) in pairs.items():
        cv[name] = cross_validate(np.array(x), np.array(y), low, high, seed)
        methods[name] = min(cv[name], key=cv[name].get)
    digest = data_hash(pairs)
    slug = "".join(c if c.isalnum() or c in "-_." else "-" for c in label)[:40] or "calibration"
    return Calibration(
        f"{slug}-{digest}",
        scorer_id,
        setting,
        low,
        high,
        digest,
        pairs,
        methods,
        cv,
        prompt_version,
    )


def save_calibration(calibration: Calibration, folder: Path) -> Path:
    """Write ``<folder>/<name>.json``; returns its path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{calibration.name}.json"
    path.write_text(calibration.to_json(), encoding="utf-8")
    return path


def calibration_folders() -> list[Path]:
    """Where calibrations are looked for: shipped ones first, then users'."""
    from config import CALIBRATIONS_DIR, USER_CALIBRATIONS_DIR

    return [CALIBRATIONS_DIR, USER_CALIBRATIONS_DIR]


def list_calibrations(folders: list[Path] | None = None) -> list[Calibration]:
    """Every readable calibration in ``folders``."""
    found = []
    for folder in folders or calibration_folders():
        for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
            try:
                found.append(Calibration.from_json(path.read_text(encoding="utf-8")))
            except (ValueError, KeyError, TypeError):
                continue
    return found


def find_calibration(name: str, folders: list[Path] | None = None) -> Calibration:
    """The calibration called ``name``; CalibrationError naming the known ones."""
    if not name or any(c in name for c in "/\\") or name.startswith("."):
        raise CalibrationError(f"{name!r} is not a calibration name")
    for folder in folders or calibration_folders():
        path = folder / f"{name}.json"
        if path.is_file():
            return Calibration.from_json(path.read_text(encoding="utf-8"))
    known = ", ".join(c.name for c in list_calibrations(folders)) or "none yet"
    raise CalibrationError(
        f"no calibration {name!r}; known: {known} (fit one with cli.py calibrate)"
    )
