"""Consistency checks of a game state, for tests and self-play (issue 3)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from server.engine.riichi.wall import DEAD_START, RINSHAN_POS

if TYPE_CHECKING:
    from server.engine.game import GameState


def _places(state: GameState) -> list[tuple[int, str]]:
    """Every tile id that should be somewhere now, with where it is."""
    out: list[tuple[int, str]] = []
    for s in range(4):
        out += [(t, f"hand {s}") for t in state.hands[s]]
        for f in state.melds[s]:
            out += [(t, f"meld {s}") for t in f.ids]
        out += [(r.tid, f"river {s}") for r in state.rivers[s] if not r.called]
    tiles = state.wall.tiles
    out += [(tiles[p], "live wall") for p in range(state.draw_pos, DEAD_START - state.kans)]
    drawn_rinshan = set(RINSHAN_POS[: state.rinshan_drawn])
    for p in range(DEAD_START - state.kans, 136):
        if p not in drawn_rinshan:
            out.append((tiles[p], "dead wall"))
    return out


def _tile_ids(state: GameState) -> list[int]:
    """The ids of ``_places`` without their names: the check runs after every event."""
    ids: list[int] = []
    for s in range(4):
        ids += state.hands[s]
        for f in state.melds[s]:
            ids += f.ids
        ids += [r.tid for r in state.rivers[s] if not r.called]
    tiles = state.wall.tiles
    ids += tiles[state.draw_pos : DEAD_START - state.kans]
    if state.rinshan_drawn:
        drawn_rinshan = set(RINSHAN_POS[: state.rinshan_drawn])
        ids += [tiles[p] for p in range(DEAD_START - state.kans, 136) if p not in drawn_rinshan]
    else:
        ids += tiles[DEAD_START - state.kans :]
    return ids


def check_invariants(state: GameState) -> None:
    """Raise AssertionError naming the first broken invariant."""
    ids = _tile_ids(state)
    if len(ids) != 136 or len(set(ids)) != 136:
        # slow path, only on failure: find the place names for the message
        where: dict[int, str] = {}
        for tid, place in _places(state):
            if tid in where:
                raise AssertionError(f"tiles: id {tid} is both in {where[tid]} and {place}")
            where[tid] = place
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
        if state.hands[s] != sorted(state.hands[s]):
            raise AssertionError(f"hand of seat {s} is not kept in tile-id order")
        d = state.drawn[s]
        if d is not None and d not in state.hands[s]:
            raise AssertionError(f"drawn tile of seat {s} is not in its hand")
    if state.riichi_sticks < 0 or state.honba < 0:
        raise AssertionError("honba and riichi sticks must be non-negative")
    if state.rinshan_drawn > state.kans:
        raise AssertionError("more rinshan draws than kans")
    if state.dora_count > 1 + state.kans:
        raise AssertionError("more dora indicators than kans allow")
