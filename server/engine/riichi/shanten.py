"""Hand analysis: shanten, waits, ukeire and the wait shapes of a tenpai hand.

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

Discards and draws change one suit: ``discard_shanten``, ``discard_ukeire``
and ``best_discards`` (both at once, for a tile-efficiency player) look each
suit up against the combined vector of the other three (``_rests``),
memoised per suit, so a whole 14-tile analysis costs dictionary lookups.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from operator import add, itemgetter, mul, sub

from server.engine.riichi.agari import (
    Block,
    BlockType,
    Form,
    WaitShape,
    block_wait,
    is_chiitoitsu,
    is_kokushi,
    regular_readings,
)
from server.engine.tiles import NUM_KINDS, YAOCHU, Kind

# A value below any reachable sum: marks "this suit cannot supply the pair".
_NONE = -100

_KOKUSHI_KINDS = tuple(sorted(YAOCHU))
_kokushi_counts = itemgetter(*_KOKUSHI_KINDS)

# Candidate winning kinds for regular hands: a kind held, or within 2 of a held
# suited kind of the same suit (every set or pair containing the winning tile
# contains another tile no further away than that).
_NEAR: tuple[tuple[Kind, ...], ...] = tuple(
    tuple(
        sorted(
            {k} if k >= 27 else {j for j in range(k - 2, k + 3) if 0 <= j < 27 and j // 9 == k // 9}
        )
    )
    for k in range(NUM_KINDS)
)


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


# --- waits and ukeire -------------------------------------------------------


def _check_waiting_size(c: Sequence[int]) -> None:
    _check_counts(c)
    if sum(c) % 3 != 1:
        raise ValueError(f"waits need a hand of 3n+1 tiles, got {sum(c)}")


# suit key -> id of its draw list: ((index in suit, vector id after drawing
# it), ...) for the draws that could join a block (the kind held, or within
# two of a held kind). Draw lists are interned: few distinct ones occur.
_draws_suit: dict[bytes, int] = {}
_draws_honor: dict[bytes, int] = {}
_draw_list_ids: dict[tuple[tuple[int, int], ...], int] = {}
_draw_lists: list[tuple[tuple[int, int], ...]] = []
_GAINS_LIMIT = 500_000


_NONZERO = bytes(1 if i else 0 for i in range(256))
# a suit's held kinds as a byte mask (bit 8 * j for index j) -> the indices
# within two of a held one, in order
_NEAR_HELD: dict[int, tuple[int, ...]] = {
    sum(1 << (8 * j) for j in range(9) if m >> j & 1): tuple(
        i for i in range(9) if any(m >> j & 1 for j in range(i - 2, i + 3) if 0 <= j < 9)
    )
    for m in range(512)
}


def _draws(key: bytes, honors: bool) -> int:
    table = _draws_honor if honors else _draws_suit
    hit = table.get(key)
    if hit is not None:
        return hit
    arr = bytearray(key)
    if honors:
        js: Sequence[int] = [j for j in range(len(key)) if key[j]]
    else:
        js = _NEAR_HELD[int.from_bytes(key.translate(_NONZERO), "little")]
    out = []
    for j in js:
        arr[j] += 1
        out.append((j, _vector_id(bytes(arr), honors)))
        arr[j] -= 1
    res = tuple(out)
    i = _draw_list_ids.get(res)
    if i is None:
        i = len(_draw_lists)
        _draw_lists.append(res)
        _draw_list_ids[res] = i
    table[key] = i
    return i


def _improving(h: list[int], base: int | None = None) -> tuple[int, list[Kind]]:
    """Shanten of a 3n+1 hand and the kinds whose draw lowers it.

    A draw changes one suit only, so each candidate costs two small-id
    lookups (pair, final) on top of a cached per-suit list of draws.
    """
    if base is None:
        base = shanten(h)
    keys = [bytes(h[0:9]), bytes(h[9:18]), bytes(h[18:27]), bytes(h[27:34])]
    ids = [_vector_id(keys[i], i == 3) for i in range(4)]
    return base, _improving_core(h, base, sum(h), keys, ids)


def _improving_core(
    h: list[int], base: int, total: int, keys: Sequence[bytes], ids: Sequence[int]
) -> list[Kind]:
    """``_improving`` given the hand's shanten, size and per-suit keys and ids."""
    n = (total + 1) // 3
    rests = _rests(ids)
    found: list[Kind] = []
    # Regular form: per suit, the draws that lower the shanten depend only on
    # that suit's draw list, the other three suits' combined vector, the sets
    # needed and the current shanten: memoised on exactly that.
    ds = _draws_suit
    for si in range(4):
        key = keys[si]
        # the draw list lookup inlined for the three number suits (a hot path)
        dl = ds.get(key) if si != 3 else None
        if dl is None:
            dl = _draws(key, si == 3)
        g = _gain_indices(dl, rests[si], n, base)[0]
        if g:
            start = 9 * si
            found.extend([start + j for j in g])
    if total == 13:
        extra = _special_draws(h, base)
        if extra:
            return sorted({*found, *extra})
    return found


