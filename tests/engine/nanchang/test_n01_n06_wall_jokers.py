"""N1-N6: the tiles, seats, dealer roll, wall break and deal, the joker indicator and the jokers."""

from __future__ import annotations

from collections import Counter

import pytest

from server.engine.nanchang import (
    PRESETS,
    Dealt,
    Drew,
    GameStarted,
    JokerRevealed,
    Jokers,
    NanchangGame,
    NanchangWall,
    RoundStarted,
    at_round,
    mask,
    new_game,
    successor,
)
from server.engine.nanchang.wall import (
    FIRST_DRAW,
    hand_positions,
    indicator_position,
    roll_for_dealer,
    stack_order,
    tail_order,
)
from server.engine.tiles import parse_tile, tile_str
from tests.engine.nanchang.helpers import act, discard, game, pass_all

T = parse_tile


def test_n01_136_tiles_no_flowers() -> None:
    """N1: 麻将牌全副牌共有...136张: 1-9 of three suits, four winds, three dragons, four each."""
    wall = NanchangWall.from_seed(b"n1", 0, 0)
    assert sorted(wall.tiles) == list(range(136))
    assert Counter(t // 4 for t in wall.tiles) == {k: 4 for k in range(34)}
    g = new_game(PRESETS["nanchang"], b"n1")
    held = [t // 4 for h in g.hands for t in h] + [g.wall.tiles[p] // 4 for p in g.live]
    assert Counter(held) == {k: 4 for k in range(34)}


def test_n02_draws_go_counter_clockwise_from_the_dealer() -> None:
    """N2: 抓牌：按逆时针方向进行。顺序是庄家、右家、对家、左家: seat order dealer, +1, +2, +3."""
    g = game([None, None, None, None], dealer=2)
    assert g.turn == 2 and len(g.hands[2]) == 14
    seen = []
    for _ in range(5):
        seat = g.turn
        events = discard(g, seat, _loose(g, seat))
        seen += [e.seat for e in events if isinstance(e, Drew)]
    assert seen == [3, 0, 1, 2, 3]


def _loose(g: NanchangGame, seat: int) -> str:
    return tile_str(g.hands[seat][-1] // 4)


@pytest.mark.parametrize("roller", [0, 1, 2, 3])
def test_n03_first_dealer_counted_from_the_roller(roller: int) -> None:
    """N3: 任意一人掷骰，由他的位置逆时针顺序，根据他的骰子的点数，算到谁，谁就为庄家."""
    for i in range(40):
        seed = b"n3-%d" % i
        dice, dealer = roll_for_dealer(seed, roller)
        assert all(1 <= d <= 6 for d in dice)
        assert dealer == (roller + dice[0] + dice[1] - 1) % 4
        g = new_game(PRESETS["nanchang"], seed, roller)
        start = g.start_events[0]
        assert isinstance(start, GameStarted)
        assert (start.roller, start.dice, start.first_dealer) == (roller, dice, dealer)
        assert g.dealer == dealer == g.first_dealer
    dealers = {roll_for_dealer(b"n3-%d" % i, roller)[1] for i in range(40)}
    assert dealers == {0, 1, 2, 3}


def test_n03_without_the_roll_the_given_seat_deals() -> None:
    opts = PRESETS["nanchang"].with_overrides(dealer_by_dice=False)
    g = new_game(opts, b"x", 3)
    assert g.dealer == 3
    assert g.start_events[0] == GameStarted(opts, 3, None, 3)


def test_n04_second_roller_and_break() -> None:
    """N4: 庄家首先掷骰...以庄家为第一位...由点数者第二掷骰...两次掷骰的点数相加之和作为开牌依据;
    在第二次掷骰者所码的牌墙，从右向左依次数到与点数相同的那一墩."""
    for i in range(30):
        dealer = i % 4
        w = NanchangWall.from_seed(b"n4-%d" % i, i, dealer)
        assert w.second_roller == (dealer + sum(w.break_dice) - 1) % 4
        assert w.break_count == sum(w.break_dice) + sum(w.second_dice)
    # the count starts at the right end of the second roller's wall; past 17 stacks it goes
    # on along the next wall clockwise (the wall of the seat before)
    assert stack_order(2, 5)[:2] == [17 * 2 + 5, 17 * 2 + 6]
    assert stack_order(2, 20)[0] == 17 * 1 + 3
    assert stack_order(0, 16)[:2] == [16, 17 * 3]
    for w_, skip in ((0, 4), (3, 24), (1, 17)):
        assert sorted(stack_order(w_, skip)) == list(range(68))


def test_n04_from_seed_reads_the_physical_walls_from_the_break() -> None:
    w = NanchangWall.from_seed(b"phys", 3, 1)
    again = NanchangWall.from_seed(b"phys", 3, 1)
    assert w == again
    assert w.tiles != NanchangWall.from_seed(b"phys", 4, 1).tiles
    assert w.tiles != NanchangWall.from_seed(b"other", 3, 1).tiles


def test_n04_deal_dealer_14_others_13_by_two_stacks_then_the_jump() -> None:
    """N4: 由庄家开始抓下两墩牌...每个人抓3次共12张牌，再由庄家跳牌(隔一墩)抓上层两牌，
    其他人依次各抓一张。庄家共有14张牌，其他人各有13张牌."""
    wall = NanchangWall(list(range(136)), 1, (3, 4), (2, 3), (3, 3))
    assert hand_positions(1, 1) == [0, 1, 2, 3, 16, 17, 18, 19, 32, 33, 34, 35, 48, 52]
    assert hand_positions(2, 1) == [4, 5, 6, 7, 20, 21, 22, 23, 36, 37, 38, 39, 49]
    assert hand_positions(3, 1)[-1] == 50 and hand_positions(0, 1)[-1] == 51
    # the dealer's last two: the top tiles (even positions) of the 25th and 27th stacks
    assert 48 % 2 == 0 and 52 % 2 == 0 and 52 // 2 - 48 // 2 == 2
    g = at_round(PRESETS["nanchang"], wall)
    assert [len(h) for h in g.hands] == [13, 14, 13, 13]
    assert g.live[0] == FIRST_DRAW == 53 and len(g.live) == 136 - 53
    dealt = [e for e in g.start_events if isinstance(e, Dealt)]
    assert [e.count for e in dealt] == [13, 14, 13, 13]
    assert isinstance(g.start_events[0], RoundStarted)


def test_n05_joker_indicator_counted_from_the_wall_end() -> None:
    """N5: 精是由庄家投骰子，根据骰子的点数，从牌桌上牌的末端算起，然后在把那张牌翻开."""
    assert indicator_position((1, 1)) == 2 * 66  # the second stack from the end, its top
    assert indicator_position((6, 6)) == 2 * 56
    w = NanchangWall.build(indicator="5p", joker_dice=(2, 5))
    assert w.indicator_pos == 2 * (68 - 7)
    assert w.indicator == T("5p")
    g = at_round(PRESETS["nanchang"], w)
    rev = [e for e in g.start_events if isinstance(e, JokerRevealed)]
    assert rev == [JokerRevealed((2, 5), T("5p"), T("5p"), T("6p"))]
    # kan replacements take the end: the last stack's top, then its bottom
    assert tail_order()[:4] == [134, 135, 132, 133]


def test_n05_the_turned_up_tile_is_drawn_in_turn_and_everyone_sees_it() -> None:
    """N5: the indicator stays face up in the wall; whoever draws it, everyone sees the draw."""
    w = NanchangWall.build(indicator="5p", joker_dice=(6, 6))  # position 112: a live draw
    g = at_round(PRESETS["nanchang"], w)
    shown = None
    while shown is None:
        assert g.phase == "play"
        seat = g.turn
        tile = _loose(g, seat)
        events = act(g, seat, "discard", tile)
        if g.step == "calls":
            events += pass_all(g)
        for e in events:
            if isinstance(e, Drew) and e.tile is not None and e.shown:
                shown = e
    assert shown.tile == T("5p")
    for viewer in (None, 0, 1, 2, 3):
        assert mask(shown, viewer) == shown
    hidden = Drew(0, T("1m"))
    assert mask(hidden, 1) == Drew(0, None) and mask(hidden, 0) == hidden


@pytest.mark.parametrize(
    ("indicator", "zheng", "fu"),
    [
        ("1m", "1m", "2m"),  # seed: 翻开的牌为一万，即一、二为精，其中一万为正精，二万为副精
        ("9m", "9m", "1m"),  # seed: 如为九万则九、一为精，其中九万为正精，一万为副精
        ("9p", "9p", "1p"),
        ("5s", "5s", "6s"),
        ("1z", "1z", "2z"),  # 东 -> 南
        ("3z", "3z", "4z"),  # 西 -> 北
        ("4z", "4z", "1z"),  # 北 -> 东
        ("7z", "7z", "6z"),  # 中 -> 发
        ("6z", "6z", "5z"),  # 发 -> 白
        ("5z", "5z", "7z"),  # 白 -> 中
    ],
)
def test_n06_zheng_and_fu_jokers(indicator: str, zheng: str, fu: str) -> None:
    """N6: the turned-up tile is 正精, its successor 副精 (winds 东南西北, dragons 中发白)."""
    assert successor(T(indicator)) == T(fu)
    jk = Jokers.from_indicator(T(indicator))
    assert (jk.zheng, jk.fu) == (T(zheng), T(fu))
    assert jk.points(T(zheng)) == 2 and jk.points(T(fu)) == 1  # 正精2分，副精1分
    g = game([None] * 4, indicator=indicator)
    assert g.jokers == jk
