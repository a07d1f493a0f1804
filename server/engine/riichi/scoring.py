"""Scoring a win: readings, yaku, fu, limits and payments (R19-R24).

``score_hand`` scores one complete hand in its situation; ``settle_win`` turns
a result into the four seats' score changes, with honba, riichi sticks and pao.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter

from server.engine.melds import KAN_TYPES, Meld, MeldType
from server.engine.riichi.rules import RuleSet
from server.engine.riichi.yaku import (
    IS_YAOCHU,
    PAO_YAKUMAN,
    YAKU_HAN,
    YAKUMAN_IDS,
    hand_yaku,
    hand_yakuman,
    reading_yaku,
    reading_yakuman,
)
from server.engine.tiles import (
    EAST,
    HAKU,
    HATSU,
    NORTH,
    NUM_KINDS,
    RED_5M,
    RED_5P,
    RED_5S,
    WINDS,
    YAOCHU,
    Kind,
    Tile,
    dora_of,
    kind,
    tile_str,
)

_YAKU_RANK = {y: i for i, y in enumerate(YAKU_HAN)}
_YAKUMAN_RANK = {y: i for i, y in enumerate(YAKUMAN_IDS)}


@dataclass(frozen=True, slots=True)
class WinContext:
    """The situation of a win. Winds are kinds 27..30 (E S W N)."""

    win_tile: Tile
    tsumo: bool
    seat_wind: Kind
    round_wind: Kind
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    haitei: bool = False
    houtei: bool = False
    rinshan: bool = False
    chankan: bool = False
    tenhou: bool = False
    chiihou: bool = False
    dora_indicators: tuple[Tile, ...] = ()
    ura_indicators: tuple[Tile, ...] = ()
    honba: int = 0
    riichi_sticks: int = 0
    nuki: int = 0  # sanma: norths the winner has set aside (S12d)


@dataclass(frozen=True, slots=True)
class WinResult:
    yaku: tuple[tuple[str, int], ...]  # (id, han); dora/aka/ura not included
    yakuman: tuple[tuple[str, int], ...]  # (id, multiplier)
    han: int  # incl. dora/aka/ura; 0 for yakuman hands
    fu: int
    limit: str | None
    dora: int
    aka: int
    ura: int
    base: int  # base points after limits (R23)
    nuki: int  # sanma: one dora per north set aside (counted in han, apart from dora)
    payments: dict[str, int]  # before honba and sticks
    total: int  # winner's gain incl. honba and sticks

    @property
    def is_yakuman(self) -> bool:
        return bool(self.yakuman)


class _Filling:
    """WinResult's slots without the frozen dataclass machinery, for score_hand.

    A frozen dataclass sets each field through ``object.__setattr__`` (a call per
    field); score_hand builds one result per hand, so it stores the fields into
    one of these with plain attribute stores, then makes it a WinResult: the same
    slots in the same order, so Python allows the ``__class__`` change, and the
    object is then exactly what ``WinResult(...)`` builds, frozen like it.
    """

    __slots__ = WinResult.__slots__
    yaku: tuple[tuple[str, int], ...]
    yakuman: tuple[tuple[str, int], ...]
    han: int
    fu: int
    limit: str | None
    dora: int
    aka: int
    ura: int
    base: int
    nuki: int
    payments: dict[str, int]
    total: int


class ScoreError(ValueError):
    """A hand that cannot be scored. ``code``: "not_agari" | "no_yaku" | "bad_input"."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _bad(message: str) -> ScoreError:
    return ScoreError("bad_input", message)


# --- points (R23) ---------------------------------------------------------


def base_points(han: int, fu: int, rules: RuleSet) -> tuple[int, str | None]:
    """Base points and limit name of a non-yakuman hand."""
    if han >= 13:
        return (8000, "kazoe") if rules.kazoe_yakuman else (6000, "sanbaiman")
    if han >= 11:
        return 6000, "sanbaiman"
    if han >= 8:
        return 4000, "baiman"
    if han >= 6:
        return 3000, "haneman"
    b = fu << (han + 2)
    if han >= 5 or b >= 2000 or (rules.kiriage_mangan and b == 1920):
        return 2000, "mangan"
    return b, None


def _up100(x: int) -> int:
    return (x + 99) // 100 * 100


