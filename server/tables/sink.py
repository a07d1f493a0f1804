"""What a table hands to persistence. The table never waits on the database."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
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


class TableSink(Protocol):
    """Persistence for one server; calls must not block (queue and return)."""

    def record(self, game_id: int, rows: Sequence[RecordRow]) -> None: ...

    def hand(self, game_id: int, hand: HandRow) -> None: ...

    def finish(self, game_id: int, results: Sequence[SeatResult], status: str) -> None: ...


class NullSink:
    """A sink that keeps nothing (bench and tests of the table alone)."""

    def record(self, game_id: int, rows: Sequence[RecordRow]) -> None:
        pass

    def hand(self, game_id: int, hand: HandRow) -> None:
        pass

    def finish(self, game_id: int, results: Sequence[SeatResult], status: str) -> None:
        pass
