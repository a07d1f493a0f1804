"""Views name no seat but the reader's own as one the game waits on (issue 12)."""

from __future__ import annotations

import random

from server.engine.game import apply, legal_actions, new_game, next_round, waiting_on
from server.engine.rules import preset
from server.engine.view import view, views
from tests.engine.scenario import act, game

# seat 0 discards 5p: seat 1 may chi, seat 2 may pon, seat 3 may ron (test_r08_r11_calls).
HANDS = [
    "19m59p19s1234567z",
    "234p67p258m147s11z",
    "55p8p369m258s2345z",
    "234m345m456678s5p",
]


def test_a_discard_s_callers_are_told_only_of_their_own_option() -> None:
    st = game(HANDS, draws="9m")
    act(st, 0, "discard", "5p")
    assert waiting_on(st) == frozenset({1, 2, 3})
    assert view(st, 0)["waiting_on"] == []
    assert view(st, None)["waiting_on"] == []
    for s in (1, 2, 3):
        assert view(st, s)["waiting_on"] == [s]
    # The shared-parts path the server uses says the same.
    assert [v["waiting_on"] for v in views(st, [None, 0, 1, 2, 3])] == [[], [], [1], [2], [3]]


def test_no_view_names_another_seat_as_waited_on_through_random_games() -> None:
    rng = random.Random(12)
    calls_seen = 0
    for g in range(4):
        st = new_game(preset("standard"), f"leak{g}".encode())
        steps = 0
        while st.phase != "game_end" and steps < 600:
            waiting = waiting_on(st)
            calls_seen += len(waiting) > 1
            for s, v in zip([None, 0, 1, 2, 3], views(st, [None, 0, 1, 2, 3]), strict=True):
                assert v["waiting_on"] == ([s] if s in waiting else []), (s, waiting)
                # Nor does anything else in it: only the waited-on seat has actions.
                assert bool(v["legal_actions"]) == (s in waiting)
            if st.phase == "round_end":
                next_round(st)
                continue
            seat = min(waiting)
            apply(st, rng.choice(legal_actions(st, seat)))
            steps += 1
    assert calls_seen > 5  # windows with several seats asked were among them
