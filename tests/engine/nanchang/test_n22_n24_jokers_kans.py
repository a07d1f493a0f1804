"""N22-N24: the joker bonus (奖励分), 霸王精, 冲关 and who pays it, kan points and 杠精."""

from __future__ import annotations

import pytest

from server.engine.nanchang import PRESETS, Jokers, KanPoints, Won, chongguan_value
from server.engine.nanchang.settlement import joker_bonuses, kan_points
from server.engine.tiles import parse_tile, parse_tiles
from tests.engine.nanchang.helpers import X1, X3, D, act, ended, game

T = parse_tile
JK = Jokers.from_indicator(T("9s"))  # 正精 9s, 副精 1s
OPTS = PRESETS["nanchang"]
NONE: list[list[tuple[int, int]]] = [[], [], [], []]


def test_n22_zheng_2_fu_1_paid_by_everyone() -> None:
    """N22: 计算奖励分时正精2分，副精1分; every other seat pays each holder."""
    got = joker_bonuses([[T("9s")], [T("1s"), T("1s")], [], []], NONE, JK, OPTS)
    assert [(b.seat, b.zheng, b.fu, b.points, b.value) for b in got] == [
        (0, 1, 0, 2, 2),
        (1, 0, 2, 2, 2),
    ]
    assert got[0].deltas == (6, -2, -2, -2) and got[1].deltas == (-2, 6, -2, -2)


def test_n23_bawang_doubles_when_one_seat_holds_every_joker() -> None:
    """N23: 霸王精：四个玩家中仅有一人有精称为霸王，霸王精的奖励分还需翻番."""
    (b,) = joker_bonuses([[T("9s"), T("1s")], [], [], []], NONE, JK, OPTS)
    assert b.bawang and b.points == 3 and b.value == 6 and b.deltas == (18, -6, -6, -6)
    (b,) = joker_bonuses(
        [[T("9s"), T("1s")], [], [], []], NONE, JK, OPTS.with_overrides(bawang=False)
    )
    assert not b.bawang and b.value == 3


@pytest.mark.parametrize(
    ("tiles", "points", "seed_value"),
    [
        ("9s9s1s", 5, 10),  # 5分乘2即10分
        ("9s9s9s", 6, 18),  # 6分乘3即18分
        ("9s9s9s1s", 7, 28),  # 7分乘4即28分
        ("9s9s9s1s1s", 8, 40),  # 8分乘5即40分
        ("9s9s9s1s1s1s", 9, 54),  # 9分乘6即54分
        ("9s9s9s1s1s1s1s", 10, 70),  # 10分乘7即70分
    ],
)
def test_n23_chongguan_table(tiles: str, points: int, seed_value: int) -> None:
    """N23: 冲关：手中精的奖励分合计超过5分时...再翻番 (the seed's table, from 5 points)."""
    assert chongguan_value(points) == seed_value
    got = joker_bonuses(
        [parse_tiles(tiles), [], [], [T("1s")] if points < 10 else []], NONE, JK, OPTS
    )
    b = got[0]
    assert b.points == points and b.chongguan
    assert b.value == seed_value * (2 if points == 10 else 1)  # 10: nobody else has a joker
    assert chongguan_value(4) == 4 and chongguan_value(11) == 88 and chongguan_value(12) == 108


def test_n23_the_discarder_of_a_joker_that_caused_chongguan_pays_all_three() -> None:
    """N23: 如果被别人出了精，引起对方冲关，那么由一家付三家冲关的分."""
    got = joker_bonuses(
        [[], [T("1s")], parse_tiles("9s9s9s"), []], [[], [], [(T("9s"), 0)], []], JK, OPTS
    )
    b = next(x for x in got if x.seat == 2)
    assert b.chongguan and b.payer == 0 and b.value == 18
    assert b.deltas == (-54, 0, 54, 0)


def test_n23_a_discarded_joker_that_did_not_cause_it_changes_nothing() -> None:
    # 9 points; without the 1s taken from seat 3 still 8: everyone pays
    got = joker_bonuses(
        [parse_tiles("9s9s9s1s1s1s"), [T("1s")], [], []], [[(T("1s"), 3)], [], [], []], JK, OPTS
    )
    b = got[0]
    assert b.points == 9 and b.payer is None and b.deltas == (162, -54, -54, -54)


def test_n23_chongguan_caused_by_a_pon_in_play() -> None:
    """N23 in a game: seat 2 pons the dealer's 9s (正精): 6 points, 冲关 18, 霸王 36, the
    dealer pays all three shares (108)."""
    s2 = "9s9s 4z 1m4m7m 2p5p8p 2s5s 5z5z"
    s3 = "5m6m7m 4p5p6p 7p8p9p 7z7z 2z3z"  # waits on 1z or 4z
    g = game([D.replace("9m", "9s"), X1, s2, s3])
    act(g, 0, "discard", "9s")
    act(g, 2, "pon", tiles="9s9s")
    act(g, 2, "discard", "4z")
    events = act(g, 3, "ron", "4z")
    result = ended(events).result
    (b,) = result.joker_bonus
    assert (b.seat, b.points, b.value, b.chongguan, b.bawang, b.payer) == (2, 6, 36, True, True, 0)
    assert b.deltas == (-108, 0, 108, 0)
    win = result.win
    assert win is not None and win.score.payments == (-9, -7, -9, 25)  # 德国, not 德中德
    assert result.deltas == (-117, -7, 99, 25)
    assert g.scores == [-117, -7, 99, 25]


def test_n24_kan_points() -> None:
    """N24: 明杠算二分; 暗杠 (seed silent) 4;
    杠精：如果是杠了精牌，则算10分另加本身杠分总计为12分."""
    got = kan_points(
        [
            (0, T("3p"), "ankan"),
            (1, T("5m"), "minkan"),
            (2, T("4z"), "kakan"),
            (3, T("1s"), "minkan"),
        ],
        JK,
        OPTS,
    )
    assert [(k.seat, k.points, k.joker) for k in got] == [
        (0, 4, False),
        (1, 2, False),
        (2, 2, False),
        (3, 12, True),
    ]
    assert got[3].deltas == (-12, -12, -12, 36)
    (k,) = kan_points([(0, T("9s"), "ankan")], JK, OPTS)
    assert k.points == 14


def test_n24_joker_kan_in_play() -> None:
    """N24 in a game: an open kan of the dealer's 1s (副精): 12 from each; the four 副精 are 4
    points, 霸王 8 from each; the replacement wins (杠开, 德国 and 德中德)."""
    s2 = "1s1s1s 2m3m4m 6m7m8m 2p3p 6z6z"
    g = game([D.replace("9m", "1s"), X1, s2, X3], replacements="4p")
    act(g, 0, "discard", "1s")
    act(g, 2, "daiminkan", tiles="1s1s1s")
    events = act(g, 2, "tsumo")
    result = ended(events).result
    assert result.kans == (KanPoints(2, T("1s"), "minkan", True, 12, (-12, -12, 36, -12)),)
    (b,) = result.joker_bonus
    assert (b.seat, b.points, b.value, b.bawang, b.payer) == (2, 4, 8, True, None)
    won = next(e for e in events if isinstance(e, Won))
    assert [e.id for e in won.win.score.elements] == [
        "pinghu",
        "zimo",
        "gangkai",
        "deguo",
        "dezhongde",
    ]
    assert won.win.score.payments == (-37, -21, 79, -21)
    assert result.deltas == (-57, -41, 139, -41)
