"""Sockets on one process, tables on another: both ends of the relay.

On the process a player's socket reached (the gateway), a ``RemoteTable`` stands
for a table owned elsewhere: the gateway posts to it exactly what it posts to a
local table, and it sends each message to the owner as a command. On the owner,
each remote socket is a ``RemoteConn``: the table sends frames to it like to any
connection, and they go back to the gateway, which writes them to the socket.

Commands (to the owner's channel), one list each:
  ``["connect", game, conn, node, seat, last_version, protocol, name]`` (``name``: a
  watcher's, shown to the seats), ``["action", conn, action, version, ref]``,
  ``["resync", conn]``, ``["continue", conn]``, ``["leave", conn]``.
Frames (to the gateway's channel): ``["f", conn, text]``; ``["x", conn, code]`` closes.
``conn`` is the socket's id, unique in the cluster (``{node}.{n}``).
"""

from __future__ import annotations

import itertools
from typing import Any

from server.cluster.bus import Bus
from server.tables.outbox import Conn
from server.tables.table import ClientAction, Connect, Continue, Disconnect, Resync

# A socket whose table changed hands or whose owner went away: the client
# reconnects (to any process) and the new owner sends what it missed.
SERVICE_RESTART = 1012


class RemoteConn:
    """A socket of another process, as the owning table sees it."""

    __slots__ = ("bus", "cid", "game_id", "node", "protocol", "seat")

    def __init__(
        self, bus: Bus, node: str, cid: str, game_id: int, seat: int | None, protocol: int = 1
    ) -> None:
        self.bus = bus
        self.node = node
        self.cid = cid
        self.game_id = game_id
        self.seat = seat
        self.protocol = protocol  # the hello's, as the gateway read it

    def send(self, text: str) -> None:
        self.bus.to_node(self.node, ["f", self.cid, text])

    def close(self, code: int) -> None:
        self.bus.to_node(self.node, ["x", self.cid, code])


class RemoteTable:
    """A table owned by ``owner``, as this process's gateway sees it (``post`` only)."""

    def __init__(
        self, relay: GatewayRelay, game_id: int, owner: str, players: list[int | None]
    ) -> None:
        self.relay = relay
        self.game_id = game_id
        self.owner = owner
        self.players = players
        self.spectators: tuple[()] = ()  # the owner enforces the spectator cap
        self.cids: dict[int, str] = {}  # id(conn) -> socket id

    def seat_of(self, player_id: int) -> int | None:
        for i, p in enumerate(self.players):
            if p == player_id:
                return i
        return None

    def post(self, msg: object) -> None:
        bus = self.relay.bus
        if isinstance(msg, Connect):
            cid = self.relay.register(msg.conn, self)
            self.cids[id(msg.conn)] = cid
            bus.to_node(
                self.owner,
                [
                    "connect",
                    self.game_id,
                    cid,
                    bus.node,
                    msg.conn.seat,
                    msg.last_version,
                    msg.conn.protocol,
                    msg.name,
                ],
            )
            return
        if not isinstance(msg, ClientAction | Resync | Continue | Disconnect):
            raise TypeError(f"not a client message: {msg!r}")
        known = self.cids.get(id(msg.conn))
        if known is None:
            return
        cid = known
        if isinstance(msg, ClientAction):
            bus.to_node(self.owner, ["action", cid, msg.action, msg.version, msg.ref])
        elif isinstance(msg, Resync):
            bus.to_node(self.owner, ["resync", cid])
        elif isinstance(msg, Continue):
            bus.to_node(self.owner, ["continue", cid])
        else:
            del self.cids[id(msg.conn)]
            self.relay.unregister(cid)
            bus.to_node(self.owner, ["leave", cid])


class GatewayRelay:
    """The sockets of this process whose tables are owned elsewhere."""

    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self._ids = itertools.count(1)
        self.conns: dict[str, tuple[Conn, RemoteTable]] = {}

    def register(self, conn: Conn, table: RemoteTable) -> str:
        cid = f"{self.bus.node}.{next(self._ids)}"
        self.conns[cid] = (conn, table)
        return cid

    def unregister(self, cid: str) -> None:
        self.conns.pop(cid, None)

    def frame(self, item: list[Any]) -> None:
        """Frames or closes from an owner for this process's sockets: ``["f", conn,
        text]``, ``["x", conn, code]``, or a step's ``["s", [[conn, text or None,
        code], ...]]`` (server/cluster/fanout.py)."""
        if item[0] == "s":
            for cid, text, code in item[1]:
                self._one(cid, text, code)
        elif item[0] == "f":
            self._one(item[1], item[2], 0)
        else:
            self._one(item[1], None, int(item[2]))

    def _one(self, cid: str, text: str | None, code: int) -> None:
        entry = self.conns.get(cid)
        if entry is None:
            return
        if text is not None:
            entry[0].send(text)
        else:
            self.unregister(cid)
            entry[0].close(code)

    def drop_where(self, lost: Any) -> None:
        """Close (for a reconnect) every socket whose remote table ``lost(table)``."""
        for cid, (conn, table) in list(self.conns.items()):
            if lost(table):
                self.unregister(cid)
                conn.close(SERVICE_RESTART)

    def games(self) -> dict[int, str]:
        """The games relayed from here and the owner each was relayed to."""
        return {t.game_id: t.owner for _, t in self.conns.values()}
