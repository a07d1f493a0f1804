"""Typed events: one frozen class per fact, with tiles as ``Kind`` ints.

Each event says who may see it: ``seats`` is None for a public event, else the
seats that may see all of it. ``mask(event, seat)`` gives the event as a seat
(None = a spectator) may see it: another seat's deal or draw without its tiles.
The engine knows no JSON; the wire codec turns these into frames.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from server.engine.nanchang.melds import Meld
from server.engine.nanchang.options import NanchangOptions
from server.engine.nanchang.settlement import RoundResult, Standing, WinRecord
from server.engine.nanchang.wall import Dice
from server.engine.tiles import Kind


@dataclass(frozen=True, slots=True)
class GameStarted:
    options: NanchangOptions
    roller: int  # the seat that rolled for the dealer (N3)
    dice: Dice | None  # None when the first dealer was given (dealer_by_dice off)
    first_dealer: int
    seats: None = None


@dataclass(frozen=True, slots=True)
class RoundStarted:
    round_index: int
    round_wind: int  # 圈: 0..3 = 东南西北
    hand_number: int  # 0..3
    dealer: int
    repeat: int  # 连庄 count
    break_dice: Dice  # the dealer's roll (N4)
    second_roller: int
    second_dice: Dice
    scores: tuple[int, int, int, int]
    seats: None = None


@dataclass(frozen=True, slots=True)
class Dealt:
    """A seat's starting tiles (the dealer's 14). Masked for others: ``tiles`` None."""

    seat: int
    tiles: tuple[Kind, ...] | None
    count: int

    @property
    def seats(self) -> frozenset[int]:
        return frozenset((self.seat,))


@dataclass(frozen=True, slots=True)
class JokerRevealed:
    """N5: the dealer's roll counts ``sum(dice)`` stacks from the wall's end; that top tile is
    turned up."""

    dice: Dice
    indicator: Kind
    zheng: Kind  # 正精
    fu: Kind  # 副精
    seats: None = None


@dataclass(frozen=True, slots=True)
class Drew:
    """A draw (``replacement``: from the wall's end after a kan, N11).

    Masked for others: ``tile`` None, unless ``shown``: the turned-up joker
    indicator lies face up in the wall, so everyone sees who takes it (N5).
    """

    seat: int
    tile: Kind | None
    replacement: bool = False
    shown: bool = False

    @property
    def seats(self) -> frozenset[int] | None:
        return None if self.shown else frozenset((self.seat,))


@dataclass(frozen=True, slots=True)
class Discarded:
    seat: int
    tile: Kind
    tsumogiri: bool
    seats: None = None


@dataclass(frozen=True, slots=True)
class Called:
    """A chi, pon or open kan (minkan) of ``meld.called`` from ``meld.from_seat``'s discard."""

    seat: int
    meld: Meld
    seats: None = None


@dataclass(frozen=True, slots=True)
class Kanned:
    """A concealed kan (shown face up, N11) or an added kan (kakan; it may still be robbed)."""

    seat: int
    meld: Meld
    seats: None = None


@dataclass(frozen=True, slots=True)
class Won:
    win: WinRecord
    seats: None = None


@dataclass(frozen=True, slots=True)
class WallExhausted:
    """N25: 荒牌: the last tile was discarded and nobody won."""

    seats: None = None


@dataclass(frozen=True, slots=True)
class RoundEnded:
    result: RoundResult
    seats: None = None


@dataclass(frozen=True, slots=True)
class GameEnded:
    standings: tuple[Standing, ...]
    seats: None = None


Event = (
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
    s = event.seats
    return s is None or (seat is not None and seat in s)


def mask(event: Event, seat: int | None) -> Event:
    """The event as ``seat`` may see it (itself when visible)."""
    if visible_to(event, seat):
        return event
    if isinstance(event, Dealt):
        return replace(event, tiles=None)
    if isinstance(event, Drew):
        return replace(event, tile=None)
    raise AssertionError(f"no masked form of {type(event).__name__}")  # pragma: no cover
