"""Pao (R24), game end: tobi, West extension, agari-yame (R25), final ranking (R26)."""

import pytest

from server.engine.riichi import legal_actions, next_round
from server.engine.riichi.rules import preset
from tests.engine.scenario import PLAIN, act, ev, game, pass_all, rotate, tsumogiri

# seat 1 pons 5z from seat 0, 6z from seat 2, then 7z from seat 3 (liable), waits on 9p
PAO_HANDS = [
    "258m369p258s1235z",
    "55z66z77z234m9p147s",
    "147m147p369s1246z",
    "369m258p147s1347z",
]


def pao_state(draws: str):
    st = game(PAO_HANDS, draws=draws)
    act(st, 0, "discard", "5z")
    act(st, 1, "pon", tiles="5z5z")
    pass_all(st)
    act(st, 1, "discard", "1s")
    pass_all(st)
    act(st, 2, "discard", "6z")
    act(st, 1, "pon", tiles="6z6z")
    pass_all(st)
    act(st, 1, "discard", "4s")
    pass_all(st)
    tsumogiri(st, 1)
    act(st, 3, "discard", "7z")
    act(st, 1, "pon", tiles="7z7z")
    pass_all(st)
    act(st, 1, "discard", "7s")
    pass_all(st)
    assert st.pao_dragon[1] == 3
    return st


def test_r24_pao_pays_the_whole_daisangen_tsumo() -> None:
    st = pao_state("9s8s8s8s" + "1m1m1p" + "9p")
    tsumogiri(st, 3)
    evs = act(st, 1, "tsumo")
    (w,) = ev(evs, "agari")[0].data["winners"]
    assert w["yakuman"] == [{"id": "daisangen", "multiplier": 1}]
    assert w["pao"] == 3
    assert w["deltas"] == [0, 32000, 0, -32000]


def test_r24_pao_pays_half_on_ron_by_another_seat() -> None:
    st = pao_state("9s8s8s8s" + "9p")
    evs = act(st, 2, "discard", "9p")
    evs += act(st, 1, "ron")
    (w,) = ev(evs, "agari")[0].data["winners"]
    assert w["deltas"] == [0, 32000, -16000, -16000]


# the dealer (first in the list) discards 5p and the next seat wins (tanki 5p, 1300)
RON = ["19m9p19s1234567z5p", "234m345m456678s5p", "147p258s369s1357z", "258m369p147s2467z"]


def ron_round(dealer: int, round_wind: int, scores, **kw):
    st = game(rotate(RON, dealer), dealer=dealer, round_wind=round_wind, scores=scores, **kw)
    act(st, dealer, "discard", "5p")
    winner = (dealer + 1) % 4
    evs = []
    for s in range(4):
        if s != winner and st.phase == "play" and legal_actions(st, s):
            evs += act(st, s, "pass")
    evs += act(st, winner, "ron")
    assert ev(evs, "agari")
    return st


def test_r25_tobi_below_zero_ends_the_game() -> None:
    st = ron_round(0, 0, [1200, 33000, 33000, 32800])
    assert st.scores[0] == -100
    evs = next_round(st)
    assert st.phase == "game_end" and ev(evs, "game_end")[0].data["reason"] == "tobi"


def test_r25_exactly_zero_goes_on() -> None:
    st = ron_round(0, 0, [1300, 33000, 33000, 32700])
    assert st.scores[0] == 0
    next_round(st)
    assert st.phase == "play" and st.kyoku == 1 and st.dealer == 1


def test_r25_west_extension_when_nobody_reached_return_points() -> None:
    st = ron_round(3, 1, [25000] * 4)  # South 4
    next_round(st)
    assert st.phase == "play" and (st.round_wind, st.kyoku, st.dealer) == (2, 0, 0)


def test_r25_south_4_ends_when_someone_reached_return_points() -> None:
    st = ron_round(3, 1, [29000, 25000, 25000, 21000])
    evs = next_round(st)
    assert st.phase == "game_end" and ev(evs, "game_end")[0].data["reason"] == "last_round"
    assert st.end_reason == "last_round"


def test_r25_west_round_ends_as_soon_as_someone_reaches_return_points() -> None:
    st = ron_round(0, 2, [25000, 29000, 25000, 21000])  # West 1, seat 1 wins to 30300
    evs = next_round(st)
    assert st.phase == "game_end"
    assert ev(evs, "game_end")[0].data["reason"] == "extension_reached"


def test_r25_no_extension_beyond_west_4() -> None:
    st = ron_round(3, 2, [25000] * 4)
    evs = next_round(st)
    assert st.phase == "game_end"
    assert ev(evs, "game_end")[0].data["reason"] == "extension_limit"


def test_r25_no_west_round_when_the_option_is_off() -> None:
    st = ron_round(3, 1, [25000] * 4, rules=PLAIN.with_overrides(west_extension=False))
    evs = next_round(st)
    assert st.phase == "game_end"
    assert ev(evs, "game_end")[0].data["reason"] == "last_round"


