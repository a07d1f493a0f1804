"""Redis for the cluster tests: a key prefix of its own per test, its keys deleted after."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator

import pytest

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
