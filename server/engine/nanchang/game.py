"""Transitions of a Nanchang game: deal, turns, the call window, wins, round and game end.

``new_game`` deals the first round; ``apply`` takes one legal action and
returns the events it caused (``IllegalAction`` with the reason, state
unchanged, otherwise); ``next_round`` deals the next round after a round end.
Every transition is deterministic: the seed and the log rebuild the same game.
"""

from __future__ import annotations

from collections.abc import Sequence

from server.engine.actions import Action, ActionType, IllegalAction
from server.engine.events import Event, Standing
from server.engine.nanchang.events import (
    Dealt,
    GameStarted,
    JokerRevealed,
    RoundStarted,
)
from server.engine.nanchang.jokers import Jokers
from server.engine.nanchang.legal import legal_actions, why_illegal
from server.engine.nanchang.options import NanchangOptions
from server.engine.nanchang.state import NanchangGame
from server.engine.nanchang.turn import ankan, discard, kakan, tsumo
from server.engine.nanchang.wall import FIRST_DRAW, NUM_TILES, NanchangWall, roll_for_dealer
from server.engine.nanchang.window import close_calls, close_rob


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
        return close_rob(g) if g.step == "rob" else close_calls(g)
    assert action.tile is not None or t is ActionType.TSUMO
    if t is ActionType.TSUMO:
        return tsumo(g)
    k = action.tile
    assert k is not None
    if t is ActionType.ANKAN:
        return ankan(g, k)
    if t is ActionType.KAKAN:
        return kakan(g, k)
    return discard(g, k)


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
