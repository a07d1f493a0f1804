"""One server process among many: its leases, its relayed sockets, its takeovers.

Two loops run beside the tables, each a few times per lease period:

* ``_keep``: renews every held lease in one round trip (and the listing of the
  remote bots connected here, server/cluster/bots.py). A table whose lease was
  lost (expired while Redis was out of reach, or taken by another process) is
  stopped at once (``TableManager.drop``), its sockets closed for a reconnect. A
  lease held for a table this process no longer runs (finished and dropped, or
  broken) is released, so that another process may rebuild it.
* ``_sweep``: takes the lease of every live game nobody holds (its owner was
  killed, or stopped and released it) and rebuilds its table from the record;
  and closes relayed sockets whose table changed hands, so that they reconnect.

A process takes a game it has just created the same way (``claim``). A socket for
a live game nobody holds is told to try again (1013) until a sweep has taken it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from redis.asyncio import BlockingConnectionPool, Redis
from redis.exceptions import RedisError

from server.cluster.bots import ClusterBots
from server.cluster.bus import Bus, Item
from server.cluster.lease import Leases
from server.cluster.relay import SERVICE_RESTART, GatewayRelay, RemoteConn, RemoteTable
from server.db import games as game_queries
from server.db.session import Database
from server.external.remote import RemoteHub
from server.settings import Settings
from server.tables.manager import TableManager
from server.tables.sink import SinkError, StepWrite, TableSink
from server.tables.table import ClientAction, Connect, Continue, Disconnect, Resync, error_frame

log = logging.getLogger(__name__)

# The table a socket asked for: here, on another process, not live, or live but
# without a reachable owner for now (the client tries again).
Route = Any  # Table | RemoteTable | None | "retry"
RETRY = "retry"
MAX_TAKEOVERS_PER_SWEEP = 100
# How long a Redis request waits for a free connection of the pool before it fails.
REDIS_WAIT_SECONDS = 10.0


class FencedSink:
    """The recorder, refusing the steps of tables whose lease is not surely held."""

    def __init__(self, sink: TableSink, valid: Callable[[int], bool]) -> None:
        self.sink = sink
        self.valid = valid

    def write(self, game_id: int, step: StepWrite) -> Awaitable[None]:
        if self.valid(game_id):
            return self.sink.write(game_id, step)
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        fut.set_exception(SinkError(f"game {game_id}: this process does not hold its lease"))
        return fut


def redis_client(settings: Settings) -> Redis:
    """The process's Redis client: at most ``redis_max_connections`` connections, and a
    request finding them all busy waits for one (redis-py's default pool fails it)."""
    pool = BlockingConnectionPool.from_url(
        settings.redis_url,
        max_connections=settings.redis_max_connections,
        timeout=REDIS_WAIT_SECONDS,
    )
    return Redis.from_pool(pool)


class Node:
    def __init__(
        self,
        settings: Settings,
        db: Database,
        tables: TableManager,
        resume: Callable[[game_queries.LiveGame], Awaitable[None]],
        redis: Redis | None = None,
        remote_bots: RemoteHub | None = None,
    ) -> None:
        self.settings = settings
        self.db = db
        self.tables = tables
        self.resume = resume
        self.name = secrets.token_hex(6)
        self.redis = redis or redis_client(settings)
        prefix = settings.redis_prefix
        self.leases = Leases(self.redis, prefix, self.name, settings.lease_seconds)
        self.bus = Bus(self.redis, prefix, self.name)
        self.bus.on_item = self._on_item
        self.bus.on_unheard = self._on_unheard
        self.relay = GatewayRelay(self.bus)
        # The remote bots of every process, offered and played at this one's tables.
        self.bots = ClusterBots(
            self.bus, self.redis, remote_bots or RemoteHub(), 2 * settings.lease_seconds
        )
        # Sockets of other processes at tables of this one, by socket id.
        self.remote: dict[str, RemoteConn] = {}
        # Told (code, frame) for each lobby push from any process (LobbyHub.deliver).
        self.on_lobby: Callable[[str, str], None] | None = None
        self._claiming: set[int] = set()
        self._orphans: set[int] = set()  # live games without an owner at the last sweep
        self._tasks: list[asyncio.Task[None]] = []
        self.takeovers = 0

    @property
    def period(self) -> float:
        return self.settings.lease_seconds / 3

    async def start(self) -> None:
        await self.bus.start()
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._loop(self._keep), name="lease-keep"),
            loop.create_task(self._loop(self._sweep), name="lease-sweep"),
        ]

    async def close(self) -> None:
        """Stop the loops and release every lease (call after the tables stopped), so
        that other processes take the tables over at once."""
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await t
        with contextlib.suppress(Exception):
            await self.leases.release_all()
        await self.bots.close()
        await self.bus.close()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    async def _loop(self, step: Callable[[], Awaitable[None]]) -> None:
        while True:
            try:
                await step()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("cluster: %s failed: %r", step.__name__, exc)
            self._halt_lost(self.leases.expired())
            await asyncio.sleep(self.period)

    # leases

    async def _keep(self) -> None:
        self._halt_lost(await self.leases.renew())
        for g in list(self.leases.held):
            if g not in self.tables.tables and g not in self._claiming:
                await self.leases.release(g)
        await self.bots.keep()

    def _halt_lost(self, games: list[int]) -> None:
        for g in games:
            if self.tables.get(g) is not None:
                log.error("game %d: this process lost its lease; its table stops", g)
                self.tables.drop(g)
            for cid, rc in list(self.remote.items()):
                if rc.game_id == g:
                    del self.remote[cid]

    async def _sweep(self) -> None:
        live = await asyncio.to_thread(self.db.run, game_queries.live_game_ids)
        owners = await self.leases.owners(g for g in live if self.tables.get(g) is None)
        orphans = {g for g, owner in owners.items() if owner is None}
        # Only games seen without an owner twice, a period apart: a game just created
        # is committed a moment before its creator takes the lease. And a few at a
        # time: rebuilding many tables at once would stall this process's own.
        ready = sorted(orphans & self._orphans)[:MAX_TAKEOVERS_PER_SWEEP]
        self._orphans = orphans
        for g in ready:
            await self.claim(g)
        relayed = self.relay.games()
        now = await self.leases.owners(relayed)
        for g, owner in relayed.items():
            if now.get(g) != owner:
                self.relay.drop_where(lambda t, g=g: t.game_id == g)

    async def claim(self, game_id: int, start: Callable[[], None] | None = None) -> bool:
        """Take the game's lease and start its table: ``start`` for a game just created,
        else rebuilt from the record. False when another process holds it."""
        if game_id in self._claiming or self.tables.get(game_id) is not None:
            return False
        self._claiming.add(game_id)
        try:
            if await self.leases.acquire(game_id) is None:
                return False
            if start is not None:
                start()
            else:
                live = await asyncio.to_thread(
                    self.db.run, lambda s: game_queries.live_game(s, game_id)
                )
                if live is not None:
                    await self.resume(live)
            if self.tables.get(game_id) is None:
                await self.leases.release(game_id)
                return False
            if start is None:
                self.takeovers += 1
                log.info("game %d: taken over by this process", game_id)
            self.bus.send(self.bus.owners, [game_id, self.name])
            return True
        except BaseException:
            with contextlib.suppress(Exception):
                await self.leases.release(game_id)
            raise
        finally:
            self._claiming.discard(game_id)

    # the gateway

    async def route(self, game_id: int) -> Route:
        """Where a socket for ``game_id`` goes (see ``Route``)."""
        table = self.tables.get(game_id)
        if table is not None:
            return table
        # A live game nobody holds is left to the sweeps (one of them takes it within
        # two thirds of a lease period); the client is told to try again meanwhile.
        try:
            owner = (await self.leases.owners([game_id]))[game_id]
        except RedisError as exc:
            # Redis unreachable or every connection busy past the wait: the client is
            # told to reconnect, as while a table moves.
            log.warning("cluster: route(%s): %s", game_id, type(exc).__name__)
            return RETRY
        players = await asyncio.to_thread(
            self.db.run, lambda s: game_queries.seat_players(s, game_id)
        )
        if players is None:
            return None  # not live
        if owner is None or owner == self.name:
            return RETRY
        return RemoteTable(self.relay, game_id, owner, players)

    # messages from other processes

    def _on_item(self, channel: str, item: Item) -> None:
        if channel == self.bus.own:
            self._on_own(item)
        elif channel == self.bus.owners:
            game_id, owner = int(item[0]), str(item[1])
            self.relay.drop_where(lambda t: t.game_id == game_id and t.owner != owner)
            if owner != self.name and self.tables.get(game_id) is not None:
                # Someone took a lease this process thought it held: it cannot write anyway.
                self.leases.held.pop(game_id, None)
                self._halt_lost([game_id])
        elif channel == self.bus.lobby and self.on_lobby is not None:
            self.on_lobby(str(item[0]), str(item[1]))
        elif channel == self.bus.bots:
            self.bots.on_kick(item)

    def _on_own(self, item: Item) -> None:
        op = item[0]
        if op in ("s", "f", "x"):
            self.relay.frame(item)
            return
        if str(op).startswith("bot_"):
            self.bots.on_item(item)
            return
        if op == "connect":
            self._connect(item)
            return
        rc = self.remote.get(item[1])
        table = self.tables.get(rc.game_id) if rc is not None else None
        if rc is None or (table is None and op != "leave"):
            if op != "leave":
                # A socket this process does not know (its table moved, or its frames
                # were lost): closed, so that it reconnects where the table is now.
                cid = str(item[1])
                self.bus.to_node(cid.rsplit(".", 1)[0], ["x", cid, SERVICE_RESTART])
            return
        if op == "leave":
            del self.remote[item[1]]
            if table is not None:
                table.post(Disconnect(rc))
            return
        assert table is not None
        if op == "action":
            table.post(ClientAction(rc, item[2], item[3], item[4]))
        elif op == "resync":
            table.post(Resync(rc))
        elif op == "continue":
            table.post(Continue(rc))

    def _connect(self, item: Item) -> None:
        _, game_id, cid, node, seat, last_version, protocol, *rest = item
        name = str(rest[0]) if rest and rest[0] is not None else None  # a watcher's
        rc = RemoteConn(self.bus, str(node), str(cid), int(game_id), seat, int(protocol))
        table = self.tables.get(rc.game_id)
        if table is None:
            rc.close(SERVICE_RESTART)
            return
        if seat is None and len(table.spectators) >= self.settings.max_spectators_per_table:
            rc.send(error_frame("busy", "this table has as many spectators as it takes"))
            rc.close(4429)
            return
        self.remote[rc.cid] = rc
        table.post(Connect(rc, last_version, name))

    def _on_unheard(self, node: str, items: list[Item]) -> None:
        """A message to ``node`` reached nobody: that process is gone."""
        self.bots.unheard(node)
        for item in items:
            if item[0] in ("s", "f", "x"):
                cids = [f[0] for f in item[1]] if item[0] == "s" else [item[1]]
                for cid in cids:
                    rc = self.remote.pop(cid, None)
                    table = self.tables.get(rc.game_id) if rc is not None else None
                    if rc is not None and table is not None:
                        table.post(Disconnect(rc))
            else:
                self.relay.drop_where(lambda t: t.owner == node)

    def stats(self) -> dict[str, int]:
        return {
            "leases": len(self.leases.held),
            "relayed_sockets": len(self.relay.conns),
            "remote_sockets": len(self.remote),
            "takeovers": self.takeovers,
            "bot_sockets_lent": len(self.bots.lent),
            "bot_sockets_borrowed": len(self.bots.borrowed),
        }
