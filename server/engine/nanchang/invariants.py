"""``check_invariants(state)``: what must hold after every transition (AssertionError names it)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from server.engine.events import Event
from server.engine.nanchang.events import Dealt, Drew, mask
from server.engine.nanchang.game import waiting_on
from server.engine.nanchang.jokers import Jokers
from server.engine.nanchang.legal import legal_actions
from server.engine.nanchang.observation import observe
from server.engine.nanchang.state import NanchangGame
from server.engine.nanchang.wall import NUM_TILES


def check_invariants(g: NanchangGame) -> None:
    # every tile is in exactly one place: a hand, a meld, a river (unless called), the wall,
    # or an added kan's tile awaiting robbers
    seen: list[int] = [g.wall.tiles[p] for p in g.live]
    for s in range(4):
        seen += g.hands[s]
        for ids in g.meld_ids[s]:
            seen += ids
        for rt, tid in zip(g.rivers[s], g.river_ids[s], strict=True):
            assert rt.tile == tid // 4, f"seat {s}: river tile {rt.tile} is not id {tid}"
            if not rt.called:
                seen.append(tid)
    if g.kakan is not None:
        seen.append(g.kakan[1])
    assert sorted(seen) == list(range(NUM_TILES)), "tiles: each of the 136 exactly once"
    assert g.live == sorted(g.live), "wall positions in drawing order"
    assert sum(g.scores) == g.points_total, "points: the ledger keeps its total"
    assert g.jokers == Jokers.from_indicator(g.wall.indicator), "jokers follow the indicator"
    for s in range(4):
        for m, ids in zip(g.melds[s], g.meld_ids[s], strict=True):
            assert sorted(m.tiles) == sorted(t // 4 for t in ids), f"seat {s}: meld {m} ids"
            assert len(ids) == (4 if m.is_kan else 3), f"seat {s}: meld {m} size"
        d = g.drawn[s]
        assert d is None or d in g.hands[s], f"seat {s}: drawn tile not in hand"
    if g.phase != "play":
        assert not waiting_on(g), "nobody is waited on between rounds"
        return
    for s in range(4):
        size = len(g.hands[s]) + 3 * len(g.melds[s])
        turn = s == g.turn and g.step in ("act", "discard")
        robbing = g.step == "rob" and g.kakan is not None and g.kakan[0] == s
        want = 14 if turn or robbing else 13
        assert size + (1 if robbing else 0) == want, f"seat {s}: {size} tiles, want {want}"
        if s != g.turn or g.step != "act":
            assert g.drawn[s] is None or s == g.turn, f"seat {s}: a drawn tile off turn"
    waiting = waiting_on(g)
    assert waiting, "a game in play waits on someone"
    for s in range(4):
        assert bool(legal_actions(g, s)) == (s in waiting), f"seat {s}: legal iff waited on"
    if g.step in ("calls", "rob"):
        assert g.choices, "an open window has choices"
        assert (g.last_discard is not None) == (g.step == "calls"), "calls window on a discard"


def check_view(g: NanchangGame, events: Sequence[Event], rng: random.Random) -> None:
    """What each seat is shown: AssertionError naming the first leak.

    Each observation is the same when every tile its seat may not see (other hands,
    the wall but the turned-up tile) is shuffled; events masked for a seat that may
    not see them whole hide their tiles.
    """
    for viewer in (None, 0, 1, 2, 3):
        if observe(_shadow(g, viewer, rng), viewer) != observe(g, viewer):
            raise AssertionError(f"seat {viewer}'s observation depends on tiles it may not see")
    for e in events:
        for viewer in (None, 0, 1, 2, 3):
            if e.visible_to(viewer):
                continue
            m = mask(e, viewer)
            if (isinstance(m, Dealt) and m.tiles is not None) or (
                isinstance(m, Drew) and m.tile is not None
            ):
                raise AssertionError(f"{e.type} of seat {e.seats} shows its tiles to {viewer}")


def _shadow(g: NanchangGame, seat: int | None, rng: random.Random) -> NanchangGame:
    """A copy of ``g`` with every tile ``seat`` may not see shuffled among their places."""
    s = g.clone()
    places: list[tuple[str, int, int]] = []
    for other in range(4):
        if other != seat:
            places += [("hand", other, i) for i in range(len(s.hands[other]))]
    places += [("wall", p, 0) for p in s.live if p != s.wall.indicator_pos]
    drawn_at = {
        o: s.hands[o].index(d) for o in range(4) if o != seat and (d := s.drawn[o]) is not None
    }
    ids = [s.hands[a][b] if kind == "hand" else s.wall.tiles[a] for kind, a, b in places]
    rng.shuffle(ids)
    for (kind, a, b), tid in zip(places, ids, strict=True):
        if kind == "hand":
            s.hands[a][b] = tid
        else:
            s.wall.tiles[a] = tid
    for o, i in drawn_at.items():
        s.drawn[o] = s.hands[o][i]
    return s
