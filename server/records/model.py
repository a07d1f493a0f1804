"""The logged-game structure every importer produces.

A Tenhou mjlog XML file and a tenhou.net/6 JSON file both become a
``LoggedGame``: rounds with the dealt hands, the ordered steps of play, the
dora/ura indicators and the result as Tenhou recorded it. Tiles are engine
``Tile`` values (0..36, red fives 34..36); tenhou.net/6 JSON has no physical
tile ids, so this is the common ground of both formats. Points are in points
(mjlog's hundreds are multiplied out).

Three-player (sanma) logs keep Tenhou's four-seat shape on disk (an empty
fourth seat); here every per-seat tuple holds ``seats`` entries (3 or 4).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from server.engine.tiles import Tile, tiles_str


class RecordError(ValueError):
    """A file that is not a valid game log; the message names what is wrong."""


class StepType(StrEnum):
    DRAW = "draw"  # tile; rinshan=True for the draw after a kan
    DISCARD = "discard"  # tile; riichi=True for the declaration discard
    CHI = "chi"  # tile = called tile, tiles = the two own tiles, from_seat
    PON = "pon"  # tile = called tile, tiles = the two own tiles, from_seat
    DAIMINKAN = "daiminkan"  # tile = called tile, tiles = the three own tiles, from_seat
    KAKAN = "kakan"  # tile = the tile added to the pon
    ANKAN = "ankan"  # tiles = the four tiles
    DORA = "dora"  # tile = a newly revealed kan dora indicator
    NUKI = "nuki"  # sanma: a north set aside (nukidora); tile = 4z, a replacement draw follows


@dataclass(frozen=True, slots=True)
class Step:
    type: StepType
    seat: int
    tile: Tile | None = None
    tiles: tuple[Tile, ...] = ()
    from_seat: int | None = None
    riichi: bool = False
    rinshan: bool = False
    # For a discard: whether the log says the drawn tile itself left the hand (None:
    # the log does not tell). Not compared: the engine decides that for identical tiles.
    tsumogiri: bool | None = field(default=None, compare=False)

    def __repr__(self) -> str:
        parts = [self.type.value, str(self.seat)]
        if self.tile is not None:
            parts.append(tiles_str([self.tile]))
        if self.tiles:
            parts.append(tiles_str(self.tiles))
        if self.from_seat is not None:
            parts.append(f"from {self.from_seat}")
        if self.riichi:
            parts.append("riichi")
        if self.rinshan:
            parts.append("rinshan")
        return f"Step({' '.join(parts)})"


class DrawType(StrEnum):
    """Draw names used by the records layer (mjlog / tenhou.net/6 map onto these)."""

    EXHAUSTIVE = "exhaustive"
    NAGASHI_MANGAN = "nagashi_mangan"
    KYUUSHU = "kyuushu"
    SUUFON_RENDA = "suufon_renda"
    SUUCHA_RIICHI = "suucha_riichi"
    SUUKAN_SANRA = "suukan_sanra"
    SANCHAHOU = "sanchahou"


@dataclass(frozen=True, slots=True)
class LoggedWin:
    """One win as the log states it. Fields the log does not give are None."""

    who: int
    from_who: int
    pao: int | None
    deltas: tuple[int, ...]  # one per seat
    yaku: tuple[tuple[str, int], ...] | None = None  # without dora/aka/ura
    yakuman: tuple[tuple[str, int], ...] | None = None
    han: int | None = None  # including dora; None for yakuman
    fu: int | None = None
    points: int | None = None  # ron payment, or the sum of tsumo payments, before honba
    limit: str | None = None
    dora: int | None = None
    aka: int | None = None
    ura: int | None = None
    # Sanma: pulled norths, when the log counts them apart from dora (Mahjong Soul's
    # 抜きドラ); None when they are inside ``dora`` (Tenhou's ドラ).
    nuki: int | None = None
    hand: tuple[Tile, ...] | None = None  # concealed tiles with the winning tile
    win_tile: Tile | None = None

    @property
    def tsumo(self) -> bool:
        return self.who == self.from_who


@dataclass(frozen=True, slots=True)
class LoggedDraw:
    type: DrawType
    deltas: tuple[int, ...] | None = None
    # Seats shown tenpai at an exhaustive draw; None when the log does not say.
    tenpai: frozenset[int] | None = None
    # Hands the log shows (mjlog: tenpai hands, the kyuushu declarer's hand), by seat.
    hands: dict[int, tuple[Tile, ...]] | None = None


@dataclass(slots=True)
class LoggedRound:
    round_wind: int  # 0 East, 1 South, 2 West, 3 North
    dealer: int
    honba: int
    riichi_sticks: int
    scores: tuple[int, ...]  # one per seat
    hands: tuple[tuple[Tile, ...], ...]  # the dealt hands of 13, one per seat
    steps: list[Step]
    dora_indicators: list[Tile]  # first indicator, then kan dora in order
    ura_indicators: list[Tile] = field(default_factory=list)
    wins: list[LoggedWin] = field(default_factory=list)
    draw: LoggedDraw | None = None
    index: int = 0  # position in the game, for messages

    @property
    def label(self) -> str:
        """Round name as players say it, e.g. ``E3-1`` (East 3, 1 honba).

        Tenhou's seat 0 is always the first dealer, so the dealer seat is the kyoku.
        """
        return f"{'ESWN'[self.round_wind]}{self.dealer + 1}-{self.honba}"


@dataclass(slots=True)
class LoggedGame:
    source: str
    players: tuple[str, ...]  # one name per seat
    red_fives: int
    length: str  # "hanchan" | "tonpuu"
    rounds: list[LoggedRound]
    final_scores: tuple[int, ...] | None = None  # before uma, in points
    kuitan: bool = True
    ref: str | None = None  # the document's own reference (tenhou.net/6 "ref"), if any
    # Our own export's "jantaku" field: the rules the game was played under and its id.
    rules: dict[str, Any] | None = None
    origin_game: int | None = None
    seats: int = 4  # 3: three-player riichi (sanma)
    # The preset the game was played under, when the log tells more than its seat
    # count (Mahjong Soul's sanma rooms: "majsoul-sanma"); None: Tenhou's.
    preset: str | None = None
