"""Whole-game behaviour: dealing (R3, R4), replay (R6), observations, events, random games."""

import random

import pytest

from server.engine.actions import Action, ActionType, IllegalAction
from server.engine.dealing import deal_positions
from server.engine.events import Event
from server.engine.riichi import (
    Draw,
    GameState,
    Haipai,
    RoundStart,
    apply,
    at_round,
    check_invariants,
    legal_actions,
    new_game,
    next_round,
    observe,
    replay,
    waiting_on,
)
from server.engine.riichi.rules import preset
from server.engine.riichi.wall import Wall
from server.engine.riichi.win import ScoreError


def test_r3_r4_new_game_deals_from_the_wall() -> None:
    st = new_game(preset("standard"), b"deal")
    w = st.wall
    for s in range(4):
        expected = sorted(w.tiles[p] for p in deal_positions(s))
        have = sorted(t for t in st.hands[s] if t != st.drawn[s])
        assert have == expected
    assert st.drawn[0] == w.tiles[52] and len(st.hands[0]) == 14
    assert st.live_left() == 69  # 70 at the first draw, which the dealer has made
    start = st.start_events[1]
    assert isinstance(start, RoundStart)
    assert start.dice == w.dice
    assert start.dora_indicators == (w.tile(130),)
    assert start.wall_left == 70  # R4: 70 live tiles before the first draw


def test_r3_first_dealer_and_at_round_dealer() -> None:
    st = new_game(preset("standard"), b"x", first_dealer=2)
    assert st.dealer == 2 and st.turn == 2 and len(st.hands[2]) == 14
    st = at_round(preset("tenhou"), round_wind=1, dealer=3, honba=2, riichi_sticks=1)
    assert (st.round_wind, st.kyoku, st.honba, st.riichi_sticks) == (1, 3, 2, 1)
    check_invariants(st)


def random_game(seed: bytes, name: str, rng: random.Random, checks: bool) -> GameState:
    st = new_game(preset(name), seed)
    seen_events: list[Event] = list(st.start_events)
    while st.phase != "game_end":
        if st.phase == "round_end":
            seen_events += next_round(st)
            continue
        seats = sorted(waiting_on(st))
        assert seats, "a state in play must wait on someone"
        s = rng.choice(seats)
        acts = legal_actions(st, s)
        if checks:
            # a listed action other than the one played is accepted too (on a copy)
            apply(st.clone(), rng.choice(acts))
            # a random illegal action is refused and changes nothing
            bad = Action(rng.choice(list(ActionType)), rng.randrange(4), rng.randrange(37))
            if bad not in legal_actions(st, bad.seat):
                snap = (list(st.scores), [list(h) for h in st.hands], len(st.log))
                with pytest.raises(IllegalAction):
                    apply(st, bad)
                assert snap == (list(st.scores), [list(h) for h in st.hands], len(st.log))
        n_before = len(seen_events)
        seen_events += apply(st, rng.choice(acts))
        if checks:
            check_invariants(st)
            assert_events_private(seen_events[n_before:])
            if len(st.log) % 4 == 0:
                assert_no_leak(st)
    return st


def assert_events_private(events: list[Event]) -> None:
    for e in events:
        if isinstance(e, (Haipai, Draw)):
            assert e.seats == frozenset({e.seat})
        else:
            assert e.seats is None


def assert_no_leak(st: GameState) -> None:
    for seat in (None, 0, 1, 2, 3):
        o = observe(st, seat)
        if seat is None:
            assert o.hand == () and o.drawn is None and o.legal == ()
        else:
            assert len(o.hand) + (1 if o.drawn is not None else 0) == len(st.hands[seat])
            assert sorted(o.tiles()) == sorted(st.concealed(seat))


@pytest.mark.parametrize("name", ["standard", "tenhou", "majsoul"])
def test_random_games_keep_invariants_and_replay(name: str) -> None:
    rng = random.Random(name)
    for g in range(1):
        st = random_game(f"{name}{g}".encode(), name, rng, checks=True)
        assert st.final is not None and len(st.final) == 4
        assert sorted(f.rank for f in st.final) == [1, 2, 3, 4]
        assert sum(f.score for f in st.final) == pytest.approx(0, abs=1e-6)
        again = replay(st.rules, st.seed, st.log)
        assert again.scores == st.scores and again.final == st.final
        assert [r.deltas for r in again.round_results] == [r.deltas for r in st.round_results]


