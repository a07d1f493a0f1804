"""Shanten: how many tiles a hand is from tenpai, from per-suit tables.

Every function takes a 34-slot count array of CONCEALED tiles (melds already
removed). The number of sets still needed is ``sum(c) // 3``, so an open hand
of 7 concealed tiles needs two sets and a pair.

Shanten is *formal*: a hand waiting only on a kind it already holds four of
(karaten) is still tenpai, and drawing a fifth copy is allowed in the
definition. Callers that care (furiten, noten payments) decide themselves.

Regular shanten = 2N - max(2m + t + p) over decompositions into m sets,
t partial sets (taatsu) and p <= 1 pair with m + t <= N. The max is found per
suit: each suit's 9 counts map (memoised) to a 10-slot vector ``V`` where
``V[b]`` (b = 0..4) is the best ``2m + t`` using at most b blocks without a
pair and ``V[5 + b]`` the same with a pair (+1). Suits are combined by a small
max-plus convolution over the block budget. Equivalent suits share one table
entry (see ``_canonical``): few distinct decompositions are ever computed.

The tables here are the kernel of ``ukeire.py`` (waits, ukeire and discard
analysis) too: it looks suits up in them directly, so the names it imports
(``_vector_id``, ``_pair``, ``_combine`` and their caches) are shared, not
private to this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import add, itemgetter

from server.engine.tiles import NUM_KINDS, YAOCHU

# A value below any reachable sum: marks "this suit cannot supply the pair".
_NONE = -100

_KOKUSHI_KINDS = tuple(sorted(YAOCHU))
_kokushi_counts = itemgetter(*_KOKUSHI_KINDS)


def _check_counts(c: Sequence[int]) -> None:
    if len(c) != NUM_KINDS:
        raise ValueError(f"expected a 34-slot count array, got {len(c)} slots")
    if min(c) < 0:
        raise ValueError("tile counts cannot be negative")


# --- per-suit tables -------------------------------------------------------

# key (bytes of the suit's counts) -> id of its pareto tuple: slot 5 * p + m
# holds the most taatsu t (capped at 4 - m, which is all any budget can use)
# over decompositions with m sets and p pairs, or -1 if there is none. More
# taatsu never hurts, so the max per (p, m) is all that matters. Pareto tuples
# are interned (few distinct ones occur), so that combining them is cached.
_pareto_suit: dict[bytes, int] = {}
_pareto_honor: dict[bytes, int] = {}
_par_ids: dict[tuple[int, ...], int] = {}
_pars: list[tuple[int, ...]] = []
# key -> id of its interned 10-slot vector (see the module docstring)
_vec_suit: dict[bytes, int] = {}
_vec_honor: dict[bytes, int] = {}

_EMPTY_PARETO = (0, -1, -1, -1, -1, -1, -1, -1, -1, -1)

# The blocks the first held kind can start: (sets, taatsu, pair) added.
_ISOLATED, _SET, _PAIR, _TAATSU = 0, 1, 2, 3
_MOVES = ((0, 0, 0), (1, 0, 0), (0, 0, 1), (0, 1, 0))
# pareto id * 4 + move -> the pareto tuple of a hand that adds that block to it
_shifted: dict[int, tuple[int, ...]] = {}


def _par_intern(v: tuple[int, ...]) -> int:
    i = _par_ids.get(v)
    if i is None:
        i = len(_pars)
        _pars.append(v)
        _par_ids[v] = i
    return i


def _shift(pid: int, move: int) -> tuple[int, ...]:
    sk = 4 * pid + move
    hit = _shifted.get(sk)
    if hit is not None:
        return hit
    dm, dt, dp = _MOVES[move]
    sub = _pars[pid]
    best = [-1] * 10
    for p in range(2 - dp):
        for m in range(5 - dm):
            t = sub[5 * p + m]
            if t < 0:
                continue
            nm = m + dm
            best[5 * (p + dp) + nm] = min(t + dt, 4 - nm)
    res = tuple(best)
    _shifted[sk] = res
    return res


def _canonical(key: bytes, honors: bool) -> bytes:
    """A key with the same pareto tuple, shared by many keys.

    Blocks join tiles at most two apart: so in a suit, zeros at the ends do
    not matter, a gap of two zeros separates as well as any longer one, and
    reading the suit backwards changes nothing. Honors form no runs: only the
    sorted counts matter.
    """
    if honors:
        return bytes(sorted(key)).lstrip(b"\0")
    k = key.strip(b"\0")
    while b"\0\0\0" in k:
        k = k.replace(b"\0\0\0", b"\0\0")
    r = k[::-1]
    return r if r < k else k


def _pareto(key: bytes, honors: bool) -> int:
    table = _pareto_honor if honors else _pareto_suit
    hit = table.get(key)
    if hit is not None:
        return hit
    ck = _canonical(key, honors)
    if ck == key:
        return _pareto_of(key, honors)
    res = table.get(ck)
    if res is None:
        res = _pareto_of(ck, honors)
    table[key] = res
    return res


def _pareto_of(key: bytes, honors: bool) -> int:
    """The pareto id of a canonical key (its first count is not 0), computed."""
    table = _pareto_honor if honors else _pareto_suit
    n = len(key)
    if n == 0:
        res = table[key] = _par_intern(_EMPTY_PARETO)
        return res
    c = bytearray(key)
    ci = c[0]
    # The first kind is either left isolated or used in some block.
    c[0] -= 1
    options = [_shift(_pareto(bytes(c), honors), _ISOLATED)]
    if ci >= 2:
        c[0] -= 1
        sub = _pareto(bytes(c), honors)
        options.append(_shift(sub, _PAIR))
        options.append(_shift(sub, _TAATSU))
        if ci >= 3:
            c[0] -= 1
            options.append(_shift(_pareto(bytes(c), honors), _SET))
            c[0] += 1
        c[0] += 1
    if not honors:
        if n > 1 and c[1]:
            c[1] -= 1
            options.append(_shift(_pareto(bytes(c), honors), _TAATSU))
            if n > 2 and c[2]:
                c[2] -= 1
                options.append(_shift(_pareto(bytes(c), honors), _SET))
                c[2] += 1
            c[1] += 1
        if n > 2 and c[2]:
            c[2] -= 1
            options.append(_shift(_pareto(bytes(c), honors), _TAATSU))
    best = options[0] if len(options) == 1 else tuple(map(max, *options))
    res = table[key] = _par_intern(best)
    return res


# Vectors are interned: random hands show only ~45 distinct suit vectors and
# ~80 distinct two-suit vectors, so every combination step below is cached by
# small integer ids and a cold hand costs a few dict lookups, not arithmetic.
_vec_ids: dict[tuple[int, ...], int] = {}
_vecs: list[tuple[int, ...]] = []


def _intern(v: tuple[int, ...]) -> int:
    i = _vec_ids.get(v)
    if i is None:
        i = len(_vecs)
        _vecs.append(v)
        _vec_ids[v] = i
    return i


# pareto id -> vector id
_vec_of_par: dict[int, int] = {}


def _vector_id(key: bytes, honors: bool) -> int:
    table = _vec_honor if honors else _vec_suit
    hit = table.get(key)
    if hit is not None:
        return hit
    pid = _pareto(key, honors)
    res = _vec_of_par.get(pid)
    if res is None:
        v = [0] * 5 + [_NONE] * 5
        par = _pars[pid]
        for slot in range(10):
            t = par[slot]
            if t < 0:
                continue
            p, m = divmod(slot, 5)
            for b in range(5):
                mm = min(m, b)
                val = 2 * mm + min(t, b - mm) + p
                if val > v[5 * p + b]:
                    v[5 * p + b] = val
        res = _vec_of_par[pid] = _intern(tuple(v))
    table[key] = res
    return res


def _conv(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """Max-plus combination of two vectors over block budgets 0..4."""
    lo = [max(map(add, a[0 : s + 1], b[s::-1])) for s in range(5)]
    hi = [
        max(
            max(map(add, a[5 : 6 + s], b[s::-1])),
            max(map(add, a[0 : s + 1], b[5 + s : 4 : -1])),
        )
        for s in range(5)
    ]
    return (*lo, *hi)


_pairs: dict[int, int] = {}


def _pair(ia: int, ib: int) -> int:
    """Id of the combination of two vector ids (cached)."""
    key = (ia << 16) | ib
    i = _pairs.get(key)
    if i is None:
        i = _intern(_conv(_vecs[ia], _vecs[ib]))
        _pairs[key] = i
    return i


# Two suits at a time (man+pin, sou+honors) map straight to a combined id: in
# play a hand changes by one tile per turn, so one half is nearly always
# cached. These key caches are bounded by clearing; ids and vectors are kept.
_HALF_LIMIT = 300_000
_half_lo: dict[bytes, int] = {}
_half_hi: dict[bytes, int] = {}
_final: dict[int, int] = {}


def _lo(key: bytes) -> int:
    if len(_half_lo) >= _HALF_LIMIT:
        _half_lo.clear()
    i = _pair(_vector_id(key[0:9], False), _vector_id(key[9:18], False))
    _half_lo[key] = i
    return i


def _hi(key: bytes) -> int:
    if len(_half_hi) >= _HALF_LIMIT:
        _half_hi.clear()
    i = _pair(_vector_id(key[0:9], False), _vector_id(key[9:16], True))
    _half_hi[key] = i
    return i


def _combine(ia: int, ib: int, n: int) -> int:
    a = _vecs[ia]
    b = _vecs[ib]
    rb = b[n::-1]
    best: int = max(
        max(map(add, a[0 : n + 1], rb)),
        max(map(add, a[5 : 6 + n], rb)),
        max(map(add, a[0 : n + 1], b[5 + n : 4 : -1])),
    )
    s = 2 * n - best
    _final[(ia << 24) | (ib << 3) | n] = s
    return s


def _regular(c: Sequence[int]) -> int:
    if len(c) != NUM_KINDS:
        raise ValueError(f"expected a 34-slot count array, got {len(c)} slots")
    try:
        klo = bytes(c[0:18])
        khi = bytes(c[18:34])
    except (ValueError, TypeError):
        raise ValueError("tile counts must be integers 0..255") from None
    n = sum(c) // 3
    ia = _half_lo.get(klo)
    if ia is None:
        ia = _lo(klo)
    ib = _half_hi.get(khi)
    if ib is None:
        ib = _hi(khi)
    s = _final.get((ia << 24) | (ib << 3) | n)
    return _combine(ia, ib, n) if s is None else s


def shanten_regular(c: Sequence[int]) -> int:
    """Shanten towards sets and a pair (-1 = complete, 0 = tenpai)."""
    if sum(c) % 3 == 0:
        raise ValueError(f"a hand has 3n+1 or 3n+2 concealed tiles, got {sum(c)}")
    return _regular(c)


def _chiitoitsu(c: Sequence[int]) -> int:
    singles_or_more = NUM_KINDS - c.count(0)
    pairs = singles_or_more - c.count(1)
    return 6 - pairs + max(0, 7 - singles_or_more)


def shanten_chiitoitsu(c: Sequence[int]) -> int:
    """Shanten towards seven distinct pairs (four of a kind is one pair).

    Only defined for a fully concealed hand (13 or 14 tiles); raises otherwise.
    """
    _check_counts(c)
    if sum(c) not in (13, 14):
        raise ValueError("chiitoitsu needs a closed hand of 13 or 14 tiles")
    return _chiitoitsu(c)


def _kokushi(c: Sequence[int]) -> int:
    y: tuple[int, ...] = _kokushi_counts(c)
    return 13 - (13 - y.count(0)) - (1 if max(y) >= 2 else 0)


def shanten_kokushi(c: Sequence[int]) -> int:
    """Shanten towards kokushi musou; only for a closed hand of 13 or 14 tiles."""
    _check_counts(c)
    if sum(c) not in (13, 14):
        raise ValueError("kokushi needs a closed hand of 13 or 14 tiles")
    return _kokushi(c)


def shanten(c: Sequence[int]) -> int:
    """Minimum shanten over the regular form, chiitoitsu and kokushi.

    The hand must have 3n+1 or 3n+2 tiles; chiitoitsu and kokushi count only
    when it has 13 or 14 (no melds).
    """
    s = _regular(c)  # validates the array
    total = sum(c)
    if total % 3 == 0 or total > 14:
        raise ValueError(f"a hand has 3n+1 or 3n+2 concealed tiles, got {total}")
    if total >= 13:
        s = min(s, _chiitoitsu(c), _kokushi(c))
    return s


__all__ = [
    "shanten",
    "shanten_chiitoitsu",
    "shanten_kokushi",
    "shanten_regular",
]
