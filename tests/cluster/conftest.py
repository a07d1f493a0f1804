"""Redis for the cluster tests: a key prefix of its own per test, its keys deleted after."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from tests.cluster.processes import ServeProcess

REDIS_URL = os.environ.get("REDIS_URL_TEST", "redis://127.0.0.1:6379/0")


@pytest.fixture
def redis_prefix() -> Iterator[str]:
    """A unique key prefix on the test Redis; skips when Redis is unreachable, except
    under CI=true, where it fails."""
    import redis

    r = redis.Redis.from_url(REDIS_URL)
    try:
        r.ping()
    except Exception as exc:
        r.close()
        if os.environ.get("CI") == "true":
            pytest.fail(f"Redis is required under CI=true but unreachable: {exc}")
        pytest.skip(f"Redis unreachable: {type(exc).__name__}")
    prefix = f"jantaku-test-{secrets.token_hex(6)}:"
    try:
        yield prefix
    finally:
        for key in r.scan_iter(match=prefix + "*", count=1000):
            r.delete(key)
        r.close()


Start = Callable[..., "ServeProcess"]


@pytest.fixture
def start(pg_url: str, redis_prefix: str, tmp_path: Path) -> Iterator[Start]:
    """Starts ``jantaku serve`` processes on the test PostgreSQL and Redis (``wait_ready``
    each); stops them after the test and prints the end of their logs."""
    from server.db import migrate
    from tests.cluster.processes import ServeProcess, cluster_env

    migrate.upgrade(pg_url)  # once, before the processes (they start with --no-migrate)
    procs: list[ServeProcess] = []

    def make(**settings: Any) -> ServeProcess:
        env = cluster_env(pg_url, redis_prefix, **settings)
        p = ServeProcess(env, tmp_path / f"serve-{len(procs)}.log")
        procs.append(p)
        return p

    yield make
    for p in procs:
        p.stop()
        # Shown by pytest when the test failed (captured output).
        lines = p.log.read_text(errors="replace").splitlines()
        print(f"--- {p.log.name}", *[x for x in lines if "/api/health" not in x][-40:], sep="\n")
