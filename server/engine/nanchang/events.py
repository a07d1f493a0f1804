"""Typed events: one frozen class per fact, with tiles as ``Kind`` ints.

Each event says who may see it: ``seats`` is None for a public event, else the
seats that may see all of it. ``mask(event, seat)`` gives the event as a seat
(None = a spectator) may see it: another seat's deal or draw without its tiles.
The engine knows no JSON; the wire codec turns these into frames.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from server.engine.events import EndReason, Event, Standing
from server.engine.nanchang.melds import Meld
from server.engine.nanchang.options import NanchangOptions
from server.engine.nanchang.settlement import RoundResult, WinRecord
from server.engine.nanchang.wall import Dice
from server.engine.tiles import Kind


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    type: ClassVar[str] = "game_start"
    options: NanchangOptions
    roller: int  # the seat that rolled for the dealer (N3)
    dice: Dice | None  # None when the first dealer was given (dealer_by_dice off)
    first_dealer: int


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    type: ClassVar[str] = "round_start"
    round_index: int
    round_wind: int  # 圈: 0..3 = 东南西北
    hand_number: int  # 0..3
    dealer: int
    repeat: int  # 连庄 count
    break_dice: Dice  # the dealer's roll (N4)
    second_roller: int
    second_dice: Dice
    scores: tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """A seat's starting tiles (the dealer's 14). Masked for others: ``tiles`` None."""

    type: ClassVar[str] = "deal"
    seat: int
    tiles: tuple[Kind, ...] | None
    count: int

    @property
    def seats(self) -> frozenset[int]:
        return frozenset((self.seat,))


@dataclass(frozen=True, slots=True)
class JokerRevealed(Event):
    """N5: the dealer's roll counts ``sum(dice)`` stacks from the wall's end; that top tile is
    turned up."""

    type: ClassVar[str] = "jokers"
    dice: Dice
    indicator: Kind
    zheng: Kind  # 正精
    fu: Kind  # 副精


@dataclass(frozen=True, slots=True)
class Drew(Event):
    """A draw (``replacement``: from the wall's end after a kan, N11).

    Masked for others: ``tile`` None, unless ``shown``: the turned-up joker
    indicator lies face up in the wall, so everyone sees who takes it (N5).
    """

    type: ClassVar[str] = "draw"
    seat: int
    tile: Kind | None
    replacement: bool = False
    shown: bool = False

    @property
    def seats(self) -> frozenset[int] | None:
        return None if self.shown else frozenset((self.seat,))


@dataclass(frozen=True, slots=True)
class Discarded(Event):
    type: ClassVar[str] = "discard"
    seat: int
    tile: Kind
    tsumogiri: bool


@dataclass(frozen=True, slots=True)
class Called(Event):
    """A chi, pon or open kan (minkan) of ``meld.called`` from ``meld.from_seat``'s discard."""

    type: ClassVar[str] = "call"
    seat: int
    meld: Meld


@dataclass(frozen=True, slots=True)
class Kanned(Event):
    """A concealed kan (shown face up, N11) or an added kan (kakan; it may still be robbed)."""

    type: ClassVar[str] = "kan"
    seat: int
    meld: Meld


@dataclass(frozen=True, slots=True)
class Won(Event):
    type: ClassVar[str] = "win"
    win: WinRecord


@dataclass(frozen=True, slots=True)
class WallExhausted(Event):
    """N25: 荒牌: the last tile was discarded and nobody won."""

    type: ClassVar[str] = "wall_exhausted"


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    type: ClassVar[str] = "round_end"
    result: RoundResult


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    type: ClassVar[str] = "game_end"
    standings: tuple[Standing, ...]
    reason: EndReason = "rounds_done"  # N27: the only way a Nanchang game ends


NanchangEvent = (
    GameStarted
    | RoundStarted
    | Dealt
    | JokerRevealed
    | Drew
    | Discarded
    | Called
    | Kanned
    | Won
    | WallExhausted
    | RoundEnded
    | GameEnded
)


def visible_to(event: Event, seat: int | None) -> bool:
    """Whether ``seat`` (None = spectator) may see all of ``event``."""
    return event.visible_to(seat)


def mask(event: Event, seat: int | None) -> Event:
    """The event as ``seat`` may see it (itself when visible)."""
    if visible_to(event, seat):
        return event
    if isinstance(event, Dealt):
        return replace(event, tiles=None)
    if isinstance(event, Drew):
        return replace(event, tile=None)
    raise AssertionError(f"no masked form of {type(event).__name__}")  # pragma: no cover
