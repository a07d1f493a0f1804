"""The process's Redis client under a burst: requests wait for a connection, and a
socket's route through an unreachable Redis is told to come back, never an error."""

from __future__ import annotations

import asyncio
from typing import Any

from server.cluster.lease import Leases
from server.cluster.node import RETRY, Node, redis_client
from server.external.remote import RemoteHub, RemoteLink
from server.settings import Settings
from tests.cluster.conftest import REDIS_URL

PG = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def settings(url: str, connections: int) -> Settings:
    return Settings(database_url=PG, redis_url=url, redis_max_connections=connections)


async def test_a_burst_waits_for_the_pool_instead_of_failing(redis_prefix: str) -> None:
    client = redis_client(settings(REDIS_URL, 2))
    try:
        leases = Leases(client, redis_prefix, "a", ttl=5.0)
        # 300 lookups at once through 2 connections (redis-py's default pool of a
        # from_url client raises MaxConnectionsError past its size).
        found = await asyncio.gather(*(leases.owners([g]) for g in range(300)))
        assert found == [{g: None} for g in range(300)]
        assert len(client.connection_pool._in_use_connections) == 0  # all given back
    finally:
        await client.aclose()


class NoTables:
    def get(self, game_id: int) -> Any:
        return None


async def test_route_through_an_unreachable_redis_says_retry() -> None:
    s = settings("redis://127.0.0.1:1/0", 2)  # nothing listens on port 1
    node = Node(s, db=None, tables=NoTables(), resume=None, redis=redis_client(s))  # type: ignore[arg-type]
    try:
        assert await node.route(12) == RETRY
    finally:
        await node.redis.aclose()


async def test_remote_bots_through_an_unreachable_redis_are_those_here() -> None:
    s = settings("redis://127.0.0.1:1/0", 2)
    hub = RemoteHub()
    node = Node(s, db=None, tables=NoTables(), resume=None, redis=redis_client(s), remote_bots=hub)  # type: ignore[arg-type]
    try:

        async def send(text: str) -> None:
            pass

        hub.add(RemoteLink("here", 1, "array", send, lambda code: None))
        # The lobby's levels and an account's counts: this process's bots, no error.
        assert await hub.all_levels() == ["remote-here"]
        assert await hub.all_counts() == {"here": 1}
        # A seat finds no socket elsewhere: its stand-in decides.
        assert await hub.claim("there") is None
        assert await hub.claim("here") is not None
    finally:
        await node.redis.aclose()
