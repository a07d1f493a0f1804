"""Server settings: environment variables and an optional ``.env`` file.

Outside development the secret must be set and strong, because guest tokens
are stored only as HMACs keyed by it: a guessable secret would let anyone with
a copy of the database check stolen tokens offline.
"""

from __future__ import annotations

import ipaddress
import math
from functools import lru_cache
from typing import Literal

from pydantic import AliasChoices, Field, ValidationError, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEV_SECRET = "development-only-insecure-secret"
MIN_SECRET_LENGTH = 32
MIN_SECRET_BITS = 128


def secret_entropy_bits(secret: str) -> float:
    """An upper estimate of a secret's entropy: its length times the Shannon entropy of
    its characters' frequencies. A random token_urlsafe(48) gives about 350 bits; a
    repeated or dictionary-like string far less ("x" * 64: 0; a sentence: ~4 a char),
    and a short one is refused by its length first."""
    if not secret:
        return 0.0
    n = len(secret)
    counts: dict[str, int] = {}
    for c in secret:
        counts[c] = counts.get(c, 0) + 1
    per_char = -sum(k / n * math.log2(k / n) for k in counts.values())
    return max(0.0, per_char * n)


def is_loopback(host: str) -> bool:
    """Whether binding ``host`` serves only this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


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
    # After every discard (and kan that may be robbed) at a table where humans sit,
    # nothing that follows goes to anyone but the seats that may call before this
    # many seconds: nobody can tell from the timing whether anyone could call
    # (docs/protocol.md, "The call window"). Longer than bot_delay; 0 = off.
    call_window_seconds: float = 1.0
    # External mjai bots the lobby offers as levels ``mjai-<name>`` (docs/bots.md):
    # "name=command; name=lines:command" (lines: Mortal's one-event-a-line form).
    mjai_bots: str = ""
    # Seconds an external bot has for each decision; past it defensive decides for it.
    mjai_timeout_seconds: float = 5.0
    # Spectators' frames are gathered this long and sent together (one write each).
    spectator_interval_seconds: float = 0.2
    # Spectators one table takes at most.
    max_spectators_per_table: int = 50
    # Frames larger than this are refused with an error (the connection survives).
    max_message_bytes: int = 4096
    # Per-connection token bucket: sustained messages per second and burst size.
    ws_rate_per_second: float = 20.0
    ws_rate_burst: int = 40
    # Joining by code: attempts per client address per minute.
    join_rate_per_minute: int = 20
    # New guest identities per client address per minute (each is a database row).
    guest_rate_per_minute: int = 20
    # New lobbies per player and per client address per minute (each is a row).
    lobby_rate_per_minute: int = 10
    # Renames per player and per client address per minute.
    rename_rate_per_minute: int = 10
    # Sign-in attempts (and password checks) per client address and per username per
    # minute: password guessing gets this many tries a minute, however many addresses.
    login_rate_per_minute: int = 10
    # Log imports running at once per player (each replays a whole game).
    imports_per_player: int = 1
    # WebSockets: seconds to say hello before the socket is closed, and at most this
    # many open at once from one client address (each holds a file descriptor).
    hello_timeout_seconds: float = 5.0
    max_sockets_per_address: int = 64
    # resync requests per second per socket (each builds and sends a whole view).
    resync_rate_per_second: float = 1.0
    resync_burst: int = 5
    # How many past events a table keeps in memory for reconnects (older ones
    # are answered with a full resync).
    replay_buffer_events: int = 500

    # Many processes (docs/operations.md, "Many processes"): a Redis URL shares live
    # tables, lobby pushes and rate limits between every process on one PostgreSQL.
    # Empty: one process, everything in its memory (SQLite or PostgreSQL).
    redis_url: str = ""
    # Prefix of every Redis key and channel (several deployments on one Redis).
    redis_prefix: str = "jantaku:"
    # Connections each process opens to Redis at most; more requests at once wait for a
    # free one (up to 10 s) instead of failing, as when thousands of sockets connect.
    redis_max_connections: int = Field(default=64, ge=2, le=10_000)
    # A table's owner renews its lease three times per this many seconds; a process
    # that stops renewing (killed) loses its tables to another after it. Shorter moves
    # a killed process's tables sooner, but a process starved of CPU for longer than
    # 80 % of it (an overloaded machine) loses its tables while alive.
    lease_seconds: float = 5.0

    # Operations (docs/operations.md).
    # The path prefix the app is served under behind a proxy, e.g. "/mahjong" (no
    # trailing slash); requests may come with or without it.
    root_path: str = ""
    # Log lines as JSON objects (one per line) or plain text.
    log_format: Literal["json", "text"] = "json"
    log_level: Literal["debug", "info", "warning", "error"] = "info"
    # GET /metrics in Prometheus' format; off: 404.
    metrics: bool = True
    # POST /api/bench/tables: bench/load.py makes its tables in bulk (never in production).
    bench_tables: bool = False
    # How long /api/health waits for the database before answering 503.
    health_timeout_seconds: float = 2.0

    @model_validator(mode="after")
    def _refuse_unsafe_secret(self) -> Settings:
        how = 'e.g. python -c "import secrets; print(secrets.token_urlsafe(48))"'
        if self.env != "development" and (
            self.secret == DEV_SECRET or len(self.secret) < MIN_SECRET_LENGTH
        ):
            raise SettingsError(
                f"JANTAKU_SECRET must be set to a random string of at least "
                f"{MIN_SECRET_LENGTH} characters when JANTAKU_ENV={self.env} ({how})"
            )
        if self.env == "production" and secret_entropy_bits(self.secret) < MIN_SECRET_BITS:
            raise SettingsError(
                f"JANTAKU_SECRET looks guessable (about {secret_entropy_bits(self.secret):.0f} "
                f"bits; at least {MIN_SECRET_BITS} needed): use a random string ({how})"
            )
        return self

    @model_validator(mode="after")
    def _no_bench_routes_in_production(self) -> Settings:
        if self.bench_tables and self.env == "production":
            raise SettingsError(
                "JANTAKU_BENCH_TABLES is for benchmarks, not JANTAKU_ENV=production"
            )
        return self

    @model_validator(mode="after")
    def _root_path_shape(self) -> Settings:
        if self.root_path and (not self.root_path.startswith("/") or self.root_path.endswith("/")):
            raise SettingsError(
                "JANTAKU_ROOT_PATH must start with / and not end with one, e.g. /mahjong"
            )
        return self

    @model_validator(mode="after")
    def _redis_needs_shared_database(self) -> Settings:
        if self.redis_url and not self.database_url.startswith(("postgres://", "postgresql")):
            raise SettingsError(
                "JANTAKU_REDIS_URL is for many processes on one PostgreSQL database: "
                "set DATABASE_URL to postgresql://..."
            )
        if self.lease_seconds < 0.5:
            raise SettingsError("JANTAKU_LEASE_SECONDS must be at least 0.5")
        return self

    @property
    def clustered(self) -> bool:
        """Whether this process is one of many (JANTAKU_REDIS_URL is set)."""
        return bool(self.redis_url)

    @model_validator(mode="after")
    def _mjai_bots_shape(self) -> Settings:
        from server.external.names import parse_registry

        try:
            parse_registry(self.mjai_bots)
        except ValueError as exc:
            raise SettingsError(str(exc)) from None
        if self.mjai_timeout_seconds <= 0:
            raise SettingsError("JANTAKU_MJAI_TIMEOUT_SECONDS must be above 0")
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
