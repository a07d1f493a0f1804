"""What happened in a riichi game, as typed values (no strings, no JSON).

Each event is one fact. ``seats`` says who may see it whole (None: everyone);
``mask`` gives the event as another seat (or a spectator) may see it: another
seat's draw without its tile, another seat's deal without its tiles. The wire
codec (``server/wire``) turns events into JSON; nothing in the engine does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from server.engine.events import EndReason, Event, Standing
from server.engine.melds import Meld
from server.engine.riichi.rules import RuleSet
from server.engine.riichi.win import WinResult
from server.engine.tiles import Tile

_ONLY = [frozenset({s}) for s in range(4)]


@dataclass(frozen=True, slots=True)
class GameStart(Event):
    type: ClassVar[str] = "game_start"
    rules: RuleSet
    first_dealer: int
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RoundStart(Event):
    type: ClassVar[str] = "round_start"
    round_wind: int  # 0..3: East..North
    kyoku: int  # 0-based: the dealer's place from the first dealer
    honba: int
    riichi_sticks: int
    scores: tuple[int, ...]
    dealer: int
    dice: tuple[int, int]
    dora_indicators: tuple[Tile, ...]
    wall_left: int
    round_index: int


@dataclass(frozen=True, slots=True)
class Haipai(Event):
    """A seat's 13 starting tiles (sorted); None when masked for another seat."""

    type: ClassVar[str] = "haipai"
    seat: int
    tiles: tuple[Tile, ...] | None

    @property
    def seats(self) -> frozenset[int] | None:
        return _ONLY[self.seat]


@dataclass(frozen=True, slots=True)
class Draw(Event):
    """A draw (or rinshan draw); ``tile`` None when masked for another seat."""

    type: ClassVar[str] = "draw"
    seat: int
    tile: Tile | None
    rinshan: bool
    wall_left: int

    @property
    def seats(self) -> frozenset[int] | None:
        return _ONLY[self.seat]


@dataclass(frozen=True, slots=True)
class Discard(Event):
    type: ClassVar[str] = "discard"
    seat: int
    tile: Tile
    tsumogiri: bool
    riichi: bool  # the riichi declaration tile


@dataclass(frozen=True, slots=True)
class Call(Event):
    """Chi, pon or daiminkan of ``meld.called`` from ``meld.from_seat``."""

    type: ClassVar[str] = "call"
    seat: int
    meld: Meld


@dataclass(frozen=True, slots=True)
class Kan(Event):
    """Ankan or kakan; ``added`` is the tile added to the pon (kakan)."""

    type: ClassVar[str] = "kan"
    seat: int
    meld: Meld
    added: Tile | None


@dataclass(frozen=True, slots=True)
class Nuki(Event):
    """Sanma: a north set aside as a dora (nukidora, S12); a replacement draw follows."""

    type: ClassVar[str] = "nuki"
    seat: int
    tile: Tile


@dataclass(frozen=True, slots=True)
class NewDora(Event):
    type: ClassVar[str] = "new_dora"
    indicator: Tile
    dora_indicators: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class RiichiAccepted(Event):
    type: ClassVar[str] = "riichi_accepted"
    seat: int
    double: bool
    scores: tuple[int, ...]
    riichi_sticks: int


@dataclass(frozen=True, slots=True)
class Winner:
    """One winner of an ``Agari``: the hand shown and what it was paid."""

    seat: int
    from_seat: int | None  # None for tsumo
    hand: tuple[Tile, ...]  # concealed tiles incl. the winning tile, sorted
    melds: tuple[Meld, ...]
    win_tile: Tile
    result: WinResult
    points: int  # the ron amount, or the tsumo total before honba and sticks
    pao: int | None  # the liable seat (R24)
    deltas: tuple[int, ...]  # this win alone, honba and sticks included
    honba: int = 0  # honba paid to this win (only the first of a double ron gets them)
    riichi_sticks: int = 0  # riichi sticks this win collected


@dataclass(frozen=True, slots=True)
class Agari(Event):
    type: ClassVar[str] = "agari"
    winners: tuple[Winner, ...]  # in turn order from the discarder
    dora_indicators: tuple[Tile, ...]
    ura_indicators: tuple[Tile, ...]  # only when a winner had riichi
    deltas: tuple[int, ...]  # the whole round: every win and the sticks paid this round
    scores: tuple[int, ...]
    honba: int
    riichi_sticks: int  # left on the table (0 after a win)


@dataclass(frozen=True, slots=True)
class Ryuukyoku(Event):
    type: ClassVar[str] = "ryuukyoku"
    reason: str  # exhaustive | nagashi_mangan | kyuushu_kyuuhai | suufon_renda | ...
    tenpai: tuple[int, ...]
    hands: tuple[tuple[int, tuple[Tile, ...]], ...]  # revealed hands by seat
    nagashi: tuple[int, ...]
    deltas: tuple[int, ...]
    scores: tuple[int, ...]
    honba: int  # carried to the next round
    riichi_sticks: int


@dataclass(frozen=True, slots=True)
class NextRound:
    round_wind: int
    kyoku: int
    honba: int
    dealer: int


@dataclass(frozen=True, slots=True)
class RoundEnd(Event):
    type: ClassVar[str] = "round_end"
    scores: tuple[int, ...]
    next: NextRound | None  # None: the game ends


@dataclass(frozen=True, slots=True)
class GameEnd(Event):
    type: ClassVar[str] = "game_end"
    final: tuple[Standing, ...]  # by seat
    scores: tuple[int, ...]
    riichi_sticks_to_first: int
    seed: bytes
    reason: EndReason


RoundResultEvent = Agari | Ryuukyoku


def mask(event: Event, seat: int | None) -> Event | None:
    """``event`` as ``seat`` (None: a spectator) may see it; None if nothing of it.

    Every riichi event has a public part: a masked draw or deal keeps its seat and
    says that it happened, without the tiles.
    """
    if event.visible_to(seat):
        return event
    if isinstance(event, Draw):
        return Draw(event.seat, None, event.rinshan, event.wall_left)
    if isinstance(event, Haipai):
        return Haipai(event.seat, None)
    return None  # pragma: no cover - every private event type is masked above


EVENT_TYPES: tuple[type[Event], ...] = (
    GameStart,
    RoundStart,
    Haipai,
    Draw,
    Discard,
    Call,
    Kan,
    Nuki,
    NewDora,
    RiichiAccepted,
    Agari,
    Ryuukyoku,
    RoundEnd,
    GameEnd,
)
