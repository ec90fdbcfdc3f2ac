"""Every environment variable and path the app reads, read once, here.

Where work runs is the operator's choice, never a visitor's: the batch engine
(``EMPATHY_LAB_BATCH_ENGINE``: ``local`` or ``ray``), the Ray address
(``EMPATHY_LAB_RAY_ADDRESS``; blank starts a local Ray instance), whether a
remote Ray cluster may be used at all (``EMPATHY_LAB_RAY_ALLOW_REMOTE=1``),
rows run at once (``EMPATHY_LAB_BATCH_CONCURRENCY``) and the runs folder
(``EMPATHY_LAB_RUNS_DIR``). The pages run batches with the local engine only.
The operator also caps what strangers on one server can send and leave: the
largest upload (``EMPATHY_LAB_MAX_UPLOAD_MB``, default 20) and the largest
the flag log may grow (``EMPATHY_LAB_MAX_FLAG_LOG_MB``, default 50). How the
empathy head's encoder runs is the operator's choice too
(``EMPATHY_LAB_ENCODER_RUNTIME``: ``onnx``, the default, or ``torch``).

What strangers type stays theirs (:mod:`core.visitors`, ``docs/deployment.md``):
the shared logs (flags, votes, ratings) are the operator's on a public
server (``EMPATHY_LAB_PUBLIC=1``, a Hugging Face Space, or one listening on
every interface), downloadable whole only with ``EMPATHY_LAB_ADMIN_TOKEN``;
each visitor's batch runs are capped (``EMPATHY_LAB_VISITOR_MAX_MB``,
``EMPATHY_LAB_VISITOR_MAX_RUNS``, all visitors together
``EMPATHY_LAB_VISITORS_MAX_MB``) and removed after ``EMPATHY_LAB_KEEP_DAYS``;
a request's body is refused past ``EMPATHY_LAB_MAX_REQUEST_MB`` before any
of it is read into a page.

Secrets (API keys) are read from the environment and from a local ``.env``
file when one exists. They are kept in a :class:`Keys` mapping that never
prints its values, is never logged and is never written to disk. Keys a user
types into a page live only in that browser session's state and are merged
over the server's keys for that session alone (:meth:`Keys.merged`).

>>> Keys({"OPENAI_API_KEY": "sk-secret"})
Keys(OPENAI_API_KEY=<set>)
>>> Keys({}).get("OPENAI_API_KEY") is None
True
"""

from __future__ import annotations

import os
import secrets as random_tokens
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent
ASSETS_DIR = ROOT / "assets"
#: Prompts as data (the judge's, the rewriters'), one JSON file each.
PROMPTS_DIR = ASSETS_DIR / "prompts"
#: Rubrics as data: components, scale and level texts, one JSON file each.
RUBRICS_DIR = ASSETS_DIR / "rubrics"
#: One card per scorer (inputs, output range, training data, measured limits).
CARDS_DIR = ASSETS_DIR / "cards"
#: Trained weights that ship with the app (the BERT head).
MODELS_DIR = ASSETS_DIR / "models"
#: Small data sets that ship with the app (bundled questions, examples).
BUNDLED_DATA_DIR = ASSETS_DIR / "data"
#: The 1,024 rubric-labelled replies (this project's own labels; they ship).
RUBRIC_LABELS_CSV = BUNDLED_DATA_DIR / "rubric_labels.csv"
#: Welivita & Pu's people ratings (CC BY-NC source data, shipped with attribution).
WELIVITA_CSV = BUNDLED_DATA_DIR / "welivita_ratings.csv"
#: Provider prices per million tokens, dated (for the cost of a batch).
PRICES_JSON = BUNDLED_DATA_DIR / "prices.json"
APP_VERSION = "0.1.0"

#: Every environment variable that may hold a secret. Nothing else is a key.
KEY_ENV_VARS: tuple[str, ...] = (
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "GEMINI_API_KEY",
    "OPENAI_COMPATIBLE_API_KEY",
)

#: The reference study's therapist prompt (the default system prompt).
DEFAULT_SYSTEM_PROMPT = (
    "You are an empathetic therapist. Provide a single thoughtful and supportive "
    "response to the patient. Do not include instructions, explanations, or "
    "multiple responses. Only provide one response as the therapist."
)
DEFAULT_MAX_TOKENS = 640
DEFAULT_TEMPERATURE = 0.7


def _load_dotenv(path: Path) -> dict[str, str]:
    """Read ``KEY=value`` lines from a ``.env`` file without touching os.environ."""
    if not path.is_file():
        return {}
    from dotenv import dotenv_values

    return {k: v for k, v in dotenv_values(path).items() if v is not None}


