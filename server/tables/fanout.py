"""The ``Fanout`` port: where a table's frames go once their step is committed.

The actor never writes to a socket itself. Handling a message collects ``Out``
items (``outbox.py``: a connection, a frame or a close code, and the frame's
kind); once the step is committed and the call window (``window.py``) has let
them through, the actor hands the whole list, in order, to its fanout in one
call. The order within the list is the order each connection must see.

Contract for an implementation:

* ``deliver(game_id, items)`` must not block or await: it queues. It is called
  from inside the actor, once per committed step (or window release), never for
  an uncommitted step.
* Per connection, frames must reach the client in list order; closes (``frame``
  None) come after the frames before them.
* ``item.conn`` is whatever the gateway posted in ``Connect`` (``outbox.Conn``):
  a local WebSocket, a spectator stream, or a handle for a socket held by
  another process. The fanout decides how to reach it; ``item.deliver()`` is
  the local way (``conn.send`` / ``conn.close``).

``LocalFanout`` (the default) does just that. Tests may pass a recording fanout;
a fanout for many processes may group the items by the process holding each
connection and publish one message per process and step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from server.tables.outbox import Out


class Fanout(Protocol):
    """Where the frames of a committed step go."""

    def deliver(self, game_id: int, items: Sequence[Out]) -> None: ...


class LocalFanout:
    """Every connection is in this process: send (or close) each item directly."""

    def deliver(self, game_id: int, items: Sequence[Out]) -> None:
        for item in items:
            item.deliver()


LOCAL = LocalFanout()
