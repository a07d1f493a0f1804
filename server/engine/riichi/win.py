"""A win to score: its situation (WinContext), what it is worth (WinResult), and
ScoreError for a hand that cannot be scored.

``scoring.score_hand`` takes a ``WinContext`` and gives a ``WinResult``;
``points.settle_win`` turns a ``WinResult`` into the seats' score changes.
"""

from __future__ import annotations

from dataclasses import dataclass

from server.engine.tiles import Kind, Tile


@dataclass(frozen=True, slots=True)
class WinContext:
    """The situation of a win. Winds are kinds 27..30 (E S W N)."""

    win_tile: Tile
    tsumo: bool
    seat_wind: Kind
    round_wind: Kind
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    haitei: bool = False
    houtei: bool = False
    rinshan: bool = False
    chankan: bool = False
    tenhou: bool = False
    chiihou: bool = False
    dora_indicators: tuple[Tile, ...] = ()
    ura_indicators: tuple[Tile, ...] = ()
    honba: int = 0
    riichi_sticks: int = 0
    nuki: int = 0  # sanma: norths the winner has set aside (S12d)


@dataclass(frozen=True, slots=True)
class WinResult:
    yaku: tuple[tuple[str, int], ...]  # (id, han); dora/aka/ura not included
    yakuman: tuple[tuple[str, int], ...]  # (id, multiplier)
    han: int  # incl. dora/aka/ura; 0 for yakuman hands
    fu: int
    limit: str | None
    dora: int
    aka: int
    ura: int
    base: int  # base points after limits (R23)
    nuki: int  # sanma: one dora per north set aside (counted in han, apart from dora)
    payments: dict[str, int]  # before honba and sticks
    total: int  # winner's gain incl. honba and sticks

    @property
    def is_yakuman(self) -> bool:
        return bool(self.yakuman)


class ScoreError(ValueError):
    """A hand that cannot be scored. ``code``: "not_agari" | "no_yaku" | "bad_input"."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


__all__ = ["ScoreError", "WinContext", "WinResult"]
