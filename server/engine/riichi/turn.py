"""Applying an action: the seat in turn's own moves (R7, R14-R16), answers to a window.

``apply`` checks the action against ``legal`` (IllegalAction, nothing changed)
and dispatches: a discard (riichi declarations included) opens the call window,
tsumo and kyuushu end the round, ankan and kakan go to ``kan``, and an answer
to a window goes to ``claims``.
"""

from __future__ import annotations

from bisect import bisect_left

from server.engine.actions import (
    A_ANKAN,
    A_DISCARD,
    A_KAKAN,
    A_KYUUSHU,
    A_NUKI,
    A_RIICHI,
    A_TSUMO,
    Action,
    IllegalAction,
)
from server.engine.events import Event
from server.engine.riichi.claims import answer, open_discard_window
from server.engine.riichi.deal import reveal_pending, update_waits
from server.engine.riichi.events import Discard
from server.engine.riichi.kan import ankan, kakan, nuki
from server.engine.riichi.legal import legal, why_illegal
from server.engine.riichi.settle import kyuushu, tsumo
from server.engine.riichi.state import S_CHANKAN, S_CLAIM, GameState, RiverTile
from server.engine.tiles import Tile, kind

_KIND = [kind(t) for t in range(37)]
_NO_KINDS: frozenset[int] = frozenset()
# RiverTile(...) without the generated __new__'s Python frame: one per discard
_new_tuple = tuple.__new__


def apply(st: GameState, action: Action) -> list[Event]:
    """Validate and apply one action; IllegalAction (state unchanged) if not legal now."""
    if not 0 <= action.seat < st.n:
        raise IllegalAction(why_illegal(st, action))
    lst = legal(st, action.seat)
    for a in lst:
        if a is action:  # bots hand back the very objects listed: no __eq__ calls
            break
    else:
        if action not in lst:
            raise IllegalAction(why_illegal(st, action))
    st._legal = {}
    st.log.append(action)
    at = action.type
    s = action.seat
    if st.step is S_CLAIM or st.step is S_CHANKAN:
        return answer(st, action)
    if at is A_DISCARD:
        return discard(st, s, action.tile, riichi=False)
    if at is A_RIICHI:
        return discard(st, s, action.tile, riichi=True)
    if at is A_TSUMO:
        return tsumo(st, s)
    if at is A_KYUUSHU:
        return kyuushu(st, s)
    if at is A_ANKAN:
        assert action.tile is not None
        return ankan(st, s, action.tile)
    if at is A_KAKAN:
        assert action.tile is not None
        return kakan(st, s, action.tile)
    if at is A_NUKI:
        return nuki(st, s)
    raise IllegalAction(f"{at.value} is not possible now")  # pragma: no cover


def discard(st: GameState, s: int, tile: Tile | None, *, riichi: bool) -> list[Event]:
    assert tile is not None
    drawn = st.drawn[s]
    tiles = st._tile
    hand = st.hands[s]
    if drawn is not None and tiles[drawn] == tile:
        tid = drawn
        tsumogiri = True
        del hand[bisect_left(hand, tid)]
    else:
        # hands are in id order and a kind's ids are 4k..4k+3: start the search there
        # (the action was validated, so the tile is in the hand)
        i = bisect_left(hand, _KIND[tile] << 2)
        while tiles[hand[i]] != tile or hand[i] == drawn:
            i += 1
        tid = hand.pop(i)
        tsumogiri = False
    st.cnt[s][tid >> 2] -= 1
    st.drawn[s] = None
    st.touch(s)
    st.rivers[s].append(_new_tuple(RiverTile, (tid, tile, tsumogiri, riichi, False)))
    if riichi:
        st.riichi_decl = s
    elif st.ippatsu[s]:
        st.ippatsu[s] = False  # R15: ippatsu ends at the declarer's next discard
    st.furiten_temp[s] = False  # R16: lifted by one's own discard
    st.discards[s] += 1
    st.rinshan = False
    st.kuikae = _NO_KINDS
    if not tsumogiri:
        # a tsumogiri leaves the hand as it was before the draw: waits unchanged
        update_waits(st, s, st.shanten13[s] - 1)
    events: list[Event] = [Discard(s, tile, tsumogiri, riichi)]
    if st.pending_dora and st.pending_dora_seat == s:
        events += reveal_pending(st)
    events += open_discard_window(st, s, tid)  # marks passed-tile furiten too (R16)
    return events
