"""Every yaku and yakuman by canonical id (R21): hands that have it and hands that do not."""

from __future__ import annotations

from typing import Any

import pytest

from server.engine.melds import Meld
from server.engine.riichi.rules import RuleSet, preset
from server.engine.riichi.scoring import score_hand
from server.engine.riichi.win import ScoreError, WinContext, WinResult
from server.engine.riichi.yaku import YAKU_HAN, YAKUMAN_IDS
from server.engine.tiles import EAST, WIND_LETTERS, parse_tile, parse_tiles


def score(
    tiles: str,
    win: str,
    melds: tuple[str, ...] = (),
    *,
    seat: str = "S",
    rnd: str = "E",
    rules: RuleSet | str = "standard",
    **flags: Any,
) -> WinResult:
    """Score a hand written as strings; melds as "pon:777z", "ankan:1111m", ..."""
    ms = [Meld.parse(*m.split(":")) for m in melds]
    ctx = WinContext(
        win_tile=parse_tile(win),
        seat_wind=EAST + WIND_LETTERS.index(seat),
        round_wind=EAST + WIND_LETTERS.index(rnd),
        tsumo=flags.pop("tsumo", False),
        **flags,
    )
    rs = preset(rules) if isinstance(rules, str) else rules
    return score_hand(parse_tiles(tiles), ms, ctx, rs)


def yaku_of(r: WinResult) -> dict[str, int]:
    return dict(r.yaku)


def yakuman_of(r: WinResult) -> dict[str, int]:
    return dict(r.yakuman)


LOCAL = preset("standard").with_overrides(sanrenkou=True, isshoku_sanjun=True)

# (yaku id, han, tiles, win, melds, options)
HAS: list[tuple[str, int, str, str, tuple[str, ...], dict[str, Any]]] = [
    ("riichi", 1, "123m456p789s23455s", "4s", (), {"riichi": True}),
    ("double_riichi", 2, "123m456p789s23455s", "4s", (), {"double_riichi": True}),
    ("ippatsu", 1, "123m456p789s23455s", "4s", (), {"riichi": True, "ippatsu": True}),
    ("menzen_tsumo", 1, "123m456p789s23455s", "4s", (), {"tsumo": True}),
    ("pinfu", 1, "123m456p789s23455s", "4s", (), {}),
    ("pinfu", 1, "123m456p789s23455s", "4s", (), {"tsumo": True}),
    ("tanyao", 1, "234m456p678s23455s", "2s", (), {}),
    ("tanyao", 1, "456p678s23455s", "2s", ("chi:234m",), {}),
    ("iipeikou", 1, "112233m456p789s55s", "1m", (), {}),
    ("ryanpeikou", 3, "112233m778899p55s", "1m", (), {}),
    ("yakuhai_haku", 1, "123m456p789s99s", "9s", ("pon:555z",), {}),
    ("yakuhai_hatsu", 1, "123m456p789s99s", "9s", ("pon:666z",), {}),
    ("yakuhai_chun", 1, "123m456p789s99s", "9s", ("pon:777z",), {}),
    ("yakuhai_chun", 1, "123m456p789s99s777z", "9s", (), {}),
    ("yakuhai_seat_wind", 1, "123m456p789s99s", "9s", ("pon:222z",), {"seat": "S"}),
    ("yakuhai_round_wind", 1, "123m456p789s99s", "9s", ("pon:111z",), {"rnd": "E"}),
    ("yakuhai_round_wind", 1, "123m456p789s99s", "9s", ("pon:222z",), {"rnd": "S"}),
    (
        "rinshan_kaihou",
        1,
        "123m456p789s55s",
        "5s",
        ("ankan:9999m",),
        {"tsumo": True, "rinshan": True},
    ),
    ("chankan", 1, "234m456p678s99s", "6s", ("chi:345s",), {"chankan": True}),
    ("haitei", 1, "123m456p678s99s", "6s", ("chi:345s",), {"tsumo": True, "haitei": True}),
    ("houtei", 1, "123m456p678s99s", "6s", ("chi:345s",), {"houtei": True}),
    ("chiitoitsu", 2, "1122m3344p5566s77z", "7z", (), {}),
    ("toitoi", 2, "333s444m55p", "5p", ("pon:111m", "pon:222p"), {}),
    ("sanshoku_doujun", 2, "123m123p123s456m99p", "9p", (), {}),
    ("sanshoku_doujun", 1, "123p123s456m99p", "9p", ("chi:123m",), {}),
    ("sanshoku_doukou", 2, "222m222p222s456m99p", "4m", (), {}),
    ("sanshoku_doukou", 2, "222p222s456m99p", "4m", ("pon:222m",), {}),
    ("ittsu", 2, "123456789m456p99s", "9s", (), {}),
    ("ittsu", 1, "456789m456p99s", "9s", ("chi:123m",), {}),
    ("sanankou", 2, "111m333p555s789s99p", "9s", (), {}),
    ("sanankou", 2, "333p555s789s99p", "9s", ("ankan:1111m",), {}),
    ("sanankou", 2, "111m333p555s99p", "5s", ("chi:789s",), {"tsumo": True}),
    ("sankantsu", 2, "456m99p", "9p", ("ankan:1111m", "ankan:2222p", "daiminkan:3333s"), {}),
    ("chanta", 2, "123m789p444z789s99s", "3m", (), {}),
    ("chanta", 1, "789p444z789s99s", "9s", ("chi:123m",), {}),
    ("junchan", 3, "123m789p111s789s99m", "3m", (), {}),
    ("junchan", 2, "789p111s789s99m", "9m", ("chi:123m",), {}),
    ("honroutou", 2, "999s444z11p", "1p", ("pon:111m", "pon:999p"), {}),
    ("honroutou", 2, "1199m1199p11s2233z", "3z", (), {}),
    ("shousangen", 2, "123m456p77z", "7z", ("pon:555z", "pon:666z"), {}),
    ("honitsu", 3, "123m456m789m333z22z", "2z", (), {}),
    ("honitsu", 2, "456m789m333z22z", "2z", ("chi:123m",), {}),
    ("chinitsu", 6, "12334556788999m", "1m", (), {}),
    ("chinitsu", 5, "34556788999m", "3m", ("chi:123m",), {}),
]


