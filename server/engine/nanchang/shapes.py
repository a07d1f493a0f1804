"""Winning shapes (N12-N16) with jokers standing for any tile.

A hand is analysed as counts of natural tiles (34 slots) plus a number of
wild jokers. The tile groups are the three suits (sequences of three
consecutive numbers), the winds (any three different winds form a sequence)
and the dragons (中发白 form a sequence): N9.

Four sets and a pair (N12): each group's tiles must all be used, in sets
(triplets or sequences), in sets that jokers complete, or in the pair. A
group's answer is the fewest jokers it needs, for "pair in this group or not"
and "sequences allowed or triplets only" (碰碰糊). Because the natural tiles and
jokers add up to exactly ``3 * sets + 2``, leftover jokers always make up the
missing sets and the pair, so a hand wins when the groups together need no
more jokers than it holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations

from server.engine.nanchang.jokers import Jokers
from server.engine.tiles import NUM_KINDS, Kind

INF = 99

# (first kind, size, sequences as local indexes) per group: m, p, s, winds, dragons
_SUIT_SEQS = tuple((a, a + 1, a + 2) for a in range(7))
_WIND_SEQS = tuple(combinations(range(4), 3))
_DRAGON_SEQS = ((0, 1, 2),)
GROUPS: tuple[tuple[int, int, int], ...] = (
    (0, 9, 0),
    (9, 9, 0),
    (18, 9, 0),
    (27, 4, 1),
    (31, 3, 2),
)
SEQS: tuple[tuple[tuple[int, ...], ...], ...] = (_SUIT_SEQS, _WIND_SEQS, _DRAGON_SEQS)
# for each group type and local index, the sequences through it, as the two other members
SEQ_PARTNERS: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...] = tuple(
    tuple(tuple(tuple(x for x in p if x != i) for p in seqs if i in p) for i in range(size))
    for seqs, size in ((_SUIT_SEQS, 9), (_WIND_SEQS, 4), (_DRAGON_SEQS, 3))
)


def _minus(c: tuple[int, ...], i: int, n: int = 1) -> tuple[int, ...]:
    lst = list(c)
    lst[i] -= n
    return tuple(lst)


@cache
def group_jokers(gtype: int, c: tuple[int, ...]) -> tuple[int, int, int, int]:
    """Fewest jokers a group's tiles need, every tile used, ``INF`` where impossible.

    In order: without the pair, with the pair, and the same two with triplets only.
    """
    i = next((x for x, n in enumerate(c) if n), -1)
    if i < 0:
        return (0, INF, 0, INF)
    res = [INF, INF, INF, INF]

    def take(rest: tuple[int, ...], jokers: int, pair: int, seq: bool) -> None:
        r = group_jokers(gtype, rest)
        for sub_pair in (0, 1):
            if pair + sub_pair > 1:
                continue
            p = pair + sub_pair
            v = r[sub_pair] + jokers
            if v < res[p]:
                res[p] = v
            if not seq:
                v = r[2 + sub_pair] + jokers
                if v < res[2 + p]:
                    res[2 + p] = v

    n = c[i]
    if n >= 3:
        take(_minus(c, i, 3), 0, 0, False)
    if n >= 2:
        r2 = _minus(c, i, 2)
        take(r2, 0, 1, False)  # the pair
        take(r2, 1, 0, False)  # a triplet with one joker
    r1 = _minus(c, i)
    take(r1, 2, 0, False)  # a set of one tile and two jokers (read as a triplet)
    take(r1, 1, 1, False)  # the pair with one joker
    for a, b in SEQ_PARTNERS[gtype][i]:
        ha, hb = a > i and r1[a] > 0, b > i and r1[b] > 0
        if ha and hb:
            take(_minus(_minus(r1, a), b), 0, 0, True)
        if ha:
            take(_minus(r1, a), 1, 0, True)
        if hb:
            take(_minus(r1, b), 1, 0, True)
    return (res[0], res[1], res[2], res[3])


def sets_jokers(counts: Sequence[int]) -> tuple[int, int, int, int]:
    """``group_jokers`` summed over the five groups (at most one pair in all)."""
    a0, a1, t0, t1 = 0, INF, 0, INF
    for start, size, gtype in GROUPS:
        g0, g1, h0, h1 = group_jokers(gtype, tuple(counts[start : start + size]))
        a0, a1 = a0 + g0, min(a1 + g0, a0 + g1)
        t0, t1 = t0 + h0, min(t1 + h0, t0 + h1)
    return (min(a0, INF), min(a1, INF), min(t0, INF), min(t1, INF))


def normal_win(counts: Sequence[int], jokers: int) -> tuple[bool, bool]:
    """N12: (four sets and a pair, the same with triplets only: 碰碰糊 N13).

    ``counts`` are the natural concealed tiles and ``jokers`` the wild ones; they
    must add up to ``3 * n + 2`` (melds take the other sets).
    """
    a0, a1, t0, t1 = sets_jokers(counts)
    return min(a0, a1) <= jokers, min(t0, t1) <= jokers


def sets_only(counts: Sequence[int], jokers: int) -> bool:
    """Whether the tiles form complete sets, no pair (for 精吊, N16)."""
    return sets_jokers(counts)[0] <= jokers


def seven_pairs(counts: Sequence[int], jokers: int, quads: bool = True) -> bool:
    """N14: seven pairs (七对) of the 14 concealed tiles; ``quads``: four alike are two pairs."""
    if not quads and any(n > 2 for n in counts):
        return False
    return sum(n & 1 for n in counts) <= jokers


def _spaced(mask: int) -> bool:
    last = -9
    for i in range(9):
        if mask >> i & 1:
            if i - last < 3:
                return False
            last = i
    return True


_SPACED = [m for m in range(512) if _spaced(m)]
# N15: how many more numbers a suit's spaced set can take (absent: the set is not spaced)
_ROOM: dict[int, int] = {
    m: max(bin(t).count("1") for t in _SPACED if t & m == m) - bin(m).count("1") for m in _SPACED
}


def shisanlan(counts: Sequence[int], jokers: int) -> tuple[bool, bool]:
    """N15: (十三烂, 七星十三烂) of the 14 concealed tiles, jokers standing in.

    十三烂: in each suit any two tiles are at least 3 apart, no honour twice.
    七星十三烂: 十三烂 holding all seven honours.
    """
    room = 0
    for s in range(3):
        mask = 0
        for i in range(9):
            n = counts[9 * s + i]
            if n > 1:
                return False, False
            if n:
                mask |= 1 << i
        r = _ROOM.get(mask)
        if r is None:
            return False, False
        room += r
    honors = 0
    for k in range(27, NUM_KINDS):
        if counts[k] > 1:
            return False, False
        honors += counts[k]
    missing = 7 - honors
    plain = jokers <= missing + room
    return plain, plain and jokers >= missing


def jokers_split(hand: Sequence[Kind], jk: Jokers) -> tuple[list[int], int]:
    """Counts of a hand's natural tiles, and its number of jokers (wild)."""
    counts = [0] * NUM_KINDS
    n = 0
    for k in hand:
        if k == jk.zheng or k == jk.fu:
            n += 1
        else:
            counts[k] += 1
    return counts, n


