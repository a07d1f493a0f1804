"""Sanma: a north set aside as a dora with a replacement draw (nukidora, S12a-S12g)."""

from __future__ import annotations

from typing import Any

from server.engine.events import Event
from server.engine.riichi import GameState, observe, waiting_on, why_illegal
from server.engine.riichi.rules import RuleSet, preset
from server.engine.tiles import NORTH
from tests.engine.scenario import act, action, ev, game, pass_all, tsumogiri, types

TENHOU = preset("tenhou-sanma")
MAJSOUL = preset("majsoul-sanma")


def nuki(st: GameState, seat: int) -> list[Event]:
    return act(st, seat, "nuki", "4z")


def winner(evs: list[Event], seat: int) -> dict[str, Any]:
    (a,) = ev(evs, "agari")
    w: dict[str, Any] = next(w for w in a.data["winners"] if w["seat"] == seat)
    return w


def yaku(evs: list[Event], seat: int) -> set[str]:
    return {y["id"] for y in winner(evs, seat)["yaku"]}


def near_the_end(hands: list[str | None], rules: RuleSet = TENHOU) -> GameState:
    """Seat 2 draws a north as the 54th live tile, with one live tile left after it."""
    draws: list[str | None] = [None] * 55
    draws[53] = "4z"
    st = game(hands, draws=draws, rinshan="9s", rules=rules)
    while st.live_left() > 1:
        tsumogiri(st)
    assert (st.turn, st.live_left(), st.tile(st.drawn[2] or 0)) == (2, 1, NORTH)
    return st


# --- S12a: when -------------------------------------------------------------------


def test_s12a_after_a_draw_any_number_of_times_in_a_row() -> None:
    st = game(["4z", None, None], draws="4z", rinshan="4z1p", rules=TENHOU)
    assert "nuki" in types(st, 0)
    (n,) = ev(nuki(st, 0), "nuki")
    assert n.data == {"type": "nuki", "seat": 0, "tile": "4z"}
    assert "nuki" in types(st, 0)  # the replacement tile was a north as well
    nuki(st, 0)
    nuki(st, 0)  # the north of the deal
    assert "nuki" not in types(st, 0) and st.cnt[0][NORTH] == 0
    assert len(st.nuki[0]) == 3 and st.live_left() == 55 - 1 - 3
    assert why_illegal(st, action(0, "nuki", "4z")) == "no north in the hand"


def test_s12a_a_north_may_be_kept_or_discarded() -> None:
    st = game(["4z", None, None], draws="1p", rules=TENHOU)
    assert {"nuki", "discard"} <= types(st, 0)
    evs = act(st, 0, "discard", "4z")
    assert ev(evs, "discard")[0].data["tile"] == "4z"


def test_s12a_no_north_set_aside_on_the_last_tile() -> None:
    draws: list[str | None] = [None] * 55
    draws[54] = "4z"  # the 55th live draw is the dealer's (no calls)
    st = game([None, None, None], draws=draws, rules=TENHOU)
    while st.live_left() > 0:
        tsumogiri(st)
    assert st.turn == 0 and st.tile(st.drawn[0] or 0) == NORTH
    assert "nuki" not in types(st, 0)
    assert why_illegal(st, action(0, "nuki", "4z")) == "no north set aside on the last tile"


def test_s12a_with_one_tile_left_the_pull_takes_it_into_the_dead_wall() -> None:
    st = near_the_end([None, None, None])
    evs = nuki(st, 2)
    assert st.live_left() == 0 and ev(evs, "draw")[0].data["rinshan"]
    evs = tsumogiri(st)  # the last discard: nobody draws after it
    assert not ev(evs, "draw") and ev(evs, "ryuukyoku")[0].data["reason"] == "exhaustive"


# --- S12b: in riichi ------------------------------------------------------------------


def test_s12b_in_riichi_only_a_north_just_drawn_may_be_set_aside() -> None:
    """T-2024a S1-0 ("r37","f44"), MS-kokushi E3: pulls after one's own riichi."""
    hands = ["123p456p789p11s23s", None, None]
    st = game(hands, draws="9m" + "1z1z" + "4z", rules=TENHOU)
    act(st, 0, "riichi", "9m")
    pass_all(st)
    tsumogiri(st, 2)
    assert st.riichi[0] and "nuki" in types(st, 0)
    nuki(st, 0)
    assert st.riichi[0] and len(st.nuki[0]) == 1 and st.waits[0] == [18, 21]
    # a north the riichi hand waits with stays: pulling it would change the waits
    hands = ["123p456p789p44z11s", None, None]
    st = game(hands, draws="9m" + "1z1z" + "5z", rules=TENHOU)
    act(st, 0, "riichi", "9m")
    pass_all(st)
    tsumogiri(st, 2)
    assert "nuki" not in types(st, 0)
    assert why_illegal(st, action(0, "nuki", "4z")) == (
        "after riichi only a north just drawn may be set aside"
    )