def _special_draws(h: list[int], base: int) -> list[Kind]:
    """Draws that lower a closed 13-tile hand's chiitoitsu or kokushi shanten to below ``base``.

    These forms can only improve the hand if they already give its shanten;
    a draw then lowers them by one in these cases (possibly a kind far from
    anything held, which the regular search never looks at).
    """
    out: list[Kind] = []
    if _chiitoitsu(h) == base:
        few_kinds = NUM_KINDS - h.count(0) < 7
        for k in range(NUM_KINDS):
            if h[k] == 1 or (few_kinds and h[k] == 0):
                out.append(k)
    if _kokushi(h) == base:
        has_pair = max(h[k] for k in _KOKUSHI_KINDS) >= 2
        for k in _KOKUSHI_KINDS:
            if h[k] == 0 or (h[k] == 1 and not has_pair):
                out.append(k)
    return out


# suit key -> {index in suit: (vector id, key) after removing one of that
# kind} for every held kind of the suit, in index order
_removals_suit: dict[bytes, dict[int, tuple[int, bytes]]] = {}
_removals_honor: dict[bytes, dict[int, tuple[int, bytes]]] = {}


def _removals(key: bytes, honors: bool) -> dict[int, tuple[int, bytes]]:
    table = _removals_honor if honors else _removals_suit
    hit = table.get(key)
    if hit is not None:
        return hit
    arr = bytearray(key)
    out = {}
    for j in range(len(arr)):
        if arr[j]:
            arr[j] -= 1
            k2 = bytes(arr)
            arr[j] += 1
            out[j] = (_vector_id(k2, honors), k2)
    if len(table) >= _GAINS_LIMIT:
        table.clear()
    table[key] = out
    return out


def _rests(ids: Sequence[int]) -> tuple[int, int, int, int]:
    """Per suit, the id of the other three suits' combined vector."""
    i0, i1, i2, i3 = ids
    lo = _pair(i0, i1)
    hi = _pair(i2, i3)
    return _pair(i1, hi), _pair(i0, hi), _pair(lo, i3), _pair(lo, i2)


def _rests_after(ids: Sequence[int], si: int, vid: int) -> tuple[int, int, int, int]:
    """``_rests`` of the hand whose suit ``si`` changed to vector ``vid``.

    Combined vectors are interned by value, so the grouping order does not
    matter. The pair cache is read inline (this runs for most discards).
    """
    i0, i1, i2, i3 = ids
    get = _pairs.get
    if si < 2:
        # the suit changed pairs with the other number suit of its half
        o = i1 if si == 0 else i0
        hi = get((i2 << 16) | i3)
        if hi is None:
            hi = _pair(i2, i3)
        x = get((vid << 16) | o)
        if x is None:
            x = _pair(vid, o)
        a = get((vid << 16) | hi)
        if a is None:
            a = _pair(vid, hi)
        b = get((x << 16) | i3)
        if b is None:
            b = _pair(x, i3)
        c = get((x << 16) | i2)
        if c is None:
            c = _pair(x, i2)
        return (0, a, b, c) if si == 0 else (a, 0, b, c)
    o = i3 if si == 2 else i2
    lo = get((i0 << 16) | i1)
    if lo is None:
        lo = _pair(i0, i1)
    x = get((vid << 16) | o)
    if x is None:
        x = _pair(vid, o)
    a = get((i1 << 16) | x)
    if a is None:
        a = _pair(i1, x)
    b = get((i0 << 16) | x)
    if b is None:
        b = _pair(i0, x)
    c = get((lo << 16) | vid)
    if c is None:
        c = _pair(lo, vid)
    return (a, b, 0, c) if si == 2 else (a, b, c, 0)


