"""N7-N11: jokers in play, the turn, sequences of winds and dragons, calls and their order, kans."""

from __future__ import annotations

from server.engine.actions import Action, ActionType
from server.engine.nanchang import (
    Called,
    Drew,
    Kanned,
    NanchangGame,
    Won,
    legal_actions,
    waiting_on,
)
from server.engine.nanchang.shapes import is_win
from server.engine.tiles import parse_tile, parse_tiles
from tests.engine.nanchang.helpers import X1, X2, X3, D, act, discard, ended, game, types

T = parse_tile


def _d(swap: str) -> str:
    """The inert dealer hand with its 9m replaced."""
    return D.replace("9m", swap)


def test_n07_a_joker_in_hand_stands_for_any_tile() -> None:
    """N7: 精可以代替任何一张牌: 9s (正精) stands for 8s in 6s7s8s."""
    g = game([D, "1m2m3m 4p5p6p 7m8m9m 4z4z 6s 9s", X2, X3], draws="7s")
    discard(g, 0, "3s")
    assert g.turn == 1 and "tsumo" in types(g, 1)
    won = next(e for e in act(g, 1, "tsumo") if isinstance(e, Won))
    assert won.win.score.shape == "pinghu"
    assert "deguo" not in {e.id for e in won.win.score.elements}  # the joker did stand in
    assert is_win(parse_tiles("1m2m3m4p5p6p7m8m9m4z4z6s7s9s"), g.jokers, 0)


def test_n07_a_discarded_joker_is_its_own_tile_for_chi_and_pon() -> None:
    """N7: 允许打出，其他人可以吃、碰、杠（作为本张）."""
    s1 = "7s8s 2m3m4m 5p6p7p 4z4z4z 1m 6z"
    s2 = "1m4m7m 2p5p8p 9s9s8s 2z2z 6z6z"
    s3 = "2m3m4m 6m7m8m 1p2p3p 3z3z3z 5z"  # waits on 5z: a joker would do, a discard is itself
    g = game([_d("9s"), s1, s2, s3])
    act(g, 0, "discard", "9s")
    assert Action(ActionType.CHI, 1, None, (T("7s"), T("8s"))) in legal_actions(g, 1)
    assert Action(ActionType.PON, 2, None, (T("9s"), T("9s"))) in legal_actions(g, 2)
    assert waiting_on(g) == {1, 2}
    act(g, 1, "pass")
    events = act(g, 2, "pon", tiles="9s9s")
    call = next(e for e in events if isinstance(e, Called))
    assert call.meld.tiles == (T("9s"),) * 3 and call.meld.called == T("9s")


def test_n07_ron_on_a_discarded_joker_as_its_own_tile() -> None:
    """N7: 有听这张牌（作为本张）的人还可以和."""
    s3 = "1m2m3m 4m5m6m 7s8s 6z6z6z 4p4p"  # waits on 6s and 9s
    g = game([_d("9s"), X1, X3, s3])
    act(g, 0, "discard", "9s")
    assert Action(ActionType.RON, 3, T("9s")) in legal_actions(g, 3)
    won = next(e for e in act(g, 3, "ron", "9s") if isinstance(e, Won))
    assert won.win.tile == T("9s") and won.win.from_seat == 0


def test_n07_jokers_in_a_chi_are_their_own_tile() -> None:
    """N7: 可以用精（此时只能作为本身牌张）吃别人打出的牌: 8s9s chi 7s; 9s never stands for 6s."""
    s1 = "8s9s 2m3m4m 5p6p 9m 1z2z3z 6z 7z"
    g = game([D, s1, X2, X3])
    act(g, 0, "discard", "7s")
    chis = [a.tiles for a in legal_actions(g, 1) if a.type is ActionType.CHI]
    assert chis == [(T("8s"), T("9s"))]


def test_n08_after_a_draw_win_kan_or_discard() -> None:
    """N8: 凡是抓进或吃、碰、开杠、补牌后，不糊牌便要打出一张牌."""
    g = game([D, X1, X2, X3], draws="3m")
    assert types(g, 0) == {"discard"}
    events = discard(g, 0, "9m")
    assert [e for e in events if isinstance(e, Drew)] == [Drew(1, T("3m"))]
    assert types(g, 1) == {"discard"}
    assert {a.tile for a in legal_actions(g, 1)} == set(g.hand_kinds(1))


