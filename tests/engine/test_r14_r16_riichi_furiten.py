"""Riichi (R14), ippatsu and double riichi (R15), furiten (R16)."""

import pytest

from server.engine.actions import IllegalAction
from server.engine.riichi import apply, legal_actions
from server.engine.riichi.rules import preset
from server.engine.tiles import parse_tile
from tests.engine.scenario import act, action, ev, game, pass_all, tsumogiri, types

# seat 0 (dealer): riichi on 5p after drawing 2z (shanpon 1z/2z, ittsu).
# seat 1: tanyao tanki on 5p; seats 2 and 3 hold nothing useful.
RIICHI_HANDS = [
    "123456789m112z5p",
    "234m345m456678s5p",
    "147p258s369s1377z",
    "2689p147s9s3467z5p",
]


def test_r14_riichi_offered_only_on_tenpai_discards() -> None:
    st = game(RIICHI_HANDS, draws="2z")
    riichi = [a.tile for a in legal_actions(st, 0) if a.type.value == "riichi"]
    assert riichi == [parse_tile("5p")]


def test_r14_stick_paid_only_after_the_declaration_tile_passes() -> None:
    st = game(RIICHI_HANDS, draws="2z")
    evs = act(st, 0, "riichi", "5p")
    assert ev(evs, "discard")[0].data["riichi"] is True
    assert st.scores[0] == 25000 and st.riichi_sticks == 0
    evs = pass_all(st)
    (acc,) = ev(evs, "riichi_accepted")
    assert acc.data["seat"] == 0 and acc.data["double"] is True
    assert st.scores[0] == 24000 and st.riichi_sticks == 1 and st.riichi[0]


def test_r14_riichi_stick_returned_when_declaration_tile_is_ronned() -> None:
    st = game(RIICHI_HANDS, draws="2z")
    act(st, 0, "riichi", "5p")
    for s in (2, 3):
        if types(st, s):
            act(st, s, "pass")
    evs = act(st, 1, "ron")
    (agari,) = ev(evs, "agari")
    assert agari.data["deltas"] == [-1300, 1300, 0, 0]
    assert st.scores == [23700, 26300, 25000, 25000] and st.riichi_sticks == 0
    assert not ev(evs, "riichi_accepted")
    assert agari.data["ura_indicators"] == []  # the winner had no riichi


def test_r14_riichi_refused_below_1000_points() -> None:
    st = game(RIICHI_HANDS, draws="2z", scores=[900, 33100, 33000, 33000])
    assert "riichi" not in types(st, 0)
    with pytest.raises(IllegalAction, match="1000 points"):
        apply(st, action(0, "riichi", "5p"))
    assert st.drawn[0] is not None and len(st.log) == 0


def test_r14_riichi_needs_four_tiles_in_the_live_wall() -> None:
    # seat 0 draws the tenpai tile at draw 64 (5 left) and again at draw 68 (1 left)
    draws: list[str | None] = [None] * 70
    draws[0] = "9s"
    draws[64] = "2z"
    draws[68] = "2z"
    hands = list(RIICHI_HANDS)
    hands[2] = "147p258s369s1377z"
    st = game(hands, draws=draws)
    tsumogiri(st, 64)
    assert st.turn == 0 and st.live_left() == 5
    assert "riichi" in types(st, 0)
    tsumogiri(st, 4)
    assert st.turn == 0 and st.live_left() == 1
    assert "riichi" not in types(st, 0)
    with pytest.raises(IllegalAction, match="4 tiles"):
        apply(st, action(0, "riichi", "5p"))


def test_r14_after_riichi_only_the_drawn_tile_is_discarded() -> None:
    st = game(RIICHI_HANDS, draws="2z" + "1m1m1m" + "9p")
    act(st, 0, "riichi", "5p")
    pass_all(st)
    tsumogiri(st, 3)
    assert st.turn == 0
    assert [a.type.value for a in legal_actions(st, 0)] == ["discard"]
    assert legal_actions(st, 0)[0].tile == parse_tile("9p")
    with pytest.raises(IllegalAction, match="only the drawn tile"):
        apply(st, action(0, "discard", "1m"))


# seat 0 in riichi: 1m triplet, waits 1s/4s; the 4th 1m drawn may be kanned.
ANKAN_OK = ["111m456p789s23s99m", "147p258s369s1357z", "258m369p147s2467z", "368m2p1z2z3z4z5z6z7z"]


