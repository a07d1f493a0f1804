"""N17-N21: win points: readings, shapes, ways of winning, 德国, 德中德, who pays.

Seats in ``score_hand`` results: the winner 0, the discarder 1, the dealer as its
docstring says (here seat 2 unless the winner or the discarder deals).
"""

from __future__ import annotations

from server.engine.nanchang import PRESETS, Won, score_hand
from server.engine.nanchang.scoring import FACTORS
from tests.engine.nanchang.helpers import X1, X2, X3, D, act, game, meld

# 1s (副精 under 9s) must stand for 6m or 9m: a win that uses a joker (not 德国)
H = "1m2m3m 4p5p6p 7m8m 1s 2z2z2z 5z"
# no joker anywhere: every such win is 德国
PURE = "1m2m3m 4p5p6p 7m8m9m 2z2z2z 5z"


def pays(hand: str, win: str = "5z", **kw: object) -> tuple[int, int, int, int]:
    r = score_hand(hand, win, indicator="9s", **kw)  # type: ignore[arg-type]
    assert r is not None
    return r.win.payments


def ids(hand: str, win: str = "5z", **kw: object) -> list[str]:
    r = score_hand(hand, win, indicator="9s", **kw)  # type: ignore[arg-type]
    assert r is not None
    return [e.id for e in r.win.elements]


def test_n17_the_factors_of_each_shape() -> None:
    """N17: 平糊 1, 碰碰糊 2, 七对 2, 十三烂 2, 七星十三烂 4 (common Nanchang values)."""
    assert (FACTORS["pinghu"], FACTORS["pengpenghu"], FACTORS["qidui"]) == (1, 2, 2)
    assert (FACTORS["shisanlan"], FACTORS["qixing_shisanlan"]) == (2, 4)
    cases = {
        "pinghu": (H, "5z"),
        "pengpenghu": ("1m1m1m 4p4p4p 7m7m 1s 2z2z2z 5z", "5z"),
        "qidui": ("1m1m 3m3m 5p5p 8p8p 2s2s 6z6z 1s", "5z"),
        "shisanlan": ("1m4m7m 2p5p8p 3s6s 1s 1z2z3z 4z", "5z"),
        "qixing_shisanlan": ("1m4m7m 2p5p 8s9s 1z2z3z4z5z6z", "7z"),
    }
    for shape, (hand, win) in cases.items():
        r = score_hand(hand, win, indicator="9s")
        assert r is not None and r.win.shape == shape, shape
        assert r.win.base == FACTORS[shape], shape  # a ron with a joker used: nothing else


def test_n17_the_reading_that_pays_most_counts() -> None:
    """N17: 112233m 556677p 99s reads as sequences (1) or seven pairs (2): seven pairs."""
    r = score_hand("1m1m2m2m3m3m 5p5p6p6p7p7p 9s", "9s", indicator="1z")
    assert r is not None and r.win.shape == "qidui"
    # the jokers read as themselves (德国: 2 and +5) beat reading them as jokers
    r = score_hand("1m2m3m 4p5p6p 7s8s9s 2z2z2z 5z", "5z", indicator="9s")
    assert r is not None and "deguo" in [e.id for e in r.win.elements]


def test_n18_zimo_doubles_and_everyone_pays() -> None:
    """N18: 自摸 ×2; N21: each other seat pays, the dealer double."""
    assert pays(H, tsumo=True) == (8, -4, -2, -2)
    assert pays(H, tsumo=True, dealer=True) == (12, -4, -4, -4)


def test_n18_gangkai_doubles_the_self_draw() -> None:
    """N18: 扛开：当扛牌的同时，所摸到的那张牌与手中的牌形成糊牌牌形."""
    kan = [meld("ankan", "2z2z2z2z")]
    assert ids("1m2m3m 4p5p6p 7m8m 1s 5z", tsumo=True, gangkai=True, melds=kan) == [
        "pinghu",
        "zimo",
        "gangkai",
    ]
    assert pays("1m2m3m 4p5p6p 7m8m 1s 5z", tsumo=True, gangkai=True, melds=kan) == (
        16,
        -8,
        -4,
        -4,
    )


def test_n18_qianggang_doubles_and_the_kan_player_pays_all() -> None:
    """N18: 抢杠 ×2; N21: the robbed kan's player pays every share (the common rule)."""
    assert pays(H, qianggang=True) == (10, -10, 0, 0)


def test_n18_jingdiao_doubles() -> None:
    """N18: 精吊 ×2 (a self-draw)."""
    jd = "1m2m3m 4p5p6p 7m8m9m 2z2z2z 1s"
    assert ids(jd, "4z", tsumo=True) == ["pinghu", "zimo", "jingdiao"]
    assert pays(jd, "4z", tsumo=True) == (16, -8, -4, -4)