# --- S12c: what happens ----------------------------------------------------------------


def test_s12c_aside_not_a_meld_not_in_the_river_no_dora_turned() -> None:
    st = game(["4z", None, None], draws="4z", rinshan="1p", dora="1z", rules=TENHOU)
    evs = nuki(st, 0)
    assert [e.type for e in evs] == ["nuki", "draw"]
    assert ev(evs, "draw")[0].data["rinshan"] is True
    assert st.is_closed(0) and st.melds[0] == [] and st.rivers[0] == []
    assert st.dora_count == 1 and not ev(evs, "new_dora")
    assert observe(st, 0).players[0].nuki == 1
    assert observe(st, 1).players[0].nuki == 1  # everyone sees it


def test_s12c_the_hand_stays_closed_tanyao_with_norths_aside() -> None:
    hands = ["234p567p345s67s22p", None, None]
    st = game(hands, draws="4z", rinshan="4z8s", dora="1z", rules=TENHOU)
    nuki(st, 0)
    nuki(st, 0)
    evs = act(st, 0, "tsumo")
    assert {"tanyao", "menzen_tsumo", "rinshan_kaihou"} <= yaku(evs, 0)
    w = winner(evs, 0)
    assert w["nuki"] == 2 and w["dora"] == 0 and w["melds"] == []


# --- S12d: value --------------------------------------------------------------------------


def test_s12d_each_north_aside_is_one_dora_and_two_with_a_west_indicator() -> None:
    """T-2014 E1-0 (2 pulls, indicator 1s: ドラ 2); wiki-sanma and riichienv for West."""
    hands = ["666z123p456p789s9s", None, None]
    for indicator, dora in (("1s", 0), ("3z", 2)):
        st = game(hands, draws="4z", rinshan="4z9s", dora=indicator, rules=TENHOU)
        nuki(st, 0)
        nuki(st, 0)
        w = winner(act(st, 0, "tsumo"), 0)
        assert (w["nuki"], w["dora"]) == (2, dora)
        assert w["han"] == 1 + 1 + 1 + 2 + dora  # hatsu, tsumo, rinshan, the norths


def test_s12d_norths_aside_are_no_yaku() -> None:
    # 123p 456p 789s 11m 99s waits on 1m/9s without a yaku; a north aside changes nothing
    hands = [None, "123p456p789s11m99s", None]
    st = game(hands, draws="1z" + "4z" + "9s", rinshan="2z", rules=TENHOU)
    tsumogiri(st)
    nuki(st, 1)
    tsumogiri(st)
    assert st.nuki[1] and sorted(st.waits[1]) == [0, 23, 26]  # 1m, 6s, 9s
    act(st, 2, "discard", "9s")
    assert "ron" not in types(st, 1)


# --- S12e: ron on the north set aside ------------------------------------------------------


def test_s12e_ron_on_the_north_is_not_chankan() -> None:
    """seed 001 "拔北时可以被荣和"; MS-kokushi E3-0; riichienv: no chankan han."""
    hands = ["4z", "666z123p456p789s4z", None]
    st = game(hands, draws="4z", dora="1z", rules=TENHOU)
    nuki(st, 0)
    assert waiting_on(st) == frozenset({1}) and types(st, 1) == {"ron", "pass"}
    evs = act(st, 1, "ron")
    assert yaku(evs, 1) == {"yakuhai_hatsu"}  # 40 fu 1 han, no chankan
    w = winner(evs, 1)
    assert (w["from_seat"], w["win_tile"], w["points"]) == (0, "4z", 1300)
    assert ev(evs, "agari")[0].data["deltas"] == [-1300, 1300, 0]


def test_s12e_a_pull_with_one_tile_left_ronned_is_not_houtei() -> None:
    """MS-double E1-0: two rons on a north pulled with one live tile left, no 河底撈魚."""
    st = near_the_end(["44z", "666z123p456p789s4z", None], MAJSOUL)
    nuki(st, 2)
    assert st.live_left() == 0
    evs = act(st, 1, "ron")
    assert yaku(evs, 1) == {"yakuhai_hatsu"}


