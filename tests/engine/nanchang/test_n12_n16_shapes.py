"""N12-N16: one winner per discard, the winning shapes, 精吊."""

from __future__ import annotations

import pytest

from server.engine.actions import Action, ActionType
from server.engine.nanchang import PRESETS, Won, legal_actions, score_hand, waiting_on
from server.engine.nanchang.shapes import is_win, seven_pairs, shisanlan
from server.engine.tiles import parse_tile, parse_tiles
from tests.engine.nanchang.helpers import X1, X2, X3, D, act, discard, game, meld, types

T = parse_tile
WAIT_34Z = "2m3m4m 6m7m8m 1p2p3p 6z6z 1z2z"  # waits on 3z or 4z
WAIT_14Z = "5m6m7m 4p5p6p 7p8p9p 7z7z 2z3z"  # waits on 1z or 4z


def _shape(hand: str, win: str, indicator: str = "9s", **kw: object) -> str | None:
    r = score_hand(hand, win, indicator=indicator, **kw)  # type: ignore[arg-type]
    return None if r is None else r.win.shape


@pytest.mark.parametrize(("first", "second", "winner"), [(3, 1, 1), (1, 3, 1)])
def test_n12_one_winner_first_in_turn_order_from_the_discarder(
    first: int, second: int, winner: int
) -> None:
    """N12: 一盘只能有一位糊牌者。如有一人以上同时表示糊牌时，从打牌者按逆时针方向，顺序在前者."""
    g = game([D.replace("9m", "4z"), WAIT_34Z, X1, WAIT_14Z])
    act(g, 0, "discard", "4z")
    assert waiting_on(g) == {1, 3}
    assert act(g, first, "ron", "4z") == []
    events = act(g, second, "ron", "4z")
    wins = [e for e in events if isinstance(e, Won)]
    assert [w.win.seat for w in wins] == [winner]


def test_n12_the_later_seat_wins_when_the_first_passes() -> None:
    g = game([D.replace("9m", "4z"), WAIT_34Z, X1, WAIT_14Z])
    act(g, 0, "discard", "4z")
    act(g, 1, "pass")
    events = act(g, 3, "ron", "4z")
    assert [e.win.seat for e in events if isinstance(e, Won)] == [3]


def test_n12_no_furiten_a_passed_tile_wins_later() -> None:
    """N12 (seed silent on furiten: common Nanchang has none): passing a win keeps later wins."""
    g = game([D.replace("9m", "4z"), WAIT_34Z, X1, X3], draws="9p4z")
    act(g, 0, "discard", "4z")
    act(g, 1, "pass")
    discard(g, 1, "9p")
    assert g.turn == 2
    act(g, 2, "discard", "4z")
    assert Action(ActionType.RON, 1, T("4z")) in legal_actions(g, 1)


def test_n13_four_sets_and_a_pair() -> None:
    """N13: 糊牌的基本牌型AAXXXXXXXXXXXX (AA 将, XXX 顺子、刻子或杠)."""
    assert _shape("1m2m3m 4p5p6p 7s8s9s 5z5z5z 7m", "7m", indicator="1z") == "pinghu"
    assert _shape("1m2m3m 4p5p6p 7s8s9s 5z5z5z 7m", "8m", indicator="1z") is None
    with_melds = [meld("chi", "4p5p6p", "5p", 0), meld("pon", "5z5z5z", "5z", 2)]
    r = score_hand("1m2m3m 7s8s9s 7m", "7m", indicator="1z", melds=with_melds)
    assert r is not None and r.win.shape == "pinghu"


def test_n13_pengpenghu_all_triplets_open_or_not() -> None:
    """N13: 碰碰糊：由刻子或者杠子所组成的牌形; a chi meld rules it out."""
    assert _shape("1m1m1m 5p5p5p 7s7s7s 2z2z2z 4z", "4z", indicator="1z") == "pengpenghu"
    # 111m222m333m reads as three sequences or three triplets: the triplets pay more
    assert _shape("1m1m1m 2m2m2m 3m3m3m 7p7p7p 4z", "4z", indicator="1z") == "pengpenghu"
    pons = [meld("pon", "5p5p5p", "5p", 1), meld("kakan", "7s7s7s7s", "7s", 3)]
    assert _shape("1m1m1m 2z2z2z 4z", "4z", indicator="1z", melds=pons) == "pengpenghu"
    chi = [meld("chi", "5p6p7p", "5p", 3)]
    assert _shape("1m1m1m 7s7s7s 2z2z2z 4z", "4z", indicator="1z", melds=chi) == "pinghu"


