"""Rate limits counted in Redis, once for every process."""

from __future__ import annotations

from redis.asyncio import Redis

from server.cluster.ratelimit import RedisWindowLimiter
from tests.cluster.conftest import REDIS_URL


async def test_two_processes_share_one_window(redis_prefix: str) -> None:
    r1, r2 = Redis.from_url(REDIS_URL), Redis.from_url(REDIS_URL)
    try:
        # One limiter per process, same name and limit: 3 hits a minute in all.
        one = RedisWindowLimiter(r1, redis_prefix, "guest", 3, 60.0)
        two = RedisWindowLimiter(r2, redis_prefix, "guest", 3, 60.0)
        assert await one.hit_keys(["addr:1.2.3.4"]) is None
        assert await two.hit_keys(["addr:1.2.3.4"]) is None
        assert await one.hit_keys(["addr:1.2.3.4", "player:9"]) is None
        wait = await two.hit_keys(["addr:1.2.3.4"])
        assert wait is not None and 59.0 < wait <= 60.0
        # All keys or none: the refused hit did not count against player 9.
        assert await two.hit_keys(["player:9"]) is None
        assert await one.hit_keys(["player:9"]) is None
        assert await one.hit_keys(["player:9"]) is not None
        # Another limiter's name is another count.
        other = RedisWindowLimiter(r1, redis_prefix, "lobby", 3, 60.0)
        assert await other.hit_keys(["addr:1.2.3.4"]) is None
    finally:
        await r1.aclose()
        await r2.aclose()
