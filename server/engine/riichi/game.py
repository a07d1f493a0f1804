"""The riichi game's functional API (docs/engine.md): start, act, read, replay."""

from __future__ import annotations

from collections.abc import Sequence

from server.engine.actions import Action
from server.engine.events import Event
from server.engine.riichi import end, turn
from server.engine.riichi.deal import start_round
from server.engine.riichi.events import GameStart
from server.engine.riichi.legal import legal
from server.engine.riichi.rules import RuleSet
from server.engine.riichi.state import S_CALLED, S_TURN, GameState
from server.engine.riichi.wall import Wall

_ONLY = [frozenset({s}) for s in range(4)]


def new_game(rules: RuleSet, seed: bytes, first_dealer: int = 0) -> GameState:
    """A game with round 1 dealt; ``start_events`` holds its opening events."""
    st = GameState(rules, seed, first_dealer)
    st.total_points = sum(st.scores)
    start = GameStart(rules, first_dealer, tuple(st.scores))
    st.start_events = [start, *start_round(st, None)]
    return st


def at_round(
    rules: RuleSet,
    *,
    round_wind: int,
    dealer: int,
    honba: int = 0,
    riichi_sticks: int = 0,
    scores: Sequence[int] | None = None,
    wall: Wall | None = None,
    first_dealer: int = 0,
    seed: bytes = b"",
    round_index: int = 0,
) -> GameState:
    """A game starting at an arbitrary round (scenario tests, log replay)."""
    n = rules.seats
    if round_wind not in range(4) or dealer not in range(n):
        raise ValueError(f"round_wind must be 0..3 and dealer 0..{n - 1}")
    if honba < 0 or riichi_sticks < 0:
        raise ValueError("honba and riichi_sticks must be non-negative")
    st = GameState(rules, seed, first_dealer)
    if scores is not None:
        if len(scores) != n:
            raise ValueError(f"scores must have {n} entries")
        st.scores = list(scores)
    st.round_wind = round_wind
    st.dealer = dealer
    st.kyoku = (dealer - first_dealer) % n
    st.honba = honba
    st.riichi_sticks = riichi_sticks
    st.round_index = round_index
    st.total_points = sum(st.scores) + 1000 * riichi_sticks
    st.start_events = start_round(st, wall)
    return st


def legal_actions(state: GameState, seat: int) -> list[Action]:
    """Exactly what ``seat`` may do now (a fresh list; empty if nothing to decide)."""
    return list(legal(state, seat))


def waiting_on(state: GameState) -> frozenset[int]:
    """Seats whose decision the state awaits now."""
    if state.phase != "play":
        return frozenset()
    if state.step is S_TURN or state.step is S_CALLED:
        return _ONLY[state.turn]  # the seat in turn always has a discard at least
    return frozenset(s for s in state.claim_options if s not in state.claim_answers)


def apply(state: GameState, action: Action) -> list[Event]:
    """Validate and apply one action; IllegalAction (state unchanged) if not legal now."""
    return turn.apply(state, action)


def next_round(state: GameState) -> list[Event]:
    """In phase round_end: start the next round, or end the game (R19, R25, R26)."""
    return end.next_round(state)


def replay(
    rules: RuleSet, seed: bytes, log: Sequence[Action | None], first_dealer: int = 0
) -> GameState:
    """Rebuild a game from its seed and ``state.log`` (R6)."""
    st = new_game(rules, seed, first_dealer)
    for a in log:
        if a is None:
            end.next_round(st)
        else:
            turn.apply(st, a)
    return st
