"""Sanma seats, rounds, the value of north and west, the dora successor, calls (S7-S11)."""

from __future__ import annotations

from server.engine.riichi import next_round, waiting_on
from server.engine.riichi.rules import preset
from server.engine.tiles import EAST, NORTH, SOUTH, WEST
from tests.engine.scenario import act, ev, game, types

TENHOU = preset("tenhou-sanma")


def _yaku(evs: list, seat: int) -> set[str]:  # type: ignore[type-arg]
    (a,) = ev(evs, "agari")
    w = next(w for w in a.data["winners"] if w["seat"] == seat)
    return {y["id"] for y in w["yaku"]}


def test_s7_seat_winds_east_south_west_and_nobody_is_north() -> None:
    st = game([None, None, None], rules=TENHOU, dealer=2)
    assert [st.seat_wind(s) for s in range(3)] == [SOUTH, WEST, EAST]
    assert NORTH not in {st.seat_wind(s) for s in range(3)}


def test_s7_the_seat_after_the_dealer_is_south() -> None:
    """T-2021 S3-0: 場風 南 and 自風 南 for the seat after the dealer in the South round."""
    hands = ["1m", "222z123p456p789s1m", None]
    st = game(hands, draws="9p", rules=TENHOU, round_wind=1)
    act(st, 0, "discard", "1m")
    assert _yaku(act(st, 1, "ron"), 1) == {"yakuhai_seat_wind", "yakuhai_round_wind"}


def test_s8_east_3_is_followed_by_south_1_and_a_dealer_win_repeats() -> None:
    hands = ["123p456p789p999s9m", None, "9m"]  # ittsu, waiting on 9m
    st = game(hands, draws="4z", rules=TENHOU, dealer=2)  # East 3: seat 2 deals
    assert (st.round_wind, st.kyoku) == (0, 2)
    act(st, 2, "discard", "9m")
    act(st, 0, "ron")
    evs = next_round(st)
    nxt = ev(evs, "round_end")[0].data["next"]
    assert nxt == {"round_wind": "S", "kyoku": 1, "honba": 0, "dealer": 0}
    start = ev(evs, "round_start")[0].data
    assert (start["round_wind"], start["kyoku"], start["dealer"]) == ("S", 1, 0)
    # a dealer win in East 3 repeats East 3 with a honba
    hands = ["9m", None, "123p456p789p999s9m"]
    st = game(hands, draws="4z", rules=TENHOU, dealer=2)
    act(st, 2, "discard", "4z")
    assert waiting_on(st) == frozenset({0})
    act(st, 0, "discard", "9m")
    act(st, 2, "ron")
    nxt = ev(next_round(st), "round_end")[0].data["next"]
    assert nxt == {"round_wind": "E", "kyoku": 3, "honba": 1, "dealer": 2}


def test_s9_a_north_triplet_is_no_yaku_for_anyone() -> None:
    """Otakaze: no seat is North and North is never the round wind (seed 001, wiki-ms)."""
    for winner, round_wind in ((1, 0), (2, 1), (1, 2)):
        hands = ["1m", None, None]
        hands[winner] = "444z123p456p789s1m"
        st = game(hands, draws="9p", rules=TENHOU, round_wind=round_wind)
        act(st, 0, "discard", "1m")
        assert "ron" not in types(st, winner)


def test_s9_west_is_yakuhai_for_everyone_in_the_west_round() -> None:
    hands = ["1m", "333z123p456p789s1m", None]
    st = game(hands, draws="9p", rules=TENHOU, round_wind=2)
    act(st, 0, "discard", "1m")
    assert _yaku(act(st, 1, "ron"), 1) == {"yakuhai_round_wind"}  # seat 1 is South
    hands = ["1m", None, "333z123p456p789s1m"]
    st = game(hands, draws="9p", rules=TENHOU, round_wind=2)
    act(st, 0, "discard", "1m")
    # seat 2 is West: the double wind, one han each (yakuhai_seat_wind + round wind)
    assert _yaku(act(st, 2, "ron"), 2) == {"yakuhai_seat_wind", "yakuhai_round_wind"}
    assert st.seat_wind(2) == WEST and st.seat_wind(0) == EAST


def test_s10_the_dora_after_1m_is_9m_and_after_9m_is_1m() -> None:
    # 發 triplet for the yaku; 9m pair: indicator 1m makes both 9m dora
    hands = ["1p", "666z123p456p789s9m", None]
    st = game(hands, draws="9m", dora="1m", rules=TENHOU)
    act(st, 0, "discard", "9m")
    a = ev(act(st, 1, "ron"), "agari")[0].data["winners"][0]
    assert a["dora"] == 2
    hands = ["1p", "666z123p456p789s1m", None]
    st = game(hands, draws="1m", dora="9m", rules=TENHOU)
    act(st, 0, "discard", "1m")
    a = ev(act(st, 1, "ron"), "agari")[0].data["winners"][0]
    assert a["dora"] == 2
    # four players: 1m points to 2m as always (R5)
    hands4 = ["1p", "666z123p456p789s9m", None, None]
    st4 = game(hands4, draws="9m", dora="1m")
    act(st4, 0, "discard", "9m")
    assert ev(act(st4, 1, "ron"), "agari")[0].data["winners"][0]["dora"] == 0


def test_s11_no_chi_even_from_the_seat_before() -> None:
    hands = ["3p", "12p", "33p"]
    st = game(hands, draws="1z", rules=TENHOU)
    act(st, 0, "discard", "3p")
    assert types(st, 1) == set()  # nothing at all for the seat after the discarder
    assert types(st, 2) == {"pon", "pass"}


def test_s11_north_can_be_ponned_and_kanned_and_is_then_no_nukidora() -> None:
    """Open question 1: riichienv offers pon of a discarded north; no log in reach has one."""
    hands = ["4z", "444z12p", None]
    st = game(hands, draws="1z", rules=TENHOU)
    act(st, 0, "discard", "4z")
    assert types(st, 1) == {"pon", "daiminkan", "pass"}
    act(st, 1, "pon", tiles="4z4z")
    # after a pon there is no draw: no north set aside (S12a), only discards
    assert types(st, 1) == {"discard"}
    assert st.nuki[1] == []
