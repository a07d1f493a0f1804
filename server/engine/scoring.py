"""Scoring a win: readings, yaku, fu, limits and payments (R19-R24).

``score_hand`` scores one complete hand in its situation; ``settle_win`` turns
a result into the four seats' score changes, with honba, riichi sticks and pao.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from server.engine.agari import (
    BlockType,
    Form,
    WaitShape,
    block_wait,
    is_chiitoitsu,
    is_kokushi,
    regular_readings,
)
from server.engine.melds import Meld, MeldType
from server.engine.rules import RuleSet
from server.engine.tiles import (
    DRAGONS,
    EAST,
    NUM_KINDS,
    RED_5M,
    RED_5S,
    WINDS,
    YAOCHU,
    Kind,
    Tile,
    dora_of,
    kind,
    tile_str,
)
from server.engine.yaku import (
    PAO_YAKUMAN,
    YAKU_HAN,
    YAKUMAN_IDS,
    Mentsu,
    Reading,
    Tally,
    hand_yaku,
    hand_yakuman,
    is_value_pair,
    reading_yaku,
    reading_yakuman,
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
    payments: dict[str, int]  # before honba and sticks
    total: int  # winner's gain incl. honba and sticks

    @property
    def is_yakuman(self) -> bool:
        return bool(self.yakuman)


class ScoreError(ValueError):
    """A hand that cannot be scored. ``code``: "not_agari" | "no_yaku" | "bad_input"."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _bad(message: str) -> ScoreError:
    return ScoreError("bad_input", message)


# --- fu (R22) -------------------------------------------------------------


def fu_of(
    r: Reading, menzen: bool, tsumo: bool, seat_wind: Kind, round_wind: Kind, rules: RuleSet
) -> int:
    """Fu of a reading, rounded up to 10 (chiitoitsu 25; kokushi 0: it is never priced by fu)."""
    if r.form is Form.CHIITOITSU:
        return 25
    if r.form is Form.KOKUSHI:
        return 0
    pair = r.pair
    assert pair is not None
    fu = 20
    all_runs = all(s.run for s in r.sets)
    pinfu_shape = all_runs and r.wait is WaitShape.RYANMEN
    pinfu_shape = pinfu_shape and not is_value_pair(pair, seat_wind, round_wind)
    if tsumo and menzen and pinfu_shape:
        return 20  # pinfu tsumo: no tsumo fu
    if menzen and not tsumo:
        fu += 10
    if tsumo:
        fu += 2
    if r.wait in (WaitShape.KANCHAN, WaitShape.PENCHAN, WaitShape.TANKI):
        fu += 2
    if pair in DRAGONS:
        fu += 2
    elif pair == seat_wind and pair == round_wind:
        fu += rules.double_wind_pair_fu
    elif pair in (seat_wind, round_wind):
        fu += 2
    for s in r.sets:
        if s.run:
            continue
        f = 2
        if s.first in YAOCHU:
            f *= 2
        if not s.open:
            f *= 2
        if s.kan:
            f *= 4
        fu += f
    if fu == 20:
        return 30  # open hand of pinfu shape won by ron
    return (fu + 9) // 10 * 10


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


def payments_for(base: int, dealer: bool, tsumo: bool) -> dict[str, int]:
    """Who pays what for a win, before honba and sticks (R23)."""
    if not tsumo:
        return {"ron": _up100(base * (6 if dealer else 4))}
    if dealer:
        return {"tsumo_nondealer": _up100(base * 2)}
    return {"tsumo_dealer": _up100(base * 2), "tsumo_nondealer": _up100(base)}


def _payment_total(payments: dict[str, int]) -> int:
    if "ron" in payments:
        return payments["ron"]
    if "tsumo_dealer" in payments:
        return payments["tsumo_dealer"] + 2 * payments["tsumo_nondealer"]
    return 3 * payments["tsumo_nondealer"]


# --- validation -----------------------------------------------------------


_TILES = frozenset(range(RED_5S + 1))
# Kind of each tile value, red fives mapped to their five (a list index is faster than kind()).
_KIND = [kind(t) for t in range(RED_5S + 1)]
_DORA_OF = [dora_of(kind(t)) for t in range(RED_5S + 1)]


