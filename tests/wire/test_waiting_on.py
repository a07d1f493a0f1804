"""Views name no seat as one the game waits on but the seat in turn or the reader's own
(issue 12): who may call a discard is each caller's own business."""

from __future__ import annotations

import random

from server.engine.riichi import apply, legal_actions, new_game, next_round, waiting_on
from server.engine.riichi.rules import preset
from server.wire.riichi import seat_views
from tests.engine.scenario import act, game

# seat 0 discards 5p: seat 1 may chi, seat 2 may pon, seat 3 may ron (test_r08_r11_calls).
HANDS = [
    "19m59p19s1234567z",
    "234p67p258m147s11z",
    "55p8p369m258s2345z",
    "234m345m456678s5p",
]
SEATS: list[int | None] = [None, 0, 1, 2, 3]


def test_a_discard_s_callers_are_told_only_of_their_own_option() -> None:
    st = game(HANDS, draws="9m")
    act(st, 0, "discard", "5p")
    assert waiting_on(st) == frozenset({1, 2, 3})
    assert [v["waiting_on"] for v in seat_views(st, SEATS)] == [[], [], [1], [2], [3]]
    # one seat's view alone says the same as the shared-parts path
    assert seat_views(st, [2])[0]["waiting_on"] == [2]


def test_no_view_names_another_seat_as_waited_on_through_random_games() -> None:
    rng = random.Random(12)
    windows = 0
    for g in range(4):
        st = new_game(preset("standard"), f"leak{g}".encode())
        steps = 0
        while st.phase != "game_end" and steps < 600:
            waiting = waiting_on(st)
            in_turn = st.phase == "play" and waiting == {st.turn} and not st.claim_options
            windows += len(waiting) > 1
            for s, v in zip(SEATS, seat_views(st, SEATS), strict=True):
                if in_turn:
                    assert v["waiting_on"] == [st.turn]  # whose turn it is is public
                else:
                    assert v["waiting_on"] == ([s] if s in waiting else []), (s, waiting)
                # nor does anything else in it: only a waited-on seat has actions
                assert bool(v["legal_actions"]) == (s in waiting)
            if st.phase == "round_end":
                next_round(st)
                continue
            seat = min(waiting)
            apply(st, rng.choice(legal_actions(st, seat)))
            steps += 1
    assert windows > 5  # windows with several seats asked were among them
