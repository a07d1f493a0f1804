"""The call window (N10-N12): answers to a discard or an added kan, resolved by priority."""

from __future__ import annotations

from server.engine.actions import Action, ActionType
from server.engine.events import Event
from server.engine.nanchang.events import Called
from server.engine.nanchang.melds import Meld, MeldType, RiverTile
from server.engine.nanchang.round_end import others_hold_jokers, win
from server.engine.nanchang.scoring import WinContext
from server.engine.nanchang.state import NanchangGame
from server.engine.nanchang.turn import draw, finish_kakan, next_draw, take_tile
from server.engine.tiles import TileId


def close_calls(g: NanchangGame) -> list[Event]:
    """N10: a win first (the first in turn order from the discarder), then pon/kan, then chi."""
    assert g.last_discard is not None
    discarder, tid = g.last_discard
    k = tid // 4
    order = [(discarder + i) % 4 for i in range(1, 4)]
    answers = [g.answers[s] for s in order if s in g.answers]
    g.step, g.choices, g.answers, g.last_discard = "act", {}, {}, None
    dihu, g.dihu_window = g.dihu_window, False
    for a in answers:
        if a.type is ActionType.RON:
            ctx = WinContext(dihu=dihu, others_hold_jokers=others_hold_jokers(g, a.seat))
            return win(g, a.seat, discarder, g.hand_kinds(a.seat), k, ctx)
    for types in ((ActionType.PON, ActionType.DAIMINKAN), (ActionType.CHI,)):
        for a in answers:
            if a.type in types:
                return _call(g, a, discarder, tid)
    return next_draw(g, discarder)


def _call(g: NanchangGame, a: Action, discarder: int, tid: TileId) -> list[Event]:
    """N10: the discard joins the caller's meld; an open kan draws its replacement (N11)."""
    seat, k = a.seat, tid // 4
    own = tuple(take_tile(g, seat, x) for x in a.tiles)
    river = g.rivers[discarder]
    river[-1] = RiverTile(river[-1].tile, river[-1].tsumogiri, True)
    kind: MeldType = "chi" if a.type is ActionType.CHI else "pon"
    if a.type is ActionType.DAIMINKAN:
        kind = "minkan"
    meld = Meld(kind, tuple(sorted((*a.tiles, k))), k, discarder)
    g.melds[seat].append(meld)
    g.meld_ids[seat].append((*own, tid))
    g.taken[seat].append((k, discarder))
    g.drawn[seat] = None
    events: list[Event] = [Called(seat, meld)]
    if kind == "minkan":
        g.kans.append((seat, k, "minkan"))
        return events + draw(g, seat, True)
    # N10: after a chi or pon the caller only discards (a kan waits for its next draw)
    g.turn, g.step, g.replacement = seat, "discard", False
    return events


def close_rob(g: NanchangGame) -> list[Event]:
    """N11, N12: the first robber in turn order from the kan player wins (抢杠); else it stands."""
    assert g.kakan is not None
    kan_seat, tid, _ = g.kakan
    order = [(kan_seat + i) % 4 for i in range(1, 4)]
    for s in order:
        a = g.answers.get(s)
        if a is not None and a.type is ActionType.RON:
            g.step, g.choices, g.answers = "act", {}, {}
            ctx = WinContext(qianggang=True, others_hold_jokers=others_hold_jokers(g, s))
            return win(g, s, kan_seat, g.hand_kinds(s), tid // 4, ctx)
    return finish_kakan(g)