def _validate(
    concealed: Sequence[Tile], melds: Sequence[Meld], ctx: WinContext, rules: RuleSet
) -> tuple[list[int], list[int], int]:
    """Check the input; return the concealed and the whole hand's count arrays and
    the number of red fives."""
    if len(melds) > 4:
        raise _bad("melds: at most 4 melds")
    if not _TILES.issuperset(concealed):
        raise _bad("tiles: not a list of tiles")
    need = 14 - 3 * len(melds)
    if len(concealed) != need:
        raise _bad(
            f"tiles: {len(concealed)} concealed tiles with {len(melds)} meld(s); "
            f"expected {need} including the winning tile"
        )
    if ctx.win_tile not in concealed:
        raise _bad(f"win: {_tile_name(ctx.win_tile)} is not among the concealed tiles")
    c = [0] * NUM_KINDS
    for t in concealed:
        c[_KIND[t]] += 1
    full = c[:]
    reds = [t for t in concealed if t >= NUM_KINDS]
    for i, m in enumerate(melds):
        if not isinstance(m, Meld) or not _TILES.issuperset(m.tiles):
            raise _bad(f"melds[{i}]: not a meld")
        ks = sorted(_KIND[t] for t in m.tiles)
        if m.type is MeldType.CHI:
            ok = len(ks) == 3 and ks[0] < 27 and ks[0] % 9 <= 6 and ks[1:] == [ks[0] + 1, ks[0] + 2]
        elif m.type is MeldType.PON:
            ok = len(ks) == 3 and ks[0] == ks[2]
        else:
            ok = len(ks) == 4 and ks[0] == ks[3]
        if not ok:
            raise _bad(f"melds[{i}]: {_tiles_text(m.tiles)} is not a valid {m.type.value}")
        for k in ks:
            full[k] += 1
        reds += [t for t in m.tiles if t >= NUM_KINDS]
    if max(full) > 4:
        k = full.index(max(full))
        raise _bad(f"tiles: more than four of {tile_str(k)} (melds included)")
    if reds:
        if rules.red_fives == 0:
            raise _bad("tiles: red fives are off in these rules")
        if len(set(reds)) != len(reds):
            raise _bad("tiles: more than one red five of a suit")
    if rules.red_fives:
        for red in (RED_5M, RED_5M + 1, RED_5S):
            # With red fives there are only three plain fives of each suit.
            if full[_KIND[red]] == 4 and red not in reds:
                raise _bad(f"tiles: four fives need the red {tile_str(red)}")
    if ctx.seat_wind not in WINDS:
        raise _bad("seat_wind: must be a wind")
    if ctx.round_wind not in WINDS:
        raise _bad("round_wind: must be a wind")
    for name, inds in (
        ("dora_indicators", ctx.dora_indicators),
        ("ura_indicators", ctx.ura_indicators),
    ):
        if len(inds) > 5 or not _TILES.issuperset(inds):
            raise _bad(f"{name}: at most 5 tiles")
    for name in ("honba", "riichi_sticks"):
        v = getattr(ctx, name)
        if type(v) is not int or v < 0:
            raise _bad(f"{name}: must be a non-negative integer")
    open_hand = any(m.is_open for m in melds)
    riichi = ctx.riichi or ctx.double_riichi
    if riichi and open_hand:
        raise _bad("riichi: an open hand cannot be in riichi")
    if ctx.ippatsu and not riichi:
        raise _bad("ippatsu: needs riichi")
    if ctx.haitei and not ctx.tsumo:
        raise _bad("haitei: needs tsumo")
    if ctx.houtei and ctx.tsumo:
        raise _bad("houtei: needs ron")
    if ctx.chankan and ctx.tsumo:
        raise _bad("chankan: needs ron")
    if ctx.chankan and ctx.houtei:
        raise _bad("chankan: cannot be on the last discard (houtei)")
    if ctx.rinshan and not ctx.tsumo:
        raise _bad("rinshan: needs tsumo")
    if ctx.rinshan and not any(m.is_kan for m in melds):
        raise _bad("rinshan: needs a kan")
    if ctx.tenhou or ctx.chiihou:
        name = "tenhou" if ctx.tenhou else "chiihou"
        if ctx.tenhou and ctx.chiihou:
            raise _bad("tenhou: cannot be both tenhou and chiihou")
        if not ctx.tsumo or melds:
            raise _bad(f"{name}: needs a tsumo on an untouched hand")
        if ctx.tenhou != (ctx.seat_wind == EAST):
            raise _bad(f"{name}: tenhou is the dealer's, chiihou a non-dealer's")
        if riichi or ctx.rinshan or ctx.haitei:
            raise _bad(f"{name}: cannot combine with riichi, rinshan or haitei")
    return c, full, len(reds)