class Keys(Mapping[str, str]):
    """A read-only mapping of API keys whose repr never shows a value."""

    def __init__(self, values: Mapping[str, str] | None = None) -> None:
        self._values = {k: v.strip() for k, v in (values or {}).items() if v and v.strip()}

    def __getitem__(self, name: str) -> str:
        return self._values[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return "Keys(" + ", ".join(f"{k}=<set>" for k in sorted(self._values)) + ")"

    __str__ = __repr__

    def merged(self, overrides: Mapping[str, str] | None) -> Keys:
        """Return these keys with a session's typed-in keys laid over them.

        >>> Keys({"A": "1"}).merged({"A": "2"})["A"]
        '2'
        """
        combined = dict(self._values)
        for name, value in (overrides or {}).items():
            if value and value.strip():
                combined[name] = value.strip()
        return Keys(combined)

    def secrets(self) -> list[str]:
        """Every key value, for scrubbing text that is about to be shown."""
        return [v for v in self._values.values() if len(v) >= 4]


def _float(env: Mapping[str, str], name: str, default: float) -> float:
    try:
        return float(env.get(name, default))
    except ValueError:
        return default


def _megabytes(env: Mapping[str, str], name: str, default: float) -> int:
    """A size in MB from the environment, in bytes (a bad or non-positive value: the default).

    >>> _megabytes({"X": "0.5"}, "X", 20), _megabytes({"X": "-1"}, "X", 20) == 20 * 2**20
    (524288, True)
    """
    value = _float(env, name, default)
    return int((value if value > 0 else default) * 2**20)


def _int(env: Mapping[str, str], name: str, default: int) -> int:
    try:
        return int(env.get(name, default))
    except ValueError:
        return default


@dataclass(frozen=True)
class Settings:
    """Non-secret settings, with the environment's overrides applied."""

    cache_dir: Path
    flag_dir: Path
    votes_dir: Path
    request_timeout_s: float
    max_retries: int
    max_message_chars: int
    openai_base_url: str | None
    anthropic_base_url: str | None
    gemini_base_url: str | None
    openai_compatible_base_url: str | None
    openai_compatible_models: tuple[str, ...]
    local_threads: int
    local_context: int
    extra_data_dir: Path
    batch_engine: str
    ray_address: str | None
    ray_allow_remote: bool
    batch_concurrency: int
    runs_dir: Path
    #: The largest file a visitor may upload, in bytes (``EMPATHY_LAB_MAX_UPLOAD_MB``).
    max_upload_bytes: int
    #: The largest the flag log may grow, in bytes (``EMPATHY_LAB_MAX_FLAG_LOG_MB``).
    max_flag_log_bytes: int
    keys: Keys = field(repr=True)
    #: The operator's token for the shared logs (``EMPATHY_LAB_ADMIN_TOKEN``; never shown).
    admin_token: str = field(default="", repr=False)
    #: A public server: strangers share it (``EMPATHY_LAB_PUBLIC=1``, or a Space's ``SPACE_ID``).
    public: bool = False
    #: One visitor's batch runs may hold this many bytes (``EMPATHY_LAB_VISITOR_MAX_MB``) …
    visitor_max_bytes: int = 50 * 2**20
    #: … and this many runs (``EMPATHY_LAB_VISITOR_MAX_RUNS``).
    visitor_max_runs: int = 10
    #: Every visitor's runs together (``EMPATHY_LAB_VISITORS_MAX_MB``): oldest removed first.
    visitors_max_bytes: int = 2000 * 2**20
    #: Days a visitor's runs and Gradio's copies of files are kept (``EMPATHY_LAB_KEEP_DAYS``).
    keep_days: float = 7.0
    #: The largest request body (``EMPATHY_LAB_MAX_REQUEST_MB``; uploads have their own cap).
    max_request_bytes: int = 2**20
    #: How the empathy head's encoder runs (``EMPATHY_LAB_ENCODER_RUNTIME``): ``onnx``
    #: (ONNX Runtime, exported once from the packaged weights) or ``torch``.
    encoder_runtime: str = "onnx"

    @property
    def max_conversation_chars(self) -> int:
        """The longest conversation (all turns): one and a half messages' worth, so the
        conversation and a reply still fit the local model's context."""
        return self.max_message_chars * 3 // 2

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, dotenv: Path | None = None) -> Settings:
        """Build settings from ``env`` (default: os.environ) and a ``.env`` file."""
        merged: dict[str, str] = dict(_load_dotenv(dotenv or ROOT / ".env"))
        merged.update(os.environ if env is None else env)
        cache = Path(merged.get("EMPATHY_LAB_CACHE", Path.home() / ".cache" / "empathy-lab"))
        compat_models = merged.get("OPENAI_COMPATIBLE_MODELS", "")
        return cls(
            cache_dir=cache.expanduser(),
            flag_dir=Path(merged.get("EMPATHY_LAB_FLAG_DIR", ROOT / "flagged")).expanduser(),
            votes_dir=Path(
                merged.get("EMPATHY_LAB_VOTES_DIR", ROOT / "flagged" / "votes")
            ).expanduser(),
            request_timeout_s=_float(merged, "EMPATHY_LAB_TIMEOUT_S", 60.0),
            max_retries=_int(merged, "EMPATHY_LAB_MAX_RETRIES", 2),
            max_message_chars=_int(merged, "EMPATHY_LAB_MAX_MESSAGE_CHARS", 8000),
            openai_base_url=merged.get("OPENAI_BASE_URL") or None,
            anthropic_base_url=merged.get("ANTHROPIC_BASE_URL") or None,
            gemini_base_url=merged.get("GEMINI_BASE_URL") or None,
            openai_compatible_base_url=merged.get("OPENAI_COMPATIBLE_BASE_URL") or None,
            openai_compatible_models=tuple(
                m.strip() for m in compat_models.split(",") if m.strip()
            ),
            local_threads=_int(merged, "EMPATHY_LAB_THREADS", max(1, os.cpu_count() or 1)),
            local_context=_int(merged, "EMPATHY_LAB_CONTEXT", 4096),
            extra_data_dir=Path(
                merged.get("EMPATHY_LAB_DATA_DIR", ROOT.parent / "shared" / "data")
            ).expanduser(),
            batch_engine=merged.get("EMPATHY_LAB_BATCH_ENGINE", "local").strip() or "local",
            ray_address=merged.get("EMPATHY_LAB_RAY_ADDRESS", "").strip() or None,
            ray_allow_remote=merged.get("EMPATHY_LAB_RAY_ALLOW_REMOTE", "") == "1",
            batch_concurrency=_int(merged, "EMPATHY_LAB_BATCH_CONCURRENCY", 4),
            runs_dir=Path(merged.get("EMPATHY_LAB_RUNS_DIR", ROOT / "runs")).expanduser(),
            max_upload_bytes=_megabytes(merged, "EMPATHY_LAB_MAX_UPLOAD_MB", 20),
            max_flag_log_bytes=_megabytes(merged, "EMPATHY_LAB_MAX_FLAG_LOG_MB", 50),
            keys=Keys({name: merged.get(name, "") for name in KEY_ENV_VARS}),
            encoder_runtime=merged.get("EMPATHY_LAB_ENCODER_RUNTIME", "onnx").strip() or "onnx",
            admin_token=merged.get("EMPATHY_LAB_ADMIN_TOKEN", "").strip(),
            public=merged.get("EMPATHY_LAB_PUBLIC", "1" if merged.get("SPACE_ID") else "") == "1",
            visitor_max_bytes=_megabytes(merged, "EMPATHY_LAB_VISITOR_MAX_MB", 50),
            visitor_max_runs=max(1, _int(merged, "EMPATHY_LAB_VISITOR_MAX_RUNS", 10)),
            visitors_max_bytes=_megabytes(merged, "EMPATHY_LAB_VISITORS_MAX_MB", 2000),
            keep_days=max(0.01, _float(merged, "EMPATHY_LAB_KEEP_DAYS", 7.0)),
            max_request_bytes=_megabytes(merged, "EMPATHY_LAB_MAX_REQUEST_MB", 1),
        )


