"""The end of a round (N17-N27): a win or an exhausted wall settles, then the round or game ends."""

from __future__ import annotations

from server.engine.events import Event
from server.engine.nanchang.events import GameEnded, RoundEnded, WallExhausted, Won
from server.engine.nanchang.scoring import WinContext, score_win
from server.engine.nanchang.settlement import (
    JokerBonus,
    KanPoints,
    RoundResult,
    WinRecord,
    joker_bonuses,
    kan_points,
    standings,
    total,
)
from server.engine.nanchang.state import NanchangGame
from server.engine.tiles import Kind


def others_hold_jokers(g: NanchangGame, seat: int) -> bool:
    return any(g.jokers.count(g.holdings(s)) for s in range(4) if s != seat)


def win(
    g: NanchangGame,
    seat: int,
    from_seat: int | None,
    concealed: list[Kind],
    win_tile: Kind | None,
    ctx: WinContext,
) -> list[Event]:
    score = score_win(
        concealed,
        win_tile,
        g.melds[seat],
        g.jokers,
        ctx,
        g.options,
        winner=seat,
        dealer=g.dealer,
        discarder=from_seat,
    )
    assert score is not None, "a legal win must score"
    record = WinRecord(seat, from_seat, win_tile, tuple(concealed), tuple(g.melds[seat]), score)
    holdings = [g.holdings(s) for s in range(4)]
    taken = [list(t) for t in g.taken]
    if from_seat is not None:
        assert win_tile is not None
        holdings[seat].append(win_tile)  # N22: a joker won on counts like one held
        taken[seat].append((win_tile, from_seat))
    bonus = joker_bonuses(holdings, taken, g.jokers, g.options)
    kans = kan_points(g.kans, g.jokers, g.options)
    parts = [score.payments, *(b.deltas for b in bonus), *(k.deltas for k in kans)]
    return [Won(record), *end_round(g, "win", record, bonus, kans, total(*parts))]


def exhausted(g: NanchangGame) -> list[Event]:
    """N25: 荒牌: the joker bonus and kan points still settle (options)."""
    opts = g.options
    bonus = (
        joker_bonuses([g.holdings(s) for s in range(4)], g.taken, g.jokers, opts)
        if opts.joker_bonus_on_draw
        else ()
    )
    kans = kan_points(g.kans, g.jokers, opts) if opts.kan_points_on_draw else ()
    parts = [*(b.deltas for b in bonus), *(k.deltas for k in kans)]
    return [WallExhausted(), *end_round(g, "draw", None, bonus, kans, total(*parts))]


def end_round(
    g: NanchangGame,
    kind: str,
    record: WinRecord | None,
    bonus: tuple[JokerBonus, ...],
    kans: tuple[KanPoints, ...],
    deltas: tuple[int, int, int, int],
) -> list[Event]:
    for s in range(4):
        g.scores[s] += deltas[s]
    keeps = (record is not None and record.seat == g.dealer) or (
        record is None and g.options.dealer_keeps_on_draw
    )
    hands = tuple(tuple(g.hand_kinds(s)) for s in range(4))
    result = RoundResult(
        g.round_index,
        g.round_wind,
        g.hand_number,
        g.dealer,
        g.repeat,
        "win" if kind == "win" else "draw",
        record,
        hands,
        bonus,
        kans,
        deltas,
        (g.scores[0], g.scores[1], g.scores[2], g.scores[3]),
        keeps,
    )
    g.round_results.append(result)
    # a robbed kan's tile stays in ``kakan`` until the next deal (it is accounted for there)
    g.step, g.choices, g.answers, g.last_discard = "act", {}, {}, None
    events: list[Event] = [RoundEnded(result)]
    if not keeps and last_hand(g):
        g.phase = "game_end"
        g.final = standings(g.scores, g.first_dealer)
        events.append(GameEnded(g.final))
    else:
        g.phase = "round_end"
    return events


def last_hand(g: NanchangGame) -> bool:
    """N27: the deal leaves the fourth dealer of the last 圈."""
    return g.hand_number == 3 and g.round_wind == g.options.rounds - 1
