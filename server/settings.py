"""Server settings: environment variables and an optional ``.env`` file.

Outside development the secret must be set and strong, because guest tokens
are stored only as HMACs keyed by it: a guessable secret would let anyone with
a copy of the database check stolen tokens offline.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pydantic import AliasChoices, Field, ValidationError, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEV_SECRET = "development-only-insecure-secret"
MIN_SECRET_LENGTH = 32


class SettingsError(ValueError):
    """Settings that are unsafe or inconsistent."""


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="JANTAKU_", env_file=".env", extra="ignore", frozen=True
    )

    env: Literal["development", "test", "production"] = "development"
    secret: str = DEV_SECRET
    database_url: str = Field(
        default="sqlite:///./jantaku.db",
        validation_alias=AliasChoices("DATABASE_URL", "JANTAKU_DATABASE_URL"),
    )
    host: str = "127.0.0.1"
    port: int = 8000
    web_dir: str = "web"
    # Cookies only travel over HTTPS when set; leave off for plain-HTTP self-hosting.
    secure_cookies: bool = False
    # Pages that may open WebSockets on the session cookie, besides the server's own
    # host (Host or X-Forwarded-Host): comma-separated origins, for a proxy that
    # passes neither, e.g. "https://mahjong.example.com".
    allowed_origins: str = ""

    # permessage-deflate on WebSockets: less bandwidth, more server CPU per frame.
    ws_compression: bool = False

    # Live tables.
    disconnect_grace_seconds: float = 10.0
    round_end_pause_seconds: float = 6.0
    bot_delay_seconds: float = 0.5
    # Frames larger than this are refused with an error (the connection survives).
    max_message_bytes: int = 4096
    # Per-connection token bucket: sustained messages per second and burst size.
    ws_rate_per_second: float = 20.0
    ws_rate_burst: int = 40
    # Joining by code: attempts per client address per minute.
    join_rate_per_minute: int = 20
    # New guest identities per client address per minute (each is a database row).
    guest_rate_per_minute: int = 20
    # How many past events a table keeps in memory for reconnects (older ones
    # are answered with a full resync).
    replay_buffer_events: int = 500

    # Operations (docs/operations.md).
    # The path prefix the app is served under behind a proxy, e.g. "/mahjong" (no
    # trailing slash); requests may come with or without it.
    root_path: str = ""
    # Log lines as JSON objects (one per line) or plain text.
    log_format: Literal["json", "text"] = "json"
    log_level: Literal["debug", "info", "warning", "error"] = "info"
    # GET /metrics in Prometheus' format; off: 404.
    metrics: bool = True
    # How long /api/health waits for the database before answering 503.
    health_timeout_seconds: float = 2.0

    @model_validator(mode="after")
    def _refuse_unsafe_secret(self) -> Settings:
        if self.env != "development" and (
            self.secret == DEV_SECRET or len(self.secret) < MIN_SECRET_LENGTH
        ):
            raise SettingsError(
                f"JANTAKU_SECRET must be set to a random string of at least "
                f"{MIN_SECRET_LENGTH} characters when JANTAKU_ENV={self.env} "
                f'(e.g. python -c "import secrets; print(secrets.token_urlsafe(48))")'
            )
        return self

    @model_validator(mode="after")
    def _root_path_shape(self) -> Settings:
        if self.root_path and (not self.root_path.startswith("/") or self.root_path.endswith("/")):
            raise SettingsError(
                "JANTAKU_ROOT_PATH must start with / and not end with one, e.g. /mahjong"
            )
        return self

    @property
    def sqlalchemy_url(self) -> str:
        """The URL with the psycopg 3 driver selected for plain ``postgresql://`` URLs."""
        return normalize_db_url(self.database_url)


def normalize_db_url(url: str) -> str:
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _env_name(field: str) -> str:
    return "DATABASE_URL" if field == "database_url" else f"JANTAKU_{field.upper()}"


def settings_problem(exc: ValidationError) -> str:
    """What is wrong with the settings, naming the variables but never their values.

    pydantic's own message quotes the input (a short secret, a database URL
    with its password); this one does not.
    """
    lines = []
    for err in exc.errors(include_url=False, include_input=False, include_context=False):
        msg = str(err.get("msg", "invalid"))
        msg = msg.removeprefix("Value error, ")
        loc = [str(x) for x in err.get("loc", ()) if isinstance(x, str)]
        lines.append(f"{_env_name(loc[0])}: {msg}" if loc else msg)
    return "; ".join(lines) or "invalid settings"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The settings from the environment and ``.env``; SettingsError (no values quoted)."""
    try:
        return Settings()
    except ValidationError as exc:
        raise SettingsError(settings_problem(exc)) from None
