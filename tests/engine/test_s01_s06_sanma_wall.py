"""Sanma tiles, wall and deal (docs/rules.md S1-S6)."""

from __future__ import annotations

from collections import Counter

import pytest

from server.engine.riichi import new_game
from server.engine.riichi.rules import RulesError, preset
from server.engine.riichi.scoring import score_hand
from server.engine.riichi.wall import SANMA, Wall, stack_order
from server.engine.riichi.win import ScoreError, WinContext
from server.engine.tiles import EAST, kind, parse_tile, parse_tiles, tile_of_id, tile_str
from tests.engine.scenario import act, ev, game, tsumogiri, types

TENHOU = preset("tenhou-sanma")
MAJSOUL = preset("majsoul-sanma")


def test_s1_108_tiles_without_2m_to_8m() -> None:
    w = Wall.from_seed(b"s1", 0, dealer=0, layout=SANMA)
    assert len(w.tiles) == 108 and sorted(w.tiles) == list(SANMA.ids)
    kinds = Counter(kind(tile_of_id(t)) for t in w.tiles)
    assert set(kinds) == {0, 8, *range(9, 34)}  # 1m, 9m, every pin, sou and honour
    assert set(kinds.values()) == {4}
    # a sanma hand holding 2m is not a hand of the game: refused, not scored
    with pytest.raises(ScoreError, match="2m-8m are not in three-player"):
        score_hand(
            list(parse_tiles("234m123p456p789s11z")),
            [],
            WinContext(win_tile=parse_tile("1z"), tsumo=True, seat_wind=EAST, round_wind=EAST),
            TENHOU,
        )
    with pytest.raises(ValueError, match="2m is not one of the 108 tiles"):
        Wall.build(hands=["2m"], layout=SANMA)


def test_s1_a_whole_game_deals_no_2m_to_8m() -> None:
    st = new_game(TENHOU, b"s1-game")
    for s in range(3):
        assert all(t not in range(1, 8) for t in st.concealed(s))
    assert st.live_left() == 54  # the dealer has drawn (S4)


def test_s2_two_red_fives_0p_and_0s() -> None:
    w = Wall.from_seed(b"s2", 0, dealer=0, layout=SANMA)
    reds = sorted(tile_str(tile_of_id(t, True)) for t in w.tiles if tile_of_id(t, True) >= 34)
    assert reds == ["0p", "0s"]  # ids 52 and 88; no 5m, so no 0m
    for r in (TENHOU, MAJSOUL):
        assert r.red_fives == 2
    assert TENHOU.with_overrides(red_fives=0).red_fives == 0
    with pytest.raises(RulesError, match="red_fives must be 0 or 2"):
        TENHOU.with_overrides(red_fives=3)
    with pytest.raises(ValueError, match="0m is not one of the 108 tiles"):
        Wall.build(hands=["0m"], layout=SANMA)


def test_s3_three_walls_of_18_stacks_dice_counted_modulo_three() -> None:
    # dice 4, 7, 10 pick the dealer's own wall; 2, 5, 8, 11 the next seat's; 3, 6, 9, 12 the left
    for d, wall in ((4, 0), (7, 0), (10, 0), (2, 1), (5, 1), (11, 1), (3, 2), (9, 2), (12, 2)):
        order = stack_order(dealer=0, dice_sum=d, layout=SANMA)
        assert order[0] == 18 * wall + d
        assert sorted(order) == list(range(54))
    order = stack_order(dealer=1, dice_sum=5, layout=SANMA)  # dealer 1: seat 2's wall
    assert order[0] == 18 * 2 + 5
    # clockwise: after the left end of seat 2's wall comes seat 1's wall, then seat 0's;
    # the dead wall is the 7 stacks before the break (2 of seat 0's wall, 5 of seat 2's)
    assert order[12] == 18 * 2 + 17 and order[13] == 18 * 1
    assert order[-7:] == [16, 17, *range(36, 41)]


def test_s4_55_live_tiles_and_each_replacement_takes_one_from_the_live_wall() -> None:
    st = game(["444z", None, None], rules=TENHOU)
    start = ev(st.start_events, "round_start")[0]
    assert start.data["wall_left"] == 55
    assert ev(st.start_events, "draw")[0].data["wall_left"] == 54
    evs = act(st, 0, "nuki", "4z")
    (d,) = ev(evs, "draw")
    assert d.data["rinshan"] and d.data["wall_left"] == 53  # one tile moved to the dead wall
    assert st.live_left() == 53


