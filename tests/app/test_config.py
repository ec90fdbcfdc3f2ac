"""Settings and keys: read once, merged per session, never printed."""

from __future__ import annotations

from config import Keys, Settings


def test_keys_never_show_their_values():
    keys = Keys({"OPENAI_API_KEY": "sk-very-secret", "EMPTY": "  "})
    assert "sk-very-secret" not in repr(keys) + str(keys) + f"{keys}"
    assert list(keys) == ["OPENAI_API_KEY"]


def test_session_keys_override_without_touching_the_server_keys():
    server = Keys({"OPENAI_API_KEY": "server"})
    session = server.merged({"OPENAI_API_KEY": "mine", "ANTHROPIC_API_KEY": ""})
    assert session["OPENAI_API_KEY"] == "mine" and "ANTHROPIC_API_KEY" not in session
    assert server["OPENAI_API_KEY"] == "server"


def test_settings_read_env_and_dotenv(tmp_path):
    dotenv = tmp_path / ".env"
    dotenv.write_text("GEMINI_API_KEY=from-dotenv\nEMPATHY_LAB_TIMEOUT_S=7\n")
    settings = Settings.from_env(
        {"OPENAI_API_KEY": "from-env", "EMPATHY_LAB_MAX_RETRIES": "oops"}, dotenv=dotenv
    )
    assert settings.keys["GEMINI_API_KEY"] == "from-dotenv"
    assert settings.keys["OPENAI_API_KEY"] == "from-env"
    assert settings.request_timeout_s == 7.0
    assert settings.max_retries == 2  # a bad value falls back to the default
    assert "from-env" not in repr(settings)
