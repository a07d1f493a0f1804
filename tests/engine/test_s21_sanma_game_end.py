"""Sanma game length, end and final points (S21a-S21f)."""

from __future__ import annotations

from collections.abc import Sequence

from server.engine.events import Event
from server.engine.riichi import GameState, next_round
from server.engine.riichi.rules import RuleSet, preset
from tests.engine.scenario import act, ev, game, tsumogiri

TENHOU = preset("tenhou-sanma")
MAJSOUL = preset("majsoul-sanma")
HATSU = "666z123p456p11m13s"  # waits on 2s: 發, 40 fu 1 han (1300, dealer 2000)
NOTEN = ["1m1m9m9m1z1z2z2z3z3z5z6z7z", "2p5p8p2s5s8s1z2z3z5z6z7z9m", "1p4p7p1s4s7s9p9s4z5z6z7z1m"]


def ron_round(
    rules: RuleSet,
    round_wind: int,
    dealer: int,
    scores: Sequence[int],
    winner: int,
    sticks: int = 0,
) -> list[Event]:
    """``winner`` rons a 2s: the dealer's first discard, or the next seat's."""
    hands: list[str | None] = [None, None, None]
    hands[winner] = HATSU
    if winner != dealer:
        hands[dealer] = "2s"
        st = game(hands, draws="1z", dora="4z", rules=rules, round_wind=round_wind,
                  dealer=dealer, scores=scores, sticks=sticks)  # fmt: skip
        act(st, dealer, "discard", "2s")
    else:
        nxt = (dealer + 1) % 3
        hands[nxt] = "2s"
        st = game(hands, draws="1z5z", dora="4z", rules=rules, round_wind=round_wind,
                  dealer=dealer, scores=scores, sticks=sticks)  # fmt: skip
        tsumogiri(st)
        act(st, nxt, "discard", "2s")
    act(st, winner, "ron")
    return next_round(st)


def after(evs: list[Event]) -> dict | None:  # type: ignore[type-arg]
    nxt: dict | None = ev(evs, "round_end")[0].data["next"]  # type: ignore[type-arg]
    return nxt


def final(evs: list[Event]) -> list[tuple[int, int, float]]:
    (g,) = ev(evs, "game_end")
    return [(f["points"], f["rank"], f["score"]) for f in g.data["final"]]


def test_s21a_b_35000_start_40000_return_oka_to_first_and_20_0_minus_20() -> None:
    assert (TENHOU.start_points, TENHOU.return_points, TENHOU.uma) == (35000, 40000, (20, 0, -20))
    # South 3: seat 0 reaches 40300 with a non-dealer ron: the game is over
    evs = ron_round(TENHOU, 1, 2, [39000, 33000, 33000], winner=0)
    assert after(evs) is None
    # (p - 40000) / 1000 + uma, and the oka (40000 - 35000) x 3 to first
    assert final(evs) == [(40300, 1, 35.3), (33000, 2, -7.0), (31700, 3, -28.3)]


def test_s21a_b_majsoul_has_no_oka_and_ends_at_40000() -> None:
    """MS-*: final = (p - 35000) / 1000 + 15 / 0 / -15 (all six Mahjong Soul records)."""
    assert (MAJSOUL.return_points, MAJSOUL.target, MAJSOUL.uma) == (35000, 40000, (15, 0, -15))
    evs = ron_round(MAJSOUL, 1, 2, [39000, 33000, 33000], winner=0)
    assert final(evs) == [(40300, 1, 20.3), (33000, 2, -2.0), (31700, 3, -18.3)]


def test_s21c_no_one_at_40000_after_south_3_plays_the_west_round() -> None:
    evs = ron_round(TENHOU, 1, 2, [38000, 34000, 33000], winner=0)
    assert after(evs) == {"round_wind": "W", "kyoku": 1, "honba": 0, "dealer": 0}


def test_s21c_the_west_round_ends_as_soon_as_someone_has_40000() -> None:
    evs = ron_round(TENHOU, 2, 0, [33000, 39000, 33000], winner=1)  # West 1
    assert after(evs) is None and final(evs)[1][:2] == (40300, 1)
    evs = ron_round(TENHOU, 2, 0, [34000, 38000, 33000], winner=1)
    assert after(evs) == {"round_wind": "W", "kyoku": 2, "honba": 0, "dealer": 1}