DEALER_RON = ["234m345m456678s5p", "147m258p369s1234z", "147p258s369s1357z", "258m369p147s2467z"]


def dealer_ron_round(scores):
    st = game(rotate(DEALER_RON, 3), draws="9m5p", dealer=3, round_wind=1, scores=scores)
    tsumogiri(st, 1)
    act(st, 0, "discard", "5p")
    evs = act(st, 3, "ron")
    assert ev(evs, "agari")[0].data["deltas"] == [-2000, 0, 0, 2000]
    return st


def test_r25_agari_yame_when_the_all_last_dealer_wins_into_first() -> None:
    st = dealer_ron_round([25000, 25000, 21000, 29000])
    evs = next_round(st)
    assert st.phase == "game_end"
    assert ev(evs, "game_end")[0].data["reason"] == "agari_yame"
    final = ev(evs, "game_end")[0].data["final"]
    assert [f["rank"] for f in final] == [3, 2, 4, 1]


def test_r25_all_last_dealer_win_not_first_goes_on() -> None:
    st = dealer_ron_round([30000, 30000, 20000, 20000])
    next_round(st)
    assert st.phase == "play" and (st.round_wind, st.kyoku, st.honba) == (1, 3, 1)


NOTEN = ["2468m2468p24567s", "3579m3579p3579s5m", "1111z234p567p888s", "147m258p369s2345z"]


@pytest.mark.parametrize(
    ("name", "first_dealer", "expected"),
    [
        (
            "standard",
            0,
            {0: (30500, 1, 30.5), 1: (29500, 2, 4.5), 2: (20000, 3, -15.0), 3: (20000, 4, -20.0)},
        ),
        (
            "standard",
            1,
            {1: (30500, 1, 30.5), 0: (29500, 2, 4.5), 2: (20000, 3, -15.0), 3: (20000, 4, -20.0)},
        ),
        (
            "tenhou",
            0,
            {0: (30500, 1, 40.5), 1: (29500, 2, 9.5), 2: (20000, 3, -20.0), 3: (20000, 4, -30.0)},
        ),
        (
            "majsoul",
            0,
            {0: (30500, 1, 35.5), 1: (29500, 2, 4.5), 2: (20000, 3, -15.0), 3: (20000, 4, -25.0)},
        ),
    ],
)
def test_r26_final_ranking_ties_by_seat_order_oka_uma_leftover_sticks(
    name: str, first_dealer: int, expected: dict[int, tuple[int, int, float]]
) -> None:
    from server.engine.riichi import at_round
    from server.engine.riichi.wall import Wall

    rules = preset(name).with_overrides(red_fives=0, west_extension=False)
    dealer = (first_dealer + 3) % 4
    wall = Wall.build(hands=rotate(NOTEN, dealer), dealer=dealer, red_fives=False)
    scores = [29500, 29500, 20000, 20000]
    st = at_round(
        rules,
        round_wind=1,
        dealer=dealer,
        riichi_sticks=1,
        scores=scores,
        wall=wall,
        first_dealer=first_dealer,
    )
    evs = tsumogiri(st, 70)
    assert ev(evs, "ryuukyoku")[0].data["tenpai"] == []
    evs = next_round(st)
    (end,) = ev(evs, "game_end")
    got = {f["seat"]: (f["points"], f["rank"], f["score"]) for f in end.data["final"]}
    assert got == expected
    assert end.data["riichi_sticks_to_first"] == 1
    assert sum(f["score"] for f in end.data["final"]) == pytest.approx(0)


# the all-last dealer (seat 3) is tenpai at the exhaustive draw, everyone else noten
TENPAI_DEALER = ["234m345m456678s5p", "2468m2468p24567s", "3579m3579p3579s5m", "1111z234p567p888s"]


@pytest.mark.parametrize(
    ("scores", "ends"),
    [([25000, 25000, 20000, 30000], True), ([35000, 25000, 20000, 20000], False)],
)
def test_r25_tenpai_yame_only_when_the_dealer_is_first(scores: list[int], ends: bool) -> None:
    st = game(rotate(TENPAI_DEALER, 3), dealer=3, round_wind=1, scores=scores)
    evs = tsumogiri(st, 70)
    assert ev(evs, "ryuukyoku")[0].data["tenpai"] == [3]
    evs = next_round(st)
    if ends:
        assert st.phase == "game_end"
        assert ev(evs, "game_end")[0].data["reason"] == "tenpai_yame"
    else:
        assert st.phase == "play" and (st.round_wind, st.kyoku, st.honba) == (1, 3, 1)


TENHOU = preset("tenhou").with_overrides(red_fives=0)
MAJSOUL = preset("majsoul").with_overrides(red_fives=0)


