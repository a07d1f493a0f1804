"""The public wall in every view (docs/engine.md "The wall"): counts and dice only.

A seat learns how many tiles left the wall from its front and from its dead end (or
Nanchang's end), never which tiles lie in it; every seat and a spectator read the same.
"""

from __future__ import annotations

import json
import random
from typing import Any

from server.engine import nanchang
from server.engine.nanchang import wall as nc_wall
from server.engine.riichi import apply, legal_actions, new_game, next_round, waiting_on
from server.engine.riichi.game import at_round
from server.engine.riichi.rules import preset
from server.engine.riichi.wall import LAYOUTS, Wall
from server.wire import nanchang as nc_wire
from server.wire.riichi import seat_views


def _counts(events: list[Any], drawn: int, rinshan: int, flag: str) -> tuple[int, int]:
    for e in events:
        if e.type == "draw":
            if getattr(e, flag):
                rinshan += 1
            else:
                drawn += 1
    return drawn, rinshan


def _only_counts(wall: dict[str, Any]) -> None:
    """Nothing in the wall field could name a tile: ints and dice only."""
    for key, value in wall.items():
        values = value if isinstance(value, list) else [value]
        assert all(type(x) is int for x in values), (key, value)


def _random_riichi(rules_name: str, seed: bytes, seats: int) -> int:
    rng = random.Random(seed)
    st = new_game(preset(rules_name).with_overrides(length="tonpuu"), seed)
    layout = LAYOUTS[seats]
    drawn, rinshan = _counts(st.start_events, 0, 0, "rinshan")
    drawn += 13 * seats  # the deal
    kans_seen = 0
    steps = 0
    while st.phase != "game_end" and steps < 1500:
        views = seat_views(st, [None, *range(seats)])
        walls = [v["wall"] for v in views]
        assert all(w == walls[0] for w in walls), "every seat reads the same wall"
        wall = walls[0]
        assert set(wall) == {"drawn", "rinshan"}
        _only_counts(wall)
        assert (wall["drawn"], wall["rinshan"]) == (drawn, rinshan)
        v = views[0]
        kan_types = ("ankan", "kakan", "daiminkan")
        kans = sum(1 for p in v["players"] for m in p["melds"] if m["type"] in kan_types)
        replaced = kans + sum(p["nuki"] for p in v["players"])
        # the live wall ends where the dead wall starts, moved by each replacement
        if st.phase == "play":
            assert wall["drawn"] + v["wall_left"] + replaced == layout.size - 14
            assert rinshan <= replaced and len(v["dora_indicators"]) <= 1 + rinshan
        kans_seen = max(kans_seen, rinshan)
        if st.phase == "round_end":
            events = next_round(st)
            drawn, rinshan = _counts(events, 13 * seats, 0, "rinshan")
            continue
        seat = min(waiting_on(st))
        events = apply(st, rng.choice(legal_actions(st, seat)))
        drawn, rinshan = _counts(events, drawn, rinshan, "rinshan")
        steps += 1
    return kans_seen


def test_riichi_views_count_the_tiles_taken_from_each_end() -> None:
    assert _random_riichi("standard", b"wall-views", 4) >= 0


def test_sanma_views_count_norths_and_kans_from_the_dead_wall() -> None:
    # random sanma play pulls norths: replacement draws come from the dead wall
    assert _random_riichi("tenhou-sanma", b"wall-sanma", 3) > 0


def test_the_wall_field_is_the_same_whatever_lies_in_the_wall() -> None:
    """Two walls with the same dice, different tiles: the same wall field (nothing of
    the tiles shows), while the hands differ."""
    rules = preset("standard")
    a = at_round(rules, round_wind=0, dealer=0, wall=Wall.build(["123456789m1234p"], dice=(2, 5)))
    b = at_round(rules, round_wind=0, dealer=0, wall=Wall.build(["111222333p4445s"], dice=(2, 5)))
    va, vb = seat_views(a, [1])[0], seat_views(b, [1])[0]
    assert va["wall"] == vb["wall"] == {"drawn": 53, "rinshan": 0}
    assert va["round"]["dice"] == [2, 5]
    hands = [seat_views(g, [0])[0]["players"][0]["hand"] for g in (a, b)]
    assert hands[0] != hands[1]


def test_nanchang_views_carry_the_rolls_and_both_ends() -> None:
    rng = random.Random(3)
    g = nanchang.new_game(nanchang.preset("nanchang-east"), b"wall-nc")
    kans = 0
    for _ in range(3000):
        if g.phase == "game_end":
            break
        if g.phase == "round_end":
            nanchang.next_round(g)
            continue
        views = nc_wire.seat_views(g, [None, 0, 1, 2, 3])
        walls = [v["wall"] for v in views]
        assert all(w == walls[0] for w in walls)
        wall = walls[0]
        _only_counts(wall)
        w = g.wall
        assert wall["dice"] == list(w.break_dice) and wall["second_dice"] == list(w.second_dice)
        assert wall["joker_dice"] == list(w.joker_dice)
        assert wall["second_roller"] == (w.dealer + sum(w.break_dice) - 1) % 4
        # the tiles left are exactly those between the front and the end taken so far
        assert wall["drawn"] + wall["rinshan"] + views[0]["wall_left"] == nc_wall.NUM_TILES
        assert g.live == [] or g.live[0] == wall["drawn"]
        kans = max(kans, wall["rinshan"])
        assert json.loads(json.dumps(wall)) == wall
        seat = min(nanchang.waiting_on(g))
        nanchang.apply(g, rng.choice(nanchang.legal_actions(g, seat)))
    assert kans > 0, "a kan's replacement came from the wall's end"
