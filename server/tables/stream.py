"""What a table tells its connections about the game: events, views, the welcome.

Every event of a step is recorded (a row of the step's write) and sent to every
connection as that connection may see it: whole to the seats the event names
(and to all when it is public), masked for the others (``variant.mask``; a seat
that may see nothing of it still gets its version number, so that a client can
tell it missed nothing). The last ``replay_buffer`` events are kept, already
encoded, so that a client reconnecting with its last version gets what it
missed.

After every step a connection of protocol 1 gets its whole view. One of
protocol 2 folds the events into the view it got on connecting (web/js/fold.js)
and gets only a decision frame, its seat's legal actions, hints and timer,
when these changed since the last one it was sent (docs/protocol.md, "Frames");
a step's events and decision frame reach it merged into one frame (steps.py).
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


# One event's frames: in protocol 1, in protocol 2, and its piece of a step frame in
# protocol 2 (its JSON, ``null`` for its version alone; steps.py).
_Frames = tuple[str, str, str]
# The events of every turn: protocol 2 leaves out their fields that are false or null.
_LEAN = frozenset({"draw", "discard"})


def _frames(version: int, data: dict[str, Any] | None, win: Any = None) -> _Frames:
    """An event's frame (``data`` None: its version alone) in protocols 1 and 2 (``win``:
    the win told by the event before it, in the same step)."""
    if data is None:
        frame = dumps({"type": "event", "version": version})
        return frame, frame, "null"
    full = dumps({"type": "event", "version": version, "event": data})
    kind = data["type"]
    if kind in _LEAN:
        lean = {k: v for k, v in data.items() if v is not None and v is not False}
    elif kind == "round_end" and win is not None and data.get("result", {}).get("win") == win:
        # Nanchang's round result repeats the win event just before it: protocol 2 says
        # it once (the fold takes it from that event).
        result = {k: v for k, v in data["result"].items() if k != "win"}
        lean = {**data, "result": result}
    else:
        return full, full, full[full.index('"event":{') + 8 : -1]
    piece = dumps(lean)
    return full, f'{{"type":"event","version":{version},"event":{piece}}}', piece


class Stream:
    """The outgoing side of one table actor (called only from its actor)."""

    def __init__(self, table: Table) -> None:
        self.t = table
        # Recent events for reconnects, kept as (version, seat mask, whole frames, masked
        # frames), the frames of protocols 1 and 2 (often one string): strings and ints,
        # which the garbage collector does not have to scan (event objects of hundreds of
        # tables made its full passes pause every table).
        self.buffer: deque[tuple[int, int, _Frames, _Frames]] = deque(
            maxlen=table.config.replay_buffer
        )
        # The decision each seat's protocol-2 connection was last told of (or shown in a
        # view), field by field, encoded.
        self.decided: dict[int, dict[str, str]] = {}

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
        welcome = {
            "type": "welcome",
            "game_id": t.game_id,
            "seat": seat,
            "version": t.version,
            "mode": "replay" if replay else "resync",
            "protocol": conn.protocol,
            "players": players,
            "seed_commitment": t.seed_commitment,
            "spectators": len(t.spectators) + (seat is None),
        }
        if seat is not None:
            welcome["watchers"] = t.spectators.names()  # only the seats learn who watches
        t.send(conn, dumps(welcome))
        if replay:
            assert last is not None
            for version, mask, full, masked in self.buffer:
                if version > last:
                    visible = mask == PUBLIC or (seat is not None and mask >> seat & 1)
                    self._send_event(conn, version, full if visible else masked)
            if conn.protocol == 2:
                # Its view is the one it had, and the events it missed bring it up to date.
                self.send_decisions([conn], force=True)
                return
        self.send_view(conn, Kind.OTHER)

    def send_view(self, conn: Conn, kind: Kind) -> None:
        """The connection's whole view (on connecting, and on a resync)."""
        t = self.t
        seat = conn.seat
        t.send(conn, self.view_frame(seat), kind)
        if conn.protocol == 2 and seat is not None:
            self.decided[seat] = self._decision(seat)

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
        win = None  # a public win event's win, for the round_end after it
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
            whole = _frames(version, data, win)
            win = data.get("win") if seats is None and data["type"] == "win" else None
            if seats is None:
                self.buffer.append((version, PUBLIC, whole, whole))
                for conn in conns:
                    self._send_event(conn, version, whole)
            else:
                # every seat that may not see the event whole sees the same masked event
                part = t.variant.mask(ev, None)
                masked = _frames(version, encode(part) if part is not None else None)
                self.buffer.append((version, sum(1 << s for s in seats), whole, masked))
                for conn in conns:
                    seen = conn.seat is not None and conn.seat in seats
                    self._send_event(conn, version, whole if seen else masked)
            if split is not None and i + 1 == split:
                t.open_window(open_=split == len(events))

    def _send_event(self, conn: Conn, version: int, frames: _Frames) -> None:
        if conn.protocol == 2:
            self.t.send(conn, frames[1], Kind.EVENT, (version, frames[2]))
        else:
            self.t.send(conn, frames[0], Kind.EVENT)

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

    def _decision(self, seat: int) -> dict[str, str]:
        """The seat's decision now, each field encoded (compared field by field)."""
        t = self.t
        d = {**t.codec.decision(t.state, seat), "timer": t.timers.timer_json(seat)}
        return {k: dumps(v) for k, v in d.items()}

    def send_decisions(self, conns: list[Conn], *, force: bool = False) -> None:
        """To each seat of protocol 2, a decision frame with the fields of its decision
        that changed since it was last told (``force``: all of them, as after a call
        window dropped the frames it held); none when nothing changed."""
        t = self.t
        for conn in conns:
            seat = conn.seat
            if seat is None or conn.protocol != 2:
                continue
            now = self._decision(seat)
            told = self.decided.get(seat)
            self.decided[seat] = now
            changed = [k for k, v in now.items() if force or told is None or told.get(k) != v]
            if changed:
                head = f'{{"type":"decision","version":{t.version},"seat":{seat},'
                body = ",".join(f'"{k}":{now[k]}' for k in changed)
                t.send(conn, head + body + "}", Kind.VIEW, (t.version, body))

    def send_views(self, conns: list[Conn], *, force: bool = False) -> None:
        """After a step: a view to each connection of protocol 1 (the public parts built
        once), a decision frame where it changed to each of protocol 2."""
        self.send_decisions(conns, force=force)
        conns = [c for c in conns if c.protocol == 1]
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
