"""The call window after a discard (R8-R11, R13, R16): who may claim, and who gets it.

A discard opens a window: every other seat's options are listed once
(``open_discard_window``); answers are collected and the window resolves as
soon as its outcome is certain (ron > pon/daiminkan > chi), so a lower claim
never waits on a higher one that was declined.
"""

from __future__ import annotations

from server.engine.actions import A_CHI, A_DAIMINKAN, A_PON, A_RON, Action
from server.engine.events import Event
from server.engine.melds import Meld, MeldType
from server.engine.riichi.deal import clear_claims, draw, reveal_pending, update_waits
from server.engine.riichi.events import Call, RiichiAccepted
from server.engine.riichi.kan import finish_kan, finish_nuki, kan_common
from server.engine.riichi.legal import (
    PASS_OF,
    RON_OF,
    call_options,
    call_refusal,
    chi_possible,
    suukan_pending,
)
from server.engine.riichi.settle import exhaustive, ron, ryuukyoku
from server.engine.riichi.state import S_CALLED, S_CHANKAN, S_CLAIM, Furo, GameState
from server.engine.tiles import DRAGONS, WINDS, Kind, TileId, kind, sort_key

_M_CHI = MeldType.CHI
_M_DAIMINKAN = MeldType.DAIMINKAN
_M_PON = MeldType.PON
_MELD_OF_CALL = {at: MeldType(at.value) for at in (A_CHI, A_PON, A_DAIMINKAN)}
_SORT = [sort_key(t) for t in range(37)]
_CALLS = frozenset({A_PON, A_DAIMINKAN})
# the other seats in turn order, per seat count and seat
AFTER = {n: [tuple((s + i) % n for i in range(1, n)) for s in range(n)] for n in (3, 4)}


def open_discard_window(st: GameState, discarder: int, tid: TileId) -> list[Event]:
    """Every other seat's claims on a discard, then resolve if nobody has one.

    R16 in the same loop: a seat whose winning tile passes becomes furiten
    (marking one seat changes no other seat's options).
    """
    clear_claims(st)
    st.claim_tile = tid
    st.claim_from = discarder
    st.step = S_CLAIM
    t = st._tile[tid]
    k = tid >> 2
    calls_ok = call_refusal(st) is None
    waits, riichi, cnt = st.waits, st.riichi, st.cnt  # locals: read 3 times a discard
    for s in AFTER[st.n][discarder]:
        opts: list[Action] | None = None
        w = waits[s]
        if w and k in w:
            if not st.furiten(s):
                res = st.score(s, t, False)
                if res is not None:
                    opts = [RON_OF[s]]
                    st.claim_results[s] = res
            st.pass_winning_tile(s)
        # cheap test first: most discards give nobody a call
        if calls_ok and not riichi[s] and (cnt[s][k] >= 2 or chi_possible(st, s, discarder, k)):
            calls = call_options(st, s, discarder, t)
            if calls:
                if opts is None:
                    opts = calls
                else:
                    opts.extend(calls)
        if opts:
            opts.append(PASS_OF[s])
            st.claim_options[s] = opts
    return maybe_resolve(st)


def answer(st: GameState, action: Action) -> list[Event]:
    """Record a seat's answer in the open window, then resolve it if certain."""
    st.claim_answers[action.seat] = action
    return maybe_resolve(st)


def maybe_resolve(st: GameState) -> list[Event]:
    """Resolve the window once its outcome is certain (R8)."""
    opts = st.claim_options
    if not opts:
        return _after_window(st, None)
    ans = st.claim_answers
    src = st.claim_from
    assert src is not None
    order = AFTER[st.n][src]
    # a seat has a ron option exactly when its win was scored into claim_results
    results = st.claim_results
    ron_seats = [s for s in order if s in results] if results else []
    pending_ron = [s for s in ron_seats if s not in ans]
    rons = [s for s in ron_seats if s in ans and ans[s].type is A_RON]
    if st.rules.multiple_ron == "atamahane":
        # the first ron in turn order wins; later seats cannot change that
        for s in ron_seats:
            if s not in ans:
                return []
            if ans[s].type is A_RON:
                return ron(st, [s])
        rons = []
    elif pending_ron:
        return []
    if rons:
        return ron(st, rons)
    if st.step is S_CHANKAN:
        clear_claims(st)
        return finish_nuki(st, src) if st.pulling else finish_kan(st, src)
    # no ron: pon/daiminkan beats chi
    call: Action | None = None
    for s in order:
        kinds = {a.type for a in opts.get(s, [])}
        if kinds & _CALLS:
            if s not in ans:
                return []
            if ans[s].type in _CALLS:
                call = ans[s]
    if call is None:
        for s in order:
            if any(a.type is A_CHI for a in opts.get(s, [])):
                if s not in ans:
                    return []
                if ans[s].type is A_CHI:
                    call = ans[s]
    return _after_window(st, call)


