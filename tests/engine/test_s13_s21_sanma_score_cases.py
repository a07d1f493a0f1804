"""The 24 expected sanma scores of docs/sanma-research.md ("Expected scores for tests").

Rows read from a real game are checked on that game: the fixture is replayed by the
engine (``import_log``) and the engine's own result for that round must be the row's.
Rows computed by the rule (and checked with riichienv by the research) are scored here
from a hand of that value with ``score_hand`` and ``settle_win``, or played as a scenario.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from server.engine.riichi import GameState, RoundResult
from server.engine.riichi.points import settle_win
from server.engine.riichi.rules import preset
from server.engine.riichi.scoring import score_hand
from server.engine.riichi.win import WinContext, WinResult
from server.engine.tiles import EAST, SOUTH, parse_tile, parse_tiles
from server.records.importer import ImportedGame, import_log
from tests.engine.scenario import act, ev, game

TENHOU = preset("tenhou-sanma")
FIXTURES = Path(__file__).parents[1] / "fixtures"
T2014 = FIXTURES / "tenhou-sanma" / "2014091101gm-00b9-0000-5ca6b487.mjlog"
T2021 = FIXTURES / "tenhou-sanma" / "2021010217gm-00b9-0000-3eb2e915.json"
MS_CHANKAN = FIXTURES / "majsoul-sanma" / "chankan.json"
MS_DOUBLE = FIXTURES / "majsoul-sanma" / "nukidora_doubleron.json"
MS_KOKUSHI = FIXTURES / "majsoul-sanma" / "kokushi_peinuki.json"


@functools.cache
def replayed(path: Path) -> ImportedGame:
    return import_log(path.read_bytes(), path.name)


def round_of(path: Path, label: str) -> RoundResult:
    """The engine's result of round ``label`` ("E1-2": East 1, 2 honba) of a real game."""
    wind, rest = "ESW".index(label[0]), label[1:]
    kyoku, honba = (int(x) for x in rest.split("-"))
    (rr,) = [
        r
        for r in replayed(path).results
        if (r.round_wind, r.kyoku, r.honba) == (wind, kyoku - 1, honba)
    ]
    return rr


def riichi_paid(path: Path, label: str) -> list[int]:
    """The riichi sticks each seat put down in round ``label`` of a real game."""
    wind, kyoku, honba = "ESW".index(label[0]), *(int(x) for x in label[1:].split("-"))
    paid = [0, 0, 0]
    inside = False
    for e in replayed(path).events:
        d = e["data"]
        if e["type"] == "round_start":
            inside = ("ESW".index(d["round_wind"]), d["kyoku"], d["honba"]) == (wind, kyoku, honba)
        elif inside and e["type"] == "riichi_accepted":
            paid[d["seat"]] += 1000
    return paid


def score(
    hand: str,
    win: str,
    *,
    tsumo: bool,
    dealer: bool,
    dora: str = "1z",
    riichi: bool = False,
    nuki: int = 0,
) -> WinResult:
    """A closed hand (13 tiles) won on ``win`` by seat East (dealer) or South, round East."""
    return score_hand(
        [*parse_tiles(hand), parse_tile(win)],
        [],
        WinContext(
            win_tile=parse_tile(win),
            tsumo=tsumo,
            seat_wind=EAST if dealer else SOUTH,
            round_wind=EAST,
            riichi=riichi,
            dora_indicators=tuple(parse_tiles(dora)),
            nuki=nuki,
        ),
        TENHOU,
    )


def settle(
    res: WinResult, *, winner: int, discarder: int | None = None, honba: int = 0, sticks: int = 0
) -> list[int]:
    return settle_win(
        res,
        winner=winner,
        dealer=0,
        discarder=discarder,
        pao=None,
        honba=honba,
        riichi_sticks=sticks,
        rules=TENHOU,
    )


# a 30 fu 1 han closed hand: menzen tsumo on a kanchan (20 + 2 + 2 -> 30)
KANCHAN = "123p456p789s11m13s"


def test_case_01_non_dealer_tsumo_30_fu_1_han_is_800_not_three_quarters() -> None:
    res = score(KANCHAN, "2s", tsumo=True, dealer=False)
    assert (res.han, res.fu) == (1, 30)
    assert res.payments == {"tsumo_dealer": 500, "tsumo_nondealer": 300}
    assert settle(res, winner=1) == [-500, 800, -300]


def test_case_02_dealer_tsumo_30_fu_1_han() -> None:
    res = score(KANCHAN, "2s", tsumo=True, dealer=True)
    assert settle(res, winner=0) == [1000, -500, -500]