def test_r6_same_seed_same_walls_different_seed_different() -> None:
    a = new_game(preset("standard"), b"same")
    b = new_game(preset("standard"), b"same")
    c = new_game(preset("standard"), b"other")
    assert a.wall.tiles == b.wall.tiles and a.wall.tiles != c.wall.tiles
    assert a.wall.tiles == Wall.from_seed(b"same", 0, 0).tiles


def test_clone_is_independent() -> None:
    st = new_game(preset("standard"), b"clone")
    cp = st.clone()
    a = legal_actions(st, 0)[-1]
    apply(cp, a)
    assert len(st.log) == 0 and len(cp.log) == 1
    assert st.drawn[0] is not None and cp.drawn[0] is None


def test_score_lets_bad_input_raise() -> None:
    # A win tile that is no tile is a caller bug, not "no win".
    st = new_game(preset("standard"), b"score")
    with pytest.raises(ScoreError) as info:
        st.score(1, 99, False)
    assert info.value.code == "bad_input"
    # an incomplete hand is still simply no win
    assert st.score(1, st.tile(st.hands[1][0]), False) is None


def test_clone_shares_immutable_records_and_copies_the_lists() -> None:
    st = new_game(preset("standard"), b"clone records")
    while st.phase == "play":
        s = min(waiting_on(st))
        apply(st, legal_actions(st, s)[0])
    next_round(st)
    cp = st.clone()
    assert cp.log is not st.log and cp.round_results is not st.round_results
    assert all(a is b for a, b in zip(cp.log, st.log, strict=True))
    assert all(a is b for a, b in zip(cp.round_results, st.round_results, strict=True))
    apply(cp, legal_actions(cp, min(waiting_on(cp)))[0])
    assert len(cp.log) == len(st.log) + 1


def test_check_invariants_names_a_misplaced_tile() -> None:
    st = new_game(preset("standard"), b"inv")
    check_invariants(st)
    live = st.wall.tiles[st.draw_pos]
    twice = st.clone()
    twice.hands[1].append(live)  # a live-wall tile also in a hand
    with pytest.raises(AssertionError, match=f"id {live} is both in hand 1 and live wall"):
        check_invariants(twice)
    lost = st.clone()
    gone = lost.hands[3].pop()
    with pytest.raises(AssertionError, match="1 tile ids are nowhere"):
        check_invariants(lost)
    lost.hands[3].append(gone)
    lost.hands[3].reverse()
    with pytest.raises(AssertionError, match="not kept in tile-id order"):
        check_invariants(lost)
    lost.hands[3].sort()
    lost.scores[0] += 100
    with pytest.raises(AssertionError, match="points"):
        check_invariants(lost)


def test_next_round_refused_during_play() -> None:
    st = new_game(preset("standard"), b"nr")
    with pytest.raises(IllegalAction, match="round_end"):
        next_round(st)


def test_action_for_a_bad_seat_is_refused() -> None:
    st = new_game(preset("standard"), b"bad")
    with pytest.raises(IllegalAction, match="seat"):
        apply(st, Action(ActionType.DISCARD, 7, 0))


def test_actions_refused_between_rounds_and_with_bad_tiles() -> None:
    st = new_game(preset("standard"), b"bad tiles")
    with pytest.raises(IllegalAction, match="no such tile"):
        apply(st, Action(ActionType.DISCARD, 0, 99))
    # play tsumogiri until the round ends, then any action is refused until next_round
    while st.phase == "play":
        s = min(waiting_on(st))
        acts = legal_actions(st, s)
        passes = [a for a in acts if a.type is ActionType.PASS]
        d = st.drawn[s]
        apply(st, passes[0] if passes else Action(ActionType.DISCARD, s, st.tile(d or 0)))
    with pytest.raises(IllegalAction, match="phase round_end"):
        apply(st, Action(ActionType.PASS, 0))
    next_round(st)
    assert st.phase in ("play", "game_end")