def test_n09_winds_and_dragons_form_sequences() -> None:
    """N9: 顺子...包括风牌"东南西北"中任意三个及箭牌"中发白"。南昌麻将风和字可以组成顺子的."""
    jk = game([D, X1, X2, X3]).jokers
    for hand in ("1z2z3z", "1z2z4z", "1z3z4z", "2z3z4z", "5z6z7z"):
        tiles = parse_tiles("1m2m3m 4m5m6m 7m8m9m 5p5p" + hand)
        assert is_win(tiles, jk, 0), hand
    for hand in ("1z1z2z", "4z5z6z", "3z4z5z", "2z2z3z", "5z5z6z"):
        assert not is_win(parse_tiles("1m2m3m 4m5m6m 7m8m9m 5p5p" + hand), jk, 0), hand


def test_n09_chi_of_a_wind() -> None:
    s1 = "1z2z 5z6z 3m6m9m 3p6p9p 3s6s 4s"
    g = game([_d("4z"), s1, X2, X3])
    act(g, 0, "discard", "4z")
    assert {a.tiles for a in legal_actions(g, 1) if a.type is ActionType.CHI} == {
        (T("1z"), T("2z"))
    }


def test_n09_chi_of_the_third_dragon() -> None:
    s1 = "1z2z 5z6z 3m6m9m 3p6p9p 3s6s 4s"
    g = game([_d("7z"), s1, X2, X1])
    act(g, 0, "discard", "7z")
    assert {a.tiles for a in legal_actions(g, 1) if a.type is ActionType.CHI} == {
        (T("5z"), T("6z"))
    }


CHI1 = "4m6m 2p5p8p 2s5s8s 2z2z 6z6z 9p"  # chis 5m
PON2 = "1m5m5m 2p5p8p 2s5s8s 1z1z 5z5z"  # pons 5m


def test_n10_chi_only_from_the_left() -> None:
    """N10: 上家打出牌...便可以报吃: the seat after the next may not chi."""
    g = game([D, X1, CHI1, X3])
    act(g, 0, "discard", "5m")
    assert g.step == "act" and g.turn == 1  # nobody was asked: seat 2 is not the next seat


def test_n10_pon_beats_chi() -> None:
    """N10: "碰"比"吃"优先."""
    g = game([D, CHI1, PON2, X3])
    act(g, 0, "discard", "5m")
    assert waiting_on(g) == {1, 2}
    assert act(g, 1, "chi", tiles="4m6m") == []  # the chi waits for the pon's answer
    events = act(g, 2, "pon", tiles="5m5m")
    calls = [e for e in events if isinstance(e, Called)]
    assert [(c.seat, c.meld.type, c.meld.from_seat) for c in calls] == [(2, "pon", 0)]
    assert g.turn == 2 and types(g, 2) == {"discard"}
    assert g.rivers[0][-1].called


def test_n10_chi_stands_when_the_pon_passes() -> None:
    g = game([D, CHI1, PON2, X3])
    act(g, 0, "discard", "5m")
    act(g, 1, "chi", tiles="4m6m")
    events = act(g, 2, "pass")
    assert [(e.seat, e.meld.type) for e in events if isinstance(e, Called)] == [(1, "chi")]
    assert g.melds[1][0].tiles == (T("4m"), T("5m"), T("6m"))


def test_n10_kan_beats_chi() -> None:
    """N10: "杠"比"吃"优先; N11: the open kan draws its replacement from the wall's end."""
    kan2 = "5m5m5m 1m 2p5p8p 2s5s8s 1z1z 5z"
    g = game([D, CHI1, kan2, X3], replacements="8m")
    act(g, 0, "discard", "5m")
    assert {"pon", "daiminkan", "pass"} == types(g, 2)
    act(g, 2, "daiminkan", tiles="5m5m5m")
    events = act(g, 1, "chi", tiles="4m6m")
    assert [e.meld.type for e in events if isinstance(e, Called)] == ["minkan"]
    assert Drew(2, T("8m"), replacement=True) in events
    assert g.kans == [(2, T("5m"), "minkan")]