def _discard_context(
    c: Sequence[int],
) -> tuple[list[int], int, tuple[bytes, ...], list[int], tuple[int, int, int, int]]:
    """Checks a 3n+2 hand; its counts, size, suit keys, suit vector ids and rests."""
    _check_counts(c)
    h = list(c)
    total = sum(h)
    if total % 3 != 2:
        raise ValueError(f"discards need a hand of 3n+2 tiles, got {total}")
    keys = (bytes(h[0:9]), bytes(h[9:18]), bytes(h[18:27]), bytes(h[27:34]))
    vs = _vec_suit
    ids = []
    for si, x in enumerate((vs.get(keys[0]), vs.get(keys[1]), vs.get(keys[2]), None)):
        ids.append(_vector_id(keys[si], si == 3) if x is None else x)
    return h, total, keys, ids, _rests(ids)


# (suit key, suit, rest id, sets needed) -> (kinds held in the suit, regular
# shanten after discarding each, the largest of those)
_DISCARD_LIMIT = 300_000
_discard_regular: dict[
    tuple[bytes, int, int, int], tuple[tuple[Kind, ...], tuple[int, ...], int]
] = {}


def _discard_shanten(
    h: list[int], total: int, keys: Sequence[bytes], rests: Sequence[int]
) -> dict[Kind, int]:
    n = total // 3
    memo = _discard_regular
    closed = total == 14
    if closed:
        # After a discard: one kind fewer if it was a single, one pair fewer if
        # it was exactly a pair (chiitoitsu); the same among terminals/honors
        # (kokushi). Neither is ever below min(c7, k13).
        kinds = NUM_KINDS - h.count(0)
        pairs = kinds - h.count(1)
        c7 = 6 - pairs + max(0, 7 - kinds)
        c7_single = 6 - pairs + max(0, 8 - kinds)
        c7_pair = c7 + 1
        y = _kokushi_counts(h)
        y_kinds = 13 - y.count(0)
        y_pairs = y_kinds - y.count(1)
        k13 = 13 - y_kinds - (1 if y_pairs else 0)
        k13_single = k13 + 1
        k13_pair = 13 - y_kinds - (1 if y_pairs > 1 else 0)
        floor = min(c7, k13)
    out: dict[Kind, int] = {}
    for si in range(4):
        r = rests[si]
        mk = (keys[si], si, r, n)
        entry = memo.get(mk)
        if entry is None:
            entry = _discard_suit(keys[si], si, r, n)
            if len(memo) >= _DISCARD_LIMIT:
                memo.clear()
            memo[mk] = entry
        ks, shs, top = entry
        if not closed or floor >= top:
            out.update(zip(ks, shs, strict=True))
            continue
        for k, sh in zip(ks, shs, strict=True):
            held = h[k]
            if held == 1:
                s7 = c7_single
                sk = k13_single if k in YAOCHU else k13
            elif held == 2:
                s7 = c7_pair
                sk = k13_pair if k in YAOCHU else k13
            else:
                s7 = c7
                sk = k13
            if s7 < sh:
                sh = s7
            out[k] = sk if sk < sh else sh
    return out


def _discard_suit(
    key: bytes, si: int, r: int, n: int
) -> tuple[tuple[Kind, ...], tuple[int, ...], int]:
    fin = _final
    rk = (r << 3) | n
    ks = []
    vals = []
    for j, (vid, _) in _removals(key, si == 3).items():
        ks.append(9 * si + j)
        f = fin.get((vid << 24) | rk)
        vals.append(_combine(vid, r, n) if f is None else f)
    return tuple(ks), tuple(vals), max(vals, default=-1)


def discard_shanten(c: Sequence[int]) -> dict[Kind, int]:
    """For a 3n+2 hand: the shanten after discarding each held kind.

    A discard changes one suit only: the other three suits combine into one
    vector once, and each suit's results are memoised on its key and that vector.
    """
    h, total, keys, _, rests = _discard_context(c)
    return _discard_shanten(h, total, keys, rests)


