"""Ankan and kakan (R12-R13), and in sanma a north set aside (S12): the tile leaves the
hand, a window may let another seat rob it, then the replacement (rinshan) draw.

A daiminkan is a call and is carried out by the call window (``claims``); it
shares ``kan_common`` and the dora rules here.
"""

from __future__ import annotations

from server.engine.events import Event
from server.engine.melds import Meld, MeldType
from server.engine.riichi.deal import clear_claims, draw, reveal_dora, reveal_pending, update_waits
from server.engine.riichi.events import Kan, Nuki
from server.engine.riichi.legal import PASS_OF, RON_OF
from server.engine.riichi.shanten import shanten_kokushi
from server.engine.riichi.state import S_CHANKAN, Furo, GameState
from server.engine.tiles import NORTH, Kind, Tile, kind, sort_key

_M_ANKAN = MeldType.ANKAN
_M_KAKAN = MeldType.KAKAN
_M_PON = MeldType.PON


def kan_common(st: GameState, s: int) -> None:
    st.kans += 1
    st.replaced += 1
    st.kan_seats.append(s)


def ankan(st: GameState, s: int, k: Kind) -> list[Event]:
    ids = tuple(t for t in st.hands[s] if t >> 2 == k)
    for t in ids:
        st.hands[s].remove(t)
    st.cnt[s][k] -= 4
    tiles = tuple(sorted((st.tile(t) for t in ids), key=sort_key))
    meld = Meld(_M_ANKAN, tiles)
    st.melds[s].append(Furo(meld, ids))
    st.drawn[s] = None
    st.touch(s)
    kan_common(st, s)
    events: list[Event] = [Kan(s, meld, None)]
    update_waits(st, s)
    # R12: only kokushi may rob an ankan, where the rules allow it
    robbers: list[int] = []
    if st.rules.kokushi_ankan_chankan:
        for o in range(st.n):
            if o == s or k not in st.waits[o] or st.furiten(o):
                continue
            c = st.counts(o)
            if sum(c) == 13 and shanten_kokushi(c) == 0:
                robbers.append(o)
    # R12: its dora turns in finish_kan, once it stands (a robbed kan never does)
    clear_claims(st)
    st.claim_tile = ids[0]
    st.claim_from = s
    for o in robbers:
        res = st.score(o, st.tile(ids[0]), False, chankan=True)
        if res is not None:
            st.claim_results[o] = res
            st.claim_options[o] = [RON_OF[o], PASS_OF[o]]
    st.kan_is_kakan = False
    if st.claim_options:
        st.step = S_CHANKAN
        for o in st.claim_options:
            st.pass_winning_tile(o)
        return events
    return events + finish_kan(st, s)


def kakan(st: GameState, s: int, t: Tile) -> list[Event]:
    k = kind(t)
    tid = next(x for x in st.hands[s] if st.tile(x) == t)
    st.hands[s].remove(tid)
    st.cnt[s][k] -= 1
    idx = next(i for i, f in enumerate(st.melds[s]) if f.meld.type is _M_PON and f.meld.first == k)
    old = st.melds[s][idx]
    meld = Meld(_M_KAKAN, (*old.meld.tiles, t), old.meld.called, old.meld.from_seat)
    st.melds[s][idx] = Furo(meld, (*old.ids, tid))
    st.drawn[s] = None
    st.touch(s)
    kan_common(st, s)
    events: list[Event] = [Kan(s, meld, t)]
    update_waits(st, s)
    # R12: chankan
    clear_claims(st)
    st.claim_tile = tid
    st.claim_from = s
    for o in range(st.n):
        if o == s or k not in st.waits[o] or st.furiten(o):
            continue
        res = st.score(o, t, False, chankan=True)
        if res is not None:
            st.claim_results[o] = res
            st.claim_options[o] = [RON_OF[o], PASS_OF[o]]
    for o in range(st.n):
        if o != s and k in st.waits[o]:
            st.pass_winning_tile(o)  # R16: passing the kakan tile is furiten too
    st.kan_is_kakan = True
    if st.claim_options:
        st.step = S_CHANKAN
        return events
    return events + finish_kan(st, s)


def finish_kan(st: GameState, s: int) -> list[Event]:
    """An ankan/kakan that was not robbed: it takes effect, then the rinshan draw."""
    # R15: any kan, an own ankan included, breaks ippatsu and the first go; only
    # now, since a chankan ron still counts ippatsu (as Tenhou scores it)
    st.ippatsu = [False] * st.n
    st.uninterrupted = False
    events: list[Event] = []
    # R12: an earlier kan's pending dora shows at this kan, only once it stands (a
    # robbed kan never does); an ankan turns its own at once, a kakan after the
    # kan player's discard (or the next kan)
    events += reveal_pending(st)
    if st.kan_is_kakan:
        st.pending_dora = 1
        st.pending_dora_seat = s
    else:
        events.append(reveal_dora(st))
    st.kan_is_kakan = False
    events.append(draw(st, s, rinshan=True))
    return events


def nuki(st: GameState, s: int) -> list[Event]:
    """S12: in sanma a north is set aside as a dora and replaced from the dead wall.

    Like a kakan it can be robbed (a ron on the north, not chankan: the hand needs a
    yaku of its own); it turns no dora indicator.
    """
    drawn = st.drawn[s]
    if drawn is not None and drawn >> 2 == NORTH:
        tid = drawn
    else:
        tid = next(x for x in st.hands[s] if x >> 2 == NORTH)
    st.hands[s].remove(tid)
    st.cnt[s][NORTH] -= 1
    st.nuki[s].append(tid)
    st.replaced += 1
    st.drawn[s] = None
    st.touch(s)
    events: list[Event] = [Nuki(s, st.tile(tid))]
    update_waits(st, s)
    clear_claims(st)
    st.claim_tile = tid
    st.claim_from = s
    st.pulling = True  # a ron now is on the north set aside: never houtei (S12e)
    for o in range(st.n):
        if o == s or NORTH not in st.waits[o] or st.furiten(o):
            continue
        res = st.score(o, st.tile(tid), False)
        if res is not None:
            st.claim_results[o] = res
            st.claim_options[o] = [RON_OF[o], PASS_OF[o]]
    for o in range(st.n):
        if o != s and NORTH in st.waits[o]:
            st.pass_winning_tile(o)  # R16: passing it is furiten, as any winning tile
    if st.claim_options:
        st.step = S_CHANKAN
        return events
    return events + finish_nuki(st, s)


def finish_nuki(st: GameState, s: int) -> list[Event]:
    """A north set aside and not robbed: as a call, it ends every ippatsu and the
    first go-around (S12f), then the replacement draw."""
    st.pulling = False
    st.ippatsu = [False] * st.n
    st.uninterrupted = False
    return [draw(st, s, rinshan=True)]