@pytest.mark.parametrize(("yid", "han", "tiles", "win", "melds", "opts"), HAS)
def test_r21_yaku_present(
    yid: str, han: int, tiles: str, win: str, melds: tuple[str, ...], opts: dict[str, Any]
) -> None:
    r = score(tiles, win, melds, **opts)
    assert yaku_of(r).get(yid) == han, r.yaku
    assert not r.yakuman


# (yaku id, tiles, win, melds, options): complete hands with some yaku, but not this one
HAS_NOT: list[tuple[str, str, str, tuple[str, ...], dict[str, Any]]] = [
    ("riichi", "123m456p789s23455s", "4s", (), {"double_riichi": True}),
    ("menzen_tsumo", "456p678s23455s", "2s", ("chi:234m",), {"tsumo": True}),
    ("pinfu", "123m456p789s23455s", "3s", (), {"riichi": True}),  # kanchan
    ("pinfu", "123m456p789s234s22z", "4s", (), {"riichi": True, "seat": "S"}),  # value pair
    ("pinfu", "123m456p789s234s22z", "4s", (), {"riichi": True, "rnd": "S"}),
    ("pinfu", "123m456p789s12355s", "3s", (), {"riichi": True}),  # penchan
    ("pinfu", "456p789s23455s", "4s", ("chi:123m",), {"houtei": True}),  # open
    ("tanyao", "123m456p789s23455s", "4s", (), {"riichi": True}),
    ("iipeikou", "112233m778899p55s", "1m", (), {}),  # ryanpeikou instead
    ("iipeikou", "123m456p789s55s", "5s", ("chi:123m",), {"houtei": True}),
    ("yakuhai_seat_wind", "123m456p789s99s", "9s", ("pon:111z",), {"seat": "S", "rnd": "E"}),
    ("yakuhai_round_wind", "123m456p789s99s", "9s", ("pon:222z",), {"seat": "S", "rnd": "E"}),
    ("yakuhai_haku", "123m456p789s234s55z", "3s", (), {"riichi": True}),  # haku pair only
    (
        "haitei",
        "123m456p55s",
        "5s",
        ("ankan:9999m", "chi:789s"),
        {"tsumo": True, "haitei": True, "rinshan": True},
    ),
    ("chiitoitsu", "112233m778899p55s", "1m", (), {}),
    ("toitoi", "333s444m55p", "5p", ("pon:111m", "chi:234p"), {"houtei": True}),
    ("sanshoku_doujun", "123m123p234s456m99p", "9p", (), {"riichi": True}),
    ("sanshoku_doukou", "222m222p333s456m99p", "4m", (), {}),
    ("ittsu", "123456m789p456p99s", "9s", (), {"riichi": True}),  # 789 of another suit
    ("sanankou", "111m333p555s789s99p", "5s", (), {"riichi": True}),  # ron on shanpon: minkou
    ("sanankou", "333p555s789s99p", "9s", ("pon:111m",), {"houtei": True}),
    (
        "sankantsu",
        "456m99p",
        "9p",
        ("ankan:1111m", "ankan:2222p", "pon:333s"),
        {"tsumo": True, "rinshan": True},
    ),
    ("chanta", "123m789p111s789s99m", "3m", (), {}),  # no honor: junchan instead
    ("chanta", "234m789p444z789s99s", "4m", (), {"riichi": True}),
    ("junchan", "123m789p444z789s99s", "3m", (), {}),
    ("honroutou", "123m789p444z789s99s", "3m", (), {}),
    ("shousangen", "123m456p55z", "5z", ("pon:666z", "pon:111z"), {}),  # one dragon set
    ("honitsu", "12334556788999m", "1m", (), {}),  # chinitsu instead
    ("chinitsu", "123m456m789m333z22z", "2z", (), {}),
    ("sanrenkou", "456m99s", "9s", ("pon:222p", "pon:333p", "pon:444p"), {"houtei": True}),
    ("isshoku_sanjun", "234p567s88m", "8m", ("chi:234p", "chi:234p"), {}),
    ("double_riichi", "123m456p789s23455s", "4s", (), {"riichi": True}),
    ("ippatsu", "123m456p789s23455s", "4s", (), {"riichi": True}),
    ("chankan", "123m456p789s23455s", "4s", (), {}),
    ("houtei", "123m456p789s23455s", "4s", (), {}),
    ("rinshan_kaihou", "123m456p789s55s", "5s", ("ankan:9999m",), {"tsumo": True}),
    ("ryanpeikou", "112233m456p789s55s", "1m", (), {}),  # one pair of runs only
    ("yakuhai_hatsu", "123m456p789s99s", "9s", ("pon:555z",), {}),
    ("yakuhai_chun", "123m456p789s234s77z", "3s", (), {"riichi": True}),  # chun pair only
]


