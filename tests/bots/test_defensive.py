"""The defensive bot: the efficient bot's play, folding against riichi and three-meld hands.

Most cases hand it an observation built by hand (``make_obs`` of ``test_bots``) with
an opponent in riichi; the last ones play real games.
"""

from __future__ import annotations

from typing import Any

import pytest

from server.bots import BOTS, DefensiveBot, EfficientBot, make_bot
from server.bots.defensive import PUSH_DANGER, danger, read_threats
from server.bots.selfplay import Checks, bot_seed, game_seed, play_game
from server.engine import riichi as engine
from server.engine.melds import Meld, MeldType
from server.engine.riichi import Observation
from server.engine.riichi.rules import preset
from server.engine.tiles import kind, parse_tile, parse_tiles
from tests.bots.test_bots import A, act, discards, given, make_obs


def K(tile: str) -> int:
    return kind(parse_tile(tile))


def G(tiles: str) -> frozenset[int]:
    return frozenset(kind(t) for t in parse_tiles(tiles))


def riichi_view(hand: str, drawn: str | None = None, *, river: str, **kw: Any) -> Observation:
    """Seat 0's observation with seat 2 in riichi after discarding ``river``."""
    v = make_obs(hand, drawn, rivers={2: river, **kw.pop("rivers", {})}, **kw)
    p = v.players[2]
    declared = p.river[-1]._replace(riichi=True)
    p = p._replace(riichi=True, river=(*p.river[:-1], declared))
    return v._replace(players=(*v.players[:2], p, *v.players[3:]))


def with_melds(v: Observation, seat: int, tiles: list[str]) -> Observation:
    p = v.players[seat]
    melds = tuple(Meld(MeldType.PON, tuple(parse_tiles(t))) for t in tiles)
    p = p._replace(melds=melds)
    return v._replace(players=(*v.players[:seat], p, *v.players[seat + 1 :]))


def test_registered_as_a_bot_level() -> None:
    assert "defensive" in BOTS
    assert isinstance(make_bot("defensive", 1), DefensiveBot)


def test_danger_orders_genbutsu_honours_suji_and_the_rest() -> None:
    river = G("4m9p")
    assert danger(K("4m"), river, 1) == 0  # genbutsu
    assert danger(K("9p"), river, 1) == 0
    # honours by how many are in sight
    assert danger(K("1z"), river, 3) < danger(K("1z"), river, 2) < danger(K("1z"), river, 1)
    # 1m and 7m are suji of the 4m discard; 6p is suji (of 9p) on one side only
    assert danger(K("1m"), river, 1) < danger(K("1p"), river, 1)
    assert danger(K("7m"), river, 1) < danger(K("7p"), river, 1)
    assert danger(K("6p"), river, 1) < danger(K("5p"), river, 1)
    # a 4-6 tile needs both sides ruled out: 5s with 2s and 8s discarded
    assert danger(K("5s"), G("2s8s"), 1) < danger(K("5s"), G("2s"), 1) < danger(K("5s"), G(""), 1)
    # middle tiles are the most dangerous, terminals the least of the numbers
    assert danger(K("5m"), G(""), 1) > danger(K("3m"), G(""), 1) > danger(K("1m"), G(""), 1)
    # three in sight: hardly a pair or a triplet wait any more
    assert danger(K("5m"), G(""), 3) < danger(K("5m"), G(""), 1)


def test_folds_against_riichi_with_the_riichi_players_own_discard() -> None:
    # 2-shanten; the efficient discard is 9m, but 5p is seat 2's genbutsu.
    hand = "1349m2357p5689s1z"
    v = riichi_view(hand, "6z", river="5p8m2z3z")
    legal = discards(0, hand, "6z")
    assert EfficientBot(0).choose(given(v, legal)).tile != parse_tile("5p")
    assert DefensiveBot(0).choose(given(v, legal)) == act(A.DISCARD, tile="5p")
    # Without the riichi it plays exactly as the efficient bot.
    plain = given(make_obs(hand, "6z", rivers={2: "5p8m2z3z"}), legal)
    assert DefensiveBot(0).choose(plain) == EfficientBot(0).choose(plain)


def test_without_genbutsu_prefers_honours_in_sight_then_suji() -> None:
    hand = "2468m2468p13579s"  # nothing of seat 2's river (4s 9m) in hand
    v = riichi_view(hand, "3z", river="4s9m", rivers={1: "3z3z"})
    legal = discards(0, hand, "3z")
    # 3z: three in sight (two in seat 1's river and this one)
    assert DefensiveBot(0).choose(given(v, legal)) == act(A.DISCARD, tile="3z")
    # Then 1s, a terminal whose only two-sided wait (23s) is ruled out by the 4s discard,
    # before 7s (suji of 4s, a 3-7 tile) and 9s (a terminal with its 78s wait open).
    legal2 = [a for a in legal if a.tile != parse_tile("3z")]
    assert DefensiveBot(0).choose(given(v, legal2)) == act(A.DISCARD, tile="1s")
    river = G("4s9m")
    assert danger(K("1s"), river, 1) < danger(K("7s"), river, 1) < danger(K("9s"), river, 1)


