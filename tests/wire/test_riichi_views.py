"""Riichi views on the wire: what each seat is sent (docs/engine.md "View")."""

import json
import random

import pytest

from server.engine.riichi import apply, legal_actions, new_game, next_round, waiting_on
from server.engine.riichi.rules import preset
from server.wire.riichi import seat_views
from tests.engine import scenario


def view(st, seat):
    return seat_views(st, [seat])[0]


views = seat_views


def test_view_of_own_seat_has_hand_drawn_tile_and_help() -> None:
    st = new_game(preset("standard"), b"view")
    v = view(st, 0)
    assert len(v["players"][0]["hand"]) == 13 and v["players"][0]["drawn"] is not None
    assert v["legal_actions"] and all(a["seat"] == 0 for a in v["legal_actions"])
    assert v["help"]["shanten"] >= 0
    spectator = view(st, None)
    assert spectator["legal_actions"] == [] and spectator["help"] is None
    assert all(p["hand"] is None for p in spectator["players"])
    with pytest.raises(ValueError):
        view(st, 4)


def test_view_carries_the_rule_options() -> None:
    rules = preset("tenhou").with_overrides(kuitan=False, length="tonpuu")
    v = view(new_game(rules, b"rules"), 2)
    assert v["rules"]["name"] == "tenhou"
    assert v["rules"]["kuitan"] is False and v["rules"]["red_fives"] == 3
    assert v["rules"]["length"] == "tonpuu" and v["rules"]["seats"] == 4
    # a caller changing its view cannot change the next one
    v["rules"]["uma"].append(0)
    v["rules"]["kuitan"] = True
    again = view(new_game(rules, b"rules"), 2)["rules"]
    assert again["kuitan"] is False and again["uma"] == list(rules.uma)
    assert json.loads(json.dumps(again)) == again


def test_help_scores_a_five_wait_with_the_red_five_when_only_it_is_left() -> None:
    # Seat 1 holds all three plain 5m; its 5m wait (345m + 555m) can only be the red 5m.
    st = scenario.game([None, "34555m234p456p88s", None, None], rules=preset("standard"))
    waits = {w["tile"]: w for w in view(st, 1)["help"]["waits"]}
    assert set(waits) == {"2m", "5m", "8s"}
    assert waits["5m"]["yaku"] is True and waits["5m"]["left"] == 1  # tanyao
    assert waits["2m"]["yaku"] is True and waits["8s"]["yaku"] is True
    # Without red fives the four 5m are plain and the plain tile is scored as is.
    plain = scenario.game([None, "34555m234p456p88s", None, None])
    waits = {w["tile"]: w for w in view(plain, 1)["help"]["waits"]}
    assert waits["5m"]["yaku"] is True


def test_help_lists_a_wait_on_a_fifth_tile_as_never_arriving() -> None:
    # 5555p + three runs: formally tenpai on 5p, but all four are in the hand (karaten).
    st = scenario.game([None, "0555p123s456s789s", None, None], rules=preset("standard"))
    assert view(st, 1)["help"]["waits"] == [{"tile": "5p", "left": 0, "yaku": False}]


def test_views_of_all_seats_equal_one_view_each_through_random_games() -> None:
    """``views`` (what the server sends after every step) shares its public parts
    between seats; every one of them must equal the seat's own ``view``."""
    rng = random.Random(7)
    for g in range(3):
        st = new_game(preset("standard"), f"views{g}".encode())
        steps = 0
        while st.phase != "game_end" and steps < 400:
            seats = [None, 0, 1, 2, 3]
            both = views(st, seats)
            assert json.dumps(both) == json.dumps([view(st, s) for s in seats])
            for s, v in zip(seats, both, strict=True):
                for p in v["players"]:
                    assert (p["hand"] is None) == (p["seat"] != s)
            if st.phase == "round_end":
                next_round(st)
                continue
            seat = min(waiting_on(st))
            apply(st, rng.choice(legal_actions(st, seat)))
            steps += 1
    with pytest.raises(ValueError):
        views(st, [0, 4])