def kind_counts(hand: Sequence[Kind]) -> list[int]:
    counts = [0] * NUM_KINDS
    for k in hand:
        counts[k] += 1
    return counts


def jingdiao(
    hand13: Sequence[Kind], jk: Jokers, melds: int, quads: bool = True
) -> tuple[bool, bool]:
    """N16: 精吊: (a joker and complete sets, a joker and six pairs) in 13 concealed tiles.

    Such a hand wins on any tile, by self-draw only.
    """
    counts, n = jokers_split(hand13, jk)
    if n == 0:
        return False, False
    sets = sets_only(counts, n - 1)
    pairs = melds == 0 and seven_pairs(counts, n - 1, quads)
    return sets, pairs


def is_win(
    hand: Sequence[Kind],
    jk: Jokers,
    melds: int,
    wild: Sequence[bool] | None = None,
    quads: bool = True,
) -> bool:
    """Whether 14 - 3 * melds concealed tiles form any winning shape (N12-N15).

    ``wild`` marks which tiles may stand for others (default: every joker); a tile
    taken from a discard is its own tile (N7).
    """
    counts, n = _split(hand, jk, wild)
    if normal_win(counts, n)[0]:
        return True
    if melds:
        return False
    return seven_pairs(counts, n, quads) or shisanlan(counts, n)[0]


def _split(hand: Sequence[Kind], jk: Jokers, wild: Sequence[bool] | None) -> tuple[list[int], int]:
    if wild is None:
        return jokers_split(hand, jk)
    counts = [0] * NUM_KINDS
    n = 0
    for k, w in zip(hand, wild, strict=True):
        if w and jk.is_joker(k):
            n += 1
        else:
            counts[k] += 1
    return counts, n