SETTINGS = Settings.from_env()


@cache
def server_secret() -> bytes:
    """The server's own signing secret (``EMPATHY_LAB_SECRET``, else made once and kept in the
    cache folder, readable by the server's user only). It signs visitor ids
    (:mod:`core.visitors`); it never reaches a browser.
    """
    given = os.environ.get("EMPATHY_LAB_SECRET", "").strip()
    if given:
        return given.encode()
    path = SETTINGS.cache_dir / "server.secret"
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # made before (or by another worker just now)
        pass
    else:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(random_tokens.token_urlsafe(32))
    return path.read_text(encoding="utf-8").strip().encode()


#: Batch runs, one folder each (results.csv, run.json, report.html): ``EMPATHY_LAB_RUNS_DIR``.
RUNS_DIR = SETTINGS.runs_dir
#: Optional public sets that do not ship (their terms give no licence to redistribute):
#: a folder laid out like the project's ``shared/data`` (``epitome/``,
#: ``empathic_stories/``, ``counselchat/``). Set ``EMPATHY_LAB_DATA_DIR``; a development
#: checkout finds ``../shared/data`` on its own.
EXTRA_DATA_DIR = SETTINGS.extra_data_dir
EPITOME_DIR = EXTRA_DATA_DIR / "epitome"
EMPATHIC_STORIES_CSV = EXTRA_DATA_DIR / "empathic_stories" / "stories_dev.csv"
#: Lend an Ear (MIT): real conversations rated by three experts; ``cli.py experts`` reads it.
LEND_AN_EAR_CSV = EXTRA_DATA_DIR / "experts" / "lend_an_ear.csv"
#: CounselChat in full (MIT): only the tools that rebuild the bundled questions read it.
COUNSELCHAT_CSV = EXTRA_DATA_DIR / "counselchat" / "counsel_chat.csv"
#: Scores kept by studies (one CSV per scorer setting) so that a re-run is free.
SCORE_CACHE_DIR = SETTINGS.cache_dir / "scores"
#: Calibrations that ship with the app (JSON, named with their fit data's hash).
CALIBRATIONS_DIR = ASSETS_DIR / "calibrations"
#: Calibrations fitted by users (the page, ``cli.py calibrate``) unless told otherwise.
USER_CALIBRATIONS_DIR = SETTINGS.cache_dir / "calibrations"