# (draw list id, rest id, sets needed, shanten) -> indices in the suit whose
# draw lowers the regular shanten below that shanten; the rest id is the
# combined vector of the other three suits (see _rests)
_gains: dict[tuple[int, int, int, int], tuple[tuple[int, ...], int]] = {}


def _gain_indices(dl: int, r: int, n: int, base: int) -> tuple[tuple[int, ...], int]:
    """``_gains[(dl, r, n, base)]``, computed if missing: the indices, and
    their mask with one byte per index (bit ``8 * j`` for index ``j``)."""
    mk = (dl, r, n, base)
    g = _gains.get(mk)
    if g is None:
        fin = _final
        rk = (r << 3) | n
        out = []
        mask = 0
        for j, vid in _draw_lists[dl]:
            f = fin.get((vid << 24) | rk)
            if f is None:
                f = _combine(vid, r, n)
            if f < base:
                out.append(j)
                mask |= 1 << (8 * j)
        g = (tuple(out), mask)
        if len(_gains) >= _GAINS_LIMIT:
            _gains.clear()
        _gains[mk] = g
    return g


def discard_ukeire(
    c: Sequence[int],
    visible: Sequence[int] | None = None,
    only: Iterable[Kind] | None = None,
    *,
    after: Mapping[Kind, int] | None = None,
) -> dict[Kind, tuple[int, int]]:
    """For a 3n+2 hand: per held kind (or per kind in ``only``), the shanten
    after discarding it and the number of unseen tiles that would lower that.

    ``visible`` is as for ``ukeire``; ``after`` is ``discard_shanten(c)`` if
    the caller has it already. Cheaper than ``ukeire`` per discard: a discard
    changes one suit, so the draws of the three others are looked up once per
    vector that suit can take after a discard (two discards of one suit often
    leave the same vector), against the other suits' combined vector.
    """
    h, total, keys, ids, rests = _discard_context(c)
    if after is None:
        after = _discard_shanten(h, total, keys, rests)
    if visible is not None:
        _check_counts(visible)
    kinds = after if only is None else only
    return _discard_ukeire(h, total, keys, ids, rests, visible, kinds, after)


def best_discards(
    c: Sequence[int], visible: Sequence[int] | None = None, allowed: Iterable[Kind] | None = None
) -> tuple[dict[Kind, int], dict[Kind, int]]:
    """For a 3n+2 hand: ``discard_shanten(c)``, and the ukeire (as in
    ``discard_ukeire``) of each kind in ``allowed`` (default: every held kind)
    whose discard leaves the lowest shanten among them.

    One pass over the hand for both: what a tile-efficiency player needs.
    Raises ValueError if an allowed kind is not held.
    """
    h, total, keys, ids, rests = _discard_context(c)
    after = _discard_shanten(h, total, keys, rests)
    if visible is not None:
        _check_counts(visible)
    if allowed is None:
        pool: Iterable[Kind] = after
    else:
        pool = list(allowed)
        for d in pool:
            if d not in after:
                raise ValueError(f"cannot discard kind {d}: not in the hand")
    best = min([after[d] for d in pool], default=None)
    best_kinds = [d for d in pool if after[d] == best]
    uke = _discard_ukeire(h, total, keys, ids, rests, visible, best_kinds, after)
    return after, {d: left for d, (_, left) in uke.items()}


