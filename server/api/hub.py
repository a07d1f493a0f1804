"""Pushes lobby changes to every WebSocket listening on that lobby.

With many processes (server/cluster) a change is relayed through Redis to every
process, this one included, and each delivers it to its own listeners.

Every push carries the lobby's version, one more than the push before it, counted
in Redis for the whole cluster (in memory with one process). Two processes' pushes
may reach a listener in either order, so a client keeps the newest version, ignores
an older one and, seeing a version skipped, asks for the lobby again (``resync``,
docs/protocol.md). In a cluster the lobby is read again after its version is taken:
every change is committed before its push takes a version, so the push with the
highest version is read after all of them, whichever process sent it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

import orjson

if TYPE_CHECKING:
    from redis.asyncio import Redis

Sender = Callable[[str], None]
Load = Callable[[], Awaitable[dict[str, Any]]]

# A lobby's version key outlives its last change by this long (lobbies live for hours).
VERSION_TTL_SECONDS = 7 * 24 * 3600


class Versions(Protocol):
    shared: bool  # counted for every process (read the lobby again after ``next``)

    async def next(self, code: str) -> int: ...

    async def current(self, code: str) -> int: ...


class LocalVersions:
    """One process: a counter per lobby code."""

    shared = False

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    async def next(self, code: str) -> int:
        n = self.counts[code] = self.counts.get(code, 0) + 1
        return n

    async def current(self, code: str) -> int:
        return self.counts.get(code, 0)


class RedisVersions:
    """Many processes: ``{prefix}lobbyv:{code}``, incremented by whichever pushes."""

    shared = True

    def __init__(self, redis: Redis, prefix: str) -> None:
        self.redis = redis
        self.prefix = f"{prefix}lobbyv:"

    async def next(self, code: str) -> int:
        pipe = self.redis.pipeline(transaction=False)
        pipe.incr(self.prefix + code)
        pipe.expire(self.prefix + code, VERSION_TTL_SECONDS)
        n, _ = await pipe.execute()
        return int(n)

    async def current(self, code: str) -> int:
        value = await self.redis.get(self.prefix + code)
        return int(value) if value is not None else 0


def lobby_frame(version: int, lobby: dict[str, Any], *, resync: bool = False) -> str:
    msg: dict[str, Any] = {"type": "lobby", "version": version, "lobby": lobby}
    if resync:
        msg["resync"] = True
    return orjson.dumps(msg).decode()


class LobbyHub:
    def __init__(self, versions: Versions | None = None) -> None:
        self.listeners: dict[str, set[Sender]] = {}
        # (code, frame) -> every process's hub.deliver; None: this process alone.
        self.relay: Callable[[str, str], None] | None = None
        self.versions: Versions = versions or LocalVersions()

    def subscribe(self, code: str, send: Sender) -> None:
        self.listeners.setdefault(code, set()).add(send)

    def unsubscribe(self, code: str, send: Sender) -> None:
        subs = self.listeners.get(code)
        if subs is not None:
            subs.discard(send)
            if not subs:
                del self.listeners[code]

    async def publish(self, code: str, lobby: dict[str, Any], reload: Load | None = None) -> None:
        """Push ``lobby`` with the lobby's next version (``reload``: how to read it again,
        after the version is taken, when versions are shared by many processes). Called
        under the lobby's lock."""
        version = await self.versions.next(code)
        if reload is not None and self.versions.shared:
            lobby = await reload()
        frame = lobby_frame(version, lobby)
        if self.relay is not None:
            self.relay(code, frame)
        else:
            self.deliver(code, frame)

    async def snapshot(self, code: str, load: Load, *, resync: bool = False) -> str:
        """The lobby as a new listener (or a resync) gets it: its version, read before the
        lobby so that the lobby is at least that new. Called under the lobby's lock."""
        version = await self.versions.current(code)
        return lobby_frame(version, await load(), resync=resync)

    def deliver(self, code: str, frame: str) -> None:
        for send in list(self.listeners.get(code, ())):
            send(frame)
