"""Han, fu, limits, payments, honba, sticks and pao: R19-R24, by rule id."""

from __future__ import annotations

from typing import Any

import pytest

from server.engine.melds import Meld
from server.engine.rules import RuleSet, preset
from server.engine.scoring import (
    ScoreError,
    WinContext,
    WinResult,
    base_points,
    payments_for,
    score_hand,
    settle_win,
)
from server.engine.tiles import EAST, WIND_LETTERS, parse_tile, parse_tiles

STD = preset("standard")


def score(
    tiles: str,
    win: str,
    melds: tuple[str, ...] = (),
    *,
    seat: str = "S",
    rnd: str = "E",
    rules: RuleSet = STD,
    dora: str = "",
    ura: str = "",
    **flags: Any,
) -> WinResult:
    ms = [Meld.parse(*m.split(":")) for m in melds]
    ctx = WinContext(
        win_tile=parse_tile(win),
        seat_wind=EAST + WIND_LETTERS.index(seat),
        round_wind=EAST + WIND_LETTERS.index(rnd),
        tsumo=flags.pop("tsumo", False),
        dora_indicators=tuple(parse_tiles(dora)),
        ura_indicators=tuple(parse_tiles(ura)),
        **flags,
    )
    return score_hand(parse_tiles(tiles), ms, ctx, rules)


def error_code(*args: Any, **kwargs: Any) -> str:
    with pytest.raises(ScoreError) as e:
        score(*args, **kwargs)
    return e.value.code


# --- R22 fu -------------------------------------------------------------------

PINFU = "123m456p789s23455s"


def test_r22_pinfu_tsumo_is_20_fu() -> None:
    r = score(PINFU, "4s", tsumo=True)
    assert (r.han, r.fu) == (2, 20)
    assert r.payments == {"tsumo_dealer": 700, "tsumo_nondealer": 400}


def test_r22_pinfu_ron_is_30_fu() -> None:
    r = score(PINFU, "4s")
    assert (r.han, r.fu, r.payments) == (1, 30, {"ron": 1000})


def test_r22_open_pinfu_shape_ron_counts_30() -> None:
    r = score("456p789s23455s", "4s", ("chi:123m",), houtei=True)
    assert (r.han, r.fu) == (1, 30)


def test_r22_chiitoitsu_is_25_fu() -> None:
    r = score("1122m3344p5566s77z", "7z")
    assert (r.han, r.fu, r.payments) == (2, 25, {"ron": 1600})


def test_r22_chiitoitsu_tsumo_stays_25_fu() -> None:
    r = score("1122m3344p5566s77z", "7z", tsumo=True)
    assert (r.han, r.fu) == (3, 25)
    assert r.payments == {"tsumo_dealer": 1600, "tsumo_nondealer": 800}


@pytest.mark.parametrize(
    ("tiles", "win", "fu"),
    [
        (PINFU, "3s", 40),  # kanchan: 20 + 10 closed ron + 2
        ("123m456p789s12355s", "3s", 40),  # penchan
        ("123m456p789s234s55s", "5s", 40),  # tanki
    ],
)
def test_r22_closed_ron_and_wait_fu(tiles: str, win: str, fu: int) -> None:
    assert score(tiles, win, riichi=True).fu == fu


def test_r22_ron_on_shanpon_makes_an_open_triplet() -> None:
    # 111m ankou 8 + 888s: ron -> minkou 2 (20+10+8+2 = 40); as ankou it would be 50
    hand = "111m234m456p888s55s"
    assert score(hand, "8s", riichi=True).fu == 40
    # the same wait won on the pair side keeps 888s concealed: 20+10+8+4 = 42 -> 50
    assert score(hand, "5s", riichi=True).fu == 50


def test_r22_tsumo_on_shanpon_keeps_the_ankou() -> None:
    # 20 + 2 tsumo + 8 (111m) + 4 (888s ankou) = 34 -> 40
    assert score("111m234m456p888s55s", "8s", riichi=True, tsumo=True).fu == 40


def test_r22_value_pair_fu_and_double_wind_pair_per_preset() -> None:
    hand = "111m456p789s234s11z"  # 111m ankou 8, ryanmen on 4s
    # double wind pair: 20 + 10 + 8 + 4 = 42 -> 50
    assert score(hand, "4s", riichi=True, seat="E", rnd="E").fu == 50
    two = STD.with_overrides(double_wind_pair_fu=2)
    assert score(hand, "4s", riichi=True, seat="E", rnd="E", rules=two).fu == 40
    # a single value wind pair: +2
    assert score(hand, "4s", riichi=True, seat="S", rnd="E").fu == 40
    # not a value tile: no fu (seat S, round S, pair E)
    assert score(hand, "4s", riichi=True, seat="S", rnd="S").fu == 40
    # a dragon pair: 20 + 10 + 8 + 2 = 40
    assert score("111m456p789s234s55z", "4s", riichi=True).fu == 40