def _after_window(st: GameState, call: Action | None) -> list[Event]:
    src = st.claim_from
    tid = st.claim_tile
    assert src is not None and tid is not None
    clear_claims(st)
    events: list[Event] = []
    if st.riichi_decl is not None:
        s = st.riichi_decl
        st.riichi_decl = None
        st.riichi[s] = True
        st.ippatsu[s] = True
        st.double_riichi[s] = st.uninterrupted and st.discards[s] == 1
        st.scores[s] -= 1000
        st.round_deltas[s] -= 1000
        st.riichi_sticks += 1
        st.touch(s)
        events.append(RiichiAccepted(s, st.double_riichi[s], tuple(st.scores), st.riichi_sticks))
        if st.n == 4 and all(st.riichi) and st.rules.abortive_draws:
            return events + ryuukyoku(st, "suucha_riichi")  # not in sanma (S19)
    if suukan_pending(st):
        return events + ryuukyoku(st, "suukan_sanra")
    if call is not None:
        return events + _call(st, call, src, tid)
    if (
        st.n == 4  # not in sanma (S19)
        and st.uninterrupted
        and sum(st.discards) == 4
        and st.rules.abortive_draws
        and all(len(r) == 1 for r in st.rivers)
        and len({r[0].tid >> 2 for r in st.rivers}) == 1
        and st.rivers[0][0].tid >> 2 in WINDS
    ):
        return events + ryuukyoku(st, "suufon_renda")
    if st.live_left() == 0:
        return events + exhaustive(st)
    events.append(draw(st, (src + 1) % st.n, rinshan=False))
    return events


def _call(st: GameState, a: Action, src: int, tid: TileId) -> list[Event]:
    s = a.seat
    tiles_of = st._tile
    t = tiles_of[tid]
    own: list[TileId] = []
    pool = list(st.hands[s])
    for want in a.tiles:
        x = next(x for x in pool if tiles_of[x] == want)
        pool.remove(x)
        own.append(x)
    st.hands[s] = pool
    for x in own:
        st.cnt[s][x >> 2] -= 1
    st.rivers[src][-1] = st.rivers[src][-1]._replace(called=True)
    st.touch(src)
    st.touch(s)
    st.ippatsu = [False] * st.n
    st.uninterrupted = False
    ids = (*own, tid)
    tiles = tuple(sorted((tiles_of[x] for x in ids), key=_SORT.__getitem__))
    mt = _MELD_OF_CALL[a.type]
    meld = Meld(mt, tiles, t, src)
    st.melds[s].append(Furo(meld, ids))
    k = tid >> 2
    if mt is not _M_CHI:
        _track_pao(st, s, src, k)
    events: list[Event] = [Call(s, meld)]
    st.turn = s
    if mt is _M_DAIMINKAN:
        kan_common(st, s)
        events += reveal_pending(st)
        st.pending_dora = 1
        st.pending_dora_seat = s
        update_waits(st, s)
        events.append(draw(st, s, rinshan=True))
        return events
    st.step = S_CALLED
    if mt is _M_PON:
        st.kuikae = frozenset({k})
    else:
        lo = min(kind(x) for x in a.tiles)
        hi = max(kind(x) for x in a.tiles)
        forb = {k}
        if k < lo and hi + 1 < 27 and (hi + 1) // 9 == k // 9:
            forb.add(hi + 1)
        if k > hi and lo - 1 >= 0 and (lo - 1) // 9 == k // 9:
            forb.add(lo - 1)
        st.kuikae = frozenset(forb)
    return events


def _track_pao(st: GameState, s: int, src: int, k: Kind) -> None:
    """R24: remember who fed the third dragon set or the fourth wind set."""
    sets = {f.meld.first for f in st.melds[s] if f.meld.type is not _M_CHI}
    if k in DRAGONS and all(d in sets for d in DRAGONS):
        st.pao_dragon[s] = src
    if k in WINDS and all(w in sets for w in WINDS):
        st.pao_wind[s] = src