def test_n10_after_a_call_only_a_discard_even_with_four_alike() -> None:
    """N10: 吃牌时，手中有杠牌，不能开杠。只能在下一次自己抓进牌后才能开杠."""
    s1 = "4m6m 4z4z4z4z 2p5p8p 2s5s8s 9p"
    g = game([D, s1, X2, X3], draws="9m9m9m1p")
    act(g, 0, "discard", "5m")
    act(g, 1, "chi", tiles="4m6m")
    assert types(g, 1) == {"discard"}
    discard(g, 1, "9p")
    for seat in (2, 3, 0):
        assert g.turn == seat
        discard(g, seat, "9m")
    assert g.turn == 1 and "ankan" in types(g, 1)


ANKAN0 = "3p3p3p3p 2m5m8m 6p9p 3s6s 4s7s 9m"


def test_n11_concealed_kan_replacement_from_the_wall_end() -> None:
    """N11: 报开杠后应即在牌墙最后补进一张牌; 暗杠...须明放在自己立牌前，翻出."""
    g = game([ANKAN0, X1, X2, X3], replacements="6m")
    events = act(g, 0, "ankan", "3p")
    assert isinstance(events[0], Kanned) and events[0].meld.type == "ankan"
    assert events[1] == Drew(0, T("6m"), replacement=True)
    assert 134 not in g.live and g.live[-1] == 135  # the last stack's top first
    assert g.kans == [(0, T("3p"), "ankan")]
    assert g.melds[0][0].tiles == (T("3p"),) * 4


def test_n11_a_concealed_kan_is_never_robbed() -> None:
    """N11: 暗杠不能抢杠的."""
    s3 = "1p2p 4m5m6m 7m8m9m 6z6z6z 4s4s"  # waits on 3p
    g = game([ANKAN0, X1, X3, s3], replacements="6m")
    act(g, 0, "ankan", "3p")
    assert waiting_on(g) == {0} and g.step == "act"


KAKAN1 = "4z4z 1m4m7m 2p5p8p 2s5s8s 9m"
ROB3 = "2m3m4m 6m7m8m 1p2p3p 6z6z 1z2z"  # waits on 3z or 4z (any third wind)


def _to_kakan() -> NanchangGame:
    g = game([_d("4z"), KAKAN1, X2, ROB3], draws="9p9p9p4z", replacements="3m")
    act(g, 0, "discard", "4z")
    assert waiting_on(g) == {1, 3}
    act(g, 3, "pass")
    act(g, 1, "pon", tiles="4z4z")
    discard(g, 1, "9m")
    for seat in (2, 3, 0):
        assert g.turn == seat
        discard(g, seat, "9p")
    assert g.turn == 1 and "kakan" in types(g, 1)
    return g


def test_n11_added_kan_after_drawing_the_fourth_can_be_robbed() -> None:
    """N11: 抓进一张与已经碰的刻子牌相同也可报开杠; 抢杠: rob it with the tile it adds."""
    g = _to_kakan()
    events = act(g, 1, "kakan", "4z")
    assert isinstance(events[0], Kanned) and events[0].meld.type == "kakan"
    assert waiting_on(g) == {3}
    events = act(g, 3, "ron", "4z")
    won = next(e for e in events if isinstance(e, Won))
    assert (won.win.seat, won.win.from_seat, won.win.tile) == (3, 1, T("4z"))
    assert "qianggang" in {e.id for e in won.win.score.elements}
    result = ended(events).result
    assert result.kans == ()  # the robbed kan does not stand: no kan points


def test_n11_added_kan_stands_when_nobody_robs() -> None:
    g = _to_kakan()
    act(g, 1, "kakan", "4z")
    events = act(g, 3, "pass")
    assert events == [Drew(1, T("3m"), replacement=True)]
    assert g.melds[1][0].type == "kakan" and g.kans == [(1, T("4z"), "kakan")]
