"""The regular readings of a complete hand, as scoring needs them.

Each suit's counts split into sets and at most one pair, memoised per suit
shape, with the fu of concealed triplets (R22); a whole hand's readings are the
products of its suits' splits. Each split also caches the wait shapes the
winning tile can have completed in it (see ``_wait_code``). This is the kernel
of ``scoring.score_hand``, which reads these tables and tuples directly.
"""

from __future__ import annotations

from server.engine.riichi.yaku import IS_YAOCHU
from server.engine.tiles import Kind

# Bound of every memo table below: they hold what hands share (suit shapes) and
# stay small in play; the bound only guards against floods of odd input.
_TABLE_LIMIT = 100_000

# A regular reading of the concealed tiles: (pair kind or -1, first kinds of the
# runs, kinds of the triplets, the triplets' fu as ankou), kinds ascending.
_Reading = tuple[Kind, tuple[Kind, ...], tuple[Kind, ...], int]
# One part of it (one suit's or the honors' split), with its waits: for each
# position of a winning tile in the part, the number in _WAIT_LISTS of the wait
# shapes it can have completed, 0 until a win there needed it (see _wait_code).
# A bytearray, not a list: the tables' tuples then hold no container and the
# garbage collector leaves them alone.
_Split = tuple[Kind, tuple[Kind, ...], tuple[Kind, ...], int, bytearray]

# Every split of one suit's nine counts into sets and at most one pair, memoised
# per distinct count vector (the bytes of the nine counts); a whole hand's
# readings are the products of its suits' splits. Winning hands show only a few
# thousand distinct suit vectors.
_SUIT_SPLITS: tuple[dict[bytes, tuple[_Split, ...]], ...] = ({}, {}, {})
_HONOR_SPLITS: dict[bytes, tuple[_Split, ...]] = {}


def _suit_sets(key: bytes, s: int) -> tuple[_Split, ...]:
    """Every split of one suit's counts (a multiple of 3 tiles) into sets, memoised.

    The lowest kind held is either a triplet or the start of a run (triplet first,
    the order agari.regular_readings uses); what is left is a smaller suit vector,
    looked up in (or added to) the same table, so a new vector mostly costs one
    step and a lookup.
    """
    table = _SUIT_SPLITS[s]
    res = table.get(key)
    if res is not None:
        return res
    rest = key.lstrip(b"\0")
    if not rest:
        res = ((-1, (), (), 0, bytearray(9)),)
    else:
        i = 9 - len(rest)
        k = 9 * s + i
        out: list[_Split] = []
        c = bytearray(key)
        if c[i] >= 3:
            c[i] -= 3
            tfu = 8 if IS_YAOCHU[k] else 4  # R22 ankou
            for sp in _suit_sets(bytes(c), s):
                out.append((-1, sp[1], (k, *sp[2]), sp[3] + tfu, bytearray(9)))
            c[i] += 3
        if i <= 6 and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            for sp in _suit_sets(bytes(c), s):
                out.append((-1, (k, *sp[1]), sp[2], sp[3], bytearray(9)))
        res = tuple(out)
    if len(table) >= _TABLE_LIMIT:
        table.clear()
    table[key] = res
    return res


def _suit_splits(key: bytes, s: int) -> tuple[_Split, ...]:
    """Every split of one suit's counts into sets and at most one pair (memoised)."""
    n = sum(key) % 3
    if n == 0:
        return _suit_sets(key, s)
    out: list[_Split] = []
    if n == 2:
        # Runs and triplets each add a multiple of 3 to sum(i * c[i]), so the pair
        # p must have 2p = that sum (mod 3): one pair position in three is tried.
        c = bytearray(key)
        r = 2 * (sum(key[1::3]) + 2 * sum(key[2::3])) % 3  # i * c[i] summed, mod 3
        base = 9 * s
        for p in range(r, 9, 3):
            if c[p] >= 2:
                c[p] -= 2
                found = _suit_sets(bytes(c), s)
                c[p] += 2
                out += [(base + p, sp[1], sp[2], sp[3], bytearray(9)) for sp in found]
    res = tuple(out)
    table = _SUIT_SPLITS[s]
    if len(table) >= _TABLE_LIMIT:
        table.clear()
    table[key] = res
    return res