@pytest.mark.parametrize(
    ("meld", "flags", "fu"),
    [
        ("ankan:9999m", {"riichi": True}, 70),  # 20 + 10 + 32 = 62
        ("ankan:0555m", {"riichi": True}, 50),  # 20 + 10 + 16 = 46
        ("daiminkan:9999m", {"tsumo": True, "rinshan": True}, 40),  # 20 + 2 + 16 = 38
        ("kakan:5505m", {"tsumo": True, "rinshan": True}, 30),  # 20 + 2 + 8 = 30
    ],
)
def test_r22_kan_fu(meld: str, flags: dict[str, Any], fu: int) -> None:
    assert score("123m456p234s55s", "4s", (meld,), **flags).fu == fu


def test_r22_triplet_fu_by_open_and_yaochu() -> None:
    # pon 222m 2, pon 999p 4, pon 888s 2, ankou 777s 4, tanki 2, tsumo 2: 36 -> 40
    r = score("777s55s", "5s", ("pon:222m", "pon:999p", "pon:888s"), tsumo=True)
    assert r.fu == 40
    assert dict(r.yaku) == {"toitoi": 2}


# --- R21 han, dora, high-point rule ------------------------------------------------


def test_r21_dora_alone_is_not_a_yaku() -> None:
    assert error_code("123m456p789s234s55s", "5s", dora="4s") == "no_yaku"


def test_r21_dora_aka_kan_dora_are_counted_per_tile() -> None:
    # indicators 8s -> 9s, 3p -> 4p; the 9999s ankan holds four dora
    r = score("123m406p234m55s", "5s", ("ankan:9999s",), riichi=True, dora="8s3p")
    assert (r.dora, r.aka) == (5, 1)
    assert r.han == 1 + 5 + 1


def test_r21_dora_indicator_wraps() -> None:
    # 9m -> 1m, N (4z) -> E (1z), chun (7z) -> haku (5z)
    r = score("123m456p789s55z111z", "3m", dora="9m4z7z", seat="S", rnd="E")
    assert r.dora == 1 + 3 + 2


def test_r21_ura_only_with_riichi() -> None:
    assert score(PINFU, "4s", ura="4s").ura == 0
    assert score(PINFU, "4s", ura="4s", riichi=True).ura == 2
    assert score(PINFU, "4s", ura="4s", double_riichi=True).ura == 2


def test_r21_red_fives_only_with_the_rule() -> None:
    assert score("123m406p789s23455s", "4s").aka == 1
    no_red = STD.with_overrides(red_fives=0)
    assert error_code("123m406p789s23455s", "4s", rules=no_red) == "bad_input"


def test_r21_yakuman_hands_count_no_dora() -> None:
    r = score("555666777z123m99p", "3m", dora="4z", riichi=True)
    assert (r.han, r.dora, r.yaku) == (0, 0, ())


def test_r21_high_point_ryanpeikou_over_chiitoitsu() -> None:
    r = score("112233m778899p55s", "1m")
    assert dict(r.yaku) == {"pinfu": 1, "ryanpeikou": 3}
    assert (r.fu, r.payments) == (30, {"ron": 7700})


def test_r21_high_point_triplets_over_runs() -> None:
    # 111222333m: sanankou (3 han 50 fu) beats three identical runs (2 han 40 fu)
    r = score("111222333m456p99s", "9s", riichi=True)
    assert dict(r.yaku) == {"riichi": 1, "sanankou": 2}
    assert r.fu == 50


def test_r21_high_point_ryanmen_over_tanki() -> None:
    # 4s completes 44s+456s as a pair (tanki) or 456s (ryanmen, pinfu)
    r = score("234m456p789s44456s", "4s", riichi=True)
    assert dict(r.yaku) == {"riichi": 1, "pinfu": 1}
    assert r.fu == 30


def test_r21_kazoe_yakuman_per_option() -> None:
    args = ("234m406p678s23405s", "2s")
    kw: dict[str, Any] = {"tsumo": True, "riichi": True, "dora": "1m3p5s1s4s", "ura": "3m"}
    r = score(*args, **kw)
    assert dict(r.yaku) == {"riichi": 1, "menzen_tsumo": 1, "pinfu": 1, "tanyao": 1}
    assert (r.dora, r.aka, r.ura, r.han) == (6, 2, 1, 13)
    assert (r.limit, r.base, r.total) == ("kazoe", 8000, 32000)
    assert not r.yakuman
    capped = score(*args, rules=STD.with_overrides(kazoe_yakuman=False), **kw)
    assert (capped.limit, capped.base, capped.total) == ("sanbaiman", 6000, 24000)