@pytest.mark.parametrize(("yid", "tiles", "win", "melds", "opts"), HAS_NOT)
def test_r21_yaku_absent(
    yid: str, tiles: str, win: str, melds: tuple[str, ...], opts: dict[str, Any]
) -> None:
    r = score(tiles, win, melds, **opts)
    assert yid not in yaku_of(r), r.yaku


def test_r21_every_yaku_id_has_a_positive_and_a_negative_case() -> None:
    covered = {c[0] for c in HAS} | {"sanrenkou", "isshoku_sanjun"}
    assert covered == set(YAKU_HAN)
    assert {c[0] for c in HAS_NOT} == set(YAKU_HAN)


def test_r21_local_yaku_sanrenkou_only_with_its_option() -> None:
    hand = ("456m99s", "9s", ("pon:222p", "pon:333p", "pon:444p"))
    r = score(*hand, rules=LOCAL)
    assert yaku_of(r) == {"sanrenkou": 2}
    with pytest.raises(ScoreError) as e:
        score(*hand)
    assert e.value.code == "no_yaku"


def test_r21_local_yaku_isshoku_sanjun_only_with_its_option() -> None:
    hand = ("234p567s88m", "8m", ("chi:234p", "chi:234p"))
    assert yaku_of(score(*hand, rules=LOCAL)) == {"isshoku_sanjun": 1, "tanyao": 1}
    assert yaku_of(score(*hand)) == {"tanyao": 1}
    # closed: 2 han, and it replaces iipeikou (high-point rule against 222333444p)
    only = preset("standard").with_overrides(isshoku_sanjun=True)
    closed = score("234234234p567s88m", "2p", rules=only)
    assert yaku_of(closed) == {"pinfu": 1, "tanyao": 1, "isshoku_sanjun": 2}
    assert yaku_of(score("234234234p567s88m", "2p")) == {"pinfu": 1, "tanyao": 1, "iipeikou": 1}


