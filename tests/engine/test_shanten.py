"""Hand analysis: shanten, waits, ukeire, wait shapes.

Besides hand-written cases, shanten is checked against its definition: a
complete hand is -1 (agari.is_complete), a 14-tile hand is as good as its
best discard, and a 13-tile hand is one more than its best draw. Together
these pin the function down exactly, so the random checks below are a full
cross-check and not a restatement of the implementation.
"""

from __future__ import annotations

import random

import pytest

from server.engine.riichi.agari import BlockType, Form, WaitShape, is_complete, regular_readings
from server.engine.riichi.shanten import (
    shanten,
    shanten_chiitoitsu,
    shanten_kokushi,
    shanten_regular,
)
from server.engine.riichi.ukeire import (
    best_discards,
    discard_shanten,
    discard_ukeire,
    is_tenpai,
    ukeire,
    waits,
)
from server.engine.riichi.wait_shapes import is_kokushi_13_wait, wait_readings
from server.engine.tiles import NUM_KINDS, YAOCHU, counts, parse_tiles


def c_(text: str) -> list[int]:
    return counts(parse_tiles(text))


def ks(text: str) -> list[int]:
    """Sorted kinds of a tile string."""
    return sorted(set(parse_tiles(text)))


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("123m456p789s11z222z", -1),
        ("123m456p789s11z22z", 0),
        ("123m456p789s1z223z", 1),
        ("19m19p19s1234567z", 0),
        ("119m19p19s123456z", 0),
        ("1122m3344p5566s77z", -1),
        ("1122m3344p5566s7z", 0),
        ("123456789m1234p", 0),
        ("13579m13579p135s", 4),  # four kanchan, no pair: regular 4 (chiitoitsu 6)
        ("147m258p369s1234z", 6),  # nothing connects: chiitoitsu 6 (kokushi 7, regular 8)
        ("1m9m1p9p1s9s1z2z3z4z258m", 3),  # kokushi 10 kinds, 14 tiles: 3
        ("1m", 0),  # hadaka tanki after four calls
        ("12m", 0),
        ("11m", -1),
        ("1234m", 0),
        ("2468m", 1),
        ("55m", -1),
        ("111m", 0),  # 3n tiles are refused
        ("1112m", 0),
    ],
)
def test_known_hands(hand: str, expected: int) -> None:
    c = c_(hand)
    if sum(c) % 3 == 0:
        with pytest.raises(ValueError, match="3n"):
            shanten(c)
        return
    assert shanten(c) == expected


def test_chiitoitsu_four_of_a_kind_is_one_pair() -> None:
    # 1111m counts as one pair: with 1111m + four pairs + a single, a new kind
    # must still become a pair, so it is two away rather than one.
    c = c_("1111m2233p4455s6z")
    assert shanten_chiitoitsu(c) == 2
    assert not is_complete(c_("1111m2233p4455s66z"))
    assert shanten_chiitoitsu(c_("1111m2233p4455s66z")) == 1
    # ... while six distinct pairs and a single is tenpai on that single.
    assert shanten_chiitoitsu(c_("1199m2233p4455s6z")) == 0
    assert waits(c_("1199m2233p4455s6z")) == ks("6z")


def test_chiitoitsu_needs_seven_kinds() -> None:
    assert shanten_chiitoitsu(c_("112233m4455p667s")) == 0
    # Six pairs where one is a triplet: a seventh kind is still needed.
    assert shanten_chiitoitsu(c_("112233m4455p666s")) == 1


def test_kokushi_13_wait() -> None:
    c = c_("19m19p19s1234567z")
    assert is_kokushi_13_wait(c)
    assert shanten_kokushi(c) == 0
    assert waits(c) == sorted(YAOCHU)
    readings = wait_readings(c)
    assert set(readings) == set(YAOCHU)
    assert all(r.form is Form.KOKUSHI for rs in readings.values() for r in rs)


def test_kokushi_single_wait_on_unheld_kind() -> None:
    c = c_("119m19p19s123456z")  # missing chun
    assert not is_kokushi_13_wait(c)
    assert waits(c) == ks("7z")
    assert shanten_kokushi(c_("119m19p19s123455z")) == 1


def test_known_waits() -> None:
    assert waits(c_("1112345678999m")) == list(range(9))  # junsei chuuren
    assert waits(c_("2345m")) == ks("25m")
    assert waits(c_("4566m")) == ks("36m")
    assert waits(c_("1399m")) == ks("2m")
    assert waits(c_("1299m")) == ks("3m")
    assert waits(c_("1122m3344p5566s7z")) == ks("7z")
    assert waits(c_("123m456p789s11z22z")) == ks("12z")
    assert waits(c_("123m456p789s1z223z")) == []