def _tile_name(t: object) -> str:
    return tile_str(t) if isinstance(t, int) and t in _TILES else repr(t)


def _tiles_text(tiles: Sequence[Tile]) -> str:
    return "".join(tile_str(t) for t in tiles)


# --- readings -------------------------------------------------------------


# Every possible set, built once: readings share these instead of allocating their own.
_MENTSU: dict[tuple[Kind, bool, bool, bool], Mentsu] = {
    (f, run, op, kan): Mentsu(f, run, op, kan)
    for f in range(NUM_KINDS)
    for run in (False, True)
    for op in (False, True)
    for kan in (False, True)
}


def readings_of(
    concealed_counts: list[int], melds: Sequence[Meld], win: Kind, tsumo: bool
) -> tuple[Reading, ...]:
    """Every reading of a complete hand, once per way the winning tile can have completed it."""
    meld_sets = tuple(
        _MENTSU[min(_KIND[t] for t in m.tiles), m.type is MeldType.CHI, m.is_open, m.is_kan]
        for m in melds
    )
    return _readings(tuple(concealed_counts), meld_sets, win, tsumo)


# The state machine scores the same concealed hand again and again (every ron check,
# every wait shown to a seat), so readings are remembered; they are immutable.
@lru_cache(maxsize=8192)
def _readings(
    c: tuple[int, ...], meld_sets: tuple[Mentsu, ...], win: Kind, tsumo: bool
) -> tuple[Reading, ...]:
    out: list[Reading] = []
    concealed_counts = list(c)
    if not meld_sets:
        if is_chiitoitsu(concealed_counts):
            out.append(Reading(Form.CHIITOITSU))
        if is_kokushi(concealed_counts):
            out.append(Reading(Form.KOKUSHI))
    for blocks in regular_readings(concealed_counts):
        pair = blocks[0].first
        seen: set[tuple[BlockType, Kind]] = set()
        for wi, wb in enumerate(blocks):
            wait = block_wait(wb, win)
            if wait is None or (wb.type, wb.first) in seen:
                continue
            seen.add((wb.type, wb.first))
            sets: list[Mentsu] = []
            for j, b in enumerate(blocks[1:], start=1):
                if b.type is BlockType.SHUNTSU:
                    sets.append(_MENTSU[b.first, True, False, False])
                else:
                    # A triplet finished by ron is a minkou: open for fu and ankou (R22).
                    sets.append(_MENTSU[b.first, False, j == wi and not tsumo, False])
            out.append(Reading(Form.REGULAR, tuple(sets) + meld_sets, pair, wait))
    return tuple(out)


# --- scoring --------------------------------------------------------------


def _situation_yaku(ctx: WinContext, menzen: bool) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    if ctx.double_riichi:
        out.append(("double_riichi", 2))
    elif ctx.riichi:
        out.append(("riichi", 1))
    if ctx.ippatsu:
        out.append(("ippatsu", 1))
    if menzen and ctx.tsumo:
        out.append(("menzen_tsumo", 1))
    if ctx.rinshan:
        out.append(("rinshan_kaihou", 1))
    if ctx.chankan:
        out.append(("chankan", 1))
    # Tenhou: a rinshan draw from the last tile is rinshan kaihou, not haitei too.
    if ctx.haitei and not ctx.rinshan:
        out.append(("haitei", 1))
    if ctx.houtei:
        out.append(("houtei", 1))
    return out


