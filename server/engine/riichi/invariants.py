"""Consistency checks of a game state, for tests and self-play (issue 3)."""

from __future__ import annotations

from server.engine.riichi.state import GameState


def _places(state: GameState) -> list[tuple[int, str]]:
    """Every tile id that should be somewhere now, with where it is."""
    out: list[tuple[int, str]] = []
    for s in range(state.n):
        out += [(t, f"hand {s}") for t in state.hands[s]]
        for f in state.melds[s]:
            out += [(t, f"meld {s}") for t in f.ids]
        out += [(t, f"north set aside by {s}") for t in state.nuki[s]]
        out += [(r.tid, f"river {s}") for r in state.rivers[s] if not r.called]
    tiles = state.wall.tiles
    layout = state.wall.layout
    live_end = state.dead_start - state.replaced
    out += [(tiles[p], "live wall") for p in range(state.draw_pos, live_end)]
    drawn_rinshan = set(layout.rinshan_pos[: state.rinshan_drawn])
    for p in range(live_end, layout.size):
        if p not in drawn_rinshan:
            out.append((tiles[p], "dead wall"))
    return out


def _tile_ids(state: GameState) -> list[int]:
    """The ids of ``_places`` without their names: the check runs after every event."""
    ids: list[int] = []
    for s in range(state.n):
        ids += state.hands[s]
        for f in state.melds[s]:
            ids += f.ids
        ids += state.nuki[s]
        ids += [r.tid for r in state.rivers[s] if not r.called]
    tiles = state.wall.tiles
    live_end = state.dead_start - state.replaced
    ids += tiles[state.draw_pos : live_end]
    if state.rinshan_drawn:
        drawn_rinshan = set(state.wall.layout.rinshan_pos[: state.rinshan_drawn])
        ids += [tiles[p] for p in range(live_end, len(tiles)) if p not in drawn_rinshan]
    else:
        ids += tiles[live_end:]
    return ids


def check_invariants(state: GameState) -> None:
    """Raise AssertionError naming the first broken invariant."""
    ids = _tile_ids(state)
    size = state.wall.layout.size
    if len(ids) != size or len(set(ids)) != size:
        # slow path, only on failure: find the place names for the message
        where: dict[int, str] = {}
        for tid, place in _places(state):
            if tid in where:
                raise AssertionError(f"tiles: id {tid} is both in {where[tid]} and {place}")
            where[tid] = place
        raise AssertionError(f"tiles: {size - len(where)} tile ids are nowhere")
    total = sum(state.scores) + 1000 * state.riichi_sticks
    if total != state.total_points:
        raise AssertionError(f"points: {total} on the table, expected {state.total_points}")
    for s in range(state.n):
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
        if any(t >> 2 != 30 for t in state.nuki[s]):
            raise AssertionError(f"seat {s} set aside a tile that is not a north")
    if state.riichi_sticks < 0 or state.honba < 0:
        raise AssertionError("honba and riichi sticks must be non-negative")
    if state.replaced != state.kans + sum(len(x) for x in state.nuki):
        raise AssertionError("replacement count is not kans + norths set aside")
    if state.rinshan_drawn > state.replaced:
        raise AssertionError("more rinshan draws than kans and norths set aside")
    if state.dora_count > 1 + state.kans:
        raise AssertionError("more dora indicators than kans allow")
