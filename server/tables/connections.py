"""A table's connections: seats coming and going, the grace period, bot takeover.

A seat whose player leaves (or never comes) keeps its place for
``disconnect_grace`` seconds; then a bot plays it ("auto") until the player
connects again, when the decision in hand goes back to them. A newer connection
for a seat replaces the older one (closed with 4409). Spectators join the
table's ``Spectators``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from server.tables.frames import dumps
from server.tables.messages import Connect, _Grace
from server.tables.outbox import Conn

if TYPE_CHECKING:
    from server.tables.table import Table


class Connections:
    """The connection side of one table actor (called only from its actor)."""

    def __init__(self, table: Table) -> None:
        self.t = table

    def all(self) -> list[Conn]:
        """Every seat's connection, and the spectator stream when anyone watches."""
        t = self.t
        out: list[Conn] = [st.conn for st in t.seats if st.conn is not None]
        out.extend(t.spectators.active())
        return out

    def start_grace(self) -> None:
        """A player who never opens the table is treated like one who left: after the
        grace period a bot plays the seat until they come."""
        t = self.t
        for seat, st in enumerate(t.seats):
            if st.spec.bot is None and st.conn is None:
                st.grace_handle = t.later(t.config.disconnect_grace, _Grace(seat, st.grace_token))

    def on_connect(self, msg: Connect) -> None:
        t = self.t
        conn = msg.conn
        seat = conn.seat
        if seat is not None:
            st = t.seats[seat]
            old = st.conn
            if old is not None and old is not conn:
                t.close(old, 4409)
            st.conn = conn
            st.grace_token += 1
            if st.grace_handle is not None:
                st.grace_handle.cancel()
                st.grace_handle = None
            if st.auto:
                st.auto = False
                t.timers.restart(seat)
        if seat is None:
            t.spectators.name(conn, msg.name)
        t.stream.welcome(conn, msg.last_version, self.players())
        t.rounds.tell_pause(conn)
        if t.finished:
            t.send(conn, t.rounds.game_over_frame())
        if seat is None:
            t.spectators.add(conn)
        self.broadcast_players(exclude=conn)

    def on_disconnect(self, conn: Conn) -> None:
        t = self.t
        seat = conn.seat
        if seat is None:
            t.spectators.discard(conn)
            self.broadcast_players()  # the watcher count went down
            return
        st = t.seats[seat]
        if st.conn is not conn:
            return  # already replaced by a newer connection
        st.conn = None
        if not t.finished and st.spec.bot is None:
            st.grace_token += 1
            st.grace_handle = t.later(t.config.disconnect_grace, _Grace(seat, st.grace_token))
        self.broadcast_players()
        # A disconnected human does not hold up the round-end pause.
        t.rounds.on_leave()

    def on_grace(self, msg: _Grace) -> None:
        t = self.t
        st = t.seats[msg.seat]
        if msg.token != st.grace_token or st.conn is not None or t.finished:
            return
        st.grace_handle = None
        st.auto = True
        self.broadcast_players()
        t.timers.restart(msg.seat)

    def cancel(self) -> None:
        for st in self.t.seats:
            if st.grace_handle is not None:
                st.grace_handle.cancel()
                st.grace_handle = None

    def players(self) -> list[dict[str, Any]]:
        return [
            {
                "seat": i,
                "name": st.spec.name,
                "player_id": st.spec.player_id,
                "bot": st.spec.bot,
                "connected": st.spec.bot is not None or st.conn is not None,
                "auto": st.auto,
            }
            for i, st in enumerate(self.t.seats)
        ]

    def broadcast_players(self, exclude: Conn | None = None) -> None:
        """Who sits and who watches, to everyone; only the seats learn the watchers' names."""
        t = self.t
        frame = {"type": "players", "players": self.players(), "spectators": len(t.spectators)}
        public = dumps(frame)
        seated = dumps({**frame, "watchers": t.spectators.names()})
        for conn in self.all():
            if conn is not exclude:
                t.send(conn, public if conn.seat is None else seated)
