"""What a table tells its connections about the game: events, views, the welcome.

Every event of a step is recorded (a row of the step's write) and sent to every
connection as that connection may see it: whole to the seats the event names
(and to all when it is public), masked for the others (``variant.mask``; a seat
that may see nothing of it still gets its version number, so that a client can
tell it missed nothing). The last ``replay_buffer`` events are kept, already
encoded, so that a client reconnecting with its last version gets what it
missed. After every step each connection gets its view.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

from server.engine import Event
from server.tables.frames import PUBLIC, dumps
from server.tables.outbox import Conn, Kind
from server.tables.sink import RecordRow
from server.tables.window import window_split

if TYPE_CHECKING:
    from server.tables.table import Table


class Stream:
    """The outgoing side of one table actor (called only from its actor)."""

    def __init__(self, table: Table) -> None:
        self.t = table
        # Recent events for reconnects, kept as (version, seat mask, whole frame, masked
        # frame): strings and ints, which the garbage collector does not have to scan
        # (event objects of hundreds of tables made its full passes pause every table).
        self.buffer: deque[tuple[int, int, str, str]] = deque(maxlen=table.config.replay_buffer)

    def welcome(self, conn: Conn, last: int | None, players: list[dict[str, Any]]) -> None:
        """A connection's first frames: welcome, the events it missed (when the buffer
        still holds them all), then its view."""
        t = self.t
        seat = conn.seat
        first_buffered = self.buffer[0][0] if self.buffer else t.version + 1
        replay = last is not None and first_buffered - 1 <= last <= t.version
        if last is not None and last > t.version:
            # Only a record that lost committed steps (a restored backup) gets here:
            # what this client saw after our version is not part of the game any more.
            t.send(
                conn,
                dumps(
                    {
                        "type": "timeline_lost",
                        "game_id": t.game_id,
                        "last_version": last,
                        "version": t.version,
                    }
                ),
            )
        t.send(
            conn,
            dumps(
                {
                    "type": "welcome",
                    "game_id": t.game_id,
                    "seat": seat,
                    "version": t.version,
                    "mode": "replay" if replay else "resync",
                    "players": players,
                }
            ),
        )
        if replay:
            assert last is not None
            for version, mask, full, masked in self.buffer:
                if version > last:
                    visible = mask == PUBLIC or (seat is not None and mask >> seat & 1)
                    t.send(conn, full if visible else masked)
        t.send(conn, self.view_frame(seat))

    def publish(self, events: list[Event], rows: list[RecordRow]) -> None:
        """Record ``events`` (after ``rows``) and queue them for every connection."""
        t = self.t
        write = t.write.rows
        write.extend(rows)
        conns = t.conns.all()
        split = window_split(events) if t.windowed and t.window is None else None
        if split is None and events and t.window is not None:
            t.window.open = False  # the window's outcome is known
        encode = t.codec.event_json
        for i, ev in enumerate(events):
            t.version += 1
            version = t.version
            data = encode(ev)
            seats = ev.seats
            write.append(
                RecordRow(
                    version=version,
                    kind="event",
                    type=ev.type,
                    data=data,
                    seats=sorted(seats) if seats is not None else None,
                )
            )
            full = dumps({"type": "event", "version": version, "event": data})
            if seats is None:
                self.buffer.append((version, PUBLIC, full, full))
                for conn in conns:
                    t.send(conn, full, Kind.EVENT)
            else:
                # every seat that may not see the event whole sees the same masked event
                part = t.variant.mask(ev, None)
                masked = dumps(
                    {"type": "event", "version": version, "event": encode(part)}
                    if part is not None
                    else {"type": "event", "version": version}
                )
                self.buffer.append((version, sum(1 << s for s in seats), full, masked))
                for conn in conns:
                    seen = conn.seat is not None and conn.seat in seats
                    t.send(conn, full if seen else masked, Kind.EVENT)
            if split is not None and i + 1 == split:
                t.open_window(open_=split == len(events))

    def view_frame(self, seat: int | None) -> str:
        t = self.t
        return dumps(
            {
                "type": "view",
                "version": t.version,
                "view": t.codec.views(t.state, [seat])[0],
                "timer": t.timers.timer_json(seat),
            }
        )

    def send_views(self, conns: list[Conn]) -> None:
        """One view frame per connection; the public parts are built once per step."""
        t = self.t
        seats = sorted({conn.seat for conn in conns}, key=lambda s: -1 if s is None else s)
        if not seats:
            return
        frames = {
            seat: dumps(
                {
                    "type": "view",
                    "version": t.version,
                    "view": v,
                    "timer": t.timers.timer_json(seat),
                }
            )
            for seat, v in zip(seats, t.codec.views(t.state, seats), strict=True)
        }
        for conn in conns:
            t.send(conn, frames[conn.seat], Kind.VIEW)