# --- R23 limits and payments ------------------------------------------------------


@pytest.mark.parametrize(
    ("han", "fu", "base", "limit"),
    [
        (1, 30, 240, None),
        (2, 25, 400, None),
        (3, 30, 960, None),
        (3, 60, 1920, None),
        (4, 30, 1920, None),
        (4, 40, 2000, "mangan"),
        (3, 70, 2000, "mangan"),
        (5, 20, 2000, "mangan"),
        (6, 30, 3000, "haneman"),
        (7, 30, 3000, "haneman"),
        (8, 30, 4000, "baiman"),
        (10, 30, 4000, "baiman"),
        (11, 30, 6000, "sanbaiman"),
        (12, 30, 6000, "sanbaiman"),
        (13, 30, 8000, "kazoe"),
        (20, 30, 8000, "kazoe"),
    ],
)
def test_r23_base_points_and_limits(han: int, fu: int, base: int, limit: str | None) -> None:
    assert base_points(han, fu, STD) == (base, limit)


def test_r23_kiriage_mangan_option() -> None:
    kiriage = STD.with_overrides(kiriage_mangan=True)
    assert base_points(4, 30, kiriage) == (2000, "mangan")
    assert base_points(3, 60, kiriage) == (2000, "mangan")
    assert base_points(3, 50, kiriage) == (1600, None)


@pytest.mark.parametrize(
    ("base", "dealer", "tsumo", "payments"),
    [
        (240, False, False, {"ron": 1000}),
        (240, True, False, {"ron": 1500}),
        (240, False, True, {"tsumo_dealer": 500, "tsumo_nondealer": 300}),
        (240, True, True, {"tsumo_nondealer": 500}),
        (1920, False, False, {"ron": 7700}),
        (1920, True, False, {"ron": 11600}),
        (1920, False, True, {"tsumo_dealer": 3900, "tsumo_nondealer": 2000}),
        (1920, True, True, {"tsumo_nondealer": 3900}),
        (2000, False, True, {"tsumo_dealer": 4000, "tsumo_nondealer": 2000}),
        (8000, True, False, {"ron": 48000}),
    ],
)
def test_r23_payments_round_up_to_100(
    base: int, dealer: bool, tsumo: bool, payments: dict[str, int]
) -> None:
    assert payments_for(base, dealer, tsumo) == payments


def test_r23_dealer_is_the_east_seat() -> None:
    assert score(PINFU, "4s", seat="E").payments == {"ron": 1500}
    assert score(PINFU, "4s", seat="E", tsumo=True).payments == {"tsumo_nondealer": 700}


# --- R19 honba, R20 riichi sticks -------------------------------------------------


def test_r19_r20_total_includes_honba_and_sticks() -> None:
    r = score(PINFU, "4s", honba=2, riichi_sticks=3)
    assert r.total == 1000 + 600 + 3000
    t = score(PINFU, "4s", tsumo=True, honba=1)
    assert t.total == 700 + 400 + 400 + 300


def test_r19_r20_settle_ron() -> None:
    r = score(PINFU, "4s")
    d = settle_win(
        r, winner=1, dealer=0, discarder=3, pao=None, honba=2, riichi_sticks=1, rules=STD
    )
    assert d == [0, 1000 + 600 + 1000, 0, -1600]


def test_r19_settle_tsumo_each_seat_pays_100_per_honba() -> None:
    r = score(PINFU, "4s", tsumo=True)
    d = settle_win(
        r, winner=2, dealer=0, discarder=None, pao=None, honba=1, riichi_sticks=0, rules=STD
    )
    assert d == [-800, -500, 1800, -500]
    # dealer tsumo: 700 all
    r = score(PINFU, "4s", tsumo=True, seat="E")
    d = settle_win(
        r, winner=0, dealer=0, discarder=None, pao=None, honba=0, riichi_sticks=2, rules=STD
    )
    assert d == [2100 + 2000, -700, -700, -700]


def test_settle_win_refuses_bad_seats() -> None:
    r = score(PINFU, "4s")
    with pytest.raises(ValueError):
        settle_win(
            r, winner=1, dealer=0, discarder=1, pao=None, honba=0, riichi_sticks=0, rules=STD
        )
    with pytest.raises(ValueError):
        settle_win(
            r, winner=4, dealer=0, discarder=1, pao=None, honba=0, riichi_sticks=0, rules=STD
        )


# --- R24 pao ------------------------------------------------------------------

DAISANGEN = ("123m99p", "3m", ("pon:555z", "pon:666z", "pon:777z"))


def test_r24_pao_tsumo_pays_everything_incl_honba() -> None:
    r = score(*DAISANGEN, tsumo=True)
    d = settle_win(
        r, winner=1, dealer=0, discarder=None, pao=2, honba=1, riichi_sticks=1, rules=STD
    )
    assert d == [0, 32000 + 300 + 1000, -32300, 0]