def test_r14_ankan_after_riichi_when_waits_and_reading_unchanged() -> None:
    st = game(ANKAN_OK, draws="2p" + "2m2m2m" + "1m", rinshan="9s")
    act(st, 0, "riichi", "2p")
    pass_all(st)
    tsumogiri(st, 3)
    assert "ankan" in types(st, 0)
    evs = act(st, 0, "ankan", "1m")
    assert ev(evs, "new_dora")  # R12: ankan reveals its dora at once
    assert st.rinshan and st.drawn[0] is not None


def test_r14_ankan_after_riichi_refused_when_waits_change() -> None:
    # 1112m: waits 2m (tanki) and 3m (11m + 123m); kanning 1m leaves only 2m
    hands = ["1112m456p789s567s", "147p258s369s1357z", "258m369p147s2467z", "368m2p1z2z3z4z5z6z7z"]
    st = game(hands, draws="2p" + "4m4m4m" + "1m")
    act(st, 0, "riichi", "2p")
    pass_all(st)
    tsumogiri(st, 3)
    assert st.drawn[0] is not None and st.tile(st.drawn[0]) == parse_tile("1m")
    assert "ankan" not in types(st, 0)
    with pytest.raises(IllegalAction):
        apply(st, action(0, "ankan", "1m"))


# --- R15 ----------------------------------------------------------------------


def test_r15_double_riichi_and_ippatsu_tsumo() -> None:
    st = game(RIICHI_HANDS, draws="2z" + "1m1m1m" + "1z")
    act(st, 0, "riichi", "5p")
    pass_all(st)
    tsumogiri(st, 3)
    evs = act(st, 0, "tsumo")
    (w,) = ev(evs, "agari")[0].data["winners"]
    ids = {y["id"] for y in w["yaku"]}
    assert {"double_riichi", "ippatsu", "menzen_tsumo", "ittsu"} <= ids
    assert "riichi" not in ids
    assert ev(evs, "agari")[0].data["ura_indicators"]  # a riichi winner reveals ura


def test_r15_ippatsu_broken_by_a_call() -> None:
    # seat 0 riichi on its second discard; seat 2 pons seat 1's 7z before seat 0's next draw
    st = game(RIICHI_HANDS, draws="9s" + "8m8m8m" + "2z" + "7z" + "9p" + "1z")
    act(st, 0, "discard", "9s")
    pass_all(st)
    tsumogiri(st, 3)
    act(st, 0, "riichi", "5p")
    pass_all(st)
    assert st.ippatsu[0] and not st.double_riichi[0]
    act(st, 1, "discard", "7z")
    act(st, 2, "pon", tiles="77z")
    assert not st.ippatsu[0]
    act(st, 2, "discard", "1p")
    pass_all(st)
    tsumogiri(st, 1)
    evs = act(st, 0, "tsumo")
    ids = {y["id"] for y in ev(evs, "agari")[0].data["winners"][0]["yaku"]}
    assert "riichi" in ids and "ippatsu" not in ids and "double_riichi" not in ids


def test_r15_ippatsu_ends_at_the_declarers_next_discard() -> None:
    st = game(RIICHI_HANDS, draws="2z" + "1m1m1m" + "9p" + "8m8m8m" + "1z")
    act(st, 0, "riichi", "5p")
    pass_all(st)
    tsumogiri(st, 4)
    assert not st.ippatsu[0]
    tsumogiri(st, 3)
    evs = act(st, 0, "tsumo")
    ids = {y["id"] for y in ev(evs, "agari")[0].data["winners"][0]["yaku"]}
    assert "ippatsu" not in ids and "double_riichi" in ids


# --- R16 ----------------------------------------------------------------------

FURITEN_HANDS = [
    "147m268p369s1234z",
    "234m345m456678s5p",  # tanki 5p
    "147p258s369s1357z",
    "258m369p147s2467z",
]


def test_r16_discard_furiten_blocks_ron_but_not_tsumo() -> None:
    st = game(FURITEN_HANDS, draws="9m" + "5p" + "5p" + "9m" + "9m" + "5p")
    tsumogiri(st, 1)
    act(st, 1, "discard", "5p")  # its own winning tile in its river
    pass_all(st)
    act(st, 2, "discard", "5p")
    assert "ron" not in types(st, 1) and st.furiten(1)
    pass_all(st)
    tsumogiri(st, 2)
    assert "tsumo" in types(st, 1)


NO_YAKU_HANDS = [
    "147m258p369s1234z",
    "123m123p23s999m55z",  # 1s: sanshoku; 4s: no yaku
    "147p258s369s1367z",
    "258m369p147s2467z",
]


