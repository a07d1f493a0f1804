"""Sanma payments and draws, played out (S13-S20)."""

from __future__ import annotations

from server.engine.events import Event
from server.engine.riichi import GameState, waiting_on
from server.engine.riichi.rules import preset
from tests.engine.scenario import act, ev, game, pass_all, tsumogiri, types

TENHOU = preset("tenhou-sanma")
MAJSOUL = preset("majsoul-sanma")
KANCHAN = "123p456p789s11m13s"  # menzen tsumo on 2s: 30 fu 1 han (no yaku for a ron)
HATSU = "666z123p456p11m13s"  # ron on 2s: 發, 40 fu 1 han
LATER = "1z2z3z5z" + "2s"  # seat 1 draws 2s on its second turn (its first would be chiihou)


def deltas(evs: list[Event], kind: str = "agari") -> list[int]:
    (a,) = ev(evs, kind)
    d: list[int] = a.data["deltas"]
    return d


def test_s13_tsumo_son_non_dealer_pays_what_four_players_would_less_the_north_share() -> None:
    for rules in (TENHOU, MAJSOUL):
        st = game([None, KANCHAN, None], draws=LATER, dora="1z", rules=rules)
        tsumogiri(st, 4)
        evs = act(st, 1, "tsumo")
        assert deltas(evs) == [-500, 800, -300]  # not 825 or 900 (seed 001's x3/4)
        (w,) = ev(evs, "agari")[0].data["winners"]
        assert w["points"] == 800 and w["payments"] == {"tsumo_dealer": 500, "tsumo_nondealer": 300}


def test_s13_tsumo_son_dealer() -> None:
    st = game([KANCHAN, None, None], draws="1z1z1z" + "2s", dora="1z", rules=TENHOU)
    tsumogiri(st, 3)
    evs = act(st, 0, "tsumo")
    assert deltas(evs) == [1000, -500, -500]
    assert ev(evs, "agari")[0].data["winners"][0]["points"] == 1000


def test_s14_honba_100_from_each_payer_on_tsumo_and_200_on_ron() -> None:
    st = game([None, KANCHAN, None], draws=LATER, dora="1z", honba=2, rules=TENHOU)
    tsumogiri(st, 4)
    assert deltas(act(st, 1, "tsumo")) == [-700, 1200, -500]
    # ron: the discarder pays 100 x 2 per honba (發, 40 fu 1 han: 1300 + 200)
    st = game(["2s", HATSU, None], draws="1z", dora="1z", honba=1, rules=TENHOU)
    act(st, 0, "discard", "2s")
    assert types(st, 1) == {"ron", "pass"}
    assert deltas(act(st, 1, "ron")) == [-1500, 1500, 0]


def _to_the_end(st: GameState) -> list[Event]:
    evs: list[Event] = []
    while st.phase == "play":
        evs = tsumogiri(st)
    return evs


def test_s15_noten_payments_are_2000_in_all() -> None:
    """T-2014 S3-0, E1-1; T-2021 E1-1, S2-0, S2-1 (riichienv: a pool of 2000)."""
    noten0 = "1m1m9m9m1z1z2z2z3z3z5z6z7z"
    noten2 = "2p5p8p2s5s8s1z2z3z5z6z7z9m"
    one = [noten0, "123p456p789p11s23s", noten2]  # seat 1 waits on 1s/4s
    (r,) = ev(_to_the_end(game(one, dora="4z", rules=TENHOU)), "ryuukyoku")
    assert (r.data["reason"], r.data["tenpai"], r.data["deltas"]) == (
        "exhaustive",
        [1],
        [-1000, 2000, -1000],
    )
    two = ["123p456p789p11s23s", "1m9m2p5p8p5s8s2z3z5z6z7z4z", "456s789s111z99m13s"]
    (r,) = ev(_to_the_end(game(two, dora="4z", rules=TENHOU)), "ryuukyoku")
    assert (r.data["tenpai"], r.data["deltas"]) == ([0, 2], [1000, -2000, 1000])


def test_s16_sticks_go_to_the_winner_and_a_yakuman_tsumo_is_tsumo_son() -> None:
    kokushi = "19m19p19s1234567z"  # 13-sided: one yakuman on tenhou-sanma, two on Mahjong Soul
    draws = "2p3p4p5p" + "1m"  # seat 1 wins on its second draw (not chiihou)
    st = game([None, kokushi, None], draws=draws, dora="1z", sticks=2, rules=TENHOU)
    tsumogiri(st, 4)
    assert deltas(act(st, 1, "tsumo")) == [-16000, 24000 + 2000, -8000]
    st = game([None, kokushi, None], draws=draws, dora="1z", rules=MAJSOUL)
    tsumogiri(st, 4)
    assert deltas(act(st, 1, "tsumo")) == [-32000, 48000, -16000]


