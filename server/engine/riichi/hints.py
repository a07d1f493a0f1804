"""Help for a seat deciding: shanten, waits with the copies it cannot see, furiten."""

from __future__ import annotations

from dataclasses import dataclass

from server.engine.riichi.scoring import score_hand
from server.engine.riichi.shanten import shanten
from server.engine.riichi.state import GameState
from server.engine.riichi.win import ScoreError
from server.engine.tiles import NUM_KINDS, RED_IDS, Kind, red_of

_FIVES = (4, 13, 22)


@dataclass(frozen=True, slots=True)
class Wait:
    kind: Kind
    left: int  # copies the seat cannot see (0 for karaten)
    yaku: bool  # a ron on it would have a yaku now


@dataclass(frozen=True, slots=True)
class Hints:
    shanten: int
    waits: tuple[Wait, ...]  # only when tenpai with a 3n+1 hand
    furiten: bool


def hints(st: GameState, seat: int) -> Hints:
    """What the seat's own view may show it about its hand (it sees only public tiles)."""
    c = st.counts(seat)
    sh = shanten(c)
    furiten = st.furiten(seat)
    if sum(c) % 3 != 1 or sh != 0:
        return Hints(sh, (), furiten)
    visible = list(c)
    for s in range(st.n):
        for f in st.melds[s]:
            for t in f.ids:
                visible[t >> 2] += 1
        for r in st.rivers[s]:
            if not r.called:
                visible[r.tid >> 2] += 1
        visible[30] += len(st.nuki[s])  # norths set aside (sanma)
    for t in st.dora_indicators():
        visible[t if t < NUM_KINDS else 4 + 9 * (t - NUM_KINDS)] += 1
    melds = [f.meld for f in st.melds[seat]]
    concealed = st.concealed(seat)
    own = [*concealed, *(t for m in melds for t in m.tiles)]
    red_on = st.tile(RED_IDS[0]) != RED_IDS[0] >> 2
    out = []
    for k in st.waits[seat]:
        if sum(1 for x in own if x == k or (x >= NUM_KINDS and _FIVES[x - NUM_KINDS] == k)) >= 4:
            # the seat holds all four itself: the wait can never arrive
            out.append(Wait(k, 0, False))
            continue
        t = k
        # With red fives on, a seat holding all three plain fives can only get the red one.
        if red_on and k in _FIVES and own.count(k) >= 3:
            t = red_of(k)
        ctx = st.win_context(seat, t, False)
        try:
            score_hand([*concealed, t], melds, ctx, st.rules)
            has_yaku = True
        except ScoreError as exc:
            if exc.code == "bad_input":
                raise
            has_yaku = False
        out.append(Wait(k, max(0, 4 - visible[k]), has_yaku))
    return Hints(sh, tuple(out), furiten)
