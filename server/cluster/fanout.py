"""The ``Fanout`` of a process among many (server/tables/fanout.py).

A committed step's frames for sockets of this process are sent directly; those for
sockets of other processes (``RemoteConn``) are grouped by process into ONE item
per step, ``["s", [[conn, frame or None, close code], ...]]``, in the step's order,
which the bus sends with whatever else that process gets in the same loop turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from server.cluster.bus import Bus
from server.cluster.relay import RemoteConn
from server.tables.outbox import Out


class ClusterFanout:
    def __init__(self, bus: Bus) -> None:
        self.bus = bus

    def deliver(self, game_id: int, items: Sequence[Out]) -> None:
        remote: dict[str, list[list[Any]]] = {}
        for item in items:
            conn = item.conn
            if isinstance(conn, RemoteConn):
                remote.setdefault(conn.node, []).append([conn.cid, item.frame, item.code])
            else:
                item.deliver()
        for node, frames in remote.items():
            self.bus.to_node(node, ["s", frames])