def test_r25_no_tenpai_yame_under_tenhou_but_agari_yame() -> None:
    # real Tenhou games play on after the all-last dealer's tenpai, even when first
    st = game(
        rotate(TENPAI_DEALER, 3),
        dealer=3,
        round_wind=1,
        scores=[25000, 25000, 20000, 30000],
        rules=TENHOU,
    )
    tsumogiri(st, 70)
    next_round(st)
    assert st.phase == "play" and (st.round_wind, st.kyoku, st.honba) == (1, 3, 1)
    assert not TENHOU.tenpai_yame and TENHOU.agari_yame


# seat 1 pons 5z (seat 0), 6z (seat 2), then 7z from seat 3 (liable) and waits on 1z/2z:
# daisangen + tsuuiisou, two yakuman
PAO_TWO_YAKUMAN = [
    "258m369p258s345z9m",
    "55z66z77z11z22z147s",
    "147m147p369s346z8m",
    "369m258p147s347z8p",
]


def pao_two_yakuman(rules, draws: str, honba: int = 0):
    st = game(PAO_TWO_YAKUMAN, draws=draws, rules=rules, honba=honba)
    act(st, 0, "discard", "5z")
    act(st, 1, "pon", tiles="5z5z")
    pass_all(st)
    act(st, 1, "discard", "1s")
    pass_all(st)
    act(st, 2, "discard", "6z")
    act(st, 1, "pon", tiles="6z6z")
    pass_all(st)
    act(st, 1, "discard", "4s")
    pass_all(st)
    tsumogiri(st, 1)
    act(st, 3, "discard", "7z")
    act(st, 1, "pon", tiles="7z7z")
    pass_all(st)
    act(st, 1, "discard", "7s")
    pass_all(st)
    assert st.pao_dragon[1] == 3
    return st


def _two_yakuman_win(evs):
    (w,) = ev(evs, "agari")[0].data["winners"]
    assert {y["id"] for y in w["yakuman"]} == {"daisangen", "tsuuiisou"}
    assert w["pao"] == 3
    return w


@pytest.mark.parametrize(
    ("rules", "deltas"),
    [
        # the pao seat pays the whole 64,000 and the honba (a real Tenhou log)
        (TENHOU, [0, 64300, 0, -64300]),
        # Mahjong Soul: pao pays the daisangen; the tsuuiisou is a tsumo by all
        (MAJSOUL, [-16100, 64300, -8100, -40100]),
    ],
)
def test_r24_pao_tsumo_of_two_yakuman_by_preset(rules, deltas: list[int]) -> None:
    assert rules.pao_whole_hand is (rules is TENHOU)
    st = pao_two_yakuman(rules, "9s8s8s8s" + "1m1m1p" + "2z", honba=1)
    tsumogiri(st, 3)
    w = _two_yakuman_win(act(st, 1, "tsumo"))
    assert w["deltas"] == deltas


@pytest.mark.parametrize(
    ("rules", "deltas"),
    [
        # half of the whole hand each; the discarder pays the honba
        (TENHOU, [0, 64300, -32300, -32000]),
        (MAJSOUL, [0, 64300, -48300, -16000]),
    ],
)
def test_r24_pao_ron_of_two_yakuman_by_preset(rules, deltas: list[int]) -> None:
    st = pao_two_yakuman(rules, "9s8s8s8s" + "2z", honba=1)
    evs = act(st, 2, "discard", "2z")
    evs += act(st, 1, "ron")
    w = _two_yakuman_win(evs)
    assert w["deltas"] == deltas


def test_r25_a_west_round_dealer_who_keeps_the_deal_plays_on() -> None:
    # West 1: the dealer (seat 0, not first) is tenpai at the draw, seat 1 has 30,000:
    # Tenhou plays each West hand like all-last, so the dealer's repeat goes on
    st = game(
        rotate(TENPAI_DEALER, 0),
        dealer=0,
        round_wind=2,
        scores=[20000, 31000, 25000, 24000],  # seat 1 pays 1000 and keeps 30,000
    )
    evs = tsumogiri(st, 70)
    assert ev(evs, "ryuukyoku")[0].data["tenpai"] == [0]
    next_round(st)
    assert st.phase == "play" and (st.round_wind, st.kyoku, st.honba) == (2, 0, 1)


def test_r19_a_win_says_what_it_was_paid_for_honba_and_sticks() -> None:
    # the result card itemises them (web/js/results.js): hand + honba + sticks = the gain
    st = game(RON, honba=2, sticks=3)
    act(st, 0, "discard", "5p")
    evs = []
    for s in (2, 3):
        if st.phase == "play" and legal_actions(st, s):
            evs += act(st, s, "pass")
    evs += act(st, 1, "ron")
    (w,) = ev(evs, "agari")[0].data["winners"]
    assert (w["honba"], w["honba_points"]) == (2, 600)
    assert (w["riichi_sticks"], w["stick_points"]) == (3, 3000)
    assert w["points"] + w["honba_points"] + w["stick_points"] == w["deltas"][1] == 4900