@pytest.mark.parametrize(
    ("case", "path", "label", "seat", "deltas", "han_fu", "points"),
    [
        # 3: non-dealer tsumo 30 fu 2 han, 2 honba, 1 stick (T-2021 E1-2, 500-1000点)
        (3, T2021, "E1-2", 2, (-1200, -700, 2900), (2, 30), 1500),
        # 4: chiitoitsu tsumo 25 fu 3 han, 4 honba (T-2021 S3-4, 800-1600点)
        (4, T2021, "S3-4", 0, (3200, -1200, -2000), (3, 25), 2400),
        # 5: dealer tsumo 30 fu 4 han, 2 honba, 2 sticks (T-2021 S3-2, 3900点∀)
        (5, T2021, "S3-2", 2, (-4100, -4100, 10200), (4, 30), 7800),
        # 6: dealer pinfu tsumo 20 fu 4 han, 2 honba, 1 stick (T-2014 E1-2)
        (6, T2014, "E1-2", 0, (6600, -2800, -2800), (4, 20), 5200),
        # 7: non-dealer mangan tsumo, 3 honba, own stick back (T-2014 E1-3)
        (7, T2014, "E1-3", 1, (-4300, 7600, -2300), (4, None), 6000),
        # 8: dealer haneman tsumo with 2 norths aside as ドラ 2 (T-2014 E1-0)
        (8, T2014, "E1-0", 0, (13000, -6000, -6000), (6, 30), 12000),
        # 10: non-dealer baiman tsumo, 2 sticks (MS-chankan E1-0)
        (10, MS_CHANKAN, "E1-0", 2, (-8000, -4000, 14000), (8, None), 12000),
        # 11: non-dealer baiman tsumo, 1 honba, own stick (MS-double E1-1)
        (11, MS_DOUBLE, "E1-1", 2, (-8100, -4100, 13200), (8, None), 12000),
        # 13: non-dealer ron 40 fu 2 han, 1 honba, own stick (MS-double E3-1)
        (13, MS_DOUBLE, "E3-1", 1, (-2800, 3800, 0), (2, 40), 2600),
        # 14: non-dealer ron 40 fu 2 han, 2 honba, 3 sticks (T-2014 S3-2)
        (14, T2014, "S3-2", 0, (6000, -3000, 0), (2, 40), 2600),
        # 16: 發 + 1 north aside as ドラ 1, ron (T-2014 E3-0)
        (16, T2014, "E3-0", 0, (3600, -2600, 0), (2, 40), 2600),
        # 18: kokushi ron on a north aside, dealer (MS-kokushi E3-0; the engine pays the
        # stick on the table to the winner: the log leaves it to the final points)
        (18, MS_KOKUSHI, "E3-0", 2, (-48000, 0, 49000), (0, None), 48000),
    ],
)
def test_cases_read_from_real_games(
    case: int,
    path: Path,
    label: str,
    seat: int,
    deltas: tuple[int, ...],
    han_fu: tuple[int, int | None],
    points: int,
) -> None:
    rr = round_of(path, label)
    (w,) = [w for w in rr.wins if w.seat == seat]
    assert w.deltas == deltas, case
    han, fu = han_fu
    assert w.result.han == han, case
    if fu is not None:
        assert w.result.fu == fu, case
    assert w.points == points, case  # ron payment or the tsumo total before honba (S13)


def test_case_08_the_two_norths_count_as_dora_not_as_a_yaku() -> None:
    (w,) = round_of(T2014, "E1-0").wins
    res = w.result
    assert (res.nuki, res.dora, res.aka) == (2, 0, 2)
    assert {y for y, _ in res.yaku} == {"riichi", "menzen_tsumo"}


def test_case_09_dealer_baiman_tsumo_is_8000_from_each() -> None:
    """T-2024a E1-0 倍満8000点∀ (not a fixture): chinitsu, ittsu, pinfu, tsumo = 10 han."""
    res = score("123p456p789p11p23p", "4p", tsumo=True, dealer=True)
    assert res.limit == "baiman"
    assert settle(res, winner=0) == [16000, -8000, -8000]


def test_case_12_yakuman_tsumo_dealer_32000_non_dealer_24000() -> None:
    kokushi = "19m19p19s1234567z"
    res = score(kokushi, "1m", tsumo=True, dealer=True)
    assert settle(res, winner=0) == [32000, -16000, -16000]
    res = score(kokushi, "1m", tsumo=True, dealer=False)
    assert settle(res, winner=1) == [-16000, 24000, -8000]


