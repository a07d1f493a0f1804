"""Waits, ukeire and discard analysis of a hand, on the shanten tables.

Every function takes a 34-slot count array of CONCEALED tiles (melds already
removed), as in ``shanten.py``, whose per-suit vectors and caches these look
up directly.

Discards and draws change one suit: ``discard_shanten``, ``discard_ukeire``
and ``best_discards`` (both at once, for a tile-efficiency player) look each
suit up against the combined vector of the other three (``_rests``),
memoised per suit, so a whole 14-tile analysis costs dictionary lookups.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from operator import mul, sub

from server.engine.riichi.shanten import (
    _KOKUSHI_KINDS,
    _check_counts,
    _chiitoitsu,
    _combine,
    _final,
    _kokushi,
    _kokushi_counts,
    _pair,
    _pairs,
    _vec_suit,
    _vector_id,
    shanten,
)
from server.engine.tiles import NUM_KINDS, YAOCHU, Kind


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


__all__ = [
    "best_discards",
    "discard_shanten",
    "discard_ukeire",
    "is_tenpai",
    "ukeire",
    "waits",
]