def test_r21_double_wind_triplet_counts_both_winds() -> None:
    r = score("123m456p789s99s", "9s", ("pon:111z",), seat="E", rnd="E")
    assert yaku_of(r) == {"yakuhai_seat_wind": 1, "yakuhai_round_wind": 1}


def test_r21_open_tanyao_needs_kuitan() -> None:
    no_kuitan = preset("standard").with_overrides(kuitan=False)
    with pytest.raises(ScoreError) as e:
        score("456p678s23455s", "2s", ("chi:234m",), rules=no_kuitan)
    assert e.value.code == "no_yaku"
    assert yaku_of(score("234m456p678s23455s", "2s", rules=no_kuitan))["tanyao"] == 1


def test_r21_renhou_is_not_a_yaku() -> None:
    # Tenhou has no renhou: a first-turn ron by a non-dealer is scored as usual.
    r = score("123m456p789s23455s", "4s")
    assert set(yaku_of(r)) == {"pinfu"}
    assert not r.yakuman


# --- yakuman ----------------------------------------------------------------

TENHOU = preset("tenhou")

# (yakuman id, multiplier standard, multiplier tenhou, tiles, win, melds, options)
YAKUMAN: list[tuple[str, int, int, str, str, tuple[str, ...], dict[str, Any]]] = [
    ("kokushi", 1, 1, "119m19p19s1234567z", "9m", (), {}),
    ("kokushi", 2, 1, "119m19p19s1234567z", "1m", (), {}),  # 13-sided
    ("suuankou", 1, 1, "111m333p555s777s99p", "7s", (), {"tsumo": True}),
    ("suuankou", 2, 1, "111m333p555s777s99p", "9p", (), {}),  # tanki
    ("suuankou", 1, 1, "333p555s777s99p", "7s", ("ankan:1111m",), {"tsumo": True}),
    ("daisangen", 1, 1, "555666777z123m99p", "3m", (), {}),
    ("shousuushii", 1, 1, "111222333z44z123m", "3m", (), {}),
    ("daisuushii", 2, 1, "333444z55m", "5m", ("pon:111z", "pon:222z"), {}),
    ("tsuuiisou", 1, 1, "11223344556677z", "7z", (), {}),
    ("tsuuiisou", 1, 1, "111z555z66z", "6z", ("pon:222z", "pon:333z"), {}),
    ("ryuuiisou", 1, 1, "223344s666s888s66z", "8s", (), {}),
    ("ryuuiisou", 1, 1, "234s666s88s", "8s", ("chi:234s", "pon:666z"), {}),
    ("chinroutou", 1, 1, "111p999p11s", "1s", ("pon:111m", "pon:999m"), {}),
    ("chuuren", 1, 1, "11123456788999m", "9m", (), {}),
    ("chuuren", 2, 1, "11123455678999m", "5m", (), {}),  # junsei: nine-sided
    ("chuuren", 2, 1, "11112345678999m", "1m", (), {}),
    (
        "suukantsu",
        1,
        1,
        "55z",
        "5z",
        ("ankan:1111m", "ankan:2222p", "daiminkan:3333s", "kakan:4444s"),
        {"tsumo": True},
    ),
    ("tenhou", 1, 1, "123m456p789s23455s", "4s", (), {"tsumo": True, "seat": "E", "tenhou": True}),
    (
        "chiihou",
        1,
        1,
        "123m456p789s23455s",
        "4s",
        (),
        {"tsumo": True, "seat": "S", "chiihou": True},
    ),
]


