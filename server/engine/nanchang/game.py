"""Transitions of a Nanchang game: deal, turns, the call window, wins, round and game end.

``new_game`` deals the first round; ``apply`` takes one legal action and
returns the events it caused (``IllegalAction`` with the reason, state
unchanged, otherwise); ``next_round`` deals the next round after a round end.
Every transition is deterministic: the seed and the log rebuild the same game.
"""

from __future__ import annotations

from collections.abc import Sequence

from server.engine.actions import Action, ActionType, IllegalAction
from server.engine.nanchang.events import (
    Called,
    Dealt,
    Discarded,
    Drew,
    Event,
    GameEnded,
    GameStarted,
    JokerRevealed,
    Kanned,
    RoundEnded,
    RoundStarted,
    WallExhausted,
    Won,
)
from server.engine.nanchang.jokers import Jokers
from server.engine.nanchang.legal import call_choices, legal_actions, rob_choices, why_illegal
from server.engine.nanchang.melds import Meld, RiverTile
from server.engine.nanchang.options import NanchangOptions
from server.engine.nanchang.scoring import WinContext, score_win
from server.engine.nanchang.settlement import (
    JokerBonus,
    KanPoints,
    RoundResult,
    Standing,
    WinRecord,
    joker_bonuses,
    kan_points,
    standings,
    total,
)
from server.engine.nanchang.state import NanchangGame
from server.engine.nanchang.wall import FIRST_DRAW, NUM_TILES, NanchangWall, roll_for_dealer
from server.engine.tiles import Kind, TileId


def new_game(options: NanchangOptions, seed: bytes, first_dealer: int = 0) -> NanchangGame:
    """A game with its first round dealt; ``start_events`` holds the opening events.

    With ``options.dealer_by_dice`` (the seed's way, N3) seat ``first_dealer`` rolls and
    the dealer is counted from it; otherwise seat ``first_dealer`` deals first.
    """
    if not 0 <= first_dealer <= 3:
        raise ValueError("first_dealer must be 0..3")
    dice = None
    dealer = first_dealer
    if options.dealer_by_dice:
        dice, dealer = roll_for_dealer(seed, first_dealer)
    g = _blank(options, seed, first_dealer, dice, dealer)
    events: list[Event] = [GameStarted(options, first_dealer, dice, dealer)]
    events += _deal(g, NanchangWall.from_seed(seed, 0, dealer))
    g.start_events = events
    return g


def at_round(
    options: NanchangOptions,
    wall: NanchangWall,
    *,
    round_wind: int = 0,
    hand_number: int = 0,
    repeat: int = 0,
    scores: Sequence[int] | None = None,
    first_dealer: int | None = None,
) -> NanchangGame:
    """A game at a given round, dealt from a given wall (scenario tests build walls).

    Its log does not replay from a seed: the wall was not rolled from one.
    """
    dealer = wall.dealer
    g = _blank(options, b"", dealer, None, dealer if first_dealer is None else first_dealer)
    g.round_wind, g.hand_number, g.repeat = round_wind, hand_number, repeat
    if scores is not None:
        if len(scores) != 4:
            raise ValueError("scores: four values")
        g.scores = list(scores)
        g.points_total = sum(scores)
    g.start_events = _deal(g, wall)
    return g


def _blank(
    options: NanchangOptions, seed: bytes, roller: int, dice: tuple[int, int] | None, dealer: int
) -> NanchangGame:
    placeholder = NanchangWall(list(range(NUM_TILES)), dealer, (1, 1), (1, 1), (1, 1))
    return NanchangGame(
        options=options,
        seed=seed,
        roller=roller,
        dealer_dice=dice,
        first_dealer=dealer,
        phase="play",
        scores=[options.start_points] * 4,
        points_total=4 * options.start_points,
        round_index=0,
        round_wind=0,
        hand_number=0,
        dealer=dealer,
        repeat=0,
        wall=placeholder,
        live=[],
        jokers=Jokers(0, 1),
        hands=[[], [], [], []],
        drawn=[None] * 4,
        melds=[[], [], [], []],
        meld_ids=[[], [], [], []],
        rivers=[[], [], [], []],
        river_ids=[[], [], [], []],
        taken=[[], [], [], []],
        kans=[],
        turn=dealer,
        step="act",
        replacement=False,
        first_turn=True,
        dihu_window=False,
        last_discard=None,
        kakan=None,
        choices={},
        answers={},
        log=[],
        round_results=[],
        start_events=[],
        final=None,
    )


