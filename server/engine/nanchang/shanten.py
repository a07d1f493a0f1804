"""Shanten with jokers: how many tiles a hand is from winning, per shape (for bots and hints).

``shanten`` values: -1 complete, 0 waiting (听牌), 1, 2 ... A joker counts as
a tile that fills any gap. Four sets and a pair uses the Nanchang sequences
(winds any three, 中发白: N9); seven pairs and 十三烂 need a concealed hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from server.engine.nanchang.shapes import SEQ_PARTNERS

MTP = tuple[int, int, int]  # complete sets, partial sets (two tiles of a set), pair


def _minus(c: tuple[int, ...], *idx: int) -> tuple[int, ...]:
    lst = list(c)
    for i in idx:
        lst[i] -= 1
    return tuple(lst)


def _best(opts: dict[tuple[int, int], int]) -> tuple[MTP, ...]:
    # For the same sets and pair, more partial sets never need more tiles: keep the most.
    return tuple((m, t, p) for (m, p), t in opts.items())


@cache
def group_mtp(gtype: int, c: tuple[int, ...]) -> tuple[MTP, ...]:
    """The best (sets, partials, pair) splits of one group's tiles; loose tiles are left over."""
    i = next((x for x, n in enumerate(c) if n), -1)
    if i < 0:
        return ((0, 0, 0),)
    out: dict[tuple[int, int], int] = {}

    def add(rest: tuple[int, ...], m: int, t: int, p: int) -> None:
        for m2, t2, p2 in group_mtp(gtype, rest):
            if p + p2 <= 1:
                key = (m + m2, p + p2)
                if out.get(key, -1) < t + t2:
                    out[key] = t + t2

    add(_minus(c, i), 0, 0, 0)
    if c[i] >= 3:
        add(_minus(c, i, i, i), 1, 0, 0)
    if c[i] >= 2:
        add(_minus(c, i, i), 0, 1, 0)
        add(_minus(c, i, i), 0, 0, 1)
    for a, b in SEQ_PARTNERS[gtype][i]:
        ha, hb = a > i and c[a] > 0, b > i and c[b] > 0
        if ha and hb:
            add(_minus(c, i, a, b), 1, 0, 0)
        if ha:
            add(_minus(c, i, a), 0, 1, 0)
        if hb:
            add(_minus(c, i, b), 0, 1, 0)
    return _best(out)


@lru_cache(maxsize=1 << 16)
def _combine(a: tuple[MTP, ...], b: tuple[MTP, ...]) -> tuple[MTP, ...]:
    """Two groups' splits together (at most one pair), capped at four sets and four partials."""
    out: dict[tuple[int, int], int] = {}
    for m, t, p in a:
        for m2, t2, p2 in b:
            if p + p2 <= 1:
                key = (min(m + m2, 4), p + p2)
                tt = min(t + t2, 4)
                if out.get(key, -1) < tt:
                    out[key] = tt
    return _best(out)


@lru_cache(maxsize=1 << 17)
def normal_shanten(counts: tuple[int, ...], jokers: int, melds: int) -> int:
    """Shanten for four sets and a pair; ``counts`` natural concealed tiles, ``jokers`` wild."""
    need = 4 - melds
    natural = sum(counts)
    suits = _combine(
        _combine(group_mtp(0, counts[0:9]), group_mtp(0, counts[9:18])), group_mtp(0, counts[18:27])
    )
    combos = _combine(suits, _combine(group_mtp(1, counts[27:31]), group_mtp(2, counts[31:34])))
    best = 99
    for m, t, p in combos:
        m = min(m, need)
        t = min(t, need - m)
        rest = need - m - t
        loose = natural - 3 * m - 2 * t - 2 * p
        needed = t + 3 * rest + 2 * (1 - p) - min(max(loose, 0), rest + 1 - p)
        best = min(best, needed)
    total = natural + jokers
    return max(best - jokers, 3 * need + 2 - total) - 1


def pairs_shanten(counts: Sequence[int], jokers: int, quads: bool = True) -> int:
    """Shanten for seven pairs (七对) of a concealed hand."""
    pairs = sum(n // 2 if quads else min(n, 2) // 2 for n in counts)
    singles = sum(n & 1 for n in counts)
    used = min(jokers, singles)
    pairs += used + (jokers - used) // 2
    total = sum(counts) + jokers
    return max(6 - min(pairs, 7), 13 - total)


def _best_spaced(mask: int) -> int:
    best = 0
    for sub in range(512):
        if sub & mask == sub:
            last, ok, n = -9, True, 0
            for i in range(9):
                if sub >> i & 1:
                    if i - last < 3:
                        ok = False
                        break
                    last, n = i, n + 1
            if ok:
                best = max(best, n)
    return best


_SPACED_SIZE = [_best_spaced(m) for m in range(512)]


def lan_shanten(counts: Sequence[int], jokers: int) -> tuple[int, int]:
    """Shanten for (十三烂, 七星十三烂) of a concealed hand."""
    suited = 0
    for s in range(3):
        mask = 0
        for i in range(9):
            if counts[9 * s + i]:
                mask |= 1 << i
        suited += _SPACED_SIZE[mask]
    honors = sum(1 for k in range(27, 34) if counts[k])
    total = sum(counts) + jokers
    floor = 13 - total
    plain = max(13 - honors - suited - jokers, floor)
    seven = max(13 - honors - min(suited, 7) - jokers, floor)
    return plain, seven
