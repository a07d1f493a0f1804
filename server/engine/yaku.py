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


@dataclass(frozen=True, slots=True)
class Tally:
    """Tile totals of a whole hand (melds included) that the hand-level yaku need."""

    man: int
    pin: int
    sou: int
    honors: int
    terminals: int

    @classmethod
    def of(cls, full: list[int]) -> Tally:
        return cls(
            sum(full[0:9]),
            sum(full[9:18]),
            sum(full[18:27]),
            sum(full[27:34]),
            full[0] + full[8] + full[9] + full[17] + full[18] + full[26],
        )


def hand_yaku(t: Tally, menzen: bool, rules: RuleSet) -> list[tuple[str, int]]:
    """Yaku that depend only on which tiles the hand holds (any reading)."""
    out: list[tuple[str, int]] = []
    suited = t.man + t.pin + t.sou
    if t.honors == 0 and t.terminals == 0 and (menzen or rules.kuitan):
        out.append(("tanyao", 1))
    if suited and suited in (t.man, t.pin, t.sou):
        if t.honors:
            out.append(("honitsu", 3 if menzen else 2))
        else:
            out.append(("chinitsu", 6 if menzen else 5))
    if t.terminals == suited:
        # All terminals and honors; all-honor or all-terminal hands are yakuman.
        out.append(("honroutou", 2))
    return out


def hand_yakuman(
    t: Tally, full: list[int], concealed: list[int], win: Kind, has_melds: bool, rules: RuleSet
) -> list[tuple[str, int]]:
    """Yakuman that depend only on the tiles held (any reading of a complete hand).

    ``concealed`` counts the concealed tiles including the winning tile.
    """
    out: list[tuple[str, int]] = []
    suited = t.man + t.pin + t.sou
    if suited == 0:
        out.append(("tsuuiisou", 1))
    elif t.honors == 0 and t.terminals == suited:
        out.append(("chinroutou", 1))
    if t.man + t.pin == 0 and sum(full[k] for k in GREEN) == t.sou + t.honors:
        out.append(("ryuuiisou", 1))
    if not has_melds and t.honors == 0 and suited in (t.man, t.pin, t.sou):
        ch = _chuuren(concealed, win)
        if ch:
            out.append(("chuuren", 2 if ch == 2 and rules.double_yakuman else 1))
    return out


def reading_yaku(
    r: Reading, menzen: bool, seat_wind: Kind, round_wind: Kind, rules: RuleSet
) -> list[tuple[str, int]]:
    """Yaku of one reading's sets and pair (regular or chiitoitsu form)."""
    if r.form is not Form.REGULAR:
        return [("chiitoitsu", 2)] if r.form is Form.CHIITOITSU else []
    out: list[tuple[str, int]] = []
    pair = r.pair
    assert pair is not None
    # This runs for every reading of every scored hand: one pass to split the sets,
    # then each yaku is only looked for when the split allows it.
    runs: list[Kind] = []
    trip_kinds: list[Kind] = []
    ankou = kans = 0
    for s in r.sets:
        if s.run:
            runs.append(s.first)
        else:
            trip_kinds.append(s.first)
            if not s.open:
                ankou += 1
            if s.kan:
                kans += 1
    n_runs = len(runs)

    if n_runs == 4:
        if (
            menzen
            and r.wait is WaitShape.RYANMEN
            and pair not in _DRAGON_YAKU
            and pair != seat_wind
            and pair != round_wind
        ):
            out.append(("pinfu", 1))
    elif n_runs == 0:
        out.append(("toitoi", 2))

    if n_runs >= 2:
        # Identical runs: iipeikou / ryanpeikou (closed only), isshoku sanjun (local).
        runs.sort()
        peikou = 0
        sanjun = False
        i = 0
        while i < n_runs:
            j = i
            while j < n_runs and runs[j] == runs[i]:
                j += 1
            peikou += (j - i) // 2
            sanjun = sanjun or j - i >= 3
            i = j
        if menzen and peikou >= 2:
            out.append(("ryanpeikou", 3))
        elif sanjun and rules.isshoku_sanjun:
            out.append(("isshoku_sanjun", 2 if menzen else 1))
        elif menzen and peikou:
            out.append(("iipeikou", 1))

    dragons = 0
    for k in trip_kinds:
        if k >= 27:
            if k in _DRAGON_YAKU:
                out.append((_DRAGON_YAKU[k], 1))
                dragons += 1
            if k == seat_wind:
                out.append(("yakuhai_seat_wind", 1))
            if k == round_wind:
                out.append(("yakuhai_round_wind", 1))

    if n_runs >= 3:
        for n in runs:
            if n < 9 and n % 9 <= 6 and n + 9 in runs and n + 18 in runs:
                out.append(("sanshoku_doujun", 2 if menzen else 1))
                break
        for n in runs:
            if n % 9 == 0 and n + 3 in runs and n + 6 in runs:
                out.append(("ittsu", 2 if menzen else 1))
                break
    elif len(trip_kinds) >= 3:
        for n in trip_kinds:
            if n < 9 and n + 9 in trip_kinds and n + 18 in trip_kinds:
                out.append(("sanshoku_doukou", 2))
                break
        if rules.sanrenkou:
            for k in trip_kinds:
                if k < 27 and k % 9 <= 6 and k + 1 in trip_kinds and k + 2 in trip_kinds:
                    out.append(("sanrenkou", 2))
                    break

    if ankou == 3:
        out.append(("sanankou", 2))
    if kans == 3:
        out.append(("sankantsu", 2))

    # Chanta / junchan need a run; without one the hand is honroutou (or a yakuman).
    if (
        n_runs
        and pair in YAOCHU
        and all(f % 9 == 0 or f % 9 == 6 for f in runs)
        and all(k in YAOCHU for k in trip_kinds)
    ):
        if pair >= 27 or any(k >= 27 for k in trip_kinds):
            out.append(("chanta", 2 if menzen else 1))
        else:
            out.append(("junchan", 3 if menzen else 2))

    if dragons == 2 and pair in _DRAGON_YAKU:
        out.append(("shousangen", 2))
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
