"""Yaku and yakuman of a complete hand (R21), by canonical id.

Only the *shape* of a hand is judged here: which sets and pair a reading has,
which tiles it holds. Yaku that come from the situation of the win (riichi,
ippatsu, menzen tsumo, rinshan, chankan, haitei, houtei, tenhou, chiihou) are
added by ``scoring`` from the win context, and so are dora.
"""

from __future__ import annotations

from collections.abc import Sequence

from server.engine.riichi.rules import RuleSet
from server.engine.tiles import (
    CHUN,
    GREEN,
    HAKU,
    HATSU,
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
IS_YAOCHU: tuple[bool, ...] = tuple(k in YAOCHU for k in range(34))
_GREEN_KINDS = sorted(GREEN)

# Readings are plain values here, not objects: ``runs`` are the first kinds of the
# runs (chi included), ``trips`` the kinds of the triplets and quads (melded ones
# included), ``pair`` the pair's kind. Scoring evaluates many readings per second,
# and these are what every yaku below is judged from.


def hand_yaku(
    suited: int, honors: int, terminals: int, one_suit: bool, menzen: bool, rules: RuleSet
) -> list[tuple[str, int]]:
    """Yaku that depend only on which tiles the hand holds (any reading).

    Tile totals of the whole hand, melds included: suited tiles, honors, terminals;
    ``one_suit``: the suited tiles are all of one suit (and there are some).
    """
    out: list[tuple[str, int]] = []
    if honors == 0 and terminals == 0 and (menzen or rules.kuitan):
        out.append(("tanyao", 1))
    if one_suit:
        if honors:
            out.append(("honitsu", 3 if menzen else 2))
        else:
            out.append(("chinitsu", 6 if menzen else 5))
    if terminals == suited:
        # All terminals and honors; all-honor or all-terminal hands are yakuman.
        out.append(("honroutou", 2))
    return out


def hand_yakuman(
    suited: int,
    honors: int,
    terminals: int,
    one_suit: bool,
    no_man_pin: bool,
    full: Sequence[int],
    concealed: Sequence[int],
    win: Kind,
    has_melds: bool,
    rules: RuleSet,
) -> list[tuple[str, int]]:
    """Yakuman that depend only on the tiles held (any reading of a complete hand).

    Totals as for ``hand_yaku``; ``no_man_pin``: no man or pin tile; ``full``
    counts the whole hand, ``concealed`` the concealed tiles including the winning tile.
    """
    out: list[tuple[str, int]] = []
    if suited == 0:
        out.append(("tsuuiisou", 1))
    elif honors == 0 and terminals == suited:
        out.append(("chinroutou", 1))
    if no_man_pin and sum([full[k] for k in _GREEN_KINDS]) == suited + honors:
        out.append(("ryuuiisou", 1))
    if one_suit and not has_melds and honors == 0:
        ch = _chuuren(concealed, win)
        if ch:
            out.append(("chuuren", 2 if ch == 2 and rules.double_yakuman else 1))
    return out


def reading_yaku(
    runs: Sequence[Kind],
    trips: Sequence[Kind],
    pair: Kind,
    kans: int,
    menzen: bool,
    seat_wind: Kind,
    round_wind: Kind,
    rules: RuleSet,
) -> tuple[list[tuple[str, int]], int]:
    """Yaku of a regular reading's sets and pair that do not depend on the wait, and
    their han. Left to the caller: pinfu (needs a ryanmen wait) and sanankou (a
    triplet completed by ron is not concealed)."""
    out: list[tuple[str, int]] = []
    han = 0
    n_runs = len(runs)

    if n_runs == 0:
        out.append(("toitoi", 2))
        han = 2
    elif n_runs >= 2 and (menzen or rules.isshoku_sanjun):
        distinct = set(runs)
        if len(distinct) < n_runs:
            # Identical runs: iipeikou / ryanpeikou (closed only), isshoku sanjun (local).
            peikou = 0
            sanjun = False
            for r in distinct:
                n = runs.count(r)
                peikou += n >> 1
                sanjun = sanjun or n >= 3
            if menzen and peikou >= 2:
                out.append(("ryanpeikou", 3))
                han += 3
            elif sanjun and rules.isshoku_sanjun:
                h = 2 if menzen else 1
                out.append(("isshoku_sanjun", h))
                han += h
            elif menzen and peikou:
                out.append(("iipeikou", 1))
                han += 1

    dragons = 0
    honor_trips = False
    for k in trips:
        if k >= 27:
            honor_trips = True
            if k >= HAKU:
                out.append((_DRAGON_YAKU[k], 1))
                han += 1
                dragons += 1
            if k == seat_wind:
                out.append(("yakuhai_seat_wind", 1))
                han += 1
            if k == round_wind:
                out.append(("yakuhai_round_wind", 1))
                han += 1

    if n_runs >= 3:
        for n in runs:
            if n < 9 and n + 9 in runs and n + 18 in runs:
                h = 2 if menzen else 1
                out.append(("sanshoku_doujun", h))
                han += h
                break
        # 123 456 789 of one suit (a membership test per suit, not a loop over runs)
        if (
            (0 in runs and 3 in runs and 6 in runs)
            or (9 in runs and 12 in runs and 15 in runs)
            or (18 in runs and 21 in runs and 24 in runs)
        ):
            h = 2 if menzen else 1
            out.append(("ittsu", h))
            han += h
    elif len(trips) >= 3:
        for n in trips:
            if n < 9 and n + 9 in trips and n + 18 in trips:
                out.append(("sanshoku_doukou", 2))
                han += 2
                break
        if rules.sanrenkou:
            for k in trips:
                if k < 27 and k % 9 <= 6 and k + 1 in trips and k + 2 in trips:
                    out.append(("sanrenkou", 2))
                    han += 2
                    break

    if kans == 3:
        out.append(("sankantsu", 2))
        han += 2

    # Chanta / junchan need a run; without one the hand is honroutou (or a yakuman).
    if n_runs and IS_YAOCHU[pair]:
        for f in runs:
            if f % 9 != 0 and f % 9 != 6:
                break
        else:
            for k in trips:
                if not IS_YAOCHU[k]:
                    break
            else:
                if pair >= 27 or honor_trips:
                    h = 2 if menzen else 1
                    out.append(("chanta", h))
                else:
                    h = 3 if menzen else 2
                    out.append(("junchan", h))
                han += h

    if dragons == 2 and pair >= HAKU:
        out.append(("shousangen", 2))
        han += 2
    return out, han


def reading_yakuman(
    trips: Sequence[Kind], pair: Kind, kans: int, rules: RuleSet
) -> list[tuple[str, int]]:
    """Yakuman of a regular reading's sets that do not depend on the wait (suuankou
    does: the caller adds it), with multipliers (double only when the rules allow)."""
    out: list[tuple[str, int]] = []
    if len(trips) < 3:
        return out
    dragons = winds = 0
    for k in trips:
        if k >= HAKU:
            dragons += 1
        elif k >= 27:
            winds += 1
    if dragons == 3:
        out.append(("daisangen", 1))
    if winds == 4:
        out.append(("daisuushii", 2 if rules.double_yakuman else 1))
    elif winds == 3 and 27 <= pair < HAKU:
        out.append(("shousuushii", 1))
    if kans == 4:
        out.append(("suukantsu", 1))
    return out


def _chuuren(c: Sequence[int], win: Kind) -> int:
    """0: not chuuren; 1: chuuren; 2: junsei (nine-sided: 1112345678999 before the win)."""
    for s0 in (0, 9, 18):
        if sum(c[s0 : s0 + 9]) != 14:
            continue
        # 1112345678999 and one more tile of the suit: junsei when that one is the win
        extra = -1
        for i in range(9):
            d = c[s0 + i] - _CHUUREN[i]
            if d < 0:
                return 0
            if d:
                extra = s0 + i
        return 2 if extra == win else 1
    return 0
