"""Consistency checks of a game state, for tests and self-play (issue 3)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from server.engine.wall import DEAD_START, RINSHAN_POS

if TYPE_CHECKING:
    from server.engine.game import GameState


def check_invariants(state: GameState) -> None:
    """Raise AssertionError naming the first broken invariant."""
    where: dict[int, str] = {}

    def put(tid: int, place: str) -> None:
        if tid in where:
            raise AssertionError(f"tiles: id {tid} is both in {where[tid]} and {place}")
        where[tid] = place

    for s in range(4):
        for t in state.hands[s]:
            put(t, f"hand {s}")
        for f in state.melds[s]:
            for t in f.ids:
                put(t, f"meld {s}")
        for r in state.rivers[s]:
            if not r.called:
                put(r.tid, f"river {s}")
    tiles = state.wall.tiles
    for p in range(state.draw_pos, DEAD_START - state.kans):
        put(tiles[p], "live wall")
    drawn_rinshan = set(RINSHAN_POS[: state.rinshan_drawn])
    for p in range(DEAD_START - state.kans, 136):
        if p not in drawn_rinshan:
            put(tiles[p], "dead wall")
    if len(where) != 136:
        raise AssertionError(f"tiles: {136 - len(where)} tile ids are nowhere")
    total = sum(state.scores) + 1000 * state.riichi_sticks
    if total != state.total_points:
        raise AssertionError(f"points: {total} on the table, expected {state.total_points}")
    for s in range(4):
        n = len(state.hands[s]) + 3 * len(state.melds[s])
        if n not in (13, 14):
            raise AssertionError(f"hand size: seat {s} holds {n} tiles (kans as 3)")
        c = [0] * 34
        for t in state.hands[s]:
            c[t >> 2] += 1
        if c != state.cnt[s]:
            raise AssertionError(f"counts: seat {s}'s count array does not match its hand")
        d = state.drawn[s]
        if d is not None and d not in state.hands[s]:
            raise AssertionError(f"drawn tile of seat {s} is not in its hand")
    if state.riichi_sticks < 0 or state.honba < 0:
        raise AssertionError("honba and riichi sticks must be non-negative")
    if state.rinshan_drawn > state.kans:
        raise AssertionError("more rinshan draws than kans")
    if state.dora_count > 1 + state.kans:
        raise AssertionError("more dora indicators than kans allow")