@pytest.mark.parametrize(("yid", "std", "ten", "tiles", "win", "melds", "opts"), YAKUMAN)
def test_r21_yakuman_present_with_preset_multiplier(
    yid: str,
    std: int,
    ten: int,
    tiles: str,
    win: str,
    melds: tuple[str, ...],
    opts: dict[str, Any],
) -> None:
    r = score(tiles, win, melds, **opts)
    assert yakuman_of(r).get(yid) == std, r.yakuman
    assert r.yaku == () and r.han == 0 and r.limit == "yakuman"
    assert r.base == 8000 * sum(m for _, m in r.yakuman)
    r2 = score(tiles, win, melds, rules=TENHOU, **opts)
    assert yakuman_of(r2).get(yid) == ten


def test_r21_every_yakuman_id_has_a_case() -> None:
    assert {c[0] for c in YAKUMAN} == set(YAKUMAN_IDS)


def test_r21_suuankou_ron_on_shanpon_is_sanankou_toitoi() -> None:
    r = score("111m333p555s777s99p", "7s")
    assert not r.yakuman
    assert yaku_of(r) == {"sanankou": 2, "toitoi": 2}
    # 20 + 10 closed ron + 8 (111m) + 4 (333p) + 4 (555s) + 2 (777s minkou) = 48 -> 50
    assert r.fu == 50


def test_r21_suuankou_tsumo_on_shanpon_keeps_ankou() -> None:
    r = score("111m333p555s777s99p", "7s", tsumo=True)
    assert yakuman_of(r) == {"suuankou": 1}


def test_r21_suuankou_with_a_ron_completed_triplet_via_ankan_rest() -> None:
    # Ankan counts as concealed: three ankan + tanki ron is suuankou tanki.
    r = score("999s11p", "1p", ("ankan:1111m", "ankan:2222p", "ankan:3333s"), rules=TENHOU)
    assert yakuman_of(r) == {"suuankou": 1}
    assert yakuman_of(score("999s11p", "1p", ("ankan:1111m", "ankan:2222p", "ankan:3333s"))) == {
        "suuankou": 2
    }


def test_r21_yakuman_add_up() -> None:
    # tsuuiisou + daisangen + suuankou tanki (double in standard)
    r = score("555666777z111z22z", "2z")
    assert yakuman_of(r) == {"suuankou": 2, "daisangen": 1, "tsuuiisou": 1}
    assert r.base == 8000 * 4
    r2 = score("555666777z111z22z", "2z", rules=TENHOU)
    assert r2.base == 8000 * 3


def test_r21_yakuman_absent_cases() -> None:
    # chuuren needs a closed hand without melds; ankan breaks it
    r = score("11145678999m", "1m", ("chi:123m",), houtei=True)
    assert not r.yakuman
    # shousuushii needs the fourth wind as the pair
    r = score("111222333z55z123m", "3m")
    assert not r.yakuman
    # ryuuiisou: a non-green tile spoils it
    r = score("223344s666s999s66z", "9s")
    assert not r.yakuman
    # kokushi with a pair that is not the winning tile is not 13-sided
    assert yakuman_of(score("19m119p19s1234567z", "7z")) == {"kokushi": 1}


def test_r21_tenhou_needs_dealer_and_chiihou_non_dealer() -> None:
    for flag, seat in (("tenhou", "S"), ("chiihou", "E")):
        with pytest.raises(ScoreError) as e:
            score("123m456p789s23455s", "4s", tsumo=True, seat=seat, **{flag: True})
        assert e.value.code == "bad_input"


def test_r21_tenhou_adds_to_other_yakuman() -> None:
    r = score("111m333p555s777s99p", "7s", tsumo=True, seat="E", tenhou=True)
    assert yakuman_of(r) == {"tenhou": 1, "suuankou": 1}