def test_r24_pao_ron_splits_with_the_discarder() -> None:
    r = score(*DAISANGEN)
    d = settle_win(r, winner=1, dealer=0, discarder=3, pao=2, honba=1, riichi_sticks=0, rules=STD)
    assert d == [0, 32300, -16000, -16300]
    # dealer winner: 48000 halved
    r = score(*DAISANGEN, seat="E")
    d = settle_win(r, winner=0, dealer=0, discarder=3, pao=2, honba=0, riichi_sticks=0, rules=STD)
    assert d == [48000, 0, -24000, -24000]
    # pao seat is the discarder: it pays all
    d = settle_win(r, winner=0, dealer=0, discarder=2, pao=2, honba=0, riichi_sticks=0, rules=STD)
    assert d == [48000, 0, -48000, 0]


def test_r24_pao_covers_only_the_liable_yakuman() -> None:
    # daisangen + tsuuiisou on tsumo: pao pays the daisangen part (32000) alone, the
    # tsuuiisou part is a normal tsumo split (16000 / 8000 / 8000)
    r = score("111z22z", "2z", ("pon:555z", "pon:666z", "pon:777z"), tsumo=True)
    assert dict(r.yakuman) == {"daisangen": 1, "tsuuiisou": 1}
    d = settle_win(
        r, winner=1, dealer=0, discarder=None, pao=2, honba=0, riichi_sticks=0, rules=STD
    )
    assert d == [-16000, 64000, -40000, -8000]


def test_r24_pao_for_daisuushii_double() -> None:
    r = score("444z55m", "5m", ("pon:111z", "pon:222z", "pon:333z"), tsumo=True)
    assert dict(r.yakuman) == {"daisuushii": 2}
    d = settle_win(
        r, winner=1, dealer=0, discarder=None, pao=3, honba=0, riichi_sticks=0, rules=STD
    )
    assert d == [0, 64000, 0, -64000]


def test_r24_pao_off_or_not_a_pao_yakuman_is_a_normal_split() -> None:
    r = score(*DAISANGEN, tsumo=True)
    no_pao = STD.with_overrides(pao=False)
    d = settle_win(
        r, winner=1, dealer=0, discarder=None, pao=2, honba=0, riichi_sticks=0, rules=no_pao
    )
    assert d == [-16000, 32000, -8000, -8000]
    r = score("11223344556677z", "7z", tsumo=True)  # tsuuiisou: nobody is liable
    d = settle_win(
        r, winner=1, dealer=0, discarder=None, pao=2, honba=0, riichi_sticks=0, rules=STD
    )
    assert d == [-16000, 32000, -8000, -8000]


# --- errors -------------------------------------------------------------------


def test_incomplete_hand_is_not_agari() -> None:
    assert error_code("123m456p789s23456s", "6s") == "not_agari"


@pytest.mark.parametrize(
    ("args", "kwargs", "word"),
    [
        (("123m456p789s2345s", "4s"), {}, "tiles"),
        (("123m456p789s23455s", "6s"), {}, "win"),
        (("11111m456p789s235s", "5s"), {}, "more than four"),
        (("123m406p789s23400s", "4s"), {}, "red"),
        (("456p789s23455s", "4s", ("chi:123m",)), {"riichi": True}, "riichi"),
        ((PINFU, "4s"), {"ippatsu": True}, "ippatsu"),
        ((PINFU, "4s"), {"haitei": True}, "haitei"),
        ((PINFU, "4s"), {"houtei": True, "tsumo": True}, "houtei"),
        ((PINFU, "4s"), {"chankan": True, "tsumo": True}, "chankan"),
        ((PINFU, "4s"), {"rinshan": True, "tsumo": True}, "rinshan"),
        ((PINFU, "4s"), {"tenhou": True, "seat": "E"}, "tenhou"),
        ((PINFU, "4s"), {"honba": -1}, "honba"),
        ((PINFU, "4s"), {"dora": "1m2m3m4m5m6m"}, "dora_indicators"),
    ],
)
def test_bad_input_is_refused_with_the_field_named(
    args: tuple[Any, ...], kwargs: dict[str, Any], word: str
) -> None:
    with pytest.raises(ScoreError) as e:
        score(*args, **kwargs)
    assert e.value.code == "bad_input"
    assert word in str(e.value)


def test_winds_must_be_winds() -> None:
    ctx = WinContext(win_tile=parse_tile("4s"), tsumo=False, seat_wind=28, round_wind=31)
    with pytest.raises(ScoreError, match="round_wind") as e:
        score_hand(parse_tiles(PINFU), [], ctx, STD)
    assert e.value.code == "bad_input"
