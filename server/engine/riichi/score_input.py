"""Checks of ``score_hand``'s input: the tile tables it counts a hand with,
melds, red fives and situation flags; each failure is a ScoreError "bad_input".

``score_hand`` does the common checks inline in its first pass over the hand
(they are on its hot path); what is here is shared by it or rarely needed.
"""

from __future__ import annotations

from collections.abc import Sequence

from server.engine.melds import KAN_TYPES, Meld, MeldType
from server.engine.riichi.rules import RuleSet
from server.engine.riichi.win import ScoreError, WinContext
from server.engine.riichi.yaku import IS_YAOCHU
from server.engine.tiles import (
    EAST,
    NUM_KINDS,
    RED_5M,
    RED_5P,
    RED_5S,
    Kind,
    Tile,
    dora_of,
    kind,
    tile_str,
)


def _bad(message: str) -> ScoreError:
    return ScoreError("bad_input", message)


_TILES = frozenset(range(RED_5S + 1))
# Kind of each tile value, red fives mapped to their five (a list index is faster than kind()).
_KIND = [kind(t) for t in range(RED_5S + 1)]
# The dora kind each tile as an indicator points to; a failed lookup: not a tile.
_DORA_OF = {t: dora_of(kind(t)) for t in range(RED_5S + 1)}
# Sanma (S10): 1m points to 9m and 9m to 1m; 2m-8m are not in the game.
_DORA_OF_SANMA = {**_DORA_OF, 0: 8, 8: 0}
_NO_MAN_2_8 = bytes(7)
# Bound of the meld memo table below: it holds the melds hands share and stays
# small in play; the bound only guards against floods of odd input.
_TABLE_LIMIT = 100_000


# Each tile as an int with a one in its kind's byte and, for a red five, a second
# one in byte 34, 35 or 36 (its suit): the sum over a hand's tiles, as 37
# little-endian bytes, is the count of each kind (red fives included) followed by
# the count of each red five. One sum in C instead of a loop and a list per hand;
# a lookup that fails is a value that is not a tile.
_TILE_BITS: dict[Tile, int] = {
    t: (1 << 8 * _KIND[t]) | (1 << 8 * t if t >= NUM_KINDS else 0) for t in range(RED_5S + 1)
}
_COUNT_BYTES = RED_5S + 1
# The bytes of each suit's kinds in such a sum.
_MAN_BITS = (1 << 72) - 1
_PIN_BITS = _MAN_BITS << 72
_SOU_BITS = _MAN_BITS << 144

# One checked meld: (its tiles' _TILE_BITS sum, (first kind,) for a chi or (),
# (kind,) for a pon or kan or (), fu (R22), 1 if an ankan, 1 if a kan, 1 if open).
_MeldInfo = tuple[int, tuple[Kind, ...], tuple[Kind, ...], int, int, int, int]
# Memoised per (tiles, id of the type): a game has only a few hundred distinct
# melds. (The type's id, not the type: hashing an Enum member runs Python code.)
_MELD_INFO: dict[tuple[tuple[Tile, ...], int], _MeldInfo] = {}


def _meld_info(melds: Sequence[Meld], m: Meld) -> _MeldInfo:
    """Check one meld's shape (raising bad_input naming its index) and summarise it."""
    i = next(j for j, x in enumerate(melds) if x is m)
    if not isinstance(m, Meld):
        raise _bad(f"melds[{i}]: not a meld")
    tiles = m.tiles
    if not _TILES.issuperset(tiles):
        raise _bad(f"melds[{i}]: not a meld")
    mt = m.type
    ks = sorted([_KIND[t] for t in tiles])
    n = len(ks)
    if mt is MeldType.CHI:
        k0 = ks[0] if n == 3 else -1
        ok = 0 <= k0 < 27 and k0 % 9 <= 6 and ks[1] == k0 + 1 and ks[2] == k0 + 2
    elif mt is MeldType.PON:
        ok = n == 3 and ks[0] == ks[2]
    else:
        ok = n == 4 and ks[0] == ks[3]
    if not ok:
        raise _bad(f"melds[{i}]: {_tiles_text(tiles)} is not a valid {m.type.value}")
    k0 = ks[0]
    is_open = mt is not MeldType.ANKAN
    is_kan = mt in KAN_TYPES
    bits = sum([_TILE_BITS[t] for t in tiles])
    if mt is MeldType.CHI:
        info: _MeldInfo = (bits, (k0,), (), 0, 0, 0, 1)
    else:
        # R22: 2 fu, doubled for a terminal or honor, doubled if concealed, x4 for a kan
        fu = (4 if IS_YAOCHU[k0] else 2) * (1 if is_open else 2) * (4 if is_kan else 1)
        info = (bits, (), (k0,), fu, int(not is_open), int(is_kan), int(is_open))
    if type(tiles) is tuple:  # not a list: the key must be hashable
        if len(_MELD_INFO) >= _TABLE_LIMIT:
            _MELD_INFO.clear()
        _MELD_INFO[tiles, id(mt)] = info
    return info


def _red_fives(b: bytes, rules: RuleSet) -> int:
    """The number of red fives in a hand that has some (``b``: its _COUNT_BYTES)."""
    if rules.red_fives == 0:
        raise _bad("tiles: red fives are off in these rules")
    reds = b[NUM_KINDS:]
    if max(reds) > 1:
        raise _bad("tiles: more than one red five of a suit")
    return reds[0] + reds[1] + reds[2]


def _check_flags(ctx: WinContext, menzen: bool, kans: int, has_melds: bool) -> None:
    """Refuse situation flags that cannot go together (the rarely set ones)."""
    tsumo = ctx.tsumo
    riichi = ctx.riichi or ctx.double_riichi
    if ctx.ippatsu and not riichi:
        raise _bad("ippatsu: needs riichi")
    if ctx.haitei and not tsumo:
        raise _bad("haitei: needs tsumo")
    if ctx.houtei and tsumo:
        raise _bad("houtei: needs ron")
    if ctx.chankan and tsumo:
        raise _bad("chankan: needs ron")
    if ctx.chankan and ctx.houtei:
        raise _bad("chankan: cannot be on the last discard (houtei)")
    if ctx.rinshan and not tsumo:
        raise _bad("rinshan: needs tsumo")
    if ctx.rinshan and not kans and not ctx.nuki:
        raise _bad("rinshan: needs a kan (or, in sanma, a north set aside)")
    if ctx.tenhou or ctx.chiihou:
        name = "tenhou" if ctx.tenhou else "chiihou"
        if ctx.tenhou and ctx.chiihou:
            raise _bad("tenhou: cannot be both tenhou and chiihou")
        if not tsumo or has_melds:
            raise _bad(f"{name}: needs a tsumo on an untouched hand")
        if ctx.tenhou != (ctx.seat_wind == EAST):
            raise _bad(f"{name}: tenhou is the dealer's, chiihou a non-dealer's")
        if riichi or ctx.rinshan or ctx.haitei:
            raise _bad(f"{name}: cannot combine with riichi, rinshan or haitei")


_RED_FIVES = tuple((red, _KIND[red]) for red in (RED_5M, RED_5P, RED_5S))
_NO_REDS = bytes(3)
_OVER_FOUR = bytes([0] * 5 + [1] * 251)  # translate() table: a count above four -> 1
_NO_COUNTS = bytes(_COUNT_BYTES)


def _tile_name(t: object) -> str:
    return tile_str(t) if isinstance(t, int) and t in _TILES else repr(t)


def _tiles_text(tiles: Sequence[Tile]) -> str:
    return "".join(tile_str(t) for t in tiles)