def test_s12e_double_ron_on_the_north() -> None:
    hands = ["4z", "666z123p456p789s4z", "555z123s456s789p4z"]
    st = game(hands, draws="4z", dora="1z", rules=MAJSOUL)
    nuki(st, 0)
    assert waiting_on(st) == frozenset({1, 2})
    act(st, 1, "ron")
    evs = act(st, 2, "ron")
    (a,) = ev(evs, "agari")
    assert [w["seat"] for w in a.data["winners"]] == [1, 2]
    assert a.data["deltas"] == [-2600, 1300, 1300]


def test_s12e_passing_the_north_is_furiten_and_a_furiten_seat_cannot_ron_it() -> None:
    hands = ["44z", "666z123p456p789s4z", None]
    st = game(hands, draws="4z" + "1p1p" + "1p", rinshan="2p3p", rules=TENHOU)
    nuki(st, 0)
    act(st, 1, "pass")
    assert st.furiten(1)
    act(st, 0, "discard", "2p")
    pass_all(st)
    # seat 1's own draw and discard lift the temporary furiten (R16)
    tsumogiri(st, 2)
    assert not st.furiten(1)
    nuki(st, 0)
    assert types(st, 1) == {"ron", "pass"}


# --- S12f: ippatsu and the first go-around ---------------------------------------------------


def _riichi_then(pull: bool) -> list[Event]:
    """Seat 1 riichi (1m/9m); seat 2 and the dealer play; seat 1 draws 9m and tsumos."""
    hands = ["4z", "123p456p789s99m1m7z", None]
    st = game(hands, draws="1z" + "1m" + "2z" + "3z" + "9m", rinshan="5z", rules=TENHOU)
    tsumogiri(st)
    act(st, 1, "riichi", "7z")
    pass_all(st)
    tsumogiri(st)  # seat 2
    if pull:
        nuki(st, 0)
    tsumogiri(st)  # the dealer's draw (or the replacement after the pull)
    return act(st, 1, "tsumo")


def test_s12f_a_pull_breaks_every_ippatsu() -> None:
    assert "ippatsu" in yaku(_riichi_then(pull=False), 1)
    assert "ippatsu" not in yaku(_riichi_then(pull=True), 1)


def test_s12f_a_pull_ends_the_first_go_around_no_kyuushu() -> None:
    nine = "19m19p19s123z2345p"  # nine kinds of terminals and honours
    st = game(["4z", nine, None], draws="1p" + "6p", rules=TENHOU)
    tsumogiri(st)
    assert "kyuushu" in types(st, 1)
    st = game(["4z", nine, None], draws="4z" + "6p", rinshan="7p", rules=TENHOU)
    nuki(st, 0)
    tsumogiri(st)
    assert "kyuushu" not in types(st, 1)


def test_s12f_a_tsumo_on_the_replacement_of_the_first_draw_is_no_tenhou() -> None:
    hands = ["666z123p456p789s9s", None, None]
    st = game(hands, draws="4z", rinshan="9s", rules=TENHOU)
    nuki(st, 0)
    w = winner(act(st, 0, "tsumo"), 0)
    assert w["yakuman"] == [] and "rinshan_kaihou" in {y["id"] for y in w["yaku"]}


def test_s12f_ron_on_the_north_keeps_the_ronners_ippatsu() -> None:
    """Mahjong Soul (riichienv's note): a ron on the pulled north scores ippatsu, as a
    chankan on a kakan does (R12); the pull breaks ippatsu only once it stands."""
    hands = [None, "123p456p789s99m7z4z", None]
    st = game(hands, draws="1z" + "9m" + "2z" + "4z", rules=MAJSOUL)
    tsumogiri(st)
    act(st, 1, "riichi", "7z")
    pass_all(st)
    tsumogiri(st)
    nuki(st, 0)
    # riichi on the first discard is double riichi
    assert {"double_riichi", "ippatsu"} <= yaku(act(st, 1, "ron"), 1)


# --- S12g: rinshan kaihou ----------------------------------------------------------------------


def test_s12g_a_win_on_the_replacement_is_rinshan_kaihou_and_never_haitei() -> None:
    """T-2024a E3-0: 嶺上開花 on the draw after a pull; seeds 002/004 yaku 23/24."""
    st = near_the_end([None, None, "666z123p456p789s9s"])
    nuki(st, 2)
    assert st.live_left() == 0
    ids = yaku(act(st, 2, "tsumo"), 2)
    assert "rinshan_kaihou" in ids and "haitei" not in ids
