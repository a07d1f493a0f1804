"""One live table: an asyncio actor that owns a game's engine state.

Every input (a seat's action, a connection coming or going, a timer firing, a
bot's turn) is a message in the table's queue, handled one at a time by
``run``. Nothing else touches the state, so nothing needs a lock; timers and
bot delays only post messages back into the queue, tagged with the decision
they belong to so that a late one is ignored.

The record is the source of truth. Handling a message collects the step's
record rows (``StepWrite``) and its frames; the actor hands the rows to the
sink and waits until they are committed before any frame goes out, and before
it handles the next message. A crash can therefore only lose a step nobody was
told of, the game's end is durable before ``game_over`` is sent, and a version
number, once sent, means the same event for ever.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from server.bots import TAKEOVER
from server.engine import Action, AnyVariant, Event, IllegalAction
from server.tables import external
from server.tables.clock import Clock, Handle, LoopClock
from server.tables.frames import PUBLIC, dumps, error_frame
from server.tables.messages import (
    _CLIENT_MESSAGES,
    BotFactory,
    ClientAction,
    Connect,
    Continue,
    Disconnect,
    Message,
    Resync,
    SeatSpec,
    TableConfig,
    _Begin,
    _BotAnswer,
    _BotTurn,
    _Decision,
    _Grace,
    _NextRound,
    _Release,
    _SeatState,
    _Stop,
    _Timeout,
    default_action,
)
from server.tables.options import TableOptions
from server.tables.outbox import Conn, Kind, Out
from server.tables.sink import HandRow, RecordRow, SeatResult, StepWrite, TableSink
from server.tables.spectators import SpectatorStream
from server.tables.window import Window, window_split
from server.wire.actions import action_json, parse_action
from server.wire.codec import codec_for

__all__ = [
    "BotFactory",
    "ClientAction",
    "Conn",
    "Connect",
    "Continue",
    "Disconnect",
    "Resync",
    "SeatSpec",
    "Table",
    "TableConfig",
    "default_action",
    "error_frame",
]

log = logging.getLogger(__name__)


class Table:
    """The actor of one live game. Construct, then ``start()`` it inside a running loop."""

    def __init__(
        self,
        game_id: int,
        variant: AnyVariant,
        state: Any,
        seats: list[SeatSpec],
        *,
        options: TableOptions,
        config: TableConfig,
        sink: TableSink,
        bot_factory: BotFactory,
        seed: int = 0,
        on_finished: Callable[[Table], None] | None = None,
        on_broken: Callable[[Table], None] | None = None,
        clock: Clock | None = None,
    ) -> None:
        if len(seats) != variant.seats:
            raise ValueError(f"a table of {variant.title} has {variant.seats} seats")
        self.game_id = game_id
        self.variant = variant
        self.codec = codec_for(variant)
        self.state = state
        self.config = config
        self.sink = sink
        self.bot_factory = bot_factory
        self.bot_seed = seed
        self.on_finished = on_finished
        self.on_broken = on_broken
        self.clock: Clock = clock or LoopClock()
        self.seats = [_SeatState(spec) for spec in seats]
        self.options = options
        self.think = float(options.think_seconds)
        self.bank_seconds = float(options.bank_seconds)
        self.timed = options.timed
        for s in self.seats:
            s.bank = self.bank_seconds
        # Where a human sits, a discard's call options are hidden by the call window.
        self.windowed = config.call_window > 0 and any(s.bot is None for s in seats)
        self.version = 0
        # Recent events for reconnects, kept as (version, seat mask, whole frame, masked
        # frame): strings and ints, which the garbage collector does not have to scan
        # (event objects of hundreds of tables made its full passes pause every table).
        self.buffer: deque[tuple[int, int, str, str]] = deque(maxlen=config.replay_buffer)
        self.spectators = SpectatorStream(self.clock, config.spectator_interval)
        self.decisions: dict[int, _Decision] = {}
        self.inbox: asyncio.Queue[Message] = asyncio.Queue()
        self._token = 0
        self._next_round_token = 0
        self._next_round_handle: Handle | None = None
        self._hands_saved = 0
        self.finished = False
        self._finish_told = False
        self.broken = False
        self.task: asyncio.Task[None] | None = None
        self.actions_applied = 0
        # Whether a round_end phase has been handled (results saved, pause pending).
        self._round_end_pending = False
        # The step being handled: its record rows and its frames (sent once committed).
        self._write = StepWrite()
        self._out: list[Out] = []
        self._window: Window | None = None
        self._unparked: deque[Message] = deque()
        # Actions applied in the step being handled, for ``config.on_action`` once sent.
        self._applied: list[tuple[str, float | None]] = []

    # -- public (called from the event loop, outside the actor) ---------------

    def seat_of(self, player_id: int) -> int | None:
        for i, s in enumerate(self.seats):
            if s.spec.player_id == player_id:
                return i
        return None

    def post(self, msg: Message) -> None:
        self.inbox.put_nowait(msg)

    def start(self, start_events: list[Event]) -> None:
        """Record and publish the game's first events, then process the queue."""
        self._begin(_Begin(list(start_events)))

    def resume(self, version: int, hands_saved: int) -> None:
        """Go on with a game rebuilt from its record by a new server process.

        ``version`` is the number of events already recorded (versions go on from
        there), ``hands_saved`` the hand rows already written. Nothing is
        published: seats that come back get a full resync; seats that do not are
        played by a bot after the grace period, as after any disconnect.
        """
        self.version = version
        self._hands_saved = hands_saved
        self._begin(_Begin(None))

    def _begin(self, first: _Begin) -> None:
        # A player who never opens the table is treated like one who left: after
        # the grace period a bot plays the seat until they come.
        for seat, st in enumerate(self.seats):
            if st.spec.bot is None and st.conn is None:
                st.grace_handle = self._later(
                    self.config.disconnect_grace, _Grace(seat, st.grace_token)
                )
        self.post(first)  # first in the queue: before any connection is handled
        self.task = asyncio.get_running_loop().create_task(self.run(), name=f"table-{self.game_id}")

    def post_stop(self) -> None:
        self.post(_Stop())

    async def stop(self) -> None:
        self.post(_Stop())
        if self.task is not None:
            await self.task

    async def run(self) -> None:
        while not self.broken:
            msg = await self.inbox.get()
            if isinstance(msg, _Stop):
                self._cancel_all()
                external.close(st.bot for st in self.seats)
                # Frames a call window still holds are committed: a client that comes
                # back to the next process gets them from the record.
                for conn in self._conns():
                    conn.close(1001)
                return
            await self._process(msg)
            while self._unparked and not self.broken:
                await self._process(self._unparked.popleft())

    async def _process(self, msg: Message) -> None:
        """Handle one message, commit what it changed, then send what it caused."""
        w = self._window
        if w is not None and self._parks(w, msg):
            w.parked.append(msg)
            return
        try:
            self._handle(msg)
        except Exception:  # the actor must outlive one bad step
            log.exception("table %s: error handling %r", self.game_id, msg)
        write, self._write = self._write, StepWrite()
        if write:
            try:
                await self.sink.write(self.game_id, write)
            except Exception:
                self._break()
                return
        self._deliver()
        applied, self._applied = self._applied, []
        if self.config.on_action is not None:
            now = time.perf_counter()
            for source, received in applied:
                self.config.on_action(source, None if received is None else now - received)
        if self.finished and not self._finish_told and self._window is None:
            self._finish_told = True
            external.close(st.bot for st in self.seats)
            if self.on_finished is not None:
                self.on_finished(self)

    def _parks(self, w: Window, msg: Message) -> bool:
        """Whether ``msg`` waits for the held window to close (window.py)."""
        if not isinstance(msg, _CLIENT_MESSAGES):
            return False
        if isinstance(msg, ClientAction):
            return not (w.open and msg.conn.seat in w.deciders)
        return True

    def _break(self) -> None:
        """A step could not be committed: nothing of it may be shown. The table stops;
        the game stays live in the record, and is rebuilt from it."""
        log.error("table %s: a step was not committed; the table stops", self.game_id)
        self.broken = True
        self._out = []
        self._window = None
        self._cancel_all()
        for conn in self._conns():
            conn.close(1011)
        if self.on_broken is not None:
            self.on_broken(self)

    def _deliver(self) -> None:
        out, self._out = self._out, []
        w = self._window
        if w is not None:
            if w.opened_now:
                w.handle = self.clock.call_later(
                    self.config.call_window, lambda: self.post(_Release(w.token))
                )
            out = w.route(out)
        for item in out:
            item.deliver()

    # -- the actor ------------------------------------------------------------

    def _handle(self, msg: Message) -> None:
        if isinstance(msg, ClientAction):
            self._on_action(msg)
        elif isinstance(msg, Connect):
            self._on_connect(msg)
        elif isinstance(msg, Disconnect):
            self._on_disconnect(msg.conn)
        elif isinstance(msg, Resync):
            self._send(msg.conn, self._view_frame(msg.conn.seat), Kind.VIEW)
        elif isinstance(msg, Continue):
            self._on_continue(msg.conn)
        elif isinstance(msg, _Timeout):
            self._on_timeout(msg)
        elif isinstance(msg, _BotTurn):
            self._on_bot_turn(msg)
        elif isinstance(msg, _BotAnswer):
            self._on_bot_answer(msg)
        elif isinstance(msg, _Grace):
            self._on_grace(msg)
        elif isinstance(msg, _NextRound) and msg.token == self._next_round_token:
            self._start_next_round()
        elif isinstance(msg, _Release):
            self._on_release(msg)
        elif isinstance(msg, _Begin):
            if msg.events is None:
                self._after_step()
            else:
                self._step(msg.events, [])

    def _new_token(self) -> int:
        self._token += 1
        return self._token

    def _later(self, delay: float, msg: Message) -> Handle:
        return self.clock.call_later(delay, lambda: self.post(msg))

    def _send(self, conn: Conn, frame: str, kind: Kind = Kind.OTHER) -> None:
        self._out.append(Out(conn, frame, kind))

    def _close(self, conn: Conn, code: int) -> None:
        self._out.append(Out(conn, None, Kind.OTHER, code))

    # connections

    def _on_connect(self, msg: Connect) -> None:
        conn = msg.conn
        seat = conn.seat
        if seat is not None:
            st = self.seats[seat]
            old = st.conn
            if old is not None and old is not conn:
                self._close(old, 4409)
            st.conn = conn
            st.grace_token += 1
            if st.grace_handle is not None:
                st.grace_handle.cancel()
                st.grace_handle = None
            if st.auto:
                st.auto = False
                self._restart_decision(seat)
        last = msg.last_version
        first_buffered = self.buffer[0][0] if self.buffer else self.version + 1
        replay = last is not None and first_buffered - 1 <= last <= self.version
        if last is not None and last > self.version:
            # Only a record that lost committed steps (a restored backup) gets here:
            # what this client saw after our version is not part of the game any more.
            self._send(
                conn,
                dumps(
                    {
                        "type": "timeline_lost",
                        "game_id": self.game_id,
                        "last_version": last,
                        "version": self.version,
                    }
                ),
            )
        self._send(
            conn,
            dumps(
                {
                    "type": "welcome",
                    "game_id": self.game_id,
                    "seat": seat,
                    "version": self.version,
                    "mode": "replay" if replay else "resync",
                    "players": self._players(),
                }
            ),
        )
        if replay:
            assert last is not None
            for version, mask, full, masked in self.buffer:
                if version > last:
                    visible = mask == PUBLIC or (seat is not None and mask >> seat & 1)
                    self._send(conn, full if visible else masked)
        self._send(conn, self._view_frame(seat))
        if self.finished:
            self._send(conn, self._game_over_frame())
        if seat is None:
            self.spectators.add(conn)
        self._broadcast_players(exclude=conn)

    def _on_disconnect(self, conn: Conn) -> None:
        seat = conn.seat
        if seat is None:
            self.spectators.discard(conn)
            return
        st = self.seats[seat]
        if st.conn is not conn:
            return  # already replaced by a newer connection
        st.conn = None
        if not self.finished and st.spec.bot is None:
            st.grace_token += 1
            st.grace_handle = self._later(
                self.config.disconnect_grace, _Grace(seat, st.grace_token)
            )
        self._broadcast_players()
        # A disconnected human does not hold up the round-end pause.
        if self._round_end_pending and self._all_continued():
            self._start_next_round()

    def _on_grace(self, msg: _Grace) -> None:
        st = self.seats[msg.seat]
        if msg.token != st.grace_token or st.conn is not None or self.finished:
            return
        st.grace_handle = None
        st.auto = True
        self._broadcast_players()
        self._restart_decision(msg.seat)

    # actions

    def _on_action(self, msg: ClientAction) -> None:
        conn = msg.conn
        seat = conn.seat
        if seat is None:
            self._send(conn, error_frame("not_seated", "spectators cannot act", msg.ref))
            return
        if self.finished:
            self._send(conn, error_frame("game_over", "the game has ended", msg.ref))
            return
        if self.seats[seat].conn is not conn:
            self._send(conn, error_frame("auth_failed", "this connection was replaced", msg.ref))
            return
        if msg.version is not None and msg.version != self.version:
            self._send(
                conn,
                error_frame(
                    "stale",
                    f"the table is at version {self.version}, not {msg.version}",
                    msg.ref,
                ),
            )
            return
        try:
            action = parse_action(msg.action, seat=seat, seats=self.variant.seats)
        except ValueError as exc:
            self._send(conn, error_frame("bad_message", str(exc), msg.ref))
            return
        try:
            self._apply(action, "player", msg.received)
        except IllegalAction as exc:
            self._send(conn, error_frame("illegal_action", str(exc), msg.ref))

    def _apply(self, action: Action, source: str, received: float | None = None) -> None:
        events = self.variant.apply(self.state, action)  # raises before changing anything
        self.actions_applied += 1
        self._applied.append((source, received))
        self._end_decision(action.seat, charge=source == "player")
        row = RecordRow(
            version=self.version,
            kind="action",
            type=action.type.value,
            data={**action_json(action), "source": source},
            seats=[action.seat],
        )
        self._step(events, [row])

    def _on_timeout(self, msg: _Timeout) -> None:
        d = self.decisions.get(msg.seat)
        if d is None or d.token != msg.token or self.seats[msg.seat].bot_controlled:
            return
        self.seats[msg.seat].bank = 0.0
        self._apply(self._timeout_action(msg.seat), "timeout")

    def _timeout_action(self, seat: int) -> Action:
        legal = self.variant.legal(self.state, seat)
        return default_action(legal, self.variant.drawn(self.state, seat))

    def _on_bot_turn(self, msg: _BotTurn) -> None:
        d = self.decisions.get(msg.seat)
        st = self.seats[msg.seat]
        if d is None or d.token != msg.token or not st.bot_controlled:
            return
        level = st.spec.bot or self.config.takeover_bot or TAKEOVER[self.variant.key]
        legal = self.variant.legal(self.state, msg.seat)
        try:
            if st.bot is None:
                st.bot = self.bot_factory(level, self.bot_seed * 4 + msg.seat, self.variant.key)
                if external.is_external(st.bot):
                    external.catch_up(st.bot, self.variant, self.state, msg.seat)
            obs = self.variant.observe(self.state, msg.seat)
            if external.is_external(st.bot):
                # answered later, as a _BotAnswer: the table goes on meanwhile
                external.ask(self, msg.seat, msg.token, st.bot, obs)
                return
            action = st.bot.choose(obs)
        except Exception:
            # A broken bot must not stall the table: the seat plays the default.
            log.exception("table %s: bot %s failed", self.game_id, level)
            action = default_action(legal)
        if action not in legal:
            log.error("table %s: bot %s chose illegal %r", self.game_id, level, action)
            action = default_action(legal)
        self._apply(action, "bot")

    def _on_bot_answer(self, msg: _BotAnswer) -> None:
        d = self.decisions.get(msg.seat)
        if d is None or d.token != msg.token or not self.seats[msg.seat].bot_controlled:
            return  # that decision is over
        legal = self.variant.legal(self.state, msg.seat)
        action = msg.action
        if action is None or action not in legal:
            action = default_action(legal)
        self._apply(action, "bot")

    # decisions and timers

    def _end_decision(self, seat: int, *, charge: bool) -> None:
        d = self.decisions.pop(seat, None)
        if d is None:
            return
        if d.handle is not None:
            d.handle.cancel()
        if charge and self.timed:
            over = self.clock.now() - d.started - self.think
            if over > 0:
                st = self.seats[seat]
                st.bank = max(0.0, st.bank - over)

    def _restart_decision(self, seat: int) -> None:
        if seat in self.decisions:
            self._end_decision(seat, charge=False)
            self._sync_decisions()

    def _sync_decisions(self) -> None:
        waiting = self.variant.waiting_on(self.state)
        w = self._window
        if w is not None:
            # While a call window is held only its deciders decide: nobody else has
            # been shown the state yet.
            waiting = waiting & w.deciders if w.open else frozenset()
        for seat in list(self.decisions):
            if seat not in waiting:
                self._end_decision(seat, charge=False)
        for seat in sorted(waiting):
            if seat in self.decisions:
                continue
            token = self._new_token()
            d = _Decision(token, self.clock.now())
            st = self.seats[seat]
            if st.bot_controlled:
                d.handle = self._later(self.config.bot_delay, _BotTurn(seat, token))
            elif self.timed:
                d.handle = self._later(self.think + st.bank, _Timeout(seat, token))
            self.decisions[seat] = d

    # the call window

    def _open_window(self, open_: bool) -> None:
        """A call window opens with the events sent so far (window.py)."""
        deciders = self.variant.waiting_on(self.state) if open_ else frozenset()
        self._window = Window(self._new_token(), deciders, open_, mark=len(self._out))

    def _on_release(self, msg: _Release) -> None:
        w = self._window
        if w is None or w.token != msg.token:
            return
        self._window = None
        events, conns, ends = w.release()
        self._out.extend(events)
        self._arm()
        self._send_views(conns)
        self._out.extend(ends)
        self._unparked.extend(w.parked)

    # rounds

    def _after_step(self) -> None:
        phase = self.variant.phase(self.state)
        if phase == "play":
            self._sync_decisions()
        elif phase == "round_end" and not self._round_end_pending:
            self._sync_decisions()
            self._save_hands()
            self._round_end_pending = True
            for st in self.seats:
                st.continued = False
            if self._window is None:
                self._arm()
        elif phase == "game_end" and not self.finished:
            self._finish()

    def _arm(self) -> None:
        """Start what waits on the players having seen the state: its decisions and
        timers, and the pause after a round (held back while a call window is)."""
        if self.variant.phase(self.state) == "play":
            self._sync_decisions()
        if self._round_end_pending and self._next_round_handle is None:
            self._next_round_token += 1
            self._next_round_handle = self._later(
                self.config.round_end_pause, _NextRound(self._next_round_token)
            )
            # Only bots (or nobody) at the table: no one needs the pause. Queued,
            # not called, so that this step's views go out before the next round's.
            if self._all_continued():
                self.post(_NextRound(self._next_round_token))

    def _all_continued(self) -> bool:
        return all(st.continued for st in self.seats if st.conn is not None)

    def _on_continue(self, conn: Conn) -> None:
        seat = conn.seat
        if seat is None or self.seats[seat].conn is not conn or not self._round_end_pending:
            return
        self.seats[seat].continued = True
        if self._all_continued():
            self._start_next_round()

    def _start_next_round(self) -> None:
        if not self._round_end_pending or self._window is not None:
            return
        self._round_end_pending = False
        self._next_round_token += 1
        if self._next_round_handle is not None:
            self._next_round_handle.cancel()
            self._next_round_handle = None
        for st in self.seats:
            st.bank = self.bank_seconds  # the bank is per round
        events = self.variant.next_round(self.state)
        self._step(events, [])

    def _save_hands(self) -> None:
        results = self.variant.rounds(self.state)
        while self._hands_saved < len(results):
            r = results[self._hands_saved]
            result = self.codec.event_json(r.event)
            del result["type"]
            self._write.hands.append(
                HandRow(
                    number=self._hands_saved,
                    round_wind=int(r.round_wind),
                    kyoku=int(r.kyoku),
                    honba=int(r.honba),
                    kind=str(r.kind),
                    result=result,
                    deltas=[int(x) for x in r.deltas],
                    scores=[int(x) for x in r.scores],
                )
            )
            self._hands_saved += 1

    def _finish(self) -> None:
        self.finished = True
        self._save_hands()
        self._cancel_all()
        results = [
            SeatResult(f.seat, f.points, f.rank, f.score)
            for f in self.variant.final(self.state) or ()
        ]
        # In the same transaction as the final events: committed before game_over is sent.
        self._write.finish = (results, "finished")

    def _game_over_frame(self) -> str:
        return dumps(
            {
                "type": "game_over",
                "game_id": self.game_id,
                "results": [
                    {
                        "seat": f.seat,
                        "points": f.points,
                        "rank": f.rank,
                        "score": f.score,
                        "name": self.seats[f.seat].spec.name,
                    }
                    for f in self.variant.final(self.state) or ()
                ],
            }
        )

    def _cancel_all(self) -> None:
        for seat in list(self.decisions):
            self._end_decision(seat, charge=False)
        for st in self.seats:
            if st.grace_handle is not None:
                st.grace_handle.cancel()
                st.grace_handle = None
        if self._next_round_handle is not None:
            self._next_round_handle.cancel()
            self._next_round_handle = None

    # output

    def _conns(self) -> list[Conn]:
        out: list[Conn] = [st.conn for st in self.seats if st.conn is not None]
        if self.spectators.members:
            out.append(self.spectators)
        return out

    def _step(self, events: list[Event], rows: list[RecordRow]) -> None:
        """Record and send ``events``, move timers and rounds on, then send fresh views.

        Views go out after every step, even one without events (a pass while others
        still decide changes who is waited on), so every accepted action is answered.
        """
        was_finished = self.finished
        external.tell((st.bot for st in self.seats), events)
        self._publish(events, rows)
        # Before the views, so that they carry the new decisions' timers.
        self._after_step()
        conns = self._conns()
        self._send_views(conns)
        if self.finished and not was_finished:
            frame = self._game_over_frame()
            for conn in conns:
                self._send(conn, frame, Kind.END)

    def _publish(self, events: list[Event], rows: list[RecordRow]) -> None:
        write = self._write.rows
        write.extend(rows)
        conns = self._conns()
        split = window_split(events) if self.windowed and self._window is None else None
        if split is None and events and self._window is not None:
            self._window.open = False  # the window's outcome is known
        encode = self.codec.event_json
        for i, ev in enumerate(events):
            self.version += 1
            data = encode(ev)
            seats = ev.seats
            write.append(
                RecordRow(
                    version=self.version,
                    kind="event",
                    type=ev.type,
                    data=data,
                    seats=sorted(seats) if seats is not None else None,
                )
            )
            full = dumps({"type": "event", "version": self.version, "event": data})
            if seats is None:
                self.buffer.append((self.version, PUBLIC, full, full))
                for conn in conns:
                    self._send(conn, full, Kind.EVENT)
            else:
                # every seat that may not see the event whole sees the same masked event
                part = self.variant.mask(ev, None)
                masked = dumps(
                    {"type": "event", "version": self.version, "event": encode(part)}
                    if part is not None
                    else {"type": "event", "version": self.version}
                )
                self.buffer.append((self.version, sum(1 << s for s in seats), full, masked))
                for conn in conns:
                    seen = conn.seat is not None and conn.seat in seats
                    self._send(conn, full if seen else masked, Kind.EVENT)
            if split is not None and i + 1 == split:
                self._open_window(open_=split == len(events))

    def _timer_json(self, seat: int | None) -> dict[str, Any] | None:
        if seat is None or not self.timed:
            return None
        d = self.decisions.get(seat)
        st = self.seats[seat]
        if d is None or st.bot_controlled:
            return None
        elapsed = self.clock.now() - d.started
        think_left = max(0.0, self.think - elapsed)
        bank_left = st.bank - max(0.0, elapsed - self.think)
        return {
            "seat": seat,
            "think_ms": int(think_left * 1000),
            "bank_ms": int(max(0.0, bank_left) * 1000),
        }

    def _view_frame(self, seat: int | None) -> str:
        return dumps(
            {
                "type": "view",
                "version": self.version,
                "view": self.codec.views(self.state, [seat])[0],
                "timer": self._timer_json(seat),
            }
        )

    def _send_views(self, conns: list[Conn]) -> None:
        """One view frame per connection; the public parts are built once per step."""
        seats = sorted({conn.seat for conn in conns}, key=lambda s: -1 if s is None else s)
        if not seats:
            return
        frames = {
            seat: dumps(
                {
                    "type": "view",
                    "version": self.version,
                    "view": v,
                    "timer": self._timer_json(seat),
                }
            )
            for seat, v in zip(seats, self.codec.views(self.state, seats), strict=True)
        }
        for conn in conns:
            self._send(conn, frames[conn.seat], Kind.VIEW)

    def _players(self) -> list[dict[str, Any]]:
        return [
            {
                "seat": i,
                "name": st.spec.name,
                "player_id": st.spec.player_id,
                "bot": st.spec.bot,
                "connected": st.spec.bot is not None or st.conn is not None,
                "auto": st.auto,
            }
            for i, st in enumerate(self.seats)
        ]

    def _broadcast_players(self, exclude: Conn | None = None) -> None:
        frame = dumps({"type": "players", "players": self._players()})
        for conn in self._conns():
            if conn is not exclude:
                self._send(conn, frame)