def test_s21c_west_3_is_the_last_hand_there_is_no_north_round() -> None:
    evs = ron_round(TENHOU, 2, 2, [35000, 35000, 35000], winner=0)
    assert after(evs) is None
    assert [p for p, _, _ in final(evs)] == [36300, 35000, 33700]


def test_s21c_tobi_below_zero_ends_the_game_zero_plays_on() -> None:
    """T-2018 ends after East 1-2 at -6400; MS-kokushi at -33600."""
    evs = ron_round(TENHOU, 0, 0, [1000, 69000, 35000], winner=1)
    assert after(evs) is None and final(evs)[0][0] == -300
    evs = ron_round(TENHOU, 0, 0, [1300, 68700, 35000], winner=1)
    assert after(evs) == {"round_wind": "E", "kyoku": 2, "honba": 0, "dealer": 1}


def test_s21c_agari_yame_the_all_last_dealer_who_wins_into_first_ends_it() -> None:
    for rules in (TENHOU, MAJSOUL):
        evs = ron_round(rules, 1, 2, [33000, 33000, 39000], winner=2)
        assert after(evs) is None and final(evs)[2][:2] == (41000, 1)


def _dealer_tenpai_at_the_draw(rules: RuleSet) -> list[Event]:
    hands = [NOTEN[0], NOTEN[1], "123p456p789p11s23s"]
    st: GameState = game(hands, dora="4z", rules=rules, round_wind=1, dealer=2,
                         scores=[33000, 33000, 39000])  # fmt: skip
    evs: list[Event] = []
    while st.phase == "play":
        evs = tsumogiri(st)
    assert ev(evs, "ryuukyoku")[0].data["deltas"] == [-1000, -1000, 2000]
    return next_round(st)


def test_s21c_tenpai_yame_on_mahjong_soul_not_on_tenhou() -> None:
    assert after(_dealer_tenpai_at_the_draw(TENHOU)) == {
        "round_wind": "S",
        "kyoku": 3,
        "honba": 1,
        "dealer": 2,
    }
    assert after(_dealer_tenpai_at_the_draw(MAJSOUL)) is None


def test_s21c_tonpuu_ends_after_east_3_or_plays_south() -> None:
    short = TENHOU.with_overrides(length="tonpuu")
    assert after(ron_round(short, 0, 2, [39000, 33000, 33000], winner=0)) is None
    evs = ron_round(short, 0, 2, [38000, 34000, 33000], winner=0)
    assert after(evs) == {"round_wind": "S", "kyoku": 1, "honba": 0, "dealer": 0}


def test_s21e_ties_go_to_the_seat_nearer_the_first_dealer() -> None:
    evs = ron_round(TENHOU, 2, 2, [33700, 35000, 36300], winner=0)  # West 3: all 35000
    assert [(p, r) for p, r, _ in final(evs)] == [(35000, 1), (35000, 2), (35000, 3)]


def test_s21f_leftover_riichi_sticks_go_to_first() -> None:
    st = game(NOTEN, dora="8p", rules=TENHOU, round_wind=2, dealer=2,
              scores=[36000, 34000, 33000], sticks=2)  # fmt: skip
    while st.phase == "play":
        tsumogiri(st)
    evs = next_round(st)
    assert after(evs) is None  # West 3 over, nobody at 40000: no North round
    (g,) = ev(evs, "game_end")
    assert g.data["riichi_sticks_to_first"] == 2
    assert [p for p, _, _ in final(evs)] == [38000, 34000, 33000]


def test_s21d_one_decimal_in_the_engine_whole_numbers_in_tenhou6() -> None:
    """T-2014 owari 54.0 / -37.0 / -17.0, T-2021 sc 42 / -8 / -34: Tenhou's rounding of
    the engine's 54.2 / -37.2 / -17.0 and 42.2 / -8.1 / -34.1 (2024 logs keep a decimal)."""
    from server.records.export_tenhou6 import tenhou_score

    evs = ron_round(TENHOU, 1, 2, [39000, 33000, 33000], winner=0)
    assert [s for _, _, s in final(evs)] == [35.3, -7.0, -28.3]
    assert tenhou_score([35.3, -7.0, -28.3], [1, 2, 3]) == [35, -7, -28]
    assert tenhou_score([54.2, -37.2, -17.0], [1, 3, 2]) == [54, -37, -17]
    assert tenhou_score([-8.1, 42.2, -34.1], [2, 1, 3]) == [-8, 42, -34]