def score_hand(
    concealed: Sequence[Tile], melds: Sequence[Meld], ctx: WinContext, rules: RuleSet
) -> WinResult:
    """Score a complete hand: ``concealed`` includes the winning tile.

    Picks the highest-scoring reading (R21). Raises ScoreError with code
    "not_agari", "no_yaku" or "bad_input".
    """
    c, full, aka = _validate(concealed, melds, ctx, rules)
    win = _KIND[ctx.win_tile]
    menzen = not any(m.is_open for m in melds)
    readings = readings_of(c, melds, win, ctx.tsumo)
    if not readings:
        raise ScoreError("not_agari", "the hand is not complete")
    dealer = ctx.seat_wind == EAST
    tally = Tally.of(full)
    hand_ym = hand_yakuman(tally, full, c, win, bool(melds), rules)
    if ctx.tenhou:
        hand_ym.append(("tenhou", 1))
    elif ctx.chiihou:
        hand_ym.append(("chiihou", 1))
    fixed = _situation_yaku(ctx, menzen) + hand_yaku(tally, menzen, rules)
    fixed_han = sum(h for _, h in fixed)
    dora, ura = _dora(full, ctx)

    # (base, yakuman?, han, fu) orders readings by points first (R21), then by han and
    # fu like Tenhou; the winner's yaku list and result are only built once.
    best_key: tuple[int, int, int, int] = (-1, 0, 0, 0)
    best_yaku: list[tuple[str, int]] = []
    for r in readings:
        fu = fu_of(r, menzen, ctx.tsumo, ctx.seat_wind, ctx.round_wind, rules)
        ym = hand_ym + reading_yakuman(r, c, win, rules)
        if ym:
            key = (8000 * sum(m for _, m in ym), 1, 0, fu)
            if key > best_key:
                best_key, best_yaku = key, ym
            continue
        yk = reading_yaku(r, menzen, ctx.seat_wind, ctx.round_wind, rules)
        if not yk and not fixed:
            continue
        han = fixed_han + sum(h for _, h in yk) + dora + aka + ura
        base, _ = base_points(han, fu, rules)
        key = (base, 0, han, fu)
        if key > best_key:
            best_key, best_yaku = key, fixed + yk
    base, is_ym, han, fu = best_key
    if base < 0:
        raise ScoreError("no_yaku", "the hand is complete but has no yaku")
    pay = payments_for(base, dealer, ctx.tsumo)
    total = _payment_total(pay) + 300 * ctx.honba + 1000 * ctx.riichi_sticks
    if is_ym:
        best_yaku.sort(key=lambda y: _YAKUMAN_RANK[y[0]])
        return WinResult((), tuple(best_yaku), 0, fu, "yakuman", 0, 0, 0, base, pay, total)
    best_yaku.sort(key=lambda y: _YAKU_RANK[y[0]])
    limit = base_points(han, fu, rules)[1]
    return WinResult(tuple(best_yaku), (), han, fu, limit, dora, aka, ura, base, pay, total)


def _dora(full: list[int], ctx: WinContext) -> tuple[int, int]:
    """Dora and ura (R5, R21: ura only with riichi)."""
    dora = sum(full[_DORA_OF[i]] for i in ctx.dora_indicators)
    ura = 0
    if ctx.riichi or ctx.double_riichi:
        ura = sum(full[_DORA_OF[i]] for i in ctx.ura_indicators)
    return dora, ura


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
    """The four seats' score changes for one win, honba and riichi sticks included.

    ``discarder`` None means tsumo. ``pao`` is the liable seat (R24), if any;
    it only matters when the hand has daisangen or daisuushii and the rules
    have pao. Pao pays its part in full on tsumo (honba too, when the whole hand
    is its part) and half on ron, where the discarder pays the rest and the honba.
    """
    for name, seat in (("winner", winner), ("dealer", dealer)):
        if seat not in range(4):
            raise ValueError(f"{name} must be a seat 0..3")
    if discarder is not None and (discarder not in range(4) or discarder == winner):
        raise ValueError("discarder must be another seat 0..3")
    if pao is not None and (pao not in range(4) or pao == winner):
        raise ValueError("pao must be another seat 0..3")
    if honba < 0 or riichi_sticks < 0:
        raise ValueError("honba and riichi_sticks must be non-negative")
    deltas = [0, 0, 0, 0]
    is_dealer = winner == dealer
    base = result.base
    mult = 6 if is_dealer else 4
    liable = pao_multiplier(result) if (pao is not None and rules.pao) else 0
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
        pay = _up100(base * mult) + 300 * honba
        deltas[discarder] -= pay
        deltas[winner] += pay
    elif base == 0:
        # The whole hand was pao's: it pays the honba as well.
        assert pao is not None
        deltas[pao] -= 300 * honba
        deltas[winner] += 300 * honba
    else:
        for s in range(4):
            if s == winner:
                continue
            share = _up100(base * (2 if (is_dealer or s == dealer) else 1)) + 100 * honba
            deltas[s] -= share
            deltas[winner] += share
    return deltas