def test_n14_seven_pairs() -> None:
    """N14: 七对：AAAAAAAAAAAAAA (小七对：由7对对子所组成的牌形)."""
    assert _shape("1m1m 3m3m 5p5p 8p8p 2s2s 6z6z 7z", "7z", indicator="1z") == "qidui"
    assert _shape("1m1m 3m3m 5p5p 8p8p 2s2s 6z6z 7z", "5z", indicator="1z") is None
    # four alike count as two pairs (common Nanchang; option seven_pairs_quads)
    assert _shape("1m1m1m1m 5p5p 8p8p 2s2s 6z6z 7z", "7z", indicator="1z") == "qidui"
    strict = PRESETS["nanchang"].with_overrides(seven_pairs_quads=False)
    assert (
        score_hand("1m1m1m1m 5p5p 8p8p 2s2s 6z6z 7z", "7z", indicator="1z", options=strict) is None
    )
    # a joker pairs with a single; seven pairs needs a concealed hand
    assert seven_pairs([2, 0, 2, 0, 2, 0, 2, 0, 2] + [0] * 25, 4)  # five pairs and four jokers
    chi = [meld("chi", "5p6p7p", "5p", 3)]
    assert _shape("1m1m 3m3m 8p8p 2s2s 4z4z", "7z", indicator="1z", melds=chi) is None


@pytest.mark.parametrize(
    ("hand", "win", "shape"),
    [
        ("1m4m7m 2p5p8p 3s6s9s 1z2z3z5z", "6z", "shisanlan"),
        ("1m4m8m 2p6p9p 3s7s 1z2z3z4z5z", "6z", "shisanlan"),
        ("1m4m7m 2p5p 3s9s 1z2z3z4z5z6z", "7z", "qixing_shisanlan"),
        ("1m7m 3p 5s9s 1z2z3z4z5z6z7z 4p", "2m", None),  # 2m and 1m are 1 apart
        ("1m4m7m 2p5p8p 3s6s9s 1z2z3z5z", "5z", None),  # an honour twice
        ("1m4m7m 2p5p8p 3s6s 1z2z3z5z6z", "5s", None),  # 5s, 6s
    ],
)
def test_n15_shisanlan(hand: str, win: str, shape: str | None) -> None:
    """N15: 13烂：手中十四张牌中，序数牌间隔大于等于3，字牌没有重复;
    七星十三烂：十三烂中字牌包括所有的字牌."""
    assert _shape(hand, win, indicator="8m") == shape


def _counts(text: str) -> list[int]:
    counts = [0] * 34
    for k in parse_tiles(text):
        counts[k] += 1
    return counts


def test_n15_jokers_fill_shisanlan_and_qixing() -> None:
    # 12 natural tiles and two jokers: one stands for 7z, one for a spaced suit tile
    assert shisanlan(_counts("1m4m7m 2p5p 3s 1z2z3z4z5z6z"), 2) == (True, True)
    assert shisanlan(_counts("1m4m7m 2p5p8p 3s 1z2z3z4z5z"), 2) == (True, True)
    # three honours missing, two jokers: 十三烂 but not 七星
    assert shisanlan(_counts("1m4m7m 2p5p8p 3s6s 1z2z3z4z"), 2) == (True, False)
    assert shisanlan(_counts("1m2m7m 2p5p8p 3s6s 1z2z3z4z"), 2) == (False, False)
    assert _shape("1m4m7m 2p5p 3s 1z2z3z4z5z6z 9s", "1s", indicator="9s", tsumo=True) == (
        "qixing_shisanlan"
    )


JD1 = "1m2m3m 4p5p6p 7m8m9m 4z4z4z 9s"  # a joker and four sets: 精吊


def test_n16_jingdiao_wins_on_any_draw_never_on_a_discard() -> None:
    """N16: 精吊...摸任何一张牌都糊！精吊的时候只能自摸不能放炮！"""
    g = game([D, JD1, X2, X3], draws="8p 3m 3s 3s")
    discard(g, 0, "3s")  # the dealer's first discard: see N18 for 精吊地糊
    assert g.turn == 1 and "tsumo" in types(g, 1)  # 8p: any tile wins
    discard(g, 1, "8p")
    act(g, 2, "discard", "3m")
    assert g.step == "act" and g.turn == 3  # 3m would complete 精吊 but is not won on
    discard(g, 3, "3s")
    discard(g, 0, "3s")
    assert g.turn == 1 and "tsumo" in types(g, 1)
    won = next(e for e in act(g, 1, "tsumo") if isinstance(e, Won))
    ids = [e.id for e in won.win.score.elements]
    assert "jingdiao" in ids and "zimo" in ids


def test_n16_jingdiao_with_six_pairs() -> None:
    """N16: a joker and six pairs waits on any tile too (seven pairs)."""
    r = score_hand("1m1m 3m3m 5p5p 8p8p 2s2s 6z6z 9s", "4z", indicator="9s", tsumo=True)
    assert r is not None and r.win.shape == "qidui"
    assert "jingdiao" in {e.id for e in r.win.elements}


def test_n16_not_jingdiao_when_the_joker_is_in_a_set() -> None:
    r = score_hand("1m2m3m 4p5p6p 7m8m 9s 4z4z 6s7s", "8s", indicator="9s", tsumo=True)
    assert r is not None and "jingdiao" not in {e.id for e in r.win.elements}
    assert is_win(parse_tiles("1m2m3m4p5p6p7m8m9s4z4z6s7s8s"), r.jokers, 0)