def payments_for(base: int, dealer: bool, tsumo: bool, rules: RuleSet) -> dict[str, int]:
    """Who pays what for a win, before honba and sticks (R23; sanma S13)."""
    if not tsumo:
        return {"ron": _up100(base * (6 if dealer else 4))}
    if dealer:
        each = _up100(base * 2)
        if rules.seats == 3 and not rules.tsumo_son:
            each += _up100(base)  # the absent seat's 2B, split between the two payers
        return {"tsumo_nondealer": each}
    from_dealer, each = _up100(base * 2), _up100(base)
    if rules.seats == 3 and not rules.tsumo_son:
        half = _up100(base // 2)  # the absent non-dealer's B, split
        from_dealer, each = from_dealer + half, each + half
    return {"tsumo_dealer": from_dealer, "tsumo_nondealer": each}


# --- validation -----------------------------------------------------------


_TILES = frozenset(range(RED_5S + 1))
# Kind of each tile value, red fives mapped to their five (a list index is faster than kind()).
_KIND = [kind(t) for t in range(RED_5S + 1)]
# The dora kind each tile as an indicator points to; a failed lookup: not a tile.
_DORA_OF = {t: dora_of(kind(t)) for t in range(RED_5S + 1)}
# Sanma (S10): 1m points to 9m and 9m to 1m; 2m-8m are not in the game.
_DORA_OF_SANMA = {**_DORA_OF, 0: 8, 8: 0}
_NO_MAN_2_8 = bytes(7)
# Bound of every memo table below: they hold what hands share (melds, suit shapes)
# and stay small in play; the bound only guards against floods of odd input.
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
_AT_MOST_FOUR = bytes(range(5))  # counts a hand may hold; translate() deletes them
_NO_REDS = bytes(3)
_OVER_FOUR = bytes([0] * 5 + [1] * 251)  # translate() table: a count above four -> 1
_NO_COUNTS = bytes(_COUNT_BYTES)


def _tile_name(t: object) -> str:
    return tile_str(t) if isinstance(t, int) and t in _TILES else repr(t)


def _tiles_text(tiles: Sequence[Tile]) -> str:
    return "".join(tile_str(t) for t in tiles)


# --- readings -------------------------------------------------------------

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


_KOKUSHI_COUNTS = itemgetter(*sorted(YAOCHU))


# --- scoring --------------------------------------------------------------


def score_hand(
    concealed: Sequence[Tile], melds: Sequence[Meld], ctx: WinContext, rules: RuleSet
) -> WinResult:
    """Score a complete hand: ``concealed`` includes the winning tile.

    Picks the highest-scoring reading (R21). Raises ScoreError with code
    "not_agari", "no_yaku" or "bad_input".
    """
    # --- input checks, folded into the hand's first pass (bad_input) ---
    n_melds = len(melds)
    if n_melds > 4:
        raise _bad("melds: at most 4 melds")
    x = 0
    try:
        for t in concealed:
            x += _TILE_BITS[t]
    except (KeyError, TypeError):
        raise _bad("tiles: not a list of tiles") from None
    need = 14 - 3 * n_melds
    if len(concealed) != need:
        raise _bad(
            f"tiles: {len(concealed)} concealed tiles with {n_melds} meld(s); "
            f"expected {need} including the winning tile"
        )
    if ctx.win_tile not in concealed:
        raise _bad(f"win: {_tile_name(ctx.win_tile)} is not among the concealed tiles")
    # Counts by kind, then of red fives (_TILE_BITS): concealed (b) and whole hand (bf).
    b = x.to_bytes(_COUNT_BYTES, "little")
    m_runs: tuple[Kind, ...] = ()
    m_trips: tuple[Kind, ...] = ()
    m_fu = m_ankou = m_kans = n_open = 0
    if n_melds:
        for m in melds:
            try:
                info = _MELD_INFO.get((m.tiles, id(m.type)))
            except (AttributeError, TypeError):  # not a meld, or unhashable tiles
                info = None
            if info is None:
                info = _meld_info(melds, m)
            bits, mr, mt, mf, ma, mk, mo = info
            x += bits
            m_runs += mr
            m_trips += mt
            m_fu += mf
            m_ankou += ma
            m_kans += mk
            n_open += mo
        bf = x.to_bytes(_COUNT_BYTES, "little")
    else:
        bf = b
    # Impossible counts (the whole hand): more than four of a kind, two red fives of
    # a suit, red fives that the rules do not have, four fives without the red one.
    if bf.translate(_OVER_FOUR) != _NO_COUNTS:
        k = bf.index(max(bf))
        raise _bad(f"tiles: more than four of {tile_str(k)} (melds included)")
    sanma = rules.seats == 3
    if sanma and (bf[1:8] != _NO_MAN_2_8 or bf[RED_5M]):
        raise _bad("tiles: 2m-8m are not in three-player mahjong")
    aka = 0
    if bf[NUM_KINDS:] != _NO_REDS:
        aka = _red_fives(bf, rules)
    # bf[4], bf[13], bf[22]: the fives of each suit, red ones included
    if (bf[4] == 4 or bf[13] == 4 or bf[22] == 4) and rules.red_fives:
        for red, five in _RED_FIVES:
            # With red fives there are only three plain fives of each suit.
            if bf[five] == 4 and not bf[red]:
                raise _bad(f"tiles: four fives need the red {tile_str(red)}")
    menzen = not n_open
    tsumo = ctx.tsumo
    seat_wind = ctx.seat_wind
    round_wind = ctx.round_wind
    if seat_wind not in WINDS:
        raise _bad("seat_wind: must be a wind")
    if round_wind not in WINDS:
        raise _bad("round_wind: must be a wind")
    inds = ctx.dora_indicators
    if len(inds) > 5:
        raise _bad("dora_indicators: at most 5 tiles")
    dora = 0  # counted here, as the check of the indicators (R5)
    dora_of = _DORA_OF_SANMA if sanma else _DORA_OF
    nuki = ctx.nuki
    if nuki and (type(nuki) is not int or not 0 < nuki <= 4 or not sanma):
        raise _bad("nuki: 0..4 norths set aside, in three-player mahjong only")
    try:
        for i in inds:
            d = dora_of[i]
            # a north set aside is a north for the indicators too (S12d)
            dora += bf[d] + nuki if d == NORTH else bf[d]
    except (KeyError, TypeError):
        raise _bad("dora_indicators: at most 5 tiles") from None
    uras = ctx.ura_indicators
    if len(uras) > 5 or not _TILES.issuperset(uras):
        raise _bad("ura_indicators: at most 5 tiles")
    v = ctx.honba
    if type(v) is not int or v < 0:
        raise _bad("honba: must be a non-negative integer")
    v = ctx.riichi_sticks
    if type(v) is not int or v < 0:
        raise _bad("riichi_sticks: must be a non-negative integer")
    riichi = ctx.riichi
    double_riichi = ctx.double_riichi
    if (riichi or double_riichi) and n_open:
        raise _bad("riichi: an open hand cannot be in riichi")
    # Most wins have none of these flags: their checks (and yaku below) are apart.
    rare = ctx.ippatsu or ctx.haitei or ctx.houtei or ctx.chankan or ctx.rinshan
    tenhou = ctx.tenhou
    chiihou = ctx.chiihou
    if rare or tenhou or chiihou:
        _check_flags(ctx, menzen, m_kans, n_melds > 0)

    # --- readings and yaku ---
    win = _KIND[ctx.win_tile]
    parts = _reading_parts(b)
    chiitoitsu = kokushi = False
    if not n_melds:
        chiitoitsu = b.count(2) == 7
        # (thirteen single yaochu kinds leave no regular reading)
        kokushi = not parts and b.count(0, 0, NUM_KINDS) == 21 and 0 not in _KOKUSHI_COUNTS(b)
    if not parts and not chiitoitsu and not kokushi:
        raise ScoreError("not_agari", "the hand is not complete")

    honors = sum(bf[27:34])
    suited = 14 + m_kans - honors  # a kan is a fourth tile
    terminals = bf[0] + bf[8] + bf[9] + bf[17] + bf[18] + bf[26]
    no_man = not x & _MAN_BITS  # x: the whole hand's _TILE_BITS sum
    no_pin = not x & _PIN_BITS
    one_suit = no_man + no_pin + (not x & _SOU_BITS) == 2
    hand_ym: list[tuple[str, int]] = []
    # Only these hands can hold a yakuman of tiles alone (see hand_yakuman): all
    # honors; all terminals; chuuren (one suit, closed, 1 and 9 three times each);
    # ryuuiisou (sou and hatsu only).
    if (
        suited == 0
        or (honors == 0 and (terminals == suited or (one_suit and terminals >= 6 and not n_melds)))
        or (no_man and no_pin and honors == bf[HATSU])
    ):
        hand_ym = hand_yakuman(
            suited, honors, terminals, one_suit, no_man and no_pin, bf, b, win, n_melds > 0, rules
        )
    if tenhou:
        hand_ym.append(("tenhou", 1))
    elif chiihou:
        hand_ym.append(("chiihou", 1))
    fixed: list[tuple[str, int]] = []
    extra_han = ura = 0
    if not hand_ym:
        # Yaku of the situation and of the tiles held count for every reading.
        # (Listing order comes from the final sort, so situation yaku just append.)
        fixed = hand_yaku(suited, honors, terminals, one_suit, menzen, rules)
        if double_riichi:
            fixed.append(("double_riichi", 2))
        elif riichi:
            fixed.append(("riichi", 1))
        if menzen and tsumo:
            fixed.append(("menzen_tsumo", 1))
        if rare:
            if ctx.ippatsu:
                fixed.append(("ippatsu", 1))
            if ctx.rinshan:
                fixed.append(("rinshan_kaihou", 1))
            if ctx.chankan:
                fixed.append(("chankan", 1))
            # Tenhou: a rinshan draw from the last tile is rinshan kaihou, not haitei too.
            if ctx.haitei and not ctx.rinshan:
                fixed.append(("haitei", 1))
            if ctx.houtei:
                fixed.append(("houtei", 1))
        if riichi or double_riichi:  # R21: ura only with riichi
            for i in uras:
                d = dora_of[i]
                ura += bf[d] + nuki if d == NORTH else bf[d]
        extra_han = dora + aka + ura + nuki
        for _, h in fixed:
            extra_han += h
    dbl = 2 if rules.double_yakuman else 1

    # (base, yakuman?, han, fu) orders readings by points first (R21), then by han and
    # fu like Tenhou; the winner's yaku list and result are only built once.
    best_key: tuple[int, int, int, int] = (-1, 0, 0, 0)
    best_yaku: list[tuple[str, int]] = []
    best_limit: str | None = None
    if chiitoitsu:
        if hand_ym:
            best_key = (8000 * sum([n for _, n in hand_ym]), 1, 0, 25)
            best_yaku = hand_ym
        else:
            han = extra_han + 2
            base, best_limit = base_points(han, 25, rules)
            best_key = (base, 0, han, 25)
            best_yaku = [*fixed, ("chiitoitsu", 2)]
    if kokushi:
        # 13-sided: the thirteen kinds were all held before the win, so the pair is the win tile.
        ym = [*hand_ym, ("kokushi", dbl if b[win] == 2 else 1)]
        key = (8000 * sum([n for _, n in ym]), 1, 0, 0)
        if key > best_key:
            best_key, best_yaku = key, ym

    n_open_trips = len(m_trips) - m_ankou
    # R22 fu of the melds and of a closed ron / tsumo, shared by every reading
    fu_hand = 20 + m_fu + (2 if tsumo else 10 if menzen else 0)
    wi = win // 9  # the part of the winning tile's suit (or the honors)
    wpos = win - 9 * wi  # and the winning tile's place in it
    for pm, pp, ps, ph in parts:
        # the reading (see _reading_parts), melds included
        pair = pm[0] + pp[0] + ps[0] + ph[0] + 3
        runs = pm[1] + pp[1] + ps[1] + m_runs
        trips = pm[2] + pp[2] + ps[2] + ph[2] + m_trips
        ankou_fu = pm[3] + pp[3] + ps[3] + ph[3]
        n_runs = len(runs)
        ankou0 = len(trips) - n_open_trips
        # the waits, from the part of the winning tile's suit
        wp = pm if wi == 0 else pp if wi == 1 else ps if wi == 2 else ph
        wl = wp[4]
        code = wl[wpos]
        if not code:
            code = wl[wpos] = _wait_code(wp, win)
        waits = _WAIT_LISTS[code]
        rym = hand_ym
        # Three honor triplets (nine honors at least) or four kans, or no yakuman here.
        if (honors >= 9 or m_kans == 4) and len(trips) >= 3:
            rym = reading_yakuman(trips, pair, m_kans, rules)
            if hand_ym:
                rym = hand_ym + rym
        # R22 fu that every wait of this reading shares: the hand's, concealed
        # triplets (as ankou) and a value pair.
        fu0 = fu_hand + ankou_fu
        value_pair = False
        if pair >= 27:
            if pair >= HAKU:
                value_pair = True
                fu0 += 2
            elif pair == seat_wind and pair == round_wind:
                value_pair = True
                fu0 += rules.double_wind_pair_fu
            elif pair in (seat_wind, round_wind):
                value_pair = True
                fu0 += 2
        ry: list[tuple[str, int]] | None = None
        rh = 0
        for wait in waits:
            # A triplet completed by ron is a minkou: open for fu and not an ankou (R22).
            ron_trip = wait == _SHANPON and not tsumo
            ankou = ankou0 - ron_trip
            pinfu = n_runs == 4 and wait == _RYANMEN and not value_pair
            if pinfu and tsumo and menzen:
                fu = 20  # pinfu tsumo: no tsumo fu
            else:
                fu = fu0
                if wait >= _KANCHAN and wait != _SHANPON:
                    fu += 2
                if ron_trip:
                    fu -= 4 if IS_YAOCHU[win] else 2
                fu = 30 if fu == 20 else (fu + 9) // 10 * 10
            ym = [*rym, ("suuankou", dbl if wait == _TANKI else 1)] if ankou == 4 else rym
            if ym:
                key = (8000 * sum([n for _, n in ym]), 1, 0, fu)
                if key > best_key:
                    best_key, best_yaku = key, ym
                continue
            if ry is None:
                ry, rh = reading_yaku(
                    runs, trips, pair, m_kans, menzen, seat_wind, round_wind, rules
                )
            pinfu = pinfu and menzen
            han = extra_han + rh + pinfu + (2 if ankou == 3 else 0)
            if han == dora + aka + ura + nuki:
                continue  # dora alone are not a yaku
            if han >= 5:
                base, limit = base_points(han, fu, rules)
            else:  # base_points inline for the usual hand
                base = fu << (han + 2)
                limit = None
                if base >= 2000 or (base == 1920 and rules.kiriage_mangan):
                    base, limit = 2000, "mangan"
            key = (base, 0, han, fu)
            if key > best_key:
                best_key = key
                best_limit = limit
                best_yaku = fixed + ry
                if pinfu:
                    best_yaku.append(("pinfu", 1))
                if ankou == 3:
                    best_yaku.append(("sanankou", 2))
    base, is_ym, han, fu = best_key
    if base < 0:
        raise ScoreError("no_yaku", "the hand is complete but has no yaku")
    # payments_for inline, with the winner's gain (R23)
    payers = 2 if sanma else 3
    if not tsumo:
        gain = (base * (6 if seat_wind == EAST else 4) + 99) // 100 * 100
        pay = {"ron": gain}
    elif sanma:
        pay = payments_for(base, seat_wind == EAST, True, rules)
        each = pay["tsumo_nondealer"]
        gain = 2 * each if seat_wind == EAST else pay["tsumo_dealer"] + each
    elif seat_wind == EAST:
        each = (base * 2 + 99) // 100 * 100
        gain = 3 * each
        pay = {"tsumo_nondealer": each}
    else:
        from_dealer = (base * 2 + 99) // 100 * 100
        each = (base + 99) // 100 * 100
        gain = from_dealer + 2 * each
        pay = {"tsumo_dealer": from_dealer, "tsumo_nondealer": each}
    # R19: 100 per honba from each payer (a ron's discarder pays for all of them)
    total = gain + 100 * payers * ctx.honba + 1000 * ctx.riichi_sticks
    # The WinResult is filled here rather than through its __init__ (see _Filling).
    r = _Filling()
    if is_ym:
        r.yaku = ()
        r.yakuman = tuple(sorted(best_yaku, key=_ORDER.__getitem__))
        r.han = 0
        r.limit = "yakuman"
        r.dora = r.aka = r.ura = r.nuki = 0
    else:
        if len(best_yaku) > 1:
            best_yaku.sort(key=_ORDER.__getitem__)
        r.yaku = tuple(best_yaku)
        r.yakuman = ()
        r.han = han
        r.limit = best_limit
        r.dora = dora
        r.aka = aka
        r.ura = ura
        r.nuki = nuki
    r.fu = fu
    r.base = base
    r.payments = pay
    r.total = total
    r.__class__ = WinResult  # type: ignore[assignment]
    return r  # type: ignore[return-value]  # a WinResult since the line above


class _Order(dict[tuple[str, int], int]):
    """Listing order of (id, han) yaku and (id, multiplier) yakuman entries."""

    def __missing__(self, key: tuple[str, int]) -> int:
        y = key[0]
        return _YAKU_RANK[y] if y in _YAKU_RANK else _YAKUMAN_RANK[y]


# Keyed by the whole entry so that sorting needs no Python key function.
_ORDER = _Order(
    [((y, h), i) for y, i in _YAKU_RANK.items() for h in YAKU_HAN[y] if h]
    + [((y, m), i) for y, i in _YAKUMAN_RANK.items() for m in (1, 2)]
)

# --- settlement (R19, R20, R24) -------------------------------------------


def pao_multiplier(result: WinResult) -> int:
    """The yakuman multiplier a pao seat is liable for (daisangen, daisuushii)."""
    return sum(m for y, m in result.yakuman if y in PAO_YAKUMAN)


def settle_win(
    result: WinResult,
    *,
    winner: int,
    dealer: int,
    discarder: int | None,
    pao: int | None,
    honba: int,
    riichi_sticks: int,
    rules: RuleSet,
) -> list[int]:
    """Every seat's score change for one win, honba and riichi sticks included.

    ``discarder`` None means tsumo. ``pao`` is the liable seat (R24), if any;
    it only matters when the hand has daisangen or daisuushii and the rules
    have pao. Pao pays its part in full on tsumo (honba too, when the whole hand
    is its part) and half on ron, where the discarder pays the rest and the honba.
    Three players (S13, S14): a tsumo's payers are the two others (tsumo-son as the
    rules say), and 100 per honba comes from each payer, a ron's discarder paying
    for both.
    """
    n = rules.seats
    for name, seat in (("winner", winner), ("dealer", dealer)):
        if seat not in range(n):
            raise ValueError(f"{name} must be a seat 0..{n - 1}")
    if discarder is not None and (discarder not in range(n) or discarder == winner):
        raise ValueError(f"discarder must be another seat 0..{n - 1}")
    if pao is not None and (pao not in range(n) or pao == winner):
        raise ValueError(f"pao must be another seat 0..{n - 1}")
    if honba < 0 or riichi_sticks < 0:
        raise ValueError("honba and riichi_sticks must be non-negative")
    deltas = [0] * n
    is_dealer = winner == dealer
    base = result.base
    mult = 6 if is_dealer else 4
    honba_all = 100 * (n - 1) * honba  # what the whole table pays for the honba
    liable = pao_multiplier(result) if (pao is not None and rules.pao) else 0
    if liable and rules.pao_whole_hand:
        liable = sum(m for _, m in result.yakuman)  # R24: every yakuman of the hand
    if liable:
        pao_base = 8000 * liable
        if discarder is not None:
            pao_base //= 2
        base -= pao_base
        assert pao is not None
        deltas[pao] -= pao_base * mult
        deltas[winner] += pao_base * mult
    deltas[winner] += 1000 * riichi_sticks
    if discarder is not None:
        pay = _up100(base * mult) + honba_all
        deltas[discarder] -= pay
        deltas[winner] += pay
    elif base == 0:
        # The whole hand was pao's: it pays the honba as well.
        assert pao is not None
        deltas[pao] -= honba_all
        deltas[winner] += honba_all
    else:
        pay_ = payments_for(base, is_dealer, True, rules)
        for s in range(n):
            if s == winner:
                continue
            share = pay_["tsumo_dealer"] if s == dealer else pay_["tsumo_nondealer"]
            deltas[s] -= share + 100 * honba
            deltas[winner] += share + 100 * honba
    return deltas
