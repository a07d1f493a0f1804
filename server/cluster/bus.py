"""Messages between processes over Redis pub/sub, batched per event-loop turn.

Every process listens on its own channel (``{prefix}n:{node}``) and on three shared
ones: ``owners`` (a table changed hands), ``lobby`` (a lobby changed) and ``bots`` (a
remote bot's token was revoked: server/cluster/bots.py). Items for one channel
queued during a turn of the loop go out as ONE message (a JSON array),
and one writer task sends the queued messages in one pipeline: with a thousand
tables a step's frames to a process cost one PUBLISH, not one per socket. A single
writer also keeps each channel's messages in the order they were queued.

PUBLISH answers how many listeners got the message: 0 on a process's own channel
means the process is gone, and ``on_unheard`` is told which items were lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

import orjson
from redis.asyncio import Redis

log = logging.getLogger(__name__)

Item = list[Any]


class Bus:
    def __init__(self, redis: Redis, prefix: str, node: str) -> None:
        self.redis = redis
        self.prefix = prefix
        self.node = node
        self.own = self.node_channel(node)
        self.owners = f"{prefix}owners"
        self.lobby = f"{prefix}lobby"
        self.bots = f"{prefix}bots"
        # Told each item of a message that arrives: (channel, item).
        self.on_item: Callable[[str, Item], None] | None = None
        # Told (node, items) when a message to a node's channel reached nobody.
        self.on_unheard: Callable[[str, list[Item]], None] | None = None
        self._queued: dict[str, list[Item]] = {}
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._pubsub: Any = None
        self.sent = 0  # messages published (figures for the benchmark)

    def node_channel(self, node: str) -> str:
        return f"{self.prefix}n:{node}"

    async def start(self) -> None:
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(self.own, self.owners, self.lobby, self.bots)
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._read(), name="bus-read"),
            loop.create_task(self._write(), name="bus-write"),
        ]

    async def close(self) -> None:
        await self.flush()
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()

    # sending

    def to_node(self, node: str, item: Item) -> None:
        self.send(self.node_channel(node), item)

    def send(self, channel: str, item: Item) -> None:
        q = self._queued.get(channel)
        if q is None:
            self._queued[channel] = [item]
            self._wake.set()
        else:
            q.append(item)

    async def flush(self) -> None:
        """Send what is queued now (the writer does it by itself; for shutdown and tests)."""
        await self._send_queued()

    async def _write(self) -> None:
        while True:
            await self._wake.wait()
            # One turn of the loop: everything the running step queues goes together.
            await asyncio.sleep(0)
            self._wake.clear()
            try:
                await self._send_queued()
            except Exception:  # the writer must outlive one bad batch
                log.exception("bus: sending failed")

    async def _send_queued(self) -> None:
        if not self._queued:
            return
        batch, self._queued = self._queued, {}
        pipe = self.redis.pipeline(transaction=False)
        channels = list(batch)
        for ch in channels:
            pipe.publish(ch, orjson.dumps(batch[ch]))
        try:
            heard = await pipe.execute()
        except Exception:
            # Redis out of reach: nothing was surely heard. The sockets whose commands
            # or frames were lost are closed, and reconnect once it is back.
            heard = [0] * len(channels)
            log.exception("bus: publishing %d message(s) failed", len(channels))
        self.sent += len(channels)
        if self.on_unheard is None:
            return
        node_prefix = f"{self.prefix}n:"
        for ch, n in zip(channels, heard, strict=True):
            if not n and ch.startswith(node_prefix):
                self.on_unheard(ch[len(node_prefix) :], batch[ch])

    # receiving

    async def _read(self) -> None:
        while True:
            try:
                msg = await self._pubsub.get_message(timeout=None)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("bus: reading failed; retrying")
                await asyncio.sleep(0.5)
                continue
            if msg is None or msg.get("type") != "message":
                continue
            channel = msg["channel"]
            if isinstance(channel, bytes):
                channel = channel.decode()
            try:
                items = orjson.loads(msg["data"])
            except orjson.JSONDecodeError:
                log.error("bus: a message on %s is not JSON", channel)
                continue
            if self.on_item is None:
                continue
            for item in items:
                try:
                    self.on_item(channel, item)
                except Exception:
                    log.exception("bus: handling %r on %s failed", item[:2], channel)