def test_karaten_wait_is_listed() -> None:
    # 1111m + 234p567p789s: the only wait is a fifth 1m; shanten is formal.
    c = c_("1111m234p567p789s")
    assert waits(c) == ks("1m")
    assert is_tenpai(c)


def test_wait_shapes() -> None:
    def shapes(hand: str, win: str) -> set[WaitShape]:
        rs = wait_readings(c_(hand))[parse_tiles(win)[0]]
        return {r.shape for r in rs}

    assert shapes("23m456p789s11z222z", "1m") == {WaitShape.RYANMEN}
    assert shapes("23m456p789s11z222z", "4m") == {WaitShape.RYANMEN}
    assert shapes("13m456p789s11z222z", "2m") == {WaitShape.KANCHAN}
    assert shapes("12m456p789s11z222z", "3m") == {WaitShape.PENCHAN}
    assert shapes("89m456p789s11z222z", "7m") == {WaitShape.PENCHAN}
    assert shapes("55m456p789s11z222z", "5m") == {WaitShape.SHANPON}
    assert shapes("55m456p789s11z222z", "1z") == {WaitShape.SHANPON}
    assert shapes("123m456p789s1z222z", "1z") == {WaitShape.TANKI}
    # nobetan: 2345m waits on 2m (22m + 345m) and 5m (234m + 55m), tanki both
    assert shapes("2345m456p789s222z", "2m") == {WaitShape.TANKI}
    assert shapes("2345m456p789s222z", "5m") == {WaitShape.TANKI}
    # 4566m + 6m reads as 45m ryanmen with a 66m pair, or 456m with a 6m tanki
    assert shapes("4566m456p789s222z", "6m") == {WaitShape.RYANMEN, WaitShape.TANKI}
    assert shapes("4566m456p789s222z", "3m") == {WaitShape.RYANMEN}
    # 3334m: 2m and 5m complete 234m/345m beside a 33m pair; 4m only 333m + 44m
    assert shapes("3334m456p789s222z", "2m") == {WaitShape.RYANMEN}
    assert shapes("3334m456p789s222z", "5m") == {WaitShape.RYANMEN}
    assert shapes("3334m456p789s222z", "4m") == {WaitShape.TANKI}
    # A chiitoitsu hand that also reads as ryanpeikou lists both forms.
    rs = wait_readings(c_("112233m556677p4s"))
    assert {r.form for r in rs[parse_tiles("4s")[0]]} == {Form.CHIITOITSU, Form.REGULAR}


def test_wait_readings_carry_the_reading() -> None:
    c = c_("11123m456p789s55z")
    rs = wait_readings(c)
    assert sorted(rs) == waits(c) == ks("14m5z")
    # 1m: 23m waiting on 1m beside 111m (ryanmen), or 11m+55z shanpon beside 123m
    assert {r.shape for r in rs[0]} == {WaitShape.RYANMEN, WaitShape.SHANPON}
    for r in rs[0]:
        assert r.form is Form.REGULAR
        blk = r.blocks[r.win_block]
        expected = BlockType.SHUNTSU if r.shape is WaitShape.RYANMEN else BlockType.KOUTSU
        assert blk.type is expected and blk.first == 0
        assert r.blocks[0].type is BlockType.PAIR
    assert {r.shape for r in rs[3]} == {WaitShape.RYANMEN}
    assert {r.shape for r in rs[parse_tiles("5z")[0]]} == {WaitShape.SHANPON}


def test_ukeire_counts_respect_visible_tiles() -> None:
    c = c_("23m456p789s11z222z")
    assert ukeire(c) == {0: 4, 3: 4}
    visible = [0] * NUM_KINDS
    visible[0] = 3  # three 1m in kawa
    visible[3] = 1
    assert ukeire(c, visible) == {0: 1, 3: 3}
    visible[0] = 4
    assert ukeire(c, visible) == {0: 0, 3: 3}
    # Own tiles count against the remaining copies: 11z is held twice.
    assert ukeire(c_("123m456p789s11z23z")) == {27: 2, 28: 3, 29: 3}


def test_ukeire_two_shanten_chiitoitsu_includes_new_kinds() -> None:
    # Five pairs and three singles (8 kinds): only the singles improve chiitoitsu;
    # the regular form may add more. Every listed kind must lower shanten.
    c = c_("1122m3344p55s1z2z3z")
    base = shanten(c)
    u = ukeire(c)
    for k in range(NUM_KINDS):
        d = list(c)
        d[k] += 1
        assert (k in u) == (shanten(d) < base)


@pytest.mark.parametrize(
    "bad",
    [
        [0] * 33,
        [-1] + [0] * 33,
    ],
)
def test_bad_input_is_refused(bad: list[int]) -> None:
    with pytest.raises(ValueError):
        shanten(bad)


