"""Jokers (精, N5-N7): the turned-up tile, its successor, and what jokers are worth (N22, N23).

Tiles are the shared ``Kind`` ints (0..33, Tenhou order: 27..30 = E S W N,
31 haku 白, 32 hatsu 发, 33 chun 中). Nanchang has no red fives.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from server.engine.tiles import CHUN, EAST, HAKU, HATSU, NORTH, Kind

ZHENG_POINTS = 2  # 正精 (seed: 计算奖励分时正精2分)
FU_POINTS = 1  # 副精 (seed: 副精1分)
CHONGGUAN_FROM = 5  # seed: 5分乘2即10分 ...

# N6: the seed orders the dragons 中、发、白; after 白 comes 中 again.
_DRAGON_NEXT = {CHUN: HATSU, HATSU: HAKU, HAKU: CHUN}


def successor(k: Kind) -> Kind:
    """N6: the 副精 of a turned-up tile: 9 -> 1 in a suit, E S W N E, 中 发 白 中."""
    if k < 27:
        return k - 8 if k % 9 == 8 else k + 1
    if k <= NORTH:
        return EAST if k == NORTH else k + 1
    return _DRAGON_NEXT[k]


@dataclass(frozen=True, slots=True)
class Jokers:
    """The round's jokers: ``zheng`` (正精, the turned-up tile's kind) and ``fu`` (副精)."""

    zheng: Kind
    fu: Kind

    @classmethod
    def from_indicator(cls, indicator: Kind) -> Jokers:
        return cls(indicator, successor(indicator))

    def is_joker(self, k: Kind) -> bool:
        return k == self.zheng or k == self.fu

    def points(self, k: Kind) -> int:
        """N22: what one tile adds to its holder's joker bonus (正精 2, 副精 1, else 0)."""
        if k == self.zheng:
            return ZHENG_POINTS
        if k == self.fu:
            return FU_POINTS
        return 0

    def total(self, kinds: Iterable[Kind]) -> int:
        return sum(self.points(k) for k in kinds)

    def count(self, kinds: Iterable[Kind]) -> int:
        return sum(1 for k in kinds if k == self.zheng or k == self.fu)


def chongguan_value(points: int) -> int:
    """N23: 冲关: a joker bonus of 5 or more is multiplied by (points - 3).

    The seed's table: 5 -> 10, 6 -> 18, 7 -> 28, 8 -> 40, 9 -> 54, 10 -> 70; the same
    rule gives 11 -> 88 and 12 -> 108 (four 正精 and four 副精, the most a hand holds).
    """
    if points >= CHONGGUAN_FROM:
        return points * (points - 3)
    return points