def _deal(g: NanchangGame, wall: NanchangWall) -> list[Event]:
    """N4, N5: deal the round from ``wall`` (dealer 14, others 13), turn up the joker."""
    g.wall = wall
    g.dealer = wall.dealer
    g.live = list(range(FIRST_DRAW, NUM_TILES))
    g.jokers = Jokers.from_indicator(wall.indicator)
    g.hands = [wall.hand(s) for s in range(4)]
    g.drawn = [None] * 4
    g.melds, g.meld_ids = [[], [], [], []], [[], [], [], []]
    g.rivers, g.river_ids, g.taken = [[], [], [], []], [[], [], [], []], [[], [], [], []]
    g.kans = []
    g.turn, g.step = g.dealer, "act"
    g.replacement, g.first_turn, g.dihu_window = False, True, False
    g.last_discard, g.kakan, g.choices, g.answers = None, None, {}, {}
    g.phase = "play"
    events: list[Event] = [
        RoundStarted(
            g.round_index,
            g.round_wind,
            g.hand_number,
            g.dealer,
            g.repeat,
            wall.break_dice,
            wall.second_roller,
            wall.second_dice,
            (g.scores[0], g.scores[1], g.scores[2], g.scores[3]),
        )
    ]
    for s in range(4):
        events.append(Dealt(s, tuple(g.hand_kinds(s)), len(g.hands[s])))
    events.append(JokerRevealed(wall.joker_dice, wall.indicator, g.jokers.zheng, g.jokers.fu))
    return events


def waiting_on(g: NanchangGame) -> frozenset[int]:
    """The seats whose decision the game waits for (empty between rounds and at the end)."""
    if g.phase != "play":
        return frozenset()
    if g.step in ("act", "discard"):
        return frozenset((g.turn,))
    return frozenset(s for s in g.choices if s not in g.answers)


def apply(g: NanchangGame, action: Action) -> list[Event]:
    """Apply one legal action; ``IllegalAction`` (state unchanged) names the reason otherwise."""
    reason = why_illegal(g, action)
    if reason is not None:
        raise IllegalAction(reason)
    g.legal_cache.clear()
    g.log.append(action)
    t = action.type
    if g.step in ("calls", "rob"):
        g.answers[action.seat] = action
        if len(g.answers) < len(g.choices):
            return []
        return _close_rob(g) if g.step == "rob" else _close_calls(g)
    assert action.tile is not None or t is ActionType.TSUMO
    if t is ActionType.TSUMO:
        return _tsumo(g)
    k = action.tile
    assert k is not None
    if t is ActionType.ANKAN:
        return _ankan(g, k)
    if t is ActionType.KAKAN:
        return _kakan(g, k)
    return _discard(g, k)


# -- own turn -------------------------------------------------------------


def _take(g: NanchangGame, seat: int, k: Kind) -> TileId:
    """Remove one tile of kind ``k`` from a hand: the drawn one if it is that kind."""
    hand = g.hands[seat]
    d = g.drawn[seat]
    tid = d if d is not None and d // 4 == k else min(t for t in hand if t // 4 == k)
    hand.remove(tid)
    if tid == d:
        g.drawn[seat] = None
    return tid


def _draw(g: NanchangGame, seat: int, replacement: bool) -> list[Event]:
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


def _discard(g: NanchangGame, k: Kind) -> list[Event]:
    seat = g.turn
    d = g.drawn[seat]
    tsumogiri = d is not None and d // 4 == k
    tid = _take(g, seat, k)
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
        return events + _next_draw(g, seat)
    g.step, g.last_discard, g.choices, g.answers, g.dihu_window = (
        "calls",
        (seat, tid),
        choices,
        {},
        dihu,
    )
    return events


def _next_draw(g: NanchangGame, discarder: int) -> list[Event]:
    if not g.live:
        return _exhausted(g)
    return _draw(g, (discarder + 1) % 4, False)


def _ankan(g: NanchangGame, k: Kind) -> list[Event]:
    seat = g.turn
    ids = tuple(_take(g, seat, k) for _ in range(4))
    meld = Meld("ankan", (k, k, k, k))
    g.melds[seat].append(meld)
    g.meld_ids[seat].append(ids)
    g.kans.append((seat, k, "ankan"))
    g.first_turn = False
    return [Kanned(seat, meld), *_draw(g, seat, True)]


def _kakan(g: NanchangGame, k: Kind) -> list[Event]:
    seat = g.turn
    idx = next(i for i, m in enumerate(g.melds[seat]) if m.type == "pon" and m.tiles[0] == k)
    tid = _take(g, seat, k)
    pon = g.melds[seat][idx]
    meld = Meld("kakan", (k, k, k, k), pon.called, pon.from_seat, k)
    g.first_turn = False
    g.kakan = (seat, tid, idx)
    events: list[Event] = [Kanned(seat, meld)]
    choices = rob_choices(g, seat, k)
    if choices:
        g.step, g.choices, g.answers = "rob", choices, {}
        return events
    return events + _finish_kakan(g)


def _finish_kakan(g: NanchangGame) -> list[Event]:
    assert g.kakan is not None
    seat, tid, idx = g.kakan
    pon = g.melds[seat][idx]
    k = pon.tiles[0]
    g.melds[seat][idx] = Meld("kakan", (k, k, k, k), pon.called, pon.from_seat, k)
    g.meld_ids[seat][idx] = (*g.meld_ids[seat][idx], tid)
    g.kans.append((seat, k, "kakan"))
    g.kakan, g.choices, g.answers = None, {}, {}
    return _draw(g, seat, True)


def _tsumo(g: NanchangGame) -> list[Event]:
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
        others_hold_jokers=_others_hold_jokers(g, seat),
    )
    return _win(g, seat, None, concealed, win_tile, ctx)