def test_wrong_size_is_refused() -> None:
    with pytest.raises(ValueError, match="3n"):
        shanten(c_("123m"))
    with pytest.raises(ValueError, match="3n\\+1"):
        waits(c_("123m456p789s11z222z"))
    with pytest.raises(ValueError, match="3n\\+1"):
        ukeire(c_("11m"))
    with pytest.raises(ValueError, match="13 or 14"):
        shanten_chiitoitsu(c_("1122m"))
    with pytest.raises(ValueError, match="13 or 14"):
        shanten_kokushi(c_("19m"))


# --- randomised cross-checks -------------------------------------------------

_WALL = [k for k in range(NUM_KINDS) for _ in range(4)]


def _random_hand(rng: random.Random, n: int) -> list[int]:
    return counts(rng.sample(_WALL, n))


def _near_complete(rng: random.Random, sets: int, swaps: int) -> list[int]:
    """A complete hand of ``sets`` sets and a pair, with ``swaps`` tiles replaced."""
    while True:
        c = [0] * NUM_KINDS
        for _ in range(sets):
            if rng.random() < 0.6:
                s = rng.randrange(3) * 9 + rng.randrange(7)
                for k in (s, s + 1, s + 2):
                    c[k] += 1
            else:
                c[rng.randrange(NUM_KINDS)] += 3
        c[rng.randrange(NUM_KINDS)] += 2
        if max(c) > 4:
            continue
        for _ in range(swaps):
            out = rng.choice([k for k in range(NUM_KINDS) if c[k]])
            c[out] -= 1
            inn = rng.choice([k for k in range(NUM_KINDS) if c[k] < 4])
            c[inn] += 1
        return c


def _hands(seed: int, n: int) -> list[list[int]]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        size = (14, 11, 8, 5, 2)[i % 5] if i % 3 else 14
        sets = (size - 2) // 3
        if i % 2:
            out.append(_random_hand(rng, size))
        else:
            out.append(_near_complete(rng, sets, rng.randrange(4)))
    return out


def _brute_shanten_from_14(c: list[int], regular_only: bool) -> int:
    """One step of the definition: -1 if complete, else best 13-tile discard."""
    if regular_only:
        if regular_readings(c):
            return -1
        f = shanten_regular
    else:
        if is_complete(c):
            return -1
        f = shanten
    best = 99
    for k in range(NUM_KINDS):
        if c[k]:
            c[k] -= 1
            best = min(best, f(c))
            c[k] += 1
    return best


def test_shanten_minus_one_iff_complete() -> None:
    hands = _hands(1, 3000)
    completes = 0
    for c in hands:
        sh = shanten(c)
        assert (sh == -1) == is_complete(c), c
        assert (shanten_regular(c) == -1) == bool(regular_readings(c)), c
        completes += sh == -1
    assert completes > 100  # the generator really produces complete hands


def test_shanten_fourteen_is_best_discard() -> None:
    for c in _hands(2, 1500):
        assert shanten(c) == _brute_shanten_from_14(c, False), c
        assert shanten_regular(c) == _brute_shanten_from_14(c, True), c


def test_shanten_thirteen_is_one_more_than_best_draw() -> None:
    rng = random.Random(3)
    seen: set[int] = set()
    for c14 in _hands(4, 1200):
        c = list(c14)
        k = rng.choice([k for k in range(NUM_KINDS) if c[k]])
        c[k] -= 1
        sh = shanten(c)
        seen.add(sh)
        best = 99
        best_regular = 99
        for d in range(NUM_KINDS):
            c[d] += 1  # formal: a fifth copy may be drawn
            best = min(best, shanten(c))
            best_regular = min(best_regular, shanten_regular(c))
            c[d] -= 1
        assert sh == best + 1, c
        assert shanten_regular(c) == best_regular + 1, c
    assert {0, 1, 2, 3} <= seen


def test_waits_match_brute_force_and_tenpai() -> None:
    tenpai = 0
    for c14 in _hands(5, 2500):
        c = list(c14)
        k = max(range(NUM_KINDS), key=lambda j: (c[j], j))
        c[k] -= 1
        brute = []
        for w in range(NUM_KINDS):
            c[w] += 1
            if is_complete(c):
                brute.append(w)
            c[w] -= 1
        assert waits(c) == brute, c
        assert is_tenpai(c) == bool(brute) == (shanten(c) == 0), c
        tenpai += bool(brute)
    assert tenpai > 200


