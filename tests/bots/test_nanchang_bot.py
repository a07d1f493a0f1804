"""The Nanchang bot decides from a seat's observation and the legal list only, and plays sensibly:
it wins when it can, keeps its jokers, goes for 十三烂 with a scattered hand and seven pairs with
a pairy one, calls a discarded joker, and calls otherwise only when the call helps."""

from __future__ import annotations

import random

import pytest

from server.bots import make_bot
from server.bots.nanchang import NanchangBot, NanchangRandomBot, cost
from server.bots.selfplay import Checks, play_game
from server.engine.actions import ActionType
from server.engine.nanchang import PRESETS, NanchangGame, observe, waiting_on
from server.engine.nanchang.invariants import _shadow as shadow
from server.engine.tiles import parse_tiles, tile_str
from tests.engine.nanchang.helpers import X1, X2, X3, D, act, game

A = ActionType


def _choose(g: NanchangGame, seat: int) -> tuple[str, str]:
    a = NanchangBot(0).choose(observe(g, seat))
    return a.type.value, tile_str(a.tile) if a.tile is not None else ""


def test_make_bot() -> None:
    assert isinstance(make_bot("efficient", 0, "nanchang"), NanchangBot)
    assert isinstance(make_bot("random", 0, "nanchang"), NanchangRandomBot)
    with pytest.raises(ValueError, match="unknown bot 'defensive'"):
        make_bot("defensive", 0, "nanchang")


def test_wins_whenever_it_can() -> None:
    g = game(["1m2m3m 4p5p6p 7m8m9m 3z3z3z 6z6z", X1, X2, X3.replace("3z3z", "4z4z")])
    assert _choose(g, 0) == ("tsumo", "")
    g = game([D, "1m2m3m 4p5p6p 7m8m9m 4z4z4z 9s", X2, X3])
    act(g, 0, "discard", "3s")
    assert _choose(g, 1) == ("ron", "3s")


def test_keeps_its_jokers() -> None:
    # 9s and 1s are jokers; the loose 9s is the tile a joker-blind player would drop
    g = game(["1m2m3m 4p5p6p 7m8m 9s 1s 2z2z 6z 3s", None, None, None])
    kind, tile = _choose(g, 0)
    assert kind == "discard" and tile not in ("9s", "1s")


def test_goes_for_shisanlan_with_a_scattered_hand() -> None:
    g = game(["1m4m7m 2p5p8p 3s6s 1z2z3z5z6z 2m", X1, X2, X3])
    assert _choose(g, 0) in {("discard", "2m"), ("discard", "1m")}


def test_goes_for_seven_pairs_with_a_pairy_hand() -> None:
    g = game(["1m1m 5m5m 9m9m 3p3p 7p7p 4z4z 1z 6z", None, None, None])
    assert _choose(g, 0) in {("discard", "1z"), ("discard", "6z")}


def test_calls_a_discarded_joker() -> None:
    s2 = "9s9s 4z 1m4m7m 2p5p8p 2s5s 5z5z"
    g = game([D.replace("9m", "9s"), X1, s2, X3])
    act(g, 0, "discard", "9s")
    assert _choose(g, 2) == ("pon", "")


def test_calls_only_when_the_call_helps() -> None:
    # a chi of 5m into 4m5m6m helps this hand (two sets left to make, a ready pair)
    helps = "4m6m 1p2p3p 7s8s 4z4z4z 6z6z 9p"
    g = game([D, helps, X2, X3])
    act(g, 0, "discard", "5m")
    assert _choose(g, 1)[0] == "chi"
    # a scattered hand is still three steps away after the same chi: it stays closed
    g = game([D, "4m6m 2p5p8p 2s5s8s 2z2z 6z6z 9p", X2, X3])
    act(g, 0, "discard", "5m")
    assert _choose(g, 1) == ("pass", "")


def test_decides_from_the_observation_only() -> None:
    rng = random.Random(3)
    bots = [NanchangRandomBot(s) for s in range(4)]
    g, _ = play_game(PRESETS["nanchang-east"], b"only", bots, Checks.none())
    # replay the game and, at sampled decisions, hide everything the seat may not see
    from server.engine.nanchang import apply, new_game, next_round

    h = new_game(PRESETS["nanchang-east"], b"only")
    for a in g.log:
        if a is None:
            next_round(h)
            continue
        if h.step in ("act", "discard") and rng.random() < 0.2:
            seat = min(waiting_on(h))
            hidden = shadow(h, seat, rng)
            one = NanchangBot(7).choose(observe(h, seat))
            two = NanchangBot(7).choose(observe(hidden, seat))
            assert one == two
        apply(h, a)


def test_the_bot_beats_random_play() -> None:
    totals = [0, 0]
    for i in range(3):
        bots = [make_bot("efficient" if s % 2 == 0 else "random", s, "nanchang") for s in range(4)]
        g, _ = play_game(
            PRESETS["nanchang-east"], b"versus-%d" % i, bots, Checks.none(), first_dealer=i
        )
        totals[0] += g.scores[0] + g.scores[2]
        totals[1] += g.scores[1] + g.scores[3]
    assert totals[0] > totals[1]


def test_cost_counts_the_steps_to_a_win() -> None:
    jk = game([D, X1, X2, X3]).jokers
    assert cost(parse_tiles("1m2m3m 4p5p6p 7m8m9m 4z4z 6s7s"), jk, 0) == 0  # waiting
    assert cost(parse_tiles("1m2m3m 4p5p6p 7m8m9m 4z4z 6s7s8s"), jk, 0) == -1  # complete
    assert cost(parse_tiles("1m2m3m 4p5p6p 7m8m9m 4z4z 6s 9s"), jk, 0) == 0  # 9s: a joker
    assert cost(parse_tiles("1m2m3m 4p5p6p 7m8m9m 4z4z 6s7s 9s"), jk, 0) == -1