# -- call window ----------------------------------------------------------


def _close_calls(g: NanchangGame) -> list[Event]:
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
            ctx = WinContext(dihu=dihu, others_hold_jokers=_others_hold_jokers(g, a.seat))
            return _win(g, a.seat, discarder, g.hand_kinds(a.seat), k, ctx)
    for types in ((ActionType.PON, ActionType.DAIMINKAN), (ActionType.CHI,)):
        for a in answers:
            if a.type in types:
                return _call(g, a, discarder, tid)
    return _next_draw(g, discarder)


def _call(g: NanchangGame, a: Action, discarder: int, tid: TileId) -> list[Event]:
    seat, k = a.seat, tid // 4
    own = tuple(_take(g, seat, x) for x in a.tiles)
    river = g.rivers[discarder]
    river[-1] = RiverTile(river[-1].tile, river[-1].tsumogiri, True)
    kind = {ActionType.CHI: "chi", ActionType.PON: "pon"}.get(a.type, "minkan")
    tiles = tuple(sorted((*a.tiles, k)))
    meld = Meld(kind, tiles, k, discarder)  # type: ignore[arg-type]
    g.melds[seat].append(meld)
    g.meld_ids[seat].append((*own, tid))
    g.taken[seat].append((k, discarder))
    g.drawn[seat] = None
    events: list[Event] = [Called(seat, meld)]
    if kind == "minkan":
        g.kans.append((seat, k, "minkan"))
        return events + _draw(g, seat, True)
    # N10: after a chi or pon the caller only discards (a kan waits for its next draw)
    g.turn, g.step, g.replacement = seat, "discard", False
    return events


def _close_rob(g: NanchangGame) -> list[Event]:
    assert g.kakan is not None
    kan_seat, tid, _ = g.kakan
    order = [(kan_seat + i) % 4 for i in range(1, 4)]
    for s in order:
        a = g.answers.get(s)
        if a is not None and a.type is ActionType.RON:
            g.step, g.choices, g.answers = "act", {}, {}
            ctx = WinContext(qianggang=True, others_hold_jokers=_others_hold_jokers(g, s))
            return _win(g, s, kan_seat, g.hand_kinds(s), tid // 4, ctx)
    return _finish_kakan(g)


# -- round end ------------------------------------------------------------


def _others_hold_jokers(g: NanchangGame, seat: int) -> bool:
    return any(g.jokers.count(g.holdings(s)) for s in range(4) if s != seat)


def _win(
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
    return [Won(record), *_end_round(g, "win", record, bonus, kans, total(*parts))]


def _exhausted(g: NanchangGame) -> list[Event]:
    """N25: 荒牌: the joker bonus and kan points still settle (options)."""
    opts = g.options
    bonus = (
        joker_bonuses([g.holdings(s) for s in range(4)], g.taken, g.jokers, opts)
        if opts.joker_bonus_on_draw
        else ()
    )
    kans = kan_points(g.kans, g.jokers, opts) if opts.kan_points_on_draw else ()
    parts = [*(b.deltas for b in bonus), *(k.deltas for k in kans)]
    return [WallExhausted(), *_end_round(g, "draw", None, bonus, kans, total(*parts))]


def _end_round(
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
    if not keeps and _last_hand(g):
        g.phase = "game_end"
        g.final = standings(g.scores, g.first_dealer)
        events.append(GameEnded(g.final))
    else:
        g.phase = "round_end"
    return events


def _last_hand(g: NanchangGame) -> bool:
    """N27: the deal leaves the fourth dealer of the last 圈."""
    return g.hand_number == 3 and g.round_wind == g.options.rounds - 1


def next_round(g: NanchangGame) -> list[Event]:
    """N27: deal the next round: the dealer keeps the deal after a win, else it passes on."""
    if g.phase != "round_end":
        raise IllegalAction(
            "next_round: the round is not over" if g.phase == "play" else "the game is over"
        )
    g.log.append(None)
    g.legal_cache.clear()
    last = g.round_results[-1]
    if last.dealer_keeps:
        g.repeat += 1
        dealer = g.dealer
    else:
        g.repeat = 0
        dealer = (g.dealer + 1) % 4
        g.hand_number += 1
        if g.hand_number == 4:
            g.hand_number, g.round_wind = 0, g.round_wind + 1
    g.round_index += 1
    return _deal(g, NanchangWall.from_seed(g.seed, g.round_index, dealer))


def final(g: NanchangGame) -> tuple[Standing, ...] | None:
    """N28: the final standings, or None before the end."""
    return g.final


def replay(
    options: NanchangOptions, seed: bytes, log: Sequence[Action | None], first_dealer: int = 0
) -> NanchangGame:
    """Rebuild a game from its seed and ``state.log`` (None between rounds)."""
    g = new_game(options, seed, first_dealer)
    for a in log:
        if a is None:
            next_round(g)
        else:
            apply(g, a)
    return g


__all__ = [
    "apply",
    "at_round",
    "final",
    "legal_actions",
    "new_game",
    "next_round",
    "replay",
    "waiting_on",
]
