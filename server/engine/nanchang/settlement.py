"""Round settlement (N21-N25): the win, the joker bonus (奖励分), kan points, the round's result.

Every part is a transfer between seats, so every round's deltas add up to 0
and the ledger keeps its total (N26).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from server.engine.events import Standing
from server.engine.nanchang.jokers import CHONGGUAN_FROM, Jokers, chongguan_value
from server.engine.nanchang.melds import Meld, MeldType
from server.engine.nanchang.options import NanchangOptions
from server.engine.nanchang.scoring import WinScore
from server.engine.tiles import Kind

Deltas = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class JokerBonus:
    """N22/N23: one seat's joker bonus.

    Every other seat pays ``value``; after a 冲关 caused by a discarded joker, ``payer``
    pays all three shares.
    """

    seat: int
    zheng: int  # 正精 held (concealed, in melds, or won on)
    fu: int  # 副精 held
    points: int  # 2 per 正精 + 1 per 副精
    value: int  # after 冲关 and 霸王精
    chongguan: bool
    bawang: bool
    payer: int | None  # the seat whose discarded joker caused the 冲关 (pays for all three)
    deltas: Deltas


@dataclass(frozen=True, slots=True)
class KanPoints:
    """N24: points every other seat pays for one kan (a kan of a joker adds its bonus)."""

    seat: int
    tile: Kind
    type: MeldType
    joker: bool
    points: int  # per other seat
    deltas: Deltas


@dataclass(frozen=True, slots=True)
class WinRecord:
    seat: int
    from_seat: int | None  # the discarder, or the robbed kan's player; None for a self-draw
    tile: Kind | None  # None for 天糊 (the dealer's 14 dealt tiles)
    hand: tuple[Kind, ...]  # concealed tiles before the winning one
    melds: tuple[Meld, ...]
    score: WinScore


@dataclass(frozen=True, slots=True)
class RoundResult:
    round_index: int
    round_wind: int  # 圈: 0..3 = 东南西北
    hand_number: int  # 0..3: which dealer of the 圈
    dealer: int
    repeat: int  # 连庄: deals the dealer has kept
    kind: Literal["win", "draw"]
    win: WinRecord | None
    hands: tuple[tuple[Kind, ...], ...]  # every seat's concealed tiles at the end, shown
    joker_bonus: tuple[JokerBonus, ...]
    kans: tuple[KanPoints, ...]
    deltas: Deltas  # everything this round
    scores: tuple[int, int, int, int]  # after the round
    dealer_keeps: bool


def _deltas(d: list[int]) -> Deltas:
    return (d[0], d[1], d[2], d[3])


def joker_bonuses(
    holdings: Sequence[Sequence[Kind]],
    taken: Sequence[Sequence[tuple[Kind, int]]],
    jk: Jokers,
    opts: NanchangOptions,
) -> tuple[JokerBonus, ...]:
    """N22/N23 for the four seats.

    ``holdings`` are each seat's tiles that count (concealed, melds, the tile won
    on); ``taken`` the tiles each seat took from discards, in order, with the
    discarder. 冲关 is caused by a discarder when without the jokers taken from
    that seat the bonus would be under 5; the latest such discarder pays.
    """
    points = [jk.total(h) for h in holdings]
    holders = [s for s in range(4) if points[s] > 0]
    out = []
    for s in holders:
        zheng = sum(1 for k in holdings[s] if k == jk.zheng)
        fu = sum(1 for k in holdings[s] if k == jk.fu)
        pts = points[s]
        chong = opts.chongguan and pts >= CHONGGUAN_FROM
        value = chongguan_value(pts) if opts.chongguan else pts
        bawang = opts.bawang and len(holders) == 1
        if bawang:
            value *= 2
        payer: int | None = None
        if chong:
            for k, src in taken[s]:
                if (
                    jk.points(k)
                    and pts - sum(jk.points(t) for t, f in taken[s] if f == src) < CHONGGUAN_FROM
                ):
                    payer = src  # later ones replace earlier ones: the latest causer pays
        d = [0, 0, 0, 0]
        for p in range(4):
            if p != s:
                d[payer if payer is not None else p] -= value
                d[s] += value
        out.append(JokerBonus(s, zheng, fu, pts, value, chong, bawang, payer, _deltas(d)))
    return tuple(out)


def kan_points(
    kans: Sequence[tuple[int, Kind, MeldType]], jk: Jokers, opts: NanchangOptions
) -> tuple[KanPoints, ...]:
    """N24: 明杠 (minkan, kakan) and 暗杠 points, plus the 杠精 bonus, from each other seat."""
    out = []
    for seat, k, t in kans:
        pts = opts.concealed_kan_points if t == "ankan" else opts.open_kan_points
        joker = jk.is_joker(k)
        if joker:
            pts += opts.joker_kan_bonus
        d = [0, 0, 0, 0]
        for p in range(4):
            if p != seat:
                d[p] -= pts
                d[seat] += pts
        out.append(KanPoints(seat, k, t, joker, pts, _deltas(d)))
    return tuple(out)


def total(*parts: Deltas) -> Deltas:
    d = [0, 0, 0, 0]
    for part in parts:
        for i in range(4):
            d[i] += part[i]
    return _deltas(d)


def standings(scores: Sequence[int], first_dealer: int) -> tuple[Standing, ...]:
    order = sorted(range(4), key=lambda s: (-scores[s], (s - first_dealer) % 4))
    # N28: the ledger is the result: ``score`` is the points themselves (no uma)
    return tuple(Standing(s, scores[s], i + 1, float(scores[s])) for i, s in enumerate(order))
