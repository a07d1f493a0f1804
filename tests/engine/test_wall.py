"""The physical wall (R2-R4) and its deterministic shuffle (R6)."""

import hashlib
import struct

import pytest

from server.engine.dealing import deal_positions
from server.engine.riichi import wall as wall_module
from server.engine.riichi.wall import (
    DORA_POS,
    RINSHAN_POS,
    URA_POS,
    Wall,
    new_seed,
    stack_order,
)
from server.engine.tiles import parse_tiles, tile_of_id


def test_r2_break_from_dice_counts_counter_clockwise_from_dealer() -> None:
    # dice 5 with dealer 1: wall 1 = dealer, 2 = seat 2, ... 5 = dealer again
    order = stack_order(dealer=1, dice_sum=5)
    assert order[0] == 17 * 1 + 5  # 5 stacks skipped from the right end of seat 1's wall
    # dice 7 with dealer 0: seat 2's wall (toimen), 7 stacks skipped
    order = stack_order(dealer=0, dice_sum=7)
    assert order[0] == 17 * 2 + 7
    # drawing runs clockwise: after the left end of seat 2's wall comes seat 1's wall
    assert order[9] == 17 * 2 + 16 and order[10] == 17 * 1 + 0
    # the dead wall is the 7 stacks just before the break
    assert order[-7:] == [17 * 2 + i for i in range(7)]
    assert sorted(order) == list(range(68))


def test_r2_dice_sum_2_wraps_dead_wall_into_previous_wall() -> None:
    order = stack_order(dealer=0, dice_sum=2)  # wall of seat 1, 2 stacks skipped
    assert order[0] == 17 * 1 + 2
    # dead wall: 2 stacks of seat 1's wall and the last 5 of seat 2's (counter-clockwise)
    assert order[-7:] == [17 * 2 + i for i in range(12, 17)] + [17, 18]


def test_r3_deal_positions_two_stacks_each_then_one_tile() -> None:
    assert deal_positions(0) == [0, 1, 2, 3, 16, 17, 18, 19, 32, 33, 34, 35, 48]
    assert deal_positions(3) == [12, 13, 14, 15, 28, 29, 30, 31, 44, 45, 46, 47, 51]
    every = sorted(p for r in range(4) for p in deal_positions(r))
    assert every == list(range(52))


def test_r4_dead_wall_positions() -> None:
    assert RINSHAN_POS == (134, 135, 132, 133)
    assert DORA_POS[0] == 130 and URA_POS[0] == 131
    assert DORA_POS[1:] == (128, 126, 124, 122)


def test_r6_from_seed_is_deterministic_and_rounds_differ() -> None:
    a = Wall.from_seed(b"seed", 0, dealer=0)
    b = Wall.from_seed(b"seed", 0, dealer=0)
    c = Wall.from_seed(b"seed", 1, dealer=0)
    d = Wall.from_seed(b"other", 0, dealer=0)
    assert a.tiles == b.tiles and a.dice == b.dice
    assert a.tiles != c.tiles and a.tiles != d.tiles
    assert sorted(a.tiles) == list(range(136))
    assert all(1 <= x <= 6 for x in a.dice)


def _reference_wall(
    seed: bytes, round_index: int, dealer: int
) -> tuple[list[int], tuple[int, int]]:
    """The documented derivation (docs/engine.md, R6), one 32-bit word at a time."""
    key = hashlib.sha256(b"jantaku-wall" + seed + round_index.to_bytes(8, "big")).digest()
    words: list[int] = []
    counter = 0

    def below(n: int) -> int:
        nonlocal counter
        while True:
            if not words:
                block = hashlib.sha256(key + counter.to_bytes(8, "big")).digest()
                counter += 1
                words.extend(reversed(struct.unpack(">8I", block)))
            v = words.pop()
            if v < 2**32 - 2**32 % n:
                return v % n

    dice = (below(6) + 1, below(6) + 1)
    ids = list(range(136))
    for i in range(135, 0, -1):
        j = below(i + 1)
        ids[i], ids[j] = ids[j], ids[i]
    tiles = [ids[2 * k + b] for k in stack_order(dealer, sum(dice)) for b in (0, 1)]
    return tiles, dice


def test_r6_from_seed_follows_the_documented_derivation() -> None:
    for i in range(300):
        seed = hashlib.sha256(i.to_bytes(4, "big")).digest()
        w = Wall.from_seed(seed, i % 7, i % 4)
        assert (w.tiles, w.dice) == _reference_wall(seed, i % 7, i % 4)


def test_r6_from_seed_with_a_rejected_word_draws_one_value_at_a_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Rejections are too rare to meet by chance: make every word count as one for the
    # fast path's check, so that the word-by-word path runs (and must give the same).
    for i in range(20):
        seed = i.to_bytes(4, "big")
        fast = Wall.from_seed(seed, 3, i % 4)
        bounds, limits, blocks = wall_module._bounds(136)
        rejecting = (bounds, (0,) * len(limits), blocks)
        with monkeypatch.context() as m:
            m.setattr(wall_module, "_bounds", lambda size, r=rejecting: r)
            slow = Wall.from_seed(seed, 3, i % 4)
        assert (slow.tiles, slow.dice) == (fast.tiles, fast.dice) == _reference_wall(seed, 3, i % 4)
    # a stream that must reject: below(n) skips words at or above the largest multiple of n
    st = wall_module._Stream(b"s", 0)
    n = 2**31 + 1  # every word in [2**31 + 1, 2**32) is rejected
    first = next(w for w in st._words if w < 2**31 + 1)
    assert st.below(n) == first % n


def test_r6_shuffle_is_roughly_uniform() -> None:
    # the first drawn tile's kind over many seeds: every kind appears, none dominates
    seen = [0] * 34
    for i in range(1360):
        seen[Wall.from_seed(i.to_bytes(4, "big"), 0).tiles[0] // 4] += 1
    assert min(seen) > 10 and max(seen) < 90


def test_r6_new_seed_is_random() -> None:
    assert len(new_seed()) == 32 and new_seed() != new_seed()


def test_build_places_known_tiles() -> None:
    w = Wall.build(
        hands=["123m456p789s1122z", None, None, "0m"],
        draws="5z6z",
        rinshan="7z",
        dora="9m",
        ura="1p",
        dealer=1,
    )
    hand1 = [w.tile(p) for p in deal_positions(3)]  # seat 0 is 3 seats after dealer 1
    assert hand1 == parse_tiles("123m456p789s1122z")
    assert w.tile(deal_positions(2)[0]) == parse_tiles("0m")[0]
    assert [w.tile(52), w.tile(53)] == parse_tiles("5z6z")
    assert w.tile(134) == parse_tiles("7z")[0]
    assert w.tile(130) == parse_tiles("9m")[0] and w.tile(131) == parse_tiles("1p")[0]
    assert sorted(w.tiles) == list(range(136))


def test_build_refuses_a_fifth_copy_and_red_without_red_fives() -> None:
    with pytest.raises(ValueError, match="no copy"):
        Wall.build(hands=["11111m"])
    with pytest.raises(ValueError, match="red"):
        Wall.build(hands=["0m"], red_fives=False)
    with pytest.raises(ValueError, match="136"):
        Wall([0] * 136)


def test_red_fives_off_shows_plain_fives() -> None:
    w = Wall(list(range(136)), red_fives=False)
    assert w.tile(16) == tile_of_id(16, False) == 4
