"""What a table hands to persistence: one write per step, committed before anyone hears of it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True, slots=True)
class RecordRow:
    """One row of the game record: an engine event, or the action that caused events."""

    version: int
    kind: str  # "event" | "action"
    type: str
    data: dict[str, Any]
    seats: list[int] | None  # None = public


@dataclass(frozen=True, slots=True)
class HandRow:
    """The result of one round."""

    number: int
    round_wind: int
    kyoku: int
    honba: int
    kind: str  # "agari" | "ryuukyoku"
    result: dict[str, Any]
    deltas: list[int]
    scores: list[int]


@dataclass(frozen=True, slots=True)
class SeatResult:
    seat: int
    points: int
    rank: int
    score: float


@dataclass(slots=True)
class StepWrite:
    """Everything one step of a table changes in the record, written in one transaction:
    its record rows, the round results it completed and, at the game's end, the standings."""

    rows: list[RecordRow] = field(default_factory=list)
    hands: list[HandRow] = field(default_factory=list)
    finish: tuple[list[SeatResult], str] | None = None

    def __bool__(self) -> bool:
        return bool(self.rows or self.hands or self.finish)


class SinkError(Exception):
    """A step could not be committed: nothing of it may be shown to anyone."""


class TableSink(Protocol):
    """Persistence for one server process.

    ``write`` queues a step and returns at once; the awaitable completes when the
    step is committed (and raises ``SinkError`` when it cannot be). A table sends
    no frame reflecting a step before that: the record, not a client's screen, is
    the source of truth, and a crash can only lose what nobody was told.
    """

    def write(self, game_id: int, step: StepWrite) -> Awaitable[None]: ...


class NullSink:
    """A sink that keeps nothing (bench and tests of the table alone)."""

    def __init__(self) -> None:
        self.writes = 0

    def write(self, game_id: int, step: StepWrite) -> Awaitable[None]:
        self.writes += 1
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        done.set_result(None)
        return done
