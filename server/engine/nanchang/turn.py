"""The seat in turn: draws, discards, kans and the self-draw win (N8, N11, N18)."""

from __future__ import annotations

from server.engine.events import Event
from server.engine.nanchang.events import Discarded, Drew, Kanned
from server.engine.nanchang.legal import call_choices, rob_choices
from server.engine.nanchang.melds import Meld, RiverTile
from server.engine.nanchang.round_end import exhausted, others_hold_jokers, win
from server.engine.nanchang.scoring import WinContext
from server.engine.nanchang.state import NanchangGame
from server.engine.tiles import Kind, TileId


def take_tile(g: NanchangGame, seat: int, k: Kind) -> TileId:
    """Remove one tile of kind ``k`` from a hand: the drawn one if it is that kind."""
    hand = g.hands[seat]
    d = g.drawn[seat]
    tid = d if d is not None and d // 4 == k else min(t for t in hand if t // 4 == k)
    hand.remove(tid)
    if tid == d:
        g.drawn[seat] = None
    return tid


def draw(g: NanchangGame, seat: int, replacement: bool) -> list[Event]:
    """A draw from the front, or (N11) from the wall's end: the last stack's top, then bottom."""
    live = g.live
    if not replacement:
        pos = live.pop(0)
    elif len(live) >= 2 and live[-2] % 2 == 0 and live[-1] == live[-2] + 1:
        pos = live.pop(-2)
    else:
        pos = live.pop()
    tid = g.wall.tiles[pos]
    g.hands[seat].append(tid)
    g.drawn[seat] = tid
    g.turn, g.step, g.replacement = seat, "act", replacement
    return [Drew(seat, tid // 4, replacement, pos == g.wall.indicator_pos)]


def discard(g: NanchangGame, k: Kind) -> list[Event]:
    """N8: a discard opens the call window, or the next seat draws (or the wall is out, N25)."""
    seat = g.turn
    d = g.drawn[seat]
    tsumogiri = d is not None and d // 4 == k
    tid = take_tile(g, seat, k)
    g.drawn[seat] = None
    g.rivers[seat].append(RiverTile(k, tsumogiri))
    g.river_ids[seat].append(tid)
    # N18: 地糊 is a win on the dealer's first discard, before any kan
    dihu = seat == g.dealer and g.first_turn
    g.first_turn = False
    g.replacement = False
    events: list[Event] = [Discarded(seat, k, tsumogiri)]
    choices = call_choices(g, seat, k, dihu)
    if not choices:
        return events + next_draw(g, seat)
    g.step, g.last_discard, g.choices, g.answers, g.dihu_window = (
        "calls",
        (seat, tid),
        choices,
        {},
        dihu,
    )
    return events


def next_draw(g: NanchangGame, discarder: int) -> list[Event]:
    """N2: the next seat draws; with no tile left the round is drawn (荒牌, N25)."""
    if not g.live:
        return exhausted(g)
    return draw(g, (discarder + 1) % 4, False)


def ankan(g: NanchangGame, k: Kind) -> list[Event]:
    """N11: a concealed kan, laid face up; never robbed; a replacement from the wall's end."""
    seat = g.turn
    ids = tuple(take_tile(g, seat, k) for _ in range(4))
    meld = Meld("ankan", (k, k, k, k))
    g.melds[seat].append(meld)
    g.meld_ids[seat].append(ids)
    g.kans.append((seat, k, "ankan"))
    g.first_turn = False
    return [Kanned(seat, meld), *draw(g, seat, True)]


def kakan(g: NanchangGame, k: Kind) -> list[Event]:
    """N11: an added kan; seats that win on its tile may rob it (抢杠) before it stands."""
    seat = g.turn
    idx = next(i for i, m in enumerate(g.melds[seat]) if m.type == "pon" and m.tiles[0] == k)
    tid = take_tile(g, seat, k)
    pon = g.melds[seat][idx]
    meld = Meld("kakan", (k, k, k, k), pon.called, pon.from_seat, k)
    g.first_turn = False
    g.kakan = (seat, tid, idx)
    events: list[Event] = [Kanned(seat, meld)]
    choices = rob_choices(g, seat, k)
    if choices:
        g.step, g.choices, g.answers = "rob", choices, {}
        return events
    return events + finish_kakan(g)


def finish_kakan(g: NanchangGame) -> list[Event]:
    """Nobody robbed the added kan: it stands (kan points, N24) and draws its replacement."""
    assert g.kakan is not None
    seat, tid, idx = g.kakan
    pon = g.melds[seat][idx]
    k = pon.tiles[0]
    g.melds[seat][idx] = Meld("kakan", (k, k, k, k), pon.called, pon.from_seat, k)
    g.meld_ids[seat][idx] = (*g.meld_ids[seat][idx], tid)
    g.kans.append((seat, k, "kakan"))
    g.kakan, g.choices, g.answers = None, {}, {}
    return draw(g, seat, True)


def tsumo(g: NanchangGame) -> list[Event]:
    """N18: a self-draw win (天糊 for the dealer's 14 dealt tiles, 杠开 on a replacement)."""
    seat = g.turn
    d = g.drawn[seat]
    hand = g.hand_kinds(seat)
    tianhu = g.first_turn and seat == g.dealer and d is None
    if tianhu:
        concealed, win_tile = hand, None
    else:
        assert d is not None
        concealed = list(hand)
        concealed.remove(d // 4)
        win_tile = d // 4
    ctx = WinContext(
        tsumo=True,
        gangkai=g.replacement,
        tianhu=tianhu,
        others_hold_jokers=others_hold_jokers(g, seat),
    )
    return win(g, seat, None, concealed, win_tile, ctx)
