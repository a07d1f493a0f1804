"""Consistency checks of a game state, for tests and self-play (issue 3)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from server.engine.events import Event
from server.engine.riichi.events import Draw, Haipai, mask
from server.engine.riichi.observe import observe
from server.engine.riichi.state import GameState
from server.engine.riichi.wall import Wall
from server.engine.tiles import NUM_KINDS, kind

_KIND = [kind(t) for t in range(37)]


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


def check_view(state: GameState, events: Sequence[Event], rng: random.Random) -> None:
    """What each seat is shown, after a transition: AssertionError naming the first leak.

    Each observation holds only what its seat may know: it is the same when every
    tile the seat may not see (other hands, the wall's hidden tiles) is shuffled;
    it agrees with one tile set; a spectator's has no tiles and no actions; every
    event masked for a seat that may not see it whole hides its tiles.
    """
    for seat in (None, *range(state.n)):
        v = observe(state, seat)
        if v != observe(_shadow(state, seat, rng), seat):
            raise AssertionError(f"seat {seat}'s observation depends on tiles it may not see")
        if seat is None:
            if v.legal or v.hand or v.drawn is not None:
                raise AssertionError("a spectator's observation carries tiles or legal actions")
            continue
        if state.phase == "play":
            n = len(v.hand) + (1 if v.drawn is not None else 0)
            if n != v.players[seat].hand_count:
                raise AssertionError(f"seat {seat} sees {n} own tiles, hand_count says otherwise")
        seen = [0] * NUM_KINDS
        for t in v.tiles():
            seen[_KIND[t]] += 1
        for p in v.players:
            for m in p.melds:
                for t in m.tiles:
                    seen[_KIND[t]] += 1
            for d in p.river:
                if not d.called:
                    seen[_KIND[d.tile]] += 1
        for t in v.dora_indicators:
            seen[_KIND[t]] += 1
        if max(seen) > 4:
            raise AssertionError(f"seat {seat} is shown more than four of a kind")
        if any(a.seat != seat for a in v.legal):
            raise AssertionError(f"seat {seat} is offered another seat's action")
    for ev in events:
        for seat in (None, *range(state.n)):
            part = mask(ev, seat)
            if ev.visible_to(seat):
                if part is not ev:
                    raise AssertionError(f"{ev.type} masked for seat {seat}, who may see it")
            elif (isinstance(part, Draw) and part.tile is not None) or (
                isinstance(part, Haipai) and part.tiles is not None
            ):
                raise AssertionError(f"{ev.type} of seat {ev.seats} shows its tiles to {seat}")


def _shadow(state: GameState, seat: int | None, rng: random.Random) -> GameState:
    """A copy of ``state`` with the tiles ``seat`` may not see shuffled among their places:
    other seats' concealed tiles and the wall's positions not shown (dora indicators
    turned so far stay)."""
    s = state.clone()
    tiles = list(s.wall.tiles)
    shown = set(s.wall.layout.dora_pos[: s.dora_count])
    drawn_rinshan = set(s.wall.layout.rinshan_pos[: s.rinshan_drawn])
    wall_places = [
        p for p in range(s.draw_pos, len(tiles)) if p not in shown and p not in drawn_rinshan
    ]
    others = [o for o in range(s.n) if o != seat]
    ids = [t for o in others for t in s.hands[o]] + [tiles[p] for p in wall_places]
    drawn_at = {o: s.hands[o].index(d) for o in others if (d := s.drawn[o]) is not None}
    rng.shuffle(ids)
    it = iter(ids)
    for o in others:
        s.hands[o] = [next(it) for _ in s.hands[o]]
    for p in wall_places:
        tiles[p] = next(it)
    for o in others:
        # keep each hand's invariants (id order, counts); the drawn tile keeps its place
        d = s.hands[o][drawn_at[o]] if o in drawn_at else None
        s.hands[o].sort()
        s.drawn[o] = d
        s.cnt[o] = [0] * NUM_KINDS
        for t in s.hands[o]:
            s.cnt[o][t >> 2] += 1
    # (the wall's drawn positions still name the ids they held: no longer a permutation)
    w = Wall.__new__(Wall)
    w.tiles, w.dice, w.red_fives, w.layout = tiles, s.wall.dice, s.wall.red_fives, s.wall.layout
    s.wall = w
    s.touch_all()
    s._public = None
    return s
