"""Scoring a win: the best reading's yaku, fu and limit, and what it pays (R19-R23).

``score_hand`` scores one complete hand in its situation (``win.WinContext``)
and gives its ``win.WinResult``; ``points.settle_win`` turns that into the
seats' score changes, with pao. The hand's readings come from ``readings.py``,
its input checks from ``score_input.py``, limits and payments from ``points.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter

from server.engine.melds import Meld
from server.engine.riichi.points import base_points, payments_for
from server.engine.riichi.readings import (
    _KANCHAN,
    _RYANMEN,
    _SHANPON,
    _TANKI,
    _WAIT_LISTS,
    _reading_parts,
    _wait_code,
)
from server.engine.riichi.rules import RuleSet
from server.engine.riichi.score_input import (
    _COUNT_BYTES,
    _DORA_OF,
    _DORA_OF_SANMA,
    _KIND,
    _MAN_BITS,
    _MELD_INFO,
    _NO_COUNTS,
    _NO_MAN_2_8,
    _NO_REDS,
    _OVER_FOUR,
    _PIN_BITS,
    _RED_FIVES,
    _SOU_BITS,
    _TILE_BITS,
    _TILES,
    _bad,
    _check_flags,
    _meld_info,
    _red_fives,
    _tile_name,
)
from server.engine.riichi.win import ScoreError, WinContext, WinResult
from server.engine.riichi.yaku import (
    IS_YAOCHU,
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
    WINDS,
    YAOCHU,
    Kind,
    Tile,
    tile_str,
)

_YAKU_RANK = {y: i for i, y in enumerate(YAKU_HAN)}
_YAKUMAN_RANK = {y: i for i, y in enumerate(YAKUMAN_IDS)}


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