def test_s17_nagashi_mangan_is_a_tsumo_son_mangan() -> None:
    """Open question 4: no sanma log has one; paid as a mangan tsumo without the north share."""
    draws: list[str | None] = [None] * 55
    honours = [f"{k}z" for k in (1, 2, 3, 5, 6, 7) for _ in range(3)]
    for i, t in enumerate(honours):  # seat 1 draws (and throws) only honours: 18 draws
        draws[1 + 3 * i] = t
    (r,) = ev(_to_the_end(game([None, None, None], draws=draws, rules=TENHOU)), "ryuukyoku")
    assert r.data["reason"] == "nagashi_mangan" and r.data["nagashi"] == [1]
    assert r.data["deltas"] == [-4000, 6000, -2000]


def test_s18_double_ron_the_first_in_turn_order_takes_honba_and_sticks() -> None:
    """MS-double E1-0; there is no third other seat, so no sanchahou (R18)."""
    hands = ["2s", HATSU, "555z789p456s99m13s"]  # both wait on 2s, 40 fu 1 han each
    st = game(hands, draws="1z", dora="1z", honba=1, sticks=1, rules=TENHOU)
    act(st, 0, "discard", "2s")
    act(st, 1, "ron")
    (a,) = ev(act(st, 2, "ron"), "agari")
    assert [(w["seat"], w["deltas"]) for w in a.data["winners"]] == [
        (1, [-1500, 2500, 0]),
        (2, [-1300, 0, 1300]),
    ]
    assert a.data["deltas"] == [-2800, 2500, 1300]


def test_s19_three_east_discards_do_not_abort() -> None:
    st = game(["1z", "1z", "1z"], draws="5z5z5z", dora="2z", rules=TENHOU)
    for s in range(3):
        act(st, s, "discard", "1z")
        pass_all(st)
    assert st.phase == "play" and waiting_on(st) == frozenset({0})


def test_s19_three_riichi_play_on() -> None:
    hands = ["123p456p789p11s23s", "111z222z333z99m12p", "555z666z777z99p12s"]
    st = game(hands, draws="9m" + "9s" + "9s", dora="4z", rules=TENHOU)
    for s in range(3):
        act(st, s, "riichi", ("9m", "9s", "9s")[s])
        pass_all(st)
    assert st.riichi == [True, True, True] and st.riichi_sticks == 3
    assert st.phase == "play" and waiting_on(st) == frozenset({0})


def test_s19_four_kans_by_two_players_abort() -> None:
    hands = ["1111p2222p3333p9m", "444s", None]
    st = game(hands, draws="5s" + "4s", rinshan="1z2z3z5z", rules=TENHOU)
    for k in ("1p", "2p", "3p"):
        act(st, 0, "ankan", k)
    act(st, 0, "discard", "9m")
    pass_all(st)
    act(st, 1, "ankan", "4s")
    evs = act(st, 1, "discard", "5z")
    evs += pass_all(st)
    assert ev(evs, "ryuukyoku")[0].data["reason"] == "suukan_sanra"


def test_s20_pao_tsumo_the_liable_seat_pays_the_ron_value() -> None:
    """Open question 5 and R24: on a tsumo the pao seat pays as if it had dealt in
    (riichi.wiki, sekinin barai), not the smaller tsumo-son total."""
    hands = ["57z", "55z66z77z123p99s46p", "6z"]
    st = game(hands, draws="1z2z3z1z2z3z" + "9s", dora="4z", rules=TENHOU)
    act(st, 0, "discard", "5z")
    act(st, 1, "pon", tiles="5z5z")
    pass_all(st)
    act(st, 1, "discard", "4p")
    pass_all(st)
    act(st, 2, "discard", "6z")
    act(st, 1, "pon", tiles="6z6z")
    pass_all(st)
    act(st, 1, "discard", "6p")
    pass_all(st)
    tsumogiri(st)  # seat 2
    act(st, 0, "discard", "7z")
    act(st, 1, "pon", tiles="7z7z")  # the third dragon: seat 0 is liable
    pass_all(st)
    act(st, 1, "discard", "9s")
    pass_all(st)
    tsumogiri(st, 2)
    (a,) = ev(act(st, 1, "tsumo"), "agari")
    (w,) = a.data["winners"]
    assert w["yakuman"] == [{"id": "daisangen", "multiplier": 1}] and w["pao"] == 0
    assert a.data["deltas"] == [-32000, 32000, 0]