def test_n18_tianhu_and_dihu_are_20_from_each_and_jingdiao_doubles_them() -> None:
    """N18: 天糊 / 地糊 / 精吊天糊 / 精吊地糊: 20 from each other seat (common value), 精吊 40."""
    assert pays(H, tsumo=True, tianhu=True, dealer=True) == (60, -20, -20, -20)
    assert pays(H, dihu=True, discarder_is_dealer=True) == (60, -20, -20, -20)
    jd = "1m2m3m 4p5p6p 7m8m9m 2z2z2z 1s"
    assert pays(jd, "4z", tsumo=True, tianhu=True, dealer=True) == (120, -40, -40, -40)
    assert pays(jd, "4z", dihu=True, discarder_is_dealer=True) == (120, -40, -40, -40)
    assert ids(jd, "4z", dihu=True, discarder_is_dealer=True) == ["dihu", "jingdiao"]


def test_n18_tianhu_in_play() -> None:
    """N18: 天糊：庄家第一轮牌摸到的14张牌形成糊牌牌形."""
    g = game(["1m2m3m 4p5p6p 7m8m9m 3z3z3z 6z6z", X1, X2, X3.replace("3z3z", "4z4z")])
    won = next(e for e in act(g, 0, "tsumo") if isinstance(e, Won))
    assert won.win.tile is None and won.win.score.elements[0].id == "tianhu"
    assert won.win.score.payments == (60, -20, -20, -20)


def test_n18_dihu_and_jingdiao_dihu_in_play() -> None:
    """N18: 地糊 (精吊地糊): a win on the dealer's first discard, even for 精吊."""
    g = game([D, "1m2m3m 4p5p6p 7m8m9m 4z4z4z 9s", X2, X3])
    act(g, 0, "discard", "3s")
    won = next(e for e in act(g, 1, "ron", "3s") if isinstance(e, Won))
    assert [e.id for e in won.win.score.elements] == ["dihu", "jingdiao"]
    assert won.win.score.payments == (-40, 120, -40, -40)


def test_n18_gangkai_in_play() -> None:
    g = game(["3p3p3p3p 1m2m3m 4p5p6p 7m8m 6z6z", X1, X2, X3], replacements="9m")
    act(g, 0, "ankan", "3p")
    won = next(e for e in act(g, 0, "tsumo") if isinstance(e, Won))
    elements = [e.id for e in won.win.score.elements]
    assert elements == ["pinghu", "zimo", "gangkai", "deguo", "dezhongde"]  # nobody has a joker
    # a dealer's self-draw: 1 x2 x2 x2 x2 = 16, dealer double 32, +5 德国 = 37 from each
    assert won.win.score.payments == (111, -37, -37, -37)


def test_n19_deguo_doubles_and_adds_five() -> None:
    """N19: 德国：糊牌牌形中没有出现"精"，或有精但并未发挥精的效应: ×2 and 5 from each payer."""
    assert ids(PURE) == ["pinghu", "deguo"]
    # ron: base 2; discarder 2x2+5, dealer 2x2+5, the other 2+5
    assert pays(PURE) == (25, -9, -9, -7)
    # jokers read as themselves (789s) also make it 德国
    assert ids("1m2m3m 4p5p6p 7s8s9s 2z2z2z 5z") == ["pinghu", "deguo"]
    assert pays(PURE, options=PRESETS["nanchang"].with_overrides(deguo_bonus=0)) == (
        10,
        -4,
        -4,
        -2,
    )


def test_n20_dezhongde_when_no_other_seat_holds_a_joker() -> None:
    """N20: 德中德 (the seed stops at it): 德国 while no other seat holds a joker: ×2 more."""
    assert ids(PURE, others_hold_jokers=False) == ["pinghu", "deguo", "dezhongde"]
    assert pays(PURE, others_hold_jokers=False) == (35, -13, -13, -9)
    assert "dezhongde" not in ids(H, others_hold_jokers=False)  # not 德国: not 德中德


def test_n21_who_pays_a_ron() -> None:
    """N21: the discarder pays double, the dealer double, the two others once each."""
    assert pays(H) == (5, -2, -2, -1)
    assert pays(H, discarder_is_dealer=True) == (6, -4, -1, -1)
    assert pays(H, dealer=True) == (8, -4, -2, -2)
    only = PRESETS["nanchang"].with_overrides(ron_all_pay=False)
    assert pays(H, options=only) == (2, -2, 0, 0)
    flat = PRESETS["nanchang"].with_overrides(dealer_double=False, discarder_double=False)
    assert pays(H, options=flat) == (3, -1, -1, -1)
