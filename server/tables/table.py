"""One live table: an asyncio actor that owns a game's engine state.

Every input (a seat's action, a connection coming or going, a timer firing, a
bot's turn) is a message in the table's queue, handled one at a time by
``run``. Nothing else touches the state, so nothing needs a lock; timers and
bot delays only post messages back into the queue, tagged with the decision
they belong to so that a late one is ignored.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import orjson

from server.bots import TAKEOVER
from server.engine import Action, ActionType, AnyVariant, Event, IllegalAction
from server.tables.options import TableOptions
from server.tables.sink import HandRow, RecordRow, SeatResult, TableSink
from server.wire.actions import action_json, parse_action
from server.wire.codec import codec_for

log = logging.getLogger(__name__)


class Conn(Protocol):
    """A client connection as the table sees it (the gateway implements it)."""

    seat: int | None

    def send(self, text: str) -> None:
        """Queue one frame; must not block."""

    def close(self, code: int) -> None:
        """Close the connection (asynchronously)."""


class Bot(Protocol):
    def choose(self, obs: Any) -> Action: ...  # the seat's observation


# (level, seed, variant key) -> a bot of that level for that game
BotFactory = Callable[[str, int, str], Bot]


@dataclass(frozen=True, slots=True)
class SeatSpec:
    name: str
    player_id: int | None = None
    bot: str | None = None  # bot level for a bot seat


@dataclass(frozen=True, slots=True)
class TableConfig:
    disconnect_grace: float = 10.0
    round_end_pause: float = 6.0
    bot_delay: float = 0.5
    takeover_bot: str | None = None  # None: the game's own (bots.TAKEOVER)
    replay_buffer: int = 500
    # Told of every action applied: its source ("player", "bot", "timeout") and, for a
    # player's, the seconds from the gateway receiving it to the step's frames being
    # queued (the app's metrics, server/api/metrics.py).
    on_action: Callable[[str, float | None], None] | None = None


# Inbox messages -------------------------------------------------------------


@dataclass(slots=True)
class Connect:
    conn: Conn
    last_version: int | None


@dataclass(slots=True)
class Disconnect:
    conn: Conn


@dataclass(slots=True)
class ClientAction:
    conn: Conn
    action: dict[str, Any]
    version: int | None = None
    ref: Any = None
    received: float = field(default_factory=time.perf_counter)


@dataclass(slots=True)
class Resync:
    conn: Conn


@dataclass(slots=True)
class Continue:
    conn: Conn


@dataclass(slots=True)
class _Timeout:
    seat: int
    token: int


@dataclass(slots=True)
class _BotTurn:
    seat: int
    token: int


@dataclass(slots=True)
class _Grace:
    seat: int
    token: int


@dataclass(slots=True)
class _NextRound:
    token: int


@dataclass(slots=True)
class _Stop:
    pass


Message = (
    Connect | Disconnect | ClientAction | Resync | Continue | _Timeout | _BotTurn | _Grace
) | (_NextRound | _Stop)


@dataclass(slots=True)
class _Decision:
    """A seat the state waits on: since when, and the handle of its timer or bot turn."""

    token: int
    started: float
    handle: asyncio.TimerHandle | None = None


@dataclass(slots=True)
class _SeatState:
    spec: SeatSpec
    conn: Conn | None = None
    auto: bool = False  # a bot plays for this (disconnected) human
    bank: float = 0.0
    grace_token: int = 0
    grace_handle: asyncio.TimerHandle | None = None
    continued: bool = False
    bot: Bot | None = None

    @property
    def bot_controlled(self) -> bool:
        return self.spec.bot is not None or self.auto


def error_frame(code: str, message: str, ref: Any = None) -> str:
    msg: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if ref is not None:
        msg["ref"] = ref
    return _dumps(msg)


def _dumps(obj: Any) -> str:
    # orjson: encoding views is a large part of a table's CPU time per action.
    return orjson.dumps(obj).decode()


_PUBLIC = -1  # seat mask of an event every seat and spectator may see


def default_action(legal: list[Action], drawn: int | None = None) -> Action:
    """The action played for a seat whose time ran out: pass, else discard the drawn tile."""
    for a in legal:
        if a.type is ActionType.PASS:
            return a
    discards = [a for a in legal if a.type is ActionType.DISCARD]
    for a in discards:
        if drawn is not None and a.tile == drawn:
            return a
    # After a call there is no drawn tile: the last listed discard.
    if discards:
        return discards[-1]
    return legal[0]


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
        self.seats = [_SeatState(spec) for spec in seats]
        self.options = options
        self.think = float(options.think_seconds)
        self.bank_seconds = float(options.bank_seconds)
        self.timed = options.timed
        for s in self.seats:
            s.bank = self.bank_seconds
        self.version = 0
        # Recent events for reconnects, kept as (version, seat mask, whole frame, masked
        # frame): strings and ints, which the garbage collector does not have to scan
        # (event objects of hundreds of tables made its full passes pause every table).
        self.buffer: deque[tuple[int, int, str, str]] = deque(maxlen=config.replay_buffer)
        self.spectators: set[Conn] = set()
        self.decisions: dict[int, _Decision] = {}
        self.inbox: asyncio.Queue[Message] = asyncio.Queue()
        self._token = 0
        self._next_round_token = 0
        self._next_round_handle: asyncio.TimerHandle | None = None
        self._hands_saved = 0
        self.finished = False
        self.task: asyncio.Task[None] | None = None
        self.actions_applied = 0
        # Whether a round_end phase has been handled (pause scheduled).
        self._round_end_pending = False

    # -- public (called from the event loop, outside the actor) ---------------

    def seat_of(self, player_id: int) -> int | None:
        for i, s in enumerate(self.seats):
            if s.spec.player_id == player_id:
                return i
        return None

    def post(self, msg: Message) -> None:
        self.inbox.put_nowait(msg)

    def start(self, start_events: list[Event]) -> None:
        """Publish the game's first events and begin processing the queue."""
        # A player who never opens the table is treated like one who left: after
        # the grace period a bot plays the seat until they come.
        for seat, st in enumerate(self.seats):
            if st.spec.bot is None and st.conn is None:
                st.grace_handle = self._later(
                    self.config.disconnect_grace, _Grace(seat, st.grace_token)
                )
        self._step(start_events, [])
        self.task = asyncio.get_running_loop().create_task(self.run(), name=f"table-{self.game_id}")

    def resume(self, version: int, hands_saved: int) -> None:
        """Go on with a game rebuilt from its record by a new server process.

        ``version`` is the number of events already recorded (versions go on from
        there), ``hands_saved`` the hand rows already written. Nothing is
        published: seats that come back get a full resync; seats that do not are
        played by a bot after the grace period, as after any disconnect.
        """
        self.version = version
        self._hands_saved = hands_saved
        for seat, st in enumerate(self.seats):
            if st.spec.bot is None and st.conn is None:
                st.grace_handle = self._later(
                    self.config.disconnect_grace, _Grace(seat, st.grace_token)
                )
        self._after_step()
        self.task = asyncio.get_running_loop().create_task(self.run(), name=f"table-{self.game_id}")

    def post_stop(self) -> None:
        self.post(_Stop())

    async def stop(self) -> None:
        self.post(_Stop())
        if self.task is not None:
            await self.task

    async def run(self) -> None:
        while True:
            msg = await self.inbox.get()
            if isinstance(msg, _Stop):
                self._cancel_all()
                for conn in self._conns():
                    conn.close(1001)
                return
            try:
                self._handle(msg)
            except Exception:  # the actor must outlive one bad step
                log.exception("table %s: error handling %r", self.game_id, msg)

    # -- the actor ------------------------------------------------------------

    def _handle(self, msg: Message) -> None:
        if isinstance(msg, ClientAction):
            self._on_action(msg)
        elif isinstance(msg, Connect):
            self._on_connect(msg)
        elif isinstance(msg, Disconnect):
            self._on_disconnect(msg.conn)
        elif isinstance(msg, Resync):
            self._send_view(msg.conn)
        elif isinstance(msg, Continue):
            self._on_continue(msg.conn)
        elif isinstance(msg, _Timeout):
            self._on_timeout(msg)
        elif isinstance(msg, _BotTurn):
            self._on_bot_turn(msg)
        elif isinstance(msg, _Grace):
            self._on_grace(msg)
        elif isinstance(msg, _NextRound) and msg.token == self._next_round_token:
            self._start_next_round()

    def _new_token(self) -> int:
        self._token += 1
        return self._token

    def _later(self, delay: float, msg: Message) -> asyncio.TimerHandle:
        return asyncio.get_running_loop().call_later(delay, self.post, msg)

    # connections

    def _on_connect(self, msg: Connect) -> None:
        conn = msg.conn
        seat = conn.seat
        if seat is None:
            self.spectators.add(conn)
        else:
            st = self.seats[seat]
            old = st.conn
            if old is not None and old is not conn:
                old.close(4409)
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
        conn.send(
            _dumps(
                {
                    "type": "welcome",
                    "game_id": self.game_id,
                    "seat": seat,
                    "version": self.version,
                    "mode": "replay" if replay else "resync",
                    "players": self._players(),
                }
            )
        )
        if replay:
            assert last is not None
            for version, mask, full, masked in self.buffer:
                if version > last:
                    visible = mask == _PUBLIC or (seat is not None and mask >> seat & 1)
                    conn.send(full if visible else masked)
        self._send_view(conn)
        if self.finished:
            conn.send(self._game_over_frame())
        self._broadcast_players(exclude=conn)

    def _on_disconnect(self, conn: Conn) -> None:
        self.spectators.discard(conn)
        seat = conn.seat
        if seat is None:
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
            conn.send(error_frame("not_seated", "spectators cannot act", msg.ref))
            return
        if self.finished:
            conn.send(error_frame("game_over", "the game has ended", msg.ref))
            return
        if self.seats[seat].conn is not conn:
            conn.send(error_frame("auth_failed", "this connection was replaced", msg.ref))
            return
        if msg.version is not None and msg.version != self.version:
            conn.send(
                error_frame(
                    "stale",
                    f"the table is at version {self.version}, not {msg.version}",
                    msg.ref,
                )
            )
            return
        try:
            action = parse_action(msg.action, seat=seat, seats=self.variant.seats)
        except ValueError as exc:
            conn.send(error_frame("bad_message", str(exc), msg.ref))
            return
        try:
            self._apply(action, "player", msg.received)
        except IllegalAction as exc:
            conn.send(error_frame("illegal_action", str(exc), msg.ref))

    def _apply(self, action: Action, source: str, received: float | None = None) -> None:
        events = self.variant.apply(self.state, action)  # raises before changing anything
        self.actions_applied += 1
        self._end_decision(action.seat, charge=source == "player")
        row = RecordRow(
            version=self.version,
            kind="action",
            type=action.type.value,
            data={**action_json(action), "source": source},
            seats=[action.seat],
        )
        self._step(events, [row])
        if self.config.on_action is not None:
            self.config.on_action(
                source, None if received is None else time.perf_counter() - received
            )

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
            action = st.bot.choose(self.variant.observe(self.state, msg.seat))
        except Exception:
            # A broken bot must not stall the table: the seat plays the default.
            log.exception("table %s: bot %s failed", self.game_id, level)
            action = default_action(legal)
        if action not in legal:
            log.error("table %s: bot %s chose illegal %r", self.game_id, level, action)
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
            over = time.monotonic() - d.started - self.think
            if over > 0:
                st = self.seats[seat]
                st.bank = max(0.0, st.bank - over)

    def _restart_decision(self, seat: int) -> None:
        if seat in self.decisions:
            self._end_decision(seat, charge=False)
            self._sync_decisions()

    def _sync_decisions(self) -> None:
        waiting = self.variant.waiting_on(self.state)
        for seat in list(self.decisions):
            if seat not in waiting:
                self._end_decision(seat, charge=False)
        for seat in sorted(waiting):
            if seat in self.decisions:
                continue
            token = self._new_token()
            d = _Decision(token, time.monotonic())
            st = self.seats[seat]
            if st.bot_controlled:
                d.handle = self._later(self.config.bot_delay, _BotTurn(seat, token))
            elif self.timed:
                d.handle = self._later(self.think + st.bank, _Timeout(seat, token))
            self.decisions[seat] = d

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
            self._next_round_token += 1
            self._next_round_handle = self._later(
                self.config.round_end_pause, _NextRound(self._next_round_token)
            )
            # Only bots (or nobody) at the table: no one needs the pause. Queued,
            # not called, so that this step's views go out before the next round's.
            if self._all_continued():
                self.post(_NextRound(self._next_round_token))
        elif phase == "game_end" and not self.finished:
            self._finish()

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
        if not self._round_end_pending:
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
            ev = self.codec.event_json(r.event)
            del ev["type"]
            self.sink.hand(
                self.game_id,
                HandRow(
                    number=self._hands_saved,
                    round_wind=int(r.round_wind),
                    kyoku=int(r.kyoku),
                    honba=int(r.honba),
                    kind=str(r.kind),
                    result=ev,
                    deltas=[int(x) for x in r.deltas],
                    scores=[int(x) for x in r.scores],
                ),
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
        self.sink.finish(self.game_id, results, "finished")
        if self.on_finished is not None:
            self.on_finished(self)

    def _game_over_frame(self) -> str:
        return _dumps(
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
        out = [st.conn for st in self.seats if st.conn is not None]
        out.extend(self.spectators)
        return out

    def _step(self, events: list[Event], rows: list[RecordRow]) -> None:
        """Send and record ``events``, move timers and rounds on, then send fresh views.

        Views go out after every step, even one without events (a pass while others
        still decide changes who is waited on), so every accepted action is answered.
        """
        was_finished = self.finished
        self._publish(events, rows)
        # Before the views, so that they carry the new decisions' timers.
        self._after_step()
        conns = self._conns()
        self._send_views(conns)
        if self.finished and not was_finished:
            frame = self._game_over_frame()
            for conn in conns:
                conn.send(frame)

    def _publish(self, events: list[Event], rows: list[RecordRow]) -> None:
        rows = list(rows)
        conns = self._conns()
        encode = self.codec.event_json
        for ev in events:
            self.version += 1
            data = encode(ev)
            seats = ev.seats
            rows.append(
                RecordRow(
                    version=self.version,
                    kind="event",
                    type=ev.type,
                    data=data,
                    seats=sorted(seats) if seats is not None else None,
                )
            )
            full = _dumps({"type": "event", "version": self.version, "event": data})
            if seats is None:
                self.buffer.append((self.version, _PUBLIC, full, full))
                for conn in conns:
                    conn.send(full)
                continue
            # every seat that may not see the event whole sees the same masked event
            part = self.variant.mask(ev, None)
            masked = _dumps(
                {"type": "event", "version": self.version, "event": encode(part)}
                if part is not None
                else {"type": "event", "version": self.version}
            )
            self.buffer.append((self.version, sum(1 << s for s in seats), full, masked))
            for conn in conns:
                conn.send(full if conn.seat is not None and conn.seat in seats else masked)
        if rows:
            self.sink.record(self.game_id, rows)

    def _timer_json(self, seat: int | None) -> dict[str, Any] | None:
        if seat is None or not self.timed:
            return None
        d = self.decisions.get(seat)
        st = self.seats[seat]
        if d is None or st.bot_controlled:
            return None
        elapsed = time.monotonic() - d.started
        think_left = max(0.0, self.think - elapsed)
        bank_left = st.bank - max(0.0, elapsed - self.think)
        return {
            "seat": seat,
            "think_ms": int(think_left * 1000),
            "bank_ms": int(max(0.0, bank_left) * 1000),
        }

    def _view_frame(self, seat: int | None) -> str:
        return _dumps(
            {
                "type": "view",
                "version": self.version,
                "view": self.codec.views(self.state, [seat])[0],
                "timer": self._timer_json(seat),
            }
        )

    def _send_view(self, conn: Conn) -> None:
        conn.send(self._view_frame(conn.seat))

    def _send_views(self, conns: list[Conn]) -> None:
        """One view frame per connection; the public parts are built once per step."""
        seats = sorted({conn.seat for conn in conns}, key=lambda s: -1 if s is None else s)
        if not seats:
            return
        frames = {
            seat: _dumps(
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
            conn.send(frames[conn.seat])

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
        frame = _dumps({"type": "players", "players": self._players()})
        for conn in self._conns():
            if conn is not exclude:
                conn.send(frame)
