"""A table actor on its own: fake connections, a fake clock and a sink whose commits the
test completes by hand (no server, no sockets, no sleeps)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable
from typing import Any

from server.engine import Action, AnyVariant
from server.engine.riichi.variant import RIICHI
from server.tables.clock import FakeClock
from server.tables.options import TableOptions
from server.tables.sink import SinkError, StepWrite
from server.tables.steps import expand
from server.tables.table import SeatSpec, Table, TableConfig, default_action


class FakeConn:
    """Records every frame (with the fake clock's time) and the close code."""

    def __init__(
        self, clock: FakeClock, seat: int | None, name: str = "", protocol: int = 1
    ) -> None:
        self.clock = clock
        self.seat = seat
        self.protocol = protocol
        self.name = name
        self.frames: list[tuple[float, dict[str, Any]]] = []
        # every frame as sent (``frames`` has step frames expanded, steps.py)
        self.sent: list[dict[str, Any]] = []
        self.closed: int | None = None

    def send(self, text: str) -> None:
        msg = json.loads(text)
        for m in msg["messages"] if msg["type"] == "batch" else [msg]:
            self.sent.append(m)
            for f in expand(m, self.seat):
                self.frames.append((self.clock.now(), f))

    def close(self, code: int) -> None:
        self.closed = code

    def types(self) -> list[str]:
        return [f["type"] for _, f in self.frames]

    def last_view(self) -> dict[str, Any]:
        return next(f["view"] for _, f in reversed(self.frames) if f["type"] == "view")


class HeldSink:
    """Commits only when the test says so (``commit``), or at once when ``auto``."""

    def __init__(self, auto: bool = False) -> None:
        self.auto = auto
        self.pending: list[tuple[StepWrite, asyncio.Future[None]]] = []
        self.committed: list[StepWrite] = []

    def write(self, game_id: int, step: StepWrite) -> Awaitable[None]:
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if self.auto:
            self.committed.append(step)
            fut.set_result(None)
        else:
            self.pending.append((step, fut))
        return fut

    def commit(self) -> None:
        for step, fut in self.pending:
            self.committed.append(step)
            fut.set_result(None)
        self.pending = []

    def fail(self) -> None:
        for _, fut in self.pending:
            fut.set_exception(SinkError("disk full"))
        self.pending = []


class PassBot:
    """Passes on every call, else plays the timeout default (discard the drawn tile)."""

    def choose(self, obs: Any) -> Action:
        return default_action(list(obs.legal), obs.drawn)


UNTIMED = TableOptions(think_seconds=0, bank_seconds=0)


def make_table(
    state: Any,
    seats: list[SeatSpec],
    *,
    clock: FakeClock,
    sink: Any,
    options: TableOptions = UNTIMED,
    variant: AnyVariant = RIICHI,
    fanout: Any = None,
    **config: Any,
) -> Table:
    settings: dict[str, Any] = {"bot_delay": 0.5, "disconnect_grace": 1000.0}
    settings.update(config)
    return Table(
        1,
        variant,
        state,
        seats,
        options=options,
        config=TableConfig(**settings),
        sink=sink,
        bot_factory=lambda level, seed, variant: PassBot(),
        clock=clock,
        fanout=fanout,
    )


async def settle() -> None:
    """Let the actor handle everything queued (it never waits on anything but the sink)."""
    for _ in range(20):
        await asyncio.sleep(0)


async def advance(clock: FakeClock, seconds: float, step: float = 0.05) -> None:
    """Move the fake clock on in small steps, letting the actor run after each."""
    end = clock.ms + round(seconds * 1000)
    while clock.ms < end:
        clock.advance(min(step, (end - clock.ms) / 1000))
        await settle()
