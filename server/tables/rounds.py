"""Rounds at a table: the pause after a round, round results, the game's end.

When a round ends its result is saved (in the step's write) and the table
pauses ``round_end_pause`` seconds, or less: the next round starts as soon as
every connected seat has sent ``continue`` (at once when only bots sit, queued so
that the round's last views go out first). A disconnected human does not hold
the pause up. At the game's end the standings go in the same write as the final
events: committed before ``game_over`` is sent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from server.tables.clock import Handle
from server.tables.frames import dumps
from server.tables.messages import _NextRound
from server.tables.outbox import Conn
from server.tables.sink import HandRow, SeatResult

if TYPE_CHECKING:
    from server.tables.table import Table


class Rounds:
    """The round-end side of one table actor (called only from its actor)."""

    def __init__(self, table: Table) -> None:
        self.t = table
        self.hands_saved = 0
        # Whether a round_end phase has been handled (results saved, pause pending).
        self.pending = False
        self._token = 0
        self._handle: Handle | None = None
        self._deadline = 0.0  # when the pending pause ends (the table clock's time)

    def after_step(self) -> None:
        """Move on from the state a step left: decisions, a round's end, the game's end."""
        t = self.t
        phase = t.variant.phase(t.state)
        if phase == "play":
            t.timers.sync()
        elif phase == "round_end" and not self.pending:
            t.timers.sync()
            self.save_hands()
            self.pending = True
            for st in t.seats:
                st.continued = False
            if t.window is None:
                self.arm()
        elif phase == "game_end" and not t.finished:
            self.finish()

    def arm(self) -> None:
        """Start what waits on the players having seen the state: its decisions and
        timers, and the pause after a round (held back while a call window is)."""
        t = self.t
        if t.variant.phase(t.state) == "play":
            t.timers.sync()
        if self.pending and self._handle is None:
            self._token += 1
            self._handle = t.later(t.config.round_end_pause, _NextRound(self._token))
            self._deadline = t.clock.now() + t.config.round_end_pause
            # Only bots (or nobody) at the table: no one needs the pause. Queued,
            # not called, so that this step's views go out before the next round's.
            if self.all_continued():
                t.post(_NextRound(self._token))
            else:
                for conn in t.conns.all():
                    self.tell_pause(conn)

    def tell_pause(self, conn: Conn) -> None:
        """How long the pending round-end pause still runs (the result card counts it
        down): when it starts, and to a connection arriving during it."""
        t = self.t
        if not self.pending or self._handle is None:
            return
        left = max(0, round((self._deadline - t.clock.now()) * 1000))
        t.send(conn, dumps({"type": "round_pause", "ms": left}))

    def all_continued(self) -> bool:
        return all(st.continued for st in self.t.seats if st.conn is not None)

    def on_continue(self, conn: Conn) -> None:
        t = self.t
        seat = conn.seat
        if seat is None or t.seats[seat].conn is not conn or not self.pending:
            return
        t.seats[seat].continued = True
        if self.all_continued():
            self.start_next()

    def on_leave(self) -> None:
        """A seat's connection went: it no longer holds up the pause."""
        if self.pending and self.all_continued():
            self.start_next()

    def on_next_round(self, msg: _NextRound) -> None:
        if msg.token == self._token:
            self.start_next()

    def start_next(self) -> None:
        t = self.t
        if not self.pending or t.window is not None:
            return
        self.pending = False
        self._token += 1
        self.cancel()
        t.timers.reset_banks()  # the bank is per round
        t.step(t.variant.next_round(t.state), [])

    def cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def save_hands(self) -> None:
        t = self.t
        results = t.variant.rounds(t.state)
        while self.hands_saved < len(results):
            r = results[self.hands_saved]
            result = t.codec.event_json(r.event)
            del result["type"]
            t.write.hands.append(
                HandRow(
                    number=self.hands_saved,
                    round_wind=int(r.round_wind),
                    kyoku=int(r.kyoku),
                    honba=int(r.honba),
                    kind=str(r.kind),
                    result=result,
                    deltas=[int(x) for x in r.deltas],
                    scores=[int(x) for x in r.scores],
                )
            )
            self.hands_saved += 1

    def finish(self) -> None:
        t = self.t
        t.finished = True
        self.save_hands()
        t.cancel_all()
        results = [
            SeatResult(f.seat, f.points, f.rank, f.score) for f in t.variant.final(t.state) or ()
        ]
        # In the same transaction as the final events: committed before game_over is sent.
        t.write.finish = (results, "finished")

    def game_over_frame(self) -> str:
        t = self.t
        return dumps(
            {
                "type": "game_over",
                "game_id": t.game_id,
                "results": [
                    {
                        "seat": f.seat,
                        "points": f.points,
                        "rank": f.rank,
                        "score": f.score,
                        "name": t.seats[f.seat].spec.name,
                    }
                    for f in t.variant.final(t.state) or ()
                ],
            }
        )