def test_case_15_dealer_ron_haneman_with_one_honba_is_18200() -> None:
    """T-2024a E1-1 (not a fixture): 200 per honba on a ron (S14)."""
    res = score("223344p567p888p9p", "9p", tsumo=False, dealer=True)  # chinitsu, iipeikou
    assert res.limit == "haneman"
    assert settle(res, winner=0, discarder=1, honba=1) == [18200, -18200, 0]


def test_case_17_double_ron_on_a_north_aside_without_chankan() -> None:
    rr = round_of(MS_DOUBLE, "E1-0")
    assert [(w.seat, w.from_seat, w.deltas) for w in rr.wins] == [
        (0, 2, (12000, 0, -12000)),
        (1, 2, (0, 16000, -16000)),
    ]
    assert [w.win_tile for w in rr.wins] == [parse_tile("4z")] * 2
    for w in rr.wins:
        ids = {y for y, _ in w.result.yaku}
        assert "chankan" not in ids and "houtei" not in ids


def _north_ron(hand: str, dora: str) -> tuple[GameState, list[int]]:
    st = game(["4z", hand, None], draws="4z", dora=dora, rules=TENHOU)
    act(st, 0, "nuki", "4z")
    (a,) = ev(act(st, 1, "ron"), "agari")
    return st, a.data["deltas"]


def test_case_19_ron_on_a_north_aside_closed_ittsu_tanki_one_dora_5200() -> None:
    """riichienv: P0 pulls, P1 rons; ittsu 2 + dora 1, 40 fu (no chankan han)."""
    st, deltas = _north_ron("123p456p789p111s4z", dora="8p")
    res = st.round_results[-1].wins[0].result
    assert (res.han, res.fu, res.dora) == (3, 40, 1)
    assert deltas == [-5200, 5200, 0]


def test_case_20_kazoe_yakuman_ron_with_two_honba_and_the_own_stick() -> None:
    """T-2018 E1-2 (not a fixture): 13 han ron, 32000 + 400 + 1000."""
    res = score("123p456p789p11p23p", "4p", tsumo=False, dealer=False, dora="9p", riichi=True)
    assert (res.han, res.limit) == (13, "kazoe")
    assert settle(res, winner=1, discarder=2, honba=2, sticks=1) == [0, 33400, -32400]


def test_case_21_a_north_aside_with_a_west_indicator_is_two_dora() -> None:
    """riichienv (kita_count=1, indicator 3z) and wiki-sanma: riichi 1 + dora 1 + nuki 1."""
    res = score(KANCHAN, "2s", tsumo=False, dealer=False, dora="3z", riichi=True, nuki=1)
    assert (res.han, res.fu, res.dora, res.nuki) == (3, 40, 1, 1)
    assert res.payments == {"ron": 5200}


@pytest.mark.parametrize(
    ("path", "label", "tenpai", "deltas"),
    [
        (T2014, "S3-0", (2,), (-1000, -1000, 2000)),  # one tenpai: 1000 from each noten
        (T2014, "E1-1", (0, 2), (1000, -2000, 1000)),  # two tenpai: 1000 each from the noten
        (T2021, "E1-1", (0, 1), (1000, 1000, -2000)),
        (T2021, "S2-0", (1,), (-1000, 2000, -1000)),
    ],
)
def test_case_22_exhaustive_draws_pay_2000_in_all(
    path: Path, label: str, tenpai: tuple[int, ...], deltas: tuple[int, ...]
) -> None:
    rr = round_of(path, label)
    assert (rr.kind, rr.reason, rr.tenpai) == ("ryuukyoku", "exhaustive", tenpai)
    # the round's deltas hold the riichi sticks put down in it; the payments do not
    paid = riichi_paid(path, label)
    assert tuple(d + p for d, p in zip(rr.deltas, paid, strict=True)) == deltas


def test_case_23_tenhou_final_points() -> None:
    final = replayed(T2014).final
    assert final is not None
    assert [(f["points"], f["rank"]) for f in final] == [(59200, 1), (22800, 3), (23000, 2)]
    # (p - 40000) / 1000 + 20 / 0 / -20, 15 oka to first; Tenhou's owari rounds them to
    # +54.0 / -37.0 / -17.0 (S21d)
    assert [f["score"] for f in final] == [54.2, -37.2, -17.0]


def test_case_24_majsoul_final_points_have_no_oka() -> None:
    final = replayed(MS_CHANKAN).final
    assert final is not None
    assert [(f["points"], f["score"]) for f in final] == [
        (20200, -29.8),
        (25800, -9.2),
        (59000, 39.0),
    ]