def test_s4_an_exhaustive_draw_after_55_draws_counting_replacements() -> None:
    """T-2014/T-2021: every exhaustive draw comes after exactly 55 draws, pulls included."""
    st = game(["444z1p", None, None], rules=TENHOU)
    draws = 1
    draws += len(ev(act(st, 0, "nuki", "4z"), "draw"))
    evs = []
    while st.phase == "play":
        evs = tsumogiri(st)
        draws += len(ev(evs, "draw"))
    assert ev(evs, "ryuukyoku")[0].data["reason"] == "exhaustive"
    assert draws == 55


def test_s5_eight_replacement_draws_from_the_four_stacks_next_to_the_break() -> None:
    assert SANMA.rinshan_pos == (106, 107, 104, 105, 102, 103, 100, 101)
    assert SANMA.dora_pos == (98, 96, 94, 92, 90) and SANMA.ura_pos == (99, 97, 95, 93, 91)
    assert SANMA.dead_start == 94 and SANMA.first_draw == 39
    # four norths pulled, then four ankans by the same seat: 8 replacement draws in order
    hands = ["4444z1111p9999p1s", None, None]
    st = game(hands, draws="1s", rinshan="1s1s9s9s9s9s2s3s", dora="1z", rules=TENHOU)
    got = []
    for _ in range(4):
        got += [d.data["tile"] for d in ev(act(st, 0, "nuki", "4z"), "draw")]
    assert st.dora_count == 1  # a pull turns no dora indicator (S12c)
    for k in ("1p", "9p", "1s", "9s"):
        evs = act(st, 0, "ankan", k)
        assert ev(evs, "new_dora")  # an ankan turns its kan dora at once (R12)
        got += [d.data["tile"] for d in ev(evs, "draw")]
    assert got == ["1s", "1s", "9s", "9s", "9s", "9s", "2s", "3s"]
    assert st.dora_count == 5 and st.live_left() == 55 - 1 - 8
    assert "ankan" not in types(st, 0)  # a fifth kan stays forbidden (R13)


def test_s5_an_ankan_kokushi_could_rob_turns_its_dora_only_once_it_stands() -> None:
    """MS-kokushi-ankan: a kokushi ron on the ankan shows one dora indicator, not two."""
    hands = ["6666z11m19p19s123z", "19m19p19s1234577z", None]
    st = game(hands, draws="9m", rinshan="5s", dora="1p", rules=MAJSOUL)
    evs = act(st, 0, "ankan", "6z")
    assert not ev(evs, "new_dora") and st.dora_count == 1
    assert types(st, 1) == {"ron", "pass"}
    evs = act(st, 1, "pass")
    assert [e.data["indicator"] for e in ev(evs, "new_dora")] == [
        tile_str(st.tile(st.wall.tiles[96]))
    ]
    assert ev(evs, "draw")[0].data["rinshan"]
    st = game(hands, draws="9m", rinshan="5s", dora="1p", rules=MAJSOUL)
    act(st, 0, "ankan", "6z")
    a = ev(act(st, 1, "ron"), "agari")[0]
    assert a.data["dora_indicators"] == ["1p"] and a.data["deltas"] == [-32000, 32000, 0]
    # tenhou-sanma: no chankan on an ankan at all (R12): the dora turns at once
    st = game(hands, draws="9m", rinshan="5s", dora="1p", rules=TENHOU)
    assert ev(act(st, 0, "ankan", "6z"), "new_dora")


def test_s6_deal_three_hands_from_the_dealer_then_the_dealers_first_draw() -> None:
    assert SANMA.deal_positions(0) == [0, 1, 2, 3, 12, 13, 14, 15, 24, 25, 26, 27, 36]
    assert SANMA.deal_positions(2) == [8, 9, 10, 11, 20, 21, 22, 23, 32, 33, 34, 35, 38]
    every = sorted(p for r in range(3) for p in SANMA.deal_positions(r))
    assert every == list(range(39))
    w = Wall.from_seed(b"s6", 3, dealer=1, layout=SANMA)
    hands = [w.hand(s, 1) for s in range(3)]
    assert [len(h) for h in hands] == [13, 13, 13]
    assert w.hand(1, 1) == [w.tiles[p] for p in SANMA.deal_positions(0)]  # the dealer's
    assert w.hand(0, 1) == [w.tiles[p] for p in SANMA.deal_positions(2)]  # the seat before