def test_r16_passing_a_winning_tile_without_yaku_is_temporary_furiten() -> None:
    st = game(NO_YAKU_HANDS, draws="8m8m7m" + "4s" + "1s" + "8m" + "1s")
    tsumogiri(st, 3)
    act(st, 3, "discard", "4s")
    assert "ron" not in types(st, 1)  # no yaku on 4s, but it is a winning tile
    pass_all(st)
    assert st.furiten_temp[1]
    act(st, 0, "discard", "1s")
    assert "ron" not in types(st, 1)  # sanshoku on 1s, yet furiten
    pass_all(st)
    tsumogiri(st, 1)  # seat 1's own discard lifts it
    assert not st.furiten_temp[1]
    act(st, 2, "discard", "1s")
    assert "ron" in types(st, 1)


def test_r16_riichi_furiten_is_permanent() -> None:
    hands = list(FURITEN_HANDS)
    st = game(hands, draws="9m" + "7z" + "5p" + "8m9m" + "9s" + "5p" + "8m9m" + "5p")
    tsumogiri(st, 1)
    act(st, 1, "riichi", "7z")
    pass_all(st)
    act(st, 2, "discard", "5p")
    assert "ron" in types(st, 1)
    act(st, 1, "pass")
    pass_all(st)
    tsumogiri(st, 3)  # seat 3, seat 0, and seat 1's own discard
    assert st.furiten(1)
    act(st, 2, "discard", "5p")
    assert "ron" not in types(st, 1)
    pass_all(st)
    tsumogiri(st, 2)
    assert "tsumo" in types(st, 1)


def test_r5_r21_dora_and_ura_counted_for_a_riichi_win() -> None:
    # indicators: 8m -> dora 9m (one in hand), ura 9m -> 1m (one in hand)
    st = game(RIICHI_HANDS, draws="2z" + "1m1m1m" + "1z", dora="8m", ura="9m")
    act(st, 0, "riichi", "5p")
    pass_all(st)
    tsumogiri(st, 3)
    evs = act(st, 0, "tsumo")
    agari = ev(evs, "agari")[0].data
    (w,) = agari["winners"]
    assert (w["dora"], w["ura"]) == (1, 1)
    assert agari["dora_indicators"] == ["8m"] and agari["ura_indicators"] == ["9m"]


def test_r21_no_ura_without_riichi() -> None:
    st = game(RIICHI_HANDS, draws="2z", ura="5p")
    act(st, 0, "discard", "5p")
    evs = act(st, 1, "ron")
    for s in (2, 3):
        if st.phase == "play" and types(st, s):
            evs += act(st, s, "pass")
    agari = ev(evs, "agari")[0].data
    assert agari["ura_indicators"] == [] and agari["winners"][0]["ura"] == 0


def test_r14_no_riichi_on_a_fifth_copy_wait() -> None:
    # 1111m234p567p789s + 9m: discarding 9m leaves only a wait on a fifth 1m
    st = game(["1111m234p567p789s", None, None, None], draws="9m")
    riichi = {a.tile for a in legal_actions(st, 0) if a.type.value == "riichi"}
    assert riichi == {parse_tile("1m")}  # tanki on 9m
    with pytest.raises(IllegalAction, match="all four"):
        apply(st, action(0, "riichi", "9m"))
    act(st, 0, "riichi", "1m")


@pytest.mark.parametrize(("rules", "offered"), [("standard", False), ("tenhou", True)])
def test_r14_ankan_after_riichi_that_keeps_the_waits_but_not_the_reading(
    rules: str, offered: bool
) -> None:
    # 2234555m888m123s waits on 2m/5m; after an ankan of 5m (2234m888m123s) too, but
    # 555m also reads as 5m + 55m: seed 000 #34 forbids it, Tenhou asks only the waits
    hands = ["2234555m888m123s", "147p258s369s1357z", "147m369p147s2467z", "368m2p1z2z3z4z5z6z7z"]
    ruleset = preset(rules).with_overrides(red_fives=0)
    assert ruleset.riichi_ankan_triplet_only is not offered
    st = game(hands, draws="2p" + "9p9p9p" + "5m", rules=ruleset)
    act(st, 0, "riichi", "2p")
    pass_all(st)
    tsumogiri(st, 3)
    assert st.drawn[0] is not None and st.tile(st.drawn[0]) == parse_tile("5m")
    assert ("ankan" in types(st, 0)) is offered
