"""Table leases in Redis: one holder, renewed only by it, lost when it stops renewing.

A lease's expiry in Redis is played by deleting its key; the holder's own deadline
runs on a fake clock.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from server.cluster.lease import Leases
from tests.cluster.conftest import REDIS_URL


class FakeClock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
async def redis() -> AsyncIterator[Redis]:
    r = Redis.from_url(REDIS_URL)
    yield r
    await r.aclose()


async def test_one_holder_at_a_time_with_growing_tokens(redis: Redis, redis_prefix: str) -> None:
    a = Leases(redis, redis_prefix, "a", ttl=5.0)
    b = Leases(redis, redis_prefix, "b", ttl=5.0)
    first = await a.acquire(7)
    assert first is not None and a.valid(7)
    assert await b.acquire(7) is None and not b.valid(7)
    assert await b.owners([7, 8]) == {7: "a", 8: None}
    assert 4000 < await redis.pttl(a.key(7)) <= 5000
    # Only the holder's release frees it; the next holder's token is larger.
    await b.release(7)
    assert await a.owners([7]) == {7: "a"}
    await a.release(7)
    assert not a.valid(7)
    second = await b.acquire(7)
    assert second is not None and second > first
    assert await a.owners([7]) == {7: "b"}


async def test_renewal_moves_the_deadline_on(redis: Redis, redis_prefix: str) -> None:
    clock = FakeClock()
    a = Leases(redis, redis_prefix, "a", ttl=3.0, clock=clock)
    assert await a.acquire(1) is not None
    clock.t += 2.0
    assert a.valid(1)
    await redis.pexpire(a.key(1), 500)
    assert await a.renew() == []
    assert await redis.pttl(a.key(1)) > 2500
    clock.t += 2.0  # 4 s after the acquire, 2 s after the renewal
    assert a.valid(1) and a.expired() == []
    clock.t += 0.5  # past 80 % of the lease since the renewal: no more writes
    assert not a.valid(1)
    assert a.expired() == [1] and a.held == {}


async def test_a_taken_lease_is_lost_by_the_old_holder(redis: Redis, redis_prefix: str) -> None:
    a = Leases(redis, redis_prefix, "a", ttl=5.0)
    b = Leases(redis, redis_prefix, "b", ttl=5.0)
    assert await a.acquire(1) is not None
    assert await a.acquire(2) is not None
    assert await a.renew() == []
    await redis.delete(a.key(1), a.key(2))  # a stopped renewing: both expired
    assert await b.acquire(1) is not None
    # Game 1 went to b; game 2 is free, but a renewal never re-creates an expired
    # lease (another process may be rebuilding the table from its record).
    assert sorted(await a.renew()) == [1, 2]
    assert a.held == {} and not a.valid(1)
    assert await a.owners([1, 2]) == {1: "b", 2: None}


async def test_the_same_node_coming_back_cannot_renew(redis: Redis, redis_prefix: str) -> None:
    old = Leases(redis, redis_prefix, "n", ttl=5.0)
    assert await old.acquire(3) is not None
    await redis.delete(old.key(3))
    new = Leases(redis, redis_prefix, "n", ttl=5.0)  # same node id, a new process
    assert await new.acquire(3) is not None
    # The fencing token is part of the value: the old holder's renewal fails.
    assert await old.renew() == [3]
    assert await new.renew() == [] and new.valid(3)