def test_ukeire_matches_shanten_of_every_draw() -> None:
    rng = random.Random(6)
    for c14 in _hands(7, 1500):
        c = list(c14)
        k = rng.choice([k for k in range(NUM_KINDS) if c[k]])
        c[k] -= 1
        base = shanten(c)
        visible = [rng.randrange(0, 5 - min(c[j], 4)) if c[j] < 4 else 0 for j in range(34)]
        u = ukeire(c, visible)
        expected = set()
        for d in range(NUM_KINDS):
            c[d] += 1
            if shanten(c) < base:
                expected.add(d)
            c[d] -= 1
        assert set(u) == expected, c
        for d, left in u.items():
            assert left == max(0, 4 - c[d] - visible[d])


def test_discard_shanten_matches_shanten_of_each_discard() -> None:
    for c in _hands(8, 1500):
        expected = {}
        for k in range(NUM_KINDS):
            if c[k]:
                c[k] -= 1
                expected[k] = shanten(c)
                c[k] += 1
        assert discard_shanten(c) == expected, c
    with pytest.raises(ValueError, match="3n\\+2"):
        discard_shanten(c_("123m"))


def test_discard_ukeire_matches_ukeire_after_each_discard() -> None:
    rng = random.Random(9)
    for c in _hands(10, 800):
        visible = [rng.randrange(0, 5 - min(c[j], 4)) if c[j] < 4 else 0 for j in range(34)]
        got = discard_ukeire(c, visible)
        assert set(got) == {k for k in range(NUM_KINDS) if c[k]}
        for d, (sh, left) in got.items():
            c[d] -= 1
            assert sh == shanten(c), c
            assert left == sum(ukeire(c, visible).values()), c
            c[d] += 1
    hand = c_("123m456p789s11z234z")
    assert set(discard_ukeire(hand, only=[parse_tiles("2z")[0]])) == {28}
    with pytest.raises(ValueError, match="not in the hand"):
        discard_ukeire(hand, only=[parse_tiles("9m")[0]])


def test_discard_ukeire_given_the_discard_shanten_gives_the_same() -> None:
    rng = random.Random(11)
    for c in _hands(14, 300):
        visible = [rng.randrange(0, 5 - min(c[j], 4)) if c[j] < 4 else 0 for j in range(34)]
        assert discard_ukeire(c, visible, after=discard_shanten(c)) == discard_ukeire(c, visible)
    with pytest.raises(ValueError, match="3n\\+2"):
        discard_ukeire(c_("123m4m"), after={0: 1})


def _brute_ukeire(c: list[int], visible: list[int]) -> int:
    """Unseen tiles whose draw lowers the shanten of a 3n+1 hand, from the definition."""
    base = shanten(c)
    left = 0
    for k in range(NUM_KINDS):
        c[k] += 1  # formal: a fifth copy may be drawn (it then counts 0)
        if shanten(c) < base:
            left += max(0, 4 - (c[k] - 1) - visible[k])
        c[k] -= 1
    return left


def test_discard_ukeire_matches_the_definition() -> None:
    # every discard, every draw, by shanten alone: open hands too, and many
    # hands where chiitoitsu or kokushi gives the shanten
    rng = random.Random(15)
    hands = _hands(16, 500)
    for _ in range(150):
        c = [0] * NUM_KINDS
        for k in rng.sample(sorted(YAOCHU), rng.randrange(8, 13)):
            c[k] += 1
        while sum(c) < 14:
            k = rng.randrange(NUM_KINDS)
            if c[k] < 4:
                c[k] += 1
        hands.append(c)
    for c in hands:
        visible = [rng.randrange(0, 5 - min(c[j], 4)) if c[j] < 4 else 0 for j in range(34)]
        got = discard_ukeire(c, visible)
        for d, (sh, left) in got.items():
            c[d] -= 1
            assert sh == shanten(c), c
            assert left == _brute_ukeire(c, visible), (c, d)
            c[d] += 1


def test_best_discards_is_discard_shanten_and_ukeire_of_the_best() -> None:
    rng = random.Random(17)
    for c in _hands(18, 400):
        visible = [rng.randrange(0, 5 - min(c[j], 4)) if c[j] < 4 else 0 for j in range(34)]
        held = [k for k in range(NUM_KINDS) if c[k]]
        allowed = set(rng.sample(held, rng.randrange(1, len(held) + 1)))
        after, uke = best_discards(c, visible, allowed)
        assert after == discard_shanten(c)
        best = min(after[k] for k in allowed)
        assert set(uke) == {k for k in allowed if after[k] == best}
        full = discard_ukeire(c, visible)
        assert uke == {k: full[k][1] for k in uke}
        after2, uke2 = best_discards(c)
        best2 = min(after2.values())
        assert uke2 == {k: u for k, (s, u) in discard_ukeire(c).items() if s == best2}
    with pytest.raises(ValueError, match="not in the hand"):
        best_discards(c_("123m456p789s11z234z"), allowed=[parse_tiles("9m")[0]])