def test_pushes_when_tenpai_and_declares_riichi() -> None:
    hand = "23m456p789s11z222z"
    v = riichi_view(hand, "9p", river="1m4m7m")
    legal = [*discards(0, hand, "9p"), act(A.RIICHI, tile="9p")]
    assert DefensiveBot(0).choose(given(v, legal)) == act(A.RIICHI, tile="9p")


def test_at_one_shanten_pushes_only_a_fairly_safe_tile() -> None:
    # 1-shanten; the efficient discard 2z (an honour, danger 4) is pushed although the
    # riichi player's 5p is in hand.
    hand = "46m456p15688s112z"
    v = riichi_view(hand, "7s", river="9p8p8m1p6z5p")
    legal = discards(0, hand, "7s")
    assert EfficientBot(0).choose(given(v, legal)) == act(A.DISCARD, tile="2z")
    assert danger(K("2z"), G("9p8p8m1p6z5p"), 1) <= PUSH_DANGER
    assert DefensiveBot(0).choose(given(v, legal)) == act(A.DISCARD, tile="2z")
    # 1-shanten; the efficient discard 1m (a terminal with its 23m wait open, danger 6)
    # is not pushed: the riichi player's own 7m goes.
    hand2 = "1789m113445p24s6z"
    v2 = riichi_view(hand2, "6z", river="7m2p8m7p9m8p")
    legal2 = discards(0, hand2, "6z")
    assert EfficientBot(0).choose(given(v2, legal2)) == act(A.DISCARD, tile="1m")
    assert danger(K("1m"), G("7m2p8m7p9m8p"), 1) > PUSH_DANGER
    assert DefensiveBot(0).choose(given(v2, legal2)) == act(A.DISCARD, tile="7m")


def test_no_call_while_folding_but_wins_are_taken() -> None:
    hand = "13m456p78s99s5577z"
    v = riichi_view(hand, seat=1, last_discard=(0, "7z"), river="1m")
    legal = [act(A.PON, 1, tiles="77z"), act(A.PASS, 1)]
    assert EfficientBot(0).choose(given(v, legal)).type is A.PON
    assert DefensiveBot(0).choose(given(v, legal)).type is A.PASS
    ron = [act(A.RON, 1), act(A.PASS, 1)]
    assert DefensiveBot(0).choose(given(v, ron)).type is A.RON


def test_three_melds_are_a_threat_from_two_shanten_on() -> None:
    hand = "1349m2357p5689s1z"
    plain = make_obs(hand, "6z", rivers={3: "5p"})
    v = with_melds(plain, 3, ["111z", "222z", "333z"])
    assert read_threats(v) == [(False, G("5p"))]
    legal = discards(0, hand, "6z")
    assert DefensiveBot(0).choose(given(v, legal)) == act(A.DISCARD, tile="5p")
    v = with_melds(plain, 3, ["111z", "222z"])
    assert read_threats(v) == []
    assert DefensiveBot(0).choose(given(v, legal)) == EfficientBot(0).choose(given(v, legal))


@pytest.mark.parametrize("first_dealer", [0, 3])
def test_threats_are_the_riichi_and_three_meld_opponents(first_dealer: int) -> None:
    rules = preset("standard")
    names = ["defensive", "efficient", "defensive", "efficient"]
    checked = with_threats = 0
    st = engine.new_game(rules, game_seed("threats", first_dealer), first_dealer)
    bots = [make_bot(n, bot_seed("threats", 0, s)) for s, n in enumerate(names)]
    while st.phase != "game_end":
        if st.phase == "round_end":
            engine.next_round(st)
            continue
        for seat in range(4):
            got = read_threats(engine.observe(st, seat))
            want = [
                (st.riichi[p], frozenset(r.tid >> 2 for r in st.rivers[p]))
                for p in range(4)
                if p != seat and (st.riichi[p] or len(st.melds[p]) >= 3)
            ]
            assert got == want
            checked += 1
            with_threats += bool(got)
        seat = min(engine.waiting_on(st))
        engine.apply(st, bots[seat].choose(engine.observe(st, seat)))
    assert checked > 1000 and with_threats > 100


def test_deals_into_riichi_far_less_than_the_efficient_bot() -> None:
    """Two defensive against two efficient bots, seats swapped every game (fixed seeds).

    Points and ranks need more games than a test should play: ``bench/bots.py``.
    """
    rules = preset("standard")
    deal_ins = {"defensive": 0, "efficient": 0}
    for g in range(24):
        names = ["defensive", "efficient"] * 2 if g % 2 else ["efficient", "defensive"] * 2
        bots = [make_bot(n, bot_seed("fold", g, s)) for s, n in enumerate(names)]
        st, stats = play_game(rules, game_seed("fold", g), bots, Checks.none())
        assert not stats.failures
        for r in st.round_results:
            for w in r.wins:
                riichi = any(y in ("riichi", "double_riichi") for y, _ in w.result.yaku)
                if riichi and w.from_seat is not None and w.from_seat != w.seat:
                    deal_ins[names[w.from_seat]] += 1
    assert deal_ins["efficient"] > 20
    assert deal_ins["defensive"] < 0.7 * deal_ins["efficient"]
