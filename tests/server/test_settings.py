"""Settings: environment variables, and refusing an unsafe secret outside development."""

from __future__ import annotations

import secrets

import pytest
from pydantic import ValidationError

from server.cli.serve import bind_warning
from server.settings import DEV_SECRET, Settings, is_loopback, normalize_db_url, secret_entropy_bits


def test_development_allows_default_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JANTAKU_SECRET", raising=False)
    monkeypatch.delenv("JANTAKU_ENV", raising=False)
    s = Settings(_env_file=None)  # type: ignore[call-arg]
    assert s.env == "development" and s.secret == DEV_SECRET
    assert s.database_url == "sqlite:///./jantaku.db"


@pytest.mark.parametrize("secret", [None, DEV_SECRET, "short", "x" * 31])
def test_production_refuses_unsafe_secret(
    monkeypatch: pytest.MonkeyPatch, secret: str | None
) -> None:
    monkeypatch.setenv("JANTAKU_ENV", "production")
    if secret is None:
        monkeypatch.delenv("JANTAKU_SECRET", raising=False)
    else:
        monkeypatch.setenv("JANTAKU_SECRET", secret)
    with pytest.raises(ValidationError, match="JANTAKU_SECRET"):
        Settings(_env_file=None)  # type: ignore[call-arg]


def test_environment_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JANTAKU_ENV", "production")
    monkeypatch.setenv("JANTAKU_SECRET", secrets.token_urlsafe(48))
    monkeypatch.setenv("DATABASE_URL", "postgresql://u:p@db:5432/jantaku")
    monkeypatch.setenv("JANTAKU_PORT", "9000")
    s = Settings(_env_file=None)  # type: ignore[call-arg]
    assert s.port == 9000
    assert s.sqlalchemy_url == "postgresql+psycopg://u:p@db:5432/jantaku"


def test_dotenv_file(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("JANTAKU_ENV", raising=False)
    monkeypatch.delenv("JANTAKU_SECRET", raising=False)
    env = tmp_path / ".env"
    env.write_text("JANTAKU_ENV=test\nJANTAKU_SECRET=" + "k" * 40 + "\nJANTAKU_PORT=8123\n")
    s = Settings(_env_file=str(env))  # type: ignore[call-arg]
    assert (s.env, s.port) == ("test", 8123)


def test_normalize_db_url() -> None:
    assert normalize_db_url("postgres://a@b/c") == "postgresql+psycopg://a@b/c"
    assert normalize_db_url("sqlite:///x.db") == "sqlite:///x.db"
    assert normalize_db_url("postgresql+psycopg://a@b/c") == "postgresql+psycopg://a@b/c"


@pytest.mark.parametrize(
    "secret",
    [
        "s" * 40,  # long but one character
        "abcabcabcabcabcabcabcabcabcabcabcabc",  # a pattern
        "password1234password1234password1234",
        "aaaaaaaaaaaaaaaabbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
    ],
)
def test_production_refuses_a_guessable_secret_by_its_entropy(
    monkeypatch: pytest.MonkeyPatch, secret: str
) -> None:
    monkeypatch.setenv("JANTAKU_ENV", "production")
    monkeypatch.setenv("JANTAKU_SECRET", secret)
    with pytest.raises(ValidationError, match="guessable"):
        Settings(_env_file=None)  # type: ignore[call-arg]


def test_random_secrets_pass_the_entropy_check() -> None:
    for _ in range(20):
        assert secret_entropy_bits(secrets.token_urlsafe(32)) >= 128
        assert secret_entropy_bits(secrets.token_hex(32)) >= 128
    assert secret_entropy_bits("x" * 64) == 0


def test_a_public_bind_with_the_development_secret_warns() -> None:
    dev = Settings(_env_file=None, env="development", secret=DEV_SECRET)  # type: ignore[call-arg]
    own = Settings(_env_file=None, env="development", secret=secrets.token_urlsafe(48))  # type: ignore[call-arg]
    for host in ("0.0.0.0", "192.168.1.5", "::", "example.org"):
        warning = bind_warning(host, dev)
        assert warning is not None and "JANTAKU_SECRET" in warning
        assert bind_warning(host, own) is None
    for host in ("127.0.0.1", "::1", "localhost", "127.0.0.2"):
        assert is_loopback(host) and bind_warning(host, dev) is None


def test_many_processes_need_postgresql(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("JANTAKU_REDIS_URL", "redis://127.0.0.1:6379/0")
    with pytest.raises(ValidationError, match="JANTAKU_REDIS_URL"):
        Settings(_env_file=None)  # type: ignore[call-arg]
    monkeypatch.setenv("DATABASE_URL", "postgresql://u:p@db:5432/jantaku")
    s = Settings(_env_file=None)  # type: ignore[call-arg]
    assert s.clustered and s.lease_seconds == 5.0 and s.redis_prefix == "jantaku:"
    monkeypatch.setenv("JANTAKU_LEASE_SECONDS", "0.1")
    with pytest.raises(ValidationError, match="JANTAKU_LEASE_SECONDS"):
        Settings(_env_file=None)  # type: ignore[call-arg]


def test_one_process_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JANTAKU_REDIS_URL", raising=False)
    assert not Settings(_env_file=None).clustered  # type: ignore[call-arg]