_SUIT_OF = [min(k // 9, 3) for k in range(NUM_KINDS)]
_FOURS = [4] * NUM_KINDS
# Sets of kinds as "byte masks": kind k is bit 8 * k, so that a count array's
# bytes translate straight into a mask and a mask's bytes weigh a count array.
_YAOCHU_MASK = sum(1 << (8 * k) for k in YAOCHU)
_IS_ONE = bytes(1 if i == 1 else 0 for i in range(256))
_IS_ZERO = bytes(1 if i == 0 else 0 for i in range(256))


def _discard_ukeire(
    h: list[int],
    total: int,
    keys: Sequence[bytes],
    ids: Sequence[int],
    rests: Sequence[int],
    visible: Sequence[int] | None,
    discards: Iterable[Kind],
    after: Mapping[Kind, int],
) -> dict[Kind, tuple[int, int]]:
    # unseen copies of each kind (never below 0), per suit; a discarded kind
    # has one more unless its count was already inconsistent (below 0)
    raw = list(map(sub, _FOURS, h))
    if visible is not None:
        raw = list(map(sub, raw, visible))
    rem = raw if min(raw) >= 0 else [x if x > 0 else 0 for x in raw]
    rem_s = (rem[0:9], rem[9:18], rem[18:27], rem[27:34])
    n = total // 3
    closed = total == 14
    if closed:
        # chiitoitsu/kokushi shanten after a discard, as in _discard_shanten
        n_kinds = NUM_KINDS - h.count(0)
        pairs = n_kinds - h.count(1)
        c7 = 6 - pairs + max(0, 7 - n_kinds)
        y = _kokushi_counts(h)
        y_kinds = 13 - y.count(0)
        y_pairs = y_kinds - y.count(1)
        k13 = 13 - y_kinds - (1 if y_pairs else 0)
        masks: tuple[int, int] | None = None  # kinds held once / not held, as byte masks
    removals: list[dict[int, tuple[int, bytes]] | None] = [None, None, None, None]
    ds = _draws_suit
    suit_dls: list[int | None] = [None, None, None, None]
    # (suit, its vector after the discard, shanten) -> (byte mask of the kinds
    # of the other suits whose draw lowers the shanten, how many are unseen)
    others: dict[tuple[int, int, int], tuple[int, int]] = {}
    gains = _gains
    out: dict[Kind, tuple[int, int]] = {}
    for d in discards:
        if d not in after:
            raise ValueError(f"cannot discard kind {d}: not in the hand")
        si = _SUIT_OF[d]
        rm = removals[si]
        if rm is None:
            rm = removals[si] = _removals(keys[si], si == 3)
        jd = d - 9 * si
        vid, k2 = rm[jd]
        base = after[d]
        gk = (si, vid, base)
        part = others.get(gk)
        if part is None:
            rs = _rests_after(ids, si, vid)
            o_mask = 0
            o_left = 0
            for t in range(4):
                if t == si:
                    continue
                dl = suit_dls[t]
                if dl is None:
                    dl = suit_dls[t] = _draws(keys[t], t == 3)
                mk = (dl, rs[t], n, base)
                gm = gains.get(mk)
                if gm is None:
                    gm = _gain_indices(dl, rs[t], n, base)
                g = gm[0]
                if g:
                    o_mask |= gm[1] << (72 * t)
                    o_left += sum(map(rem_s[t].__getitem__, g))
            part = others[gk] = (o_mask, o_left)
        # the discarded suit: its new key's draws against the other three suits
        dl = ds.get(k2) if si != 3 else None
        if dl is None:
            dl = _draws(k2, si == 3)
        mk = (dl, rests[si], n, base)
        gm = gains.get(mk)
        if gm is None:
            gm = _gain_indices(dl, rests[si], n, base)
        g = gm[0]
        left = part[1] + sum(map(rem_s[si].__getitem__, g))
        if jd in g and raw[d] >= 0:
            left += 1  # one copy of the discarded kind more is unseen
        if closed:
            held = h[d]
            s7 = c7 + (held == 2) + (held == 1 and n_kinds <= 7)
            if d in YAOCHU:
                yp = y_pairs - (held == 2)
                sk = 13 - (y_kinds - (held == 1)) - (1 if yp else 0)
            else:
                yp = y_pairs
                sk = k13
            if s7 == base or sk == base:
                # chiitoitsu/kokushi give the shanten: their draws may add kinds
                # that the regular form does not (see _special_draws)
                if masks is None:
                    hb = bytes(h)
                    masks = (
                        int.from_bytes(hb.translate(_IS_ONE), "little"),
                        int.from_bytes(hb.translate(_IS_ZERO), "little"),
                    )
                bit = 1 << (8 * d)
                ones, zeros = masks
                if held == 1:
                    ones ^= bit
                    zeros |= bit
                elif held == 2:
                    ones |= bit
                extra = 0
                if s7 == base:
                    extra = ones
                    if n_kinds - (held == 1) < 7:
                        extra |= zeros
                if sk == base:
                    extra |= _YAOCHU_MASK & (zeros if yp else zeros | ones)
                new = extra & ~((gm[1] << (72 * si)) | part[0])
                if new:
                    left += sum(map(mul, rem, new.to_bytes(NUM_KINDS, "little")))
                    if new & bit and raw[d] >= 0:
                        left += 1
        out[d] = (base, left)
    return out


def waits(c: Sequence[int]) -> list[Kind]:
    """Kinds that complete a 3n+1 concealed hand, sorted.

    A kind is listed even if the hand itself holds all four copies.
    """
    _check_waiting_size(c)
    base, kinds = _improving(list(c))
    return kinds if base == 0 else []


def is_tenpai(c: Sequence[int]) -> bool:
    """Whether a 3n+1 concealed hand waits on at least one kind (formal tenpai)."""
    _check_waiting_size(c)
    return shanten(c) == 0


def ukeire(
    c: Sequence[int], visible: Sequence[int] | None = None, *, known_shanten: int | None = None
) -> dict[Kind, int]:
    """Kinds whose draw lowers the shanten of a 3n+1 hand, with how many remain unseen.

    ``visible`` counts tiles seen outside this hand (kawa, melds, dora
    indicators). A kind is listed even when none remain (count 0).
    ``known_shanten`` (the hand's shanten, if the caller has it) saves one
    computation; a wrong value gives wrong results.
    """
    _check_waiting_size(c)
    if visible is not None:
        _check_counts(visible)
    h = list(c)
    _, kinds = _improving(h, known_shanten)
    if visible is None:
        return {k: max(0, 4 - h[k]) for k in kinds}
    return {k: max(0, 4 - h[k] - visible[k]) for k in kinds}


# --- wait shapes -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WaitReading:
    """One way a winning tile completes a hand.

    For the regular form, ``blocks`` is the whole reading (pair first) and
    ``win_block`` the index of the block the winning tile completed; for
    chiitoitsu and kokushi ``blocks`` is empty and ``win_block`` is -1.
    """

    form: Form
    shape: WaitShape
    blocks: tuple[Block, ...] = ()
    win_block: int = -1


def wait_readings(c: Sequence[int]) -> dict[Kind, list[WaitReading]]:
    """For each waiting kind of a 3n+1 hand, every reading with its wait shape.

    Chiitoitsu and kokushi waits are tanki (a kokushi 13-sided wait shows as a
    kokushi tanki on each of the 13 kinds).
    """
    out: dict[Kind, list[WaitReading]] = {}
    h = list(c)
    total = sum(h)
    for w in waits(h):
        h[w] += 1
        rs: list[WaitReading] = []
        seen: set[tuple[tuple[Block, ...], int]] = set()
        for reading in regular_readings(h):
            blocks = tuple(reading)
            for blk in blocks:
                shape = block_wait(blk, w)
                if shape is None:
                    continue
                # Two identical blocks in one reading are the same interpretation.
                sig = (blocks, blocks.index(blk))
                if sig in seen:
                    continue
                seen.add(sig)
                rs.append(WaitReading(Form.REGULAR, shape, blocks, sig[1]))
        if total == 13 and is_chiitoitsu(h):
            rs.append(WaitReading(Form.CHIITOITSU, WaitShape.TANKI))
        if total == 13 and is_kokushi(h):
            rs.append(WaitReading(Form.KOKUSHI, WaitShape.TANKI))
        h[w] -= 1
        out[w] = rs
    return out


def is_kokushi_13_wait(c: Sequence[int]) -> bool:
    """Whether a 13-tile hand is the 13-sided kokushi wait (one of each terminal/honor)."""
    _check_counts(c)
    return sum(c) == 13 and all(c[k] == 1 for k in _KOKUSHI_KINDS)


# Block types are re-exported for callers reading wait readings.
__all__ = [
    "Block",
    "BlockType",
    "WaitReading",
    "best_discards",
    "discard_shanten",
    "discard_ukeire",
    "is_kokushi_13_wait",
    "is_tenpai",
    "shanten",
    "shanten_chiitoitsu",
    "shanten_kokushi",
    "shanten_regular",
    "ukeire",
    "wait_readings",
    "waits",
]