def _honor_splits(key: bytes) -> tuple[_Split, ...]:
    if len(_HONOR_SPLITS) >= _TABLE_LIMIT:
        _HONOR_SPLITS.clear()
    pair = -1
    trips: list[Kind] = []
    res: tuple[_Split, ...] = ()
    for i, n in enumerate(key):
        if n == 3:
            trips.append(27 + i)
        elif n == 2 and pair < 0:
            pair = 27 + i
        elif n:
            break
    else:
        res = ((pair, (), tuple(trips), 8 * len(trips), bytearray(7)),)
    _HONOR_SPLITS[key] = res
    return res


# The suit tables by name: a global load is cheaper than indexing _SUIT_SPLITS.
_SPLITS_M, _SPLITS_P, _SPLITS_S = _SUIT_SPLITS
_Parts = tuple[_Split, _Split, _Split, _Split]


def _reading_parts(b: bytes) -> list[_Parts]:
    """The regular readings of concealed counts (as bytes, 3n+2 tiles) as their parts:
    one split of each suit and one of the honors, pair ascending like
    agari.regular_readings. A reading is the parts together: pair = the sum of their
    pair kinds + 3 (the three without the pair have -1), runs, triplets and fu summed.
    """
    key = b[0:9]
    try:
        m = _SPLITS_M[key]
    except KeyError:
        m = _suit_splits(key, 0)
    key = b[9:18]
    try:
        p = _SPLITS_P[key]
    except KeyError:
        p = _suit_splits(key, 1)
    key = b[18:27]
    try:
        s = _SPLITS_S[key]
    except KeyError:
        s = _suit_splits(key, 2)
    key = b[27:34]
    try:
        hs = _HONOR_SPLITS[key]
    except KeyError:
        hs = _honor_splits(key)
    if not m or not p or not s or not hs:
        return []
    h = hs[0]
    a, b_, c = m[0], p[0], s[0]
    # A part with a pair holds 2 tiles mod 3, one without it none; with 3n+2 tiles
    # that makes one part with the pair, or all four (not a reading).
    if h[0] >= 0 and a[0] >= 0 and b_[0] >= 0 and c[0] >= 0:
        return []
    if len(m) == 1 and len(p) == 1 and len(s) == 1:
        return [(a, b_, c, h)]
    out = [(a, b_, c, h) for a in m for b_ in p for c in s]
    out.sort(key=_parts_pair)
    return out


def _parts_pair(parts: _Parts) -> Kind:
    return parts[0][0] + parts[1][0] + parts[2][0]


def _regular_readings(b: bytes) -> list[_Reading]:
    """Every regular reading of concealed counts (as bytes, 3n+2 tiles), pair
    ascending like agari.regular_readings. (score_hand joins _reading_parts itself.)"""
    return [
        (
            a[0] + b_[0] + c[0] + h[0] + 3,
            a[1] + b_[1] + c[1],
            a[2] + b_[2] + c[2] + h[2],
            a[3] + b_[3] + c[3] + h[3],
        )
        for a, b_, c, h in _reading_parts(b)
    ]


# Wait shapes as small ints in the scoring loop (WaitShape names in comments).
_RYANMEN, _KANCHAN, _PENCHAN, _SHANPON, _TANKI = range(5)


# Every wait list met so far; 0 stands for "not worked out yet" (a handful exist).
_WAIT_LISTS: list[tuple[int, ...]] = [()]
_WAIT_CODES: dict[tuple[int, ...], int] = {}


def _wait_code(part: _Split, win: Kind) -> int:
    """The blocks of a reading's part that the winning tile (of the part's suit)
    can have completed, in agari's block order (pair, runs, triplets), as the
    number of that list in _WAIT_LISTS."""
    pair, runs, trips = part[0], part[1], part[2]
    waits: list[int] = []
    if pair == win:
        waits.append(_TANKI)
    if win - 2 in runs:
        waits.append(_PENCHAN if win % 9 == 2 else _RYANMEN)
    if win - 1 in runs:
        waits.append(_KANCHAN)
    if win in trips:
        waits.append(_SHANPON)
    if win in runs:
        waits.append(_PENCHAN if win % 9 == 6 else _RYANMEN)
    key = tuple(waits)
    code = _WAIT_CODES.get(key)
    if code is None:
        code = _WAIT_CODES[key] = len(_WAIT_LISTS)
        _WAIT_LISTS.append(key)
    return code
