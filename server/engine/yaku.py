"""Yaku and yakuman of a complete hand (R21), by canonical id.

Only the *shape* of a hand is judged here: which sets and pair a reading has,
which tiles it holds. Yaku that come from the situation of the win (riichi,
ippatsu, menzen tsumo, rinshan, chankan, haitei, houtei, tenhou, chiihou) are
added by ``scoring`` from the win context, and so are dora.
"""

from __future__ import annotations

from dataclasses import dataclass

from server.engine.agari import Form, WaitShape
from server.engine.rules import RuleSet
from server.engine.tiles import (
    CHUN,
    DRAGONS,
    GREEN,
    HAKU,
    HATSU,
    TERMINALS,
    WINDS,
    YAOCHU,
    Kind,
)

# id -> (closed han, open han); open han 0 means the yaku needs a closed hand.
# The order is the order results list them in.
YAKU_HAN: dict[str, tuple[int, int]] = {
    "riichi": (1, 0),
    "double_riichi": (2, 0),
    "ippatsu": (1, 0),
    "menzen_tsumo": (1, 0),
    "pinfu": (1, 0),
    "tanyao": (1, 1),
    "iipeikou": (1, 0),
    "ryanpeikou": (3, 0),
    "yakuhai_haku": (1, 1),
    "yakuhai_hatsu": (1, 1),
    "yakuhai_chun": (1, 1),
    "yakuhai_seat_wind": (1, 1),
    "yakuhai_round_wind": (1, 1),
    "rinshan_kaihou": (1, 1),
    "chankan": (1, 1),
    "haitei": (1, 1),
    "houtei": (1, 1),
    "chiitoitsu": (2, 0),
    "toitoi": (2, 2),
    "sanshoku_doujun": (2, 1),
    "sanshoku_doukou": (2, 2),
    "ittsu": (2, 1),
    "sanankou": (2, 2),
    "sankantsu": (2, 2),
    "chanta": (2, 1),
    "junchan": (3, 2),
    "honroutou": (2, 2),
    "shousangen": (2, 2),
    "honitsu": (3, 2),
    "chinitsu": (6, 5),
    "sanrenkou": (2, 2),
    "isshoku_sanjun": (2, 1),
}

YAKUMAN_IDS: tuple[str, ...] = (
    "tenhou",
    "chiihou",
    "kokushi",
    "suuankou",
    "daisangen",
    "shousuushii",
    "daisuushii",
    "tsuuiisou",
    "ryuuiisou",
    "chinroutou",
    "chuuren",
    "suukantsu",
)

# R24: yakuman for which the seat that fed the completing set is liable.
PAO_YAKUMAN: frozenset[str] = frozenset({"daisangen", "daisuushii"})

_DRAGON_YAKU = {HAKU: "yakuhai_haku", HATSU: "yakuhai_hatsu", CHUN: "yakuhai_chun"}
_CHUUREN = (3, 1, 1, 1, 1, 1, 1, 1, 3)


