"""One live table: an asyncio actor that owns a game's engine state.

Every input (a seat's action, a connection coming or going, a timer firing, a
bot's turn) is a message in the table's queue, handled one at a time by
``run``. Nothing else touches the state, so nothing needs a lock; timers and
bot delays only post messages back into the queue, tagged with the decision
they belong to so that a late one is ignored.

The record is the source of truth. Handling a message collects the step's
record rows (``StepWrite``) and its frames; the actor hands the rows to the
sink and waits until they are committed before any frame goes out (through
its ``Fanout``), and before it handles the next message. A crash can therefore
only lose a step nobody was told of, the game's end is durable before
``game_over`` is sent, and a version number, once sent, means the same event
for ever.

This module is the actor's loop and its inbound commands; each other job has
its own module, holding its own part of the table's state:

* ``connections.py``: seats coming and going, the grace period, bot takeover;
* ``timers.py``: decisions, the think time and the time bank;
* ``seatbots.py``: bots' turns;
* ``rounds.py``: the round-end pause, round results, the game's end;
* ``stream.py``: the events and views each connection gets, the replay buffer;
* ``window.py``: the uniform call window;
* ``sink.py`` (persistence) and ``fanout.py`` (delivery) are ports, as is
  ``clock.py`` (time): tests run an actor with fakes of all three.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from server.engine import Action, AnyVariant, Event, IllegalAction
from server.tables import external
from server.tables.clock import Clock, Handle, LoopClock
from server.tables.connections import Connections
from server.tables.fanout import LOCAL, Fanout
from server.tables.frames import error_frame
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
from server.tables.rounds import Rounds
from server.tables.seatbots import on_bot_answer, on_bot_turn
from server.tables.sink import RecordRow, StepWrite, TableSink
from server.tables.spectators import Spectators
from server.tables.steps import merge
from server.tables.stream import Stream
from server.tables.timers import Timers
from server.tables.window import Window
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
        seed_commitment: str | None = None,
        on_finished: Callable[[Table], None] | None = None,
        on_broken: Callable[[Table], None] | None = None,
        clock: Clock | None = None,
        fanout: Fanout | None = None,
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
        # SHA-256 of the game's seed, told to every connection before anything else.
        self.seed_commitment = seed_commitment
        self.on_finished = on_finished
        self.on_broken = on_broken
        self.clock: Clock = clock or LoopClock()
        self.fanout: Fanout = fanout or LOCAL
        self.seats = [_SeatState(spec) for spec in seats]
        self.options = options
        # Where a human sits, a discard's call options are hidden by the call window.
        self.windowed = config.call_window > 0 and any(s.bot is None for s in seats)
        self.version = 0
        self.spectators = Spectators(self.clock, config.spectator_interval)
        self.inbox: asyncio.Queue[Message] = asyncio.Queue()
        self._token = 0
        self.finished = False
        self._finish_told = False
        self.broken = False
        self.task: asyncio.Task[None] | None = None
        self.actions_applied = 0
        # The step being handled: its record rows and its frames (sent once committed).
        self.write = StepWrite()
        self._out: list[Out] = []
        self.window: Window | None = None
        self._unparked: deque[Message] = deque()
        # Actions applied in the step being handled, for ``config.on_action`` once sent.
        self._applied: list[tuple[str, float | None]] = []
        # The jobs (each module's docstring says what it does).
        self.timers = Timers(self)
        self.timers.reset_banks()
        self.conns = Connections(self)
        self.rounds = Rounds(self)
        self.stream = Stream(self)

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
        self.rounds.hands_saved = hands_saved
        self._begin(_Begin(None))

    def _begin(self, first: _Begin) -> None:
        self.conns.start_grace()
        self.post(first)  # first in the queue: before any connection is handled
        self.task = asyncio.get_running_loop().create_task(self.run(), name=f"table-{self.game_id}")

    def post_stop(self) -> None:
        self.post(_Stop())

    async def stop(self) -> None:
        self.post(_Stop())
        if self.task is not None:
            await self.task

    def halt(self, code: int = 1012) -> None:
        """Stop now, even in the middle of a step: nothing more is committed or sent, the
        sockets are closed for a reconnect (the process lost the table, server/cluster)."""
        self.broken = True
        self._out = []
        self.window = None
        self.cancel_all()
        external.close(st.bot for st in self.seats)  # a remote bot's socket is free again
        for conn in self.conns.all():
            conn.close(code)
        if self.task is not None:
            self.task.cancel()

    # -- the loop: handle, commit, send -----------------------------------------

    async def run(self) -> None:
        while not self.broken:
            msg = await self.inbox.get()
            if isinstance(msg, _Stop):
                self.cancel_all()
                external.close(st.bot for st in self.seats)
                # Frames a call window still holds are committed: a client that comes
                # back to the next process gets them from the record.
                for conn in self.conns.all():
                    conn.close(1001)
                return
            await self._process(msg)
            while self._unparked and not self.broken:
                await self._process(self._unparked.popleft())

    async def _process(self, msg: Message) -> None:
        """Handle one message, commit what it changed, then send what it caused."""
        w = self.window
        if w is not None and self._parks(w, msg):
            w.parked.append(msg)
            return
        try:
            self._handle(msg)
        except Exception:  # the actor must outlive one bad step
            log.exception("table %s: error handling %r", self.game_id, msg)
        write, self.write = self.write, StepWrite()
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
        if self.finished and not self._finish_told and self.window is None:
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
        self.window = None
        self.cancel_all()
        external.close(st.bot for st in self.seats)  # the rebuilt table makes its own
        for conn in self.conns.all():
            conn.close(1011)
        if self.on_broken is not None:
            self.on_broken(self)

    def _deliver(self) -> None:
        out, self._out = self._out, []
        w = self.window
        if w is not None:
            if w.opened_now:
                w.handle = self.clock.call_later(
                    self.config.call_window, lambda: self.post(_Release(w.token))
                )
            out = w.route(out)
        if out:
            self.fanout.deliver(self.game_id, merge(out))

    def _handle(self, msg: Message) -> None:
        if isinstance(msg, ClientAction):
            self._on_action(msg)
        elif isinstance(msg, Connect):
            self.conns.on_connect(msg)
        elif isinstance(msg, Disconnect):
            self.conns.on_disconnect(msg.conn)
        elif isinstance(msg, Resync):
            self.stream.send_view(msg.conn, Kind.VIEW)
        elif isinstance(msg, Continue):
            self.rounds.on_continue(msg.conn)
        elif isinstance(msg, _Timeout):
            self.timers.on_timeout(msg)
        elif isinstance(msg, _BotTurn):
            on_bot_turn(self, msg)
        elif isinstance(msg, _BotAnswer):
            on_bot_answer(self, msg)
        elif isinstance(msg, _Grace):
            self.conns.on_grace(msg)
        elif isinstance(msg, _NextRound):
            self.rounds.on_next_round(msg)
        elif isinstance(msg, _Release):
            self._on_release(msg)
        elif isinstance(msg, _Begin):
            if msg.events is None:
                self.rounds.after_step()
            else:
                self.step(msg.events, [])

    # -- helpers for the jobs -------------------------------------------------

    def new_token(self) -> int:
        self._token += 1
        return self._token

    def later(self, delay: float, msg: Message) -> Handle:
        """Post ``msg`` to this table after ``delay`` seconds (of its clock)."""
        return self.clock.call_later(delay, lambda: self.post(msg))

    def send(
        self, conn: Conn, frame: str, kind: Kind = Kind.OTHER, part: tuple[int, str] | None = None
    ) -> None:
        """Queue a frame of the step being handled (sent once it is committed)."""
        self._out.append(Out(conn, frame, kind, part=part))

    def close(self, conn: Conn, code: int) -> None:
        self._out.append(Out(conn, None, Kind.OTHER, code))

    def cancel_all(self) -> None:
        self.timers.cancel()
        self.conns.cancel()
        self.rounds.cancel()

    # -- inbound actions --------------------------------------------------------

    def _on_action(self, msg: ClientAction) -> None:
        conn = msg.conn
        seat = conn.seat
        if seat is None:
            self.send(conn, error_frame("not_seated", "spectators cannot act", msg.ref))
            return
        if self.finished:
            self.send(conn, error_frame("game_over", "the game has ended", msg.ref))
            return
        if self.seats[seat].conn is not conn:
            self.send(conn, error_frame("auth_failed", "this connection was replaced", msg.ref))
            return
        if msg.version is not None and msg.version != self.version:
            self.send(
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
            self.send(conn, error_frame("bad_message", str(exc), msg.ref))
            return
        try:
            self.apply(action, "player", msg.received)
        except IllegalAction as exc:
            self.send(conn, error_frame("illegal_action", str(exc), msg.ref))

    def apply(self, action: Action, source: str, received: float | None = None) -> None:
        """Apply a seat's action (raises ``IllegalAction`` before changing anything)."""
        events = self.variant.apply(self.state, action)
        self.actions_applied += 1
        self._applied.append((source, received))
        self.timers.end(action.seat, charge=source == "player")
        row = RecordRow(
            version=self.version,
            kind="action",
            type=action.type.value,
            data={**action_json(action), "source": source},
            seats=[action.seat],
        )
        self.step(events, [row])

    # -- steps ------------------------------------------------------------------

    def step(self, events: list[Event], rows: list[RecordRow]) -> None:
        """Record and send ``events``, move timers and rounds on, then send fresh views.

        Views go out after every step, even one without events (a pass while others
        still decide changes who is waited on), so every accepted action is answered.
        """
        was_finished = self.finished
        external.tell((st.bot for st in self.seats), events)
        self.stream.publish(events, rows)
        # Before the views, so that they carry the new decisions' timers.
        self.rounds.after_step()
        conns = self.conns.all()
        self.stream.send_views(conns)
        if self.finished and not was_finished:
            frame = self.rounds.game_over_frame()
            for conn in conns:
                self.send(conn, frame, Kind.END)

    # -- the call window (window.py) --------------------------------------------

    def open_window(self, open_: bool) -> None:
        """A call window opens with the events sent so far."""
        deciders = self.variant.waiting_on(self.state) if open_ else frozenset()
        self.window = Window(self.new_token(), deciders, open_, mark=len(self._out))

    def _on_release(self, msg: _Release) -> None:
        w = self.window
        if w is None or w.token != msg.token:
            return
        self.window = None
        events, conns, ends = w.release()
        self._out.extend(events)
        self.rounds.arm()
        # The views (or decision frames) it held are out of date: fresh ones, and to
        # every seat now being waited on, so that none is left without its decision.
        waiting = self.variant.waiting_on(self.state)
        held = {id(c) for c in conns}
        conns += [c for c in self.conns.all() if c.seat in waiting and id(c) not in held]
        self.stream.send_views(conns, force=True)
        self._out.extend(ends)
        self._unparked.extend(w.parked)
