"""Win points (N17-N21): the shape, the way of winning, 德国, and who pays what.

A win is worth ``base`` points per payer: 1 for a plain win (平糊), doubled
or more by its shape and by each way of winning listed in ``FACTORS``. Each
other seat pays ``base``, doubled for the discarder and doubled when the
dealer wins or pays (options), plus the flat 德国 bonus. 天糊 and 地糊 are flat
points from every other seat. When a hand can be read several ways, the reading
that pays the winner most counts (N17).

Element ids (pinyin; the UI names them in en/ja/zh) are listed in docs/rules.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from server.engine.nanchang.jokers import Jokers
from server.engine.nanchang.melds import Meld
from server.engine.nanchang.options import NanchangOptions
from server.engine.nanchang.shapes import (
    jingdiao,
    jokers_split,
    kind_counts,
    normal_win,
    seven_pairs,
    shisanlan,
)
from server.engine.tiles import Kind

# N13-N15, N18-N20: the doubling of each element (the seed names them; common Nanchang values)
FACTORS: dict[str, int] = {
    "pinghu": 1,  # 平糊: four sets and a pair
    "pengpenghu": 2,  # 碰碰糊
    "qidui": 2,  # 七对
    "shisanlan": 2,  # 十三烂
    "qixing_shisanlan": 4,  # 七星十三烂
    "zimo": 2,  # 自摸
    "gangkai": 2,  # 杠开 (on top of 自摸)
    "qianggang": 2,  # 抢杠
    "jingdiao": 2,  # 精吊
    "deguo": 2,  # 德国
    "dezhongde": 2,  # 德中德 (on top of 德国)
}
SHAPES = ("pinghu", "pengpenghu", "qidui", "shisanlan", "qixing_shisanlan")


@dataclass(frozen=True, slots=True)
class Element:
    """One scoring element: a doubling (``factor``) or flat points (``points``)."""

    id: str
    factor: int = 1
    points: int = 0


@dataclass(frozen=True, slots=True)
class WinContext:
    """How the hand was won. A ron is neither ``tsumo`` nor ``tianhu``."""

    tsumo: bool = False
    gangkai: bool = False
    qianggang: bool = False
    tianhu: bool = False
    dihu: bool = False
    # 德中德 needs that no other seat holds a joker (N20)
    others_hold_jokers: bool = True


@dataclass(frozen=True, slots=True)
class WinScore:
    """A scored win: ``base`` per payer (flat for 天糊/地糊), ``bonus`` flat per payer (德国)."""

    shape: str
    elements: tuple[Element, ...]
    # doublings of one payer's share only: the dealer's (zhuang), the discarder's (dianpao)
    payer_elements: tuple[Element, ...]
    base: int
    bonus: int
    flat: bool
    payments: tuple[int, int, int, int]  # per seat; the winner's is the sum the others pay

    @property
    def total(self) -> int:
        return max(self.payments)


@dataclass(frozen=True, slots=True)
class _Reading:
    shape: str
    deguo: bool
    jingdiao: bool


def readings(
    concealed: Sequence[Kind],
    win_tile: Kind | None,
    melds: Sequence[Meld],
    jk: Jokers,
    ctx: WinContext,
    quads: bool = True,
) -> list[_Reading]:
    """Every way the hand wins (shape, 德国, 精吊), in a fixed order; empty if it does not win.

    ``concealed`` are the tiles before the winning one; for 天糊 all 14 with
    ``win_tile`` None. A tile won from a discard (or a robbed kan) is its own tile.
    """
    hand = [*concealed, win_tile] if win_tile is not None else list(concealed)
    if ctx.tsumo or ctx.tianhu or win_tile is None:
        wild, jokers = jokers_split(hand, jk)
    else:
        wild, jokers = jokers_split(concealed, jk)
        wild[win_tile] += 1
    natural = kind_counts(hand)
    all_pon = all(m.is_triplet for m in melds)
    found: list[tuple[str, bool]] = []
    for counts, n, deguo in ((natural, 0, True), (wild, jokers, False)):
        normal, triplets = normal_win(counts, n)
        if normal:
            found.append(("pinghu", deguo))
        if triplets and all_pon:
            found.append(("pengpenghu", deguo))
        if not melds:
            if seven_pairs(counts, n, quads):
                found.append(("qidui", deguo))
            plain, qixing = shisanlan(counts, n)
            if qixing:
                found.append(("qixing_shisanlan", deguo))
            elif plain:
                found.append(("shisanlan", deguo))
    if not found:
        return []
    jd_sets = jd_pairs = False
    if ctx.tianhu:
        for x in sorted(set(hand)):  # N18: any one of the 14 as the tile drawn last
            rest = list(hand)
            rest.remove(x)
            s, p = jingdiao(rest, jk, len(melds), quads)
            jd_sets, jd_pairs = jd_sets or s, jd_pairs or p
    elif ctx.tsumo or ctx.dihu:
        jd_sets, jd_pairs = jingdiao(concealed, jk, len(melds), quads)
    out = []
    for shape, deguo in found:
        jd = jd_pairs if shape == "qidui" else jd_sets and shape in ("pinghu", "pengpenghu")
        out.append(_Reading(shape, deguo, jd))
    return out


def _elements(
    r: _Reading, ctx: WinContext, opts: NanchangOptions
) -> tuple[list[Element], int, int, bool]:
    """(elements, base, flat bonus, flat) of one reading."""
    els: list[Element] = []
    if ctx.tianhu or ctx.dihu:
        key, pts = ("tianhu", opts.tianhu_points) if ctx.tianhu else ("dihu", opts.dihu_points)
        els.append(Element(key, points=pts))
        if r.jingdiao:
            els.append(Element("jingdiao", FACTORS["jingdiao"]))
            pts *= FACTORS["jingdiao"]
        return els, pts, 0, True
    els.append(Element(r.shape, FACTORS[r.shape]))
    if ctx.tsumo:
        els.append(Element("zimo", FACTORS["zimo"]))
    if ctx.gangkai:
        els.append(Element("gangkai", FACTORS["gangkai"]))
    if ctx.qianggang:
        els.append(Element("qianggang", FACTORS["qianggang"]))
    if r.jingdiao:
        els.append(Element("jingdiao", FACTORS["jingdiao"]))
    bonus = 0
    if r.deguo:
        els.append(Element("deguo", FACTORS["deguo"], opts.deguo_bonus))
        bonus = opts.deguo_bonus
        if not ctx.others_hold_jokers:
            els.append(Element("dezhongde", FACTORS["dezhongde"]))
    base = 1
    for e in els:
        base *= e.factor
    return els, base, bonus, False


def win_payments(
    base: int,
    bonus: int,
    flat: bool,
    *,
    winner: int,
    dealer: int,
    discarder: int | None,
    qianggang: bool,
    opts: NanchangOptions,
) -> tuple[int, int, int, int]:
    """N21: what each seat pays (negative) and the winner gets (positive)."""
    deltas = [0, 0, 0, 0]
    for p in range(4):
        if p == winner:
            continue
        if flat:
            amount = base
        elif discarder is not None and p != discarder and not opts.ron_all_pay and not qianggang:
            continue
        else:
            amount = base
            if p == discarder and opts.discarder_double:
                amount *= 2
            if opts.dealer_double and dealer in (winner, p):
                amount *= 2
            amount += bonus
        # N21: a robbed kan's player pays every share
        payer = discarder if qianggang and discarder is not None else p
        deltas[payer] -= amount
        deltas[winner] += amount
    return (deltas[0], deltas[1], deltas[2], deltas[3])


def score_win(
    concealed: Sequence[Kind],
    win_tile: Kind | None,
    melds: Sequence[Meld],
    jk: Jokers,
    ctx: WinContext,
    opts: NanchangOptions,
    *,
    winner: int,
    dealer: int,
    discarder: int | None = None,
) -> WinScore | None:
    """The best-paying reading of a win, or None when the tiles do not win (N17).

    ``discarder`` is the seat whose discard (or added kan, 抢杠) was won on.
    """
    best: WinScore | None = None
    for r in readings(concealed, win_tile, melds, jk, ctx, opts.seven_pairs_quads):
        els, base, bonus, flat = _elements(r, ctx, opts)
        pays = win_payments(
            base,
            bonus,
            flat,
            winner=winner,
            dealer=dealer,
            discarder=discarder,
            qianggang=ctx.qianggang,
            opts=opts,
        )
        payer_els: list[Element] = []
        if not flat:
            dealer_pays = discarder is None or opts.ron_all_pay or ctx.qianggang
            if opts.dealer_double and (dealer in (winner, discarder) or dealer_pays):
                payer_els.append(Element("zhuang", 2))
            if discarder is not None and opts.discarder_double:
                payer_els.append(Element("dianpao", 2))
        ws = WinScore(r.shape, tuple(els), tuple(payer_els), base, bonus, flat, pays)
        if best is None or ws.payments[winner] > best.payments[winner]:
            best = ws
    return best