@dataclass(frozen=True, slots=True)
class Mentsu:
    """One set of a reading. ``open`` is as it counts for fu and ankou: a
    triplet completed by ron is open even in a closed hand."""

    first: Kind
    run: bool
    open: bool = False
    kan: bool = False


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read a complete hand, with the wait the winning tile completed."""

    form: Form
    sets: tuple[Mentsu, ...] = ()
    pair: Kind | None = None
    wait: WaitShape | None = None


def is_value_pair(k: Kind, seat_wind: Kind, round_wind: Kind) -> bool:
    return k in _DRAGON_YAKU or k in (seat_wind, round_wind)


def hand_yaku(full: list[int], menzen: bool, rules: RuleSet) -> list[tuple[str, int]]:
    """Yaku that depend only on which tiles the hand holds (any reading).

    ``full`` counts every tile of the hand, melds included.
    """
    out: list[tuple[str, int]] = []
    simples = sum(full[1:8]) + sum(full[10:17]) + sum(full[19:26])
    total = sum(full)
    if simples == total and (menzen or rules.kuitan):
        out.append(("tanyao", 1))
    suits = (sum(full[0:9]) > 0) + (sum(full[9:18]) > 0) + (sum(full[18:27]) > 0)
    if suits == 1:
        if sum(full[27:]):
            out.append(("honitsu", 3 if menzen else 2))
        else:
            out.append(("chinitsu", 6 if menzen else 5))
    if simples == 0:
        # All terminals and honors; all-honor or all-terminal hands are yakuman.
        out.append(("honroutou", 2))
    return out


def hand_yakuman(
    full: list[int], concealed: list[int], win: Kind, has_melds: bool, rules: RuleSet
) -> list[tuple[str, int]]:
    """Yakuman that depend only on the tiles held (any reading of a complete hand).

    ``concealed`` counts the concealed tiles including the winning tile.
    """
    out: list[tuple[str, int]] = []
    man_pin = sum(full[0:18])
    honors = sum(full[27:])
    souzu = sum(full[18:27])
    if man_pin + souzu == 0:
        out.append(("tsuuiisou", 1))
    elif honors == 0 and sum(full[k] for k in TERMINALS) == man_pin + souzu:
        out.append(("chinroutou", 1))
    if man_pin == 0 and sum(full[k] for k in GREEN) == souzu + honors:
        out.append(("ryuuiisou", 1))
    if not has_melds:
        ch = _chuuren(concealed, win)
        if ch:
            out.append(("chuuren", 2 if ch == 2 and rules.double_yakuman else 1))
    return out


def reading_yaku(
    r: Reading, menzen: bool, seat_wind: Kind, round_wind: Kind, rules: RuleSet
) -> list[tuple[str, int]]:
    """Yaku of one reading's sets and pair (regular or chiitoitsu form)."""
    if r.form is Form.CHIITOITSU:
        return [("chiitoitsu", 2)]
    if r.form is not Form.REGULAR:
        return []
    out: list[tuple[str, int]] = []
    sets = r.sets
    pair = r.pair
    assert pair is not None
    runs = [s.first for s in sets if s.run]
    trips = [s for s in sets if not s.run]
    trip_kinds = [s.first for s in trips]

    if (
        menzen
        and not trips
        and r.wait is WaitShape.RYANMEN
        and not is_value_pair(pair, seat_wind, round_wind)
    ):
        out.append(("pinfu", 1))

    # Identical runs: iipeikou / ryanpeikou (closed only), isshoku sanjun (local).
    same: dict[Kind, int] = {}
    for f in runs:
        same[f] = same.get(f, 0) + 1
    sanjun = rules.isshoku_sanjun and any(n >= 3 for n in same.values())
    peikou = sum(n // 2 for n in same.values())
    if menzen and peikou >= 2:
        out.append(("ryanpeikou", 3))
    elif sanjun:
        out.append(("isshoku_sanjun", 2 if menzen else 1))
    elif menzen and peikou == 1:
        out.append(("iipeikou", 1))

    for k in trip_kinds:
        if k in _DRAGON_YAKU:
            out.append((_DRAGON_YAKU[k], 1))
        if k == seat_wind:
            out.append(("yakuhai_seat_wind", 1))
        if k == round_wind:
            out.append(("yakuhai_round_wind", 1))

    if len(trips) == 4:
        out.append(("toitoi", 2))

    run_set = set(runs)
    for n in range(7):
        if n in run_set and n + 9 in run_set and n + 18 in run_set:
            out.append(("sanshoku_doujun", 2 if menzen else 1))
            break
    trip_set = set(trip_kinds)
    for n in range(9):
        if n in trip_set and n + 9 in trip_set and n + 18 in trip_set:
            out.append(("sanshoku_doukou", 2))
            break
    for s0 in (0, 9, 18):
        if s0 in run_set and s0 + 3 in run_set and s0 + 6 in run_set:
            out.append(("ittsu", 2 if menzen else 1))
            break

    ankou = sum(1 for s in trips if not s.open)
    if ankou == 3:
        out.append(("sanankou", 2))
    kans = sum(1 for s in trips if s.kan)
    if kans == 3:
        out.append(("sankantsu", 2))

    # Chanta / junchan need a run; without one the hand is honroutou (or a yakuman).
    if runs:
        runs_ok = all(f % 9 in (0, 6) for f in runs)
        trips_ok = all(k in YAOCHU for k in trip_kinds)
        if runs_ok and trips_ok and pair in YAOCHU:
            honors = pair >= 27 or any(k >= 27 for k in trip_kinds)
            if honors:
                out.append(("chanta", 2 if menzen else 1))
            else:
                out.append(("junchan", 3 if menzen else 2))

    if pair in _DRAGON_YAKU and sum(1 for k in trip_kinds if k in _DRAGON_YAKU) == 2:
        out.append(("shousangen", 2))

    if rules.sanrenkou:
        for k in trip_kinds:
            if k < 27 and k % 9 <= 6 and k + 1 in trip_set and k + 2 in trip_set:
                out.append(("sanrenkou", 2))
                break
    return out


def reading_yakuman(
    r: Reading, concealed: list[int], win: Kind, rules: RuleSet
) -> list[tuple[str, int]]:
    """Yakuman that depend on how a reading splits the hand, with multipliers
    (double ones only when the rules allow)."""
    dbl = 2 if rules.double_yakuman else 1
    if r.form is Form.KOKUSHI:
        # 13-sided: the thirteen kinds were all held before the win, so the pair is the win tile.
        return [("kokushi", dbl if concealed[win] == 2 else 1)]
    if r.form is not Form.REGULAR:
        return []
    out: list[tuple[str, int]] = []
    trips = [s for s in r.sets if not s.run]
    if len(trips) < 3:
        return out
    if len(trips) == 4 and all(not s.open for s in trips):
        out.append(("suuankou", dbl if r.wait is WaitShape.TANKI else 1))
    trip_kinds = [s.first for s in trips]
    if sum(1 for k in trip_kinds if k in DRAGONS) == 3:
        out.append(("daisangen", 1))
    winds = sum(1 for k in trip_kinds if k in WINDS)
    if winds == 4:
        out.append(("daisuushii", dbl))
    elif winds == 3 and r.pair in WINDS:
        out.append(("shousuushii", 1))
    if sum(1 for s in trips if s.kan) == 4:
        out.append(("suukantsu", 1))
    return out


def _chuuren(c: list[int], win: Kind) -> int:
    """0: not chuuren; 1: chuuren; 2: junsei (nine-sided: 1112345678999 before the win)."""
    for s0 in (0, 9, 18):
        if sum(c[s0 : s0 + 9]) != 14:
            continue
        if all(c[s0 + i] >= _CHUUREN[i] for i in range(9)):
            junsei = s0 <= win < s0 + 9 and all(
                c[s0 + i] - (1 if s0 + i == win else 0) == _CHUUREN[i] for i in range(9)
            )
            return 2 if junsei else 1
    return 0
