"""What one seat may know: ``observe(state, seat)`` (a spectator: seat None).

Its own concealed tiles and drawn tile, every meld and river, the ledger, the
jokers and the turned-up tile, how many tiles are left, whose turn it is, the
round and the last round's result. Never another seat's concealed tiles nor
the wall: bots decide from this value, so they cannot see them by construction.
"""

from __future__ import annotations

from dataclasses import dataclass

from server.engine.actions import Action
from server.engine.events import Standing
from server.engine.nanchang.game import waiting_on
from server.engine.nanchang.jokers import Jokers
from server.engine.nanchang.legal import legal_actions
from server.engine.nanchang.melds import Meld, RiverTile
from server.engine.nanchang.options import NanchangOptions
from server.engine.nanchang.settlement import RoundResult
from server.engine.nanchang.state import NanchangGame, Phase, Step
from server.engine.nanchang.wall import NUM_TILES, Dice
from server.engine.tiles import Kind

Four = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class NanchangObservation:
    seat: int | None
    options: NanchangOptions
    phase: Phase
    step: Step
    round_index: int
    round_wind: int
    hand_number: int
    dealer: int
    repeat: int
    first_dealer: int
    turn: int
    waiting_on: frozenset[int]  # in a call window: only the observer itself, if asked
    scores: Four
    indicator: Kind  # the turned-up tile (N5)
    jokers: Jokers  # 正精 and 副精
    wall_left: int
    # The public wall (N4, N5, N11): the three rolls, tiles taken from the front since the
    # break (the deal included) and replacement draws taken from the wall's end.
    break_dice: Dice
    second_roller: int
    second_dice: Dice
    joker_dice: Dice
    wall_drawn: int
    rinshan_drawn: int
    hand: tuple[Kind, ...]  # own concealed tiles, sorted (empty for a spectator)
    drawn: Kind | None  # own drawn tile (also in ``hand``)
    hand_sizes: Four
    melds: tuple[tuple[Meld, ...], ...]
    rivers: tuple[tuple[RiverTile, ...], ...]
    last_discard: tuple[int, Kind] | None  # the discard the call window is open on
    kakan: tuple[int, Kind] | None  # an added kan that may be robbed
    last_result: RoundResult | None
    final: tuple[Standing, ...] | None
    legal: tuple[Action, ...] = ()  # what this seat may do now
    to_act: bool = False  # this seat must decide now


def _four(xs: list[int]) -> Four:
    return (xs[0], xs[1], xs[2], xs[3])


def _waiting(g: NanchangGame, seat: int | None) -> frozenset[int]:
    """The seat in turn, or in a call window only the observer itself: who else may call is
    not for others to know."""
    w = waiting_on(g)
    if g.step in ("act", "discard"):
        return w
    return w & {seat} if seat is not None else frozenset()


def observe(g: NanchangGame, seat: int | None) -> NanchangObservation:
    """The game as ``seat`` may see it."""
    if seat is not None and not 0 <= seat <= 3:
        raise ValueError(f"no seat {seat}")
    own = seat is not None
    d = g.drawn[seat] if seat is not None else None
    return NanchangObservation(
        seat=seat,
        options=g.options,
        phase=g.phase,
        step=g.step,
        round_index=g.round_index,
        round_wind=g.round_wind,
        hand_number=g.hand_number,
        dealer=g.dealer,
        repeat=g.repeat,
        first_dealer=g.first_dealer,
        turn=g.turn,
        waiting_on=_waiting(g, seat),
        scores=_four(g.scores),
        indicator=g.wall.indicator,
        jokers=g.jokers,
        wall_left=len(g.live),
        break_dice=g.wall.break_dice,
        second_roller=g.wall.second_roller,
        second_dice=g.wall.second_dice,
        joker_dice=g.wall.joker_dice,
        # every kan that stands has had its replacement; a kakan open to robbing has not
        wall_drawn=NUM_TILES - len(g.live) - len(g.kans),
        rinshan_drawn=len(g.kans),
        hand=tuple(g.hand_kinds(seat)) if seat is not None else (),
        drawn=d // 4 if own and d is not None else None,
        hand_sizes=_four([len(h) for h in g.hands]),
        melds=tuple(tuple(m) for m in g.melds),
        rivers=tuple(tuple(r) for r in g.rivers),
        last_discard=(g.last_discard[0], g.last_discard[1] // 4) if g.last_discard else None,
        kakan=(g.kakan[0], g.kakan[1] // 4) if g.kakan else None,
        last_result=g.round_results[-1] if g.round_results else None,
        final=g.final,
        legal=tuple(legal_actions(g, seat)) if seat is not None else (),
        to_act=seat is not None and bool(legal_actions(g, seat)),
    )
