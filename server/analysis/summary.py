"""Per player, over a whole game: how often the discards agreed with the bots, each
deal-in with the danger of the tile at that moment, each riichi with its timing, and
the key moments worth a look (links are ``(hand, event)`` places, see ``moments``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from server.analysis.decisions import Candidate, Decision, same_choice
from server.analysis.moments import DealIn
from server.engine.tiles import Tile

# How many "worst discards" a summary names beside its deal-ins and riichi.
WORST_SHOWN = 3


@dataclass(frozen=True, slots=True)
class KeyMoment:
    hand: int
    event: int
    kind: str  # "deal_in" | "riichi" | "shanten_loss" | "ukeire_loss"
    tile: Tile | None  # the tile discarded
    loss: int | None  # shanten lost, or ukeire copies lost against the best discard
    level: int | None  # danger of a deal-in tile (None: no threat was in sight)
    threats: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class SeatSummary:
    seat: int
    discards: int  # turns that ended in a discard (riichi included)
    agree_efficient: int
    agree_defensive: int
    deal_ins: tuple[KeyMoment, ...]
    riichi: tuple[tuple[int, int, int, int], ...]  # (hand, event, junme, copies of the waits)
    key_moments: tuple[KeyMoment, ...]


def _loss(d: Decision) -> tuple[str, int] | None:
    """How much the actual discard gave up against the best candidate, if anything."""
    mine = d.chosen(d.actual)
    if mine is None or not d.candidates:
        return None
    best: Candidate = d.candidates[0]
    if mine.shanten > best.shanten:
        return "shanten_loss", mine.shanten - best.shanten
    if mine.total < best.total:
        return "ukeire_loss", best.total - mine.total
    return None


def summarise(seat: int, decisions: Sequence[Decision], deal_ins: Sequence[DealIn]) -> SeatSummary:
    """``decisions``: this seat's, in game order; ``deal_ins``: the game's."""
    turns = [d for d in decisions if d.turn and d.chosen(d.actual) is not None]
    ins: list[KeyMoment] = []
    for di in deal_ins:
        if di.seat != seat:
            continue
        # the discard dealt in: the seat's last discard of that round before the agari
        last = next((d for d in reversed(turns) if d.hand == di.hand and d.event < di.event), None)
        cand = last.chosen(last.actual) if last is not None else None
        ins.append(
            KeyMoment(
                di.hand,
                last.event if last is not None else di.event,
                "deal_in",
                cand.tile if cand is not None else None,
                None,
                cand.level if cand is not None else None,
                last.threats if last is not None else (),
            )
        )
    riichi = tuple(
        (d.hand, d.event, d.junme + 1, sum(n for _, n in d.waits)) for d in turns if d.riichi
    )
    losses: list[tuple[tuple[int, int], KeyMoment]] = []
    for d in turns:
        got = _loss(d)
        if got is None:
            continue
        what, n = got
        losses.append(
            (
                (0 if what == "shanten_loss" else 1, -n),
                KeyMoment(d.hand, d.event, what, d.actual.tile, n, None, d.threats),
            )
        )
    losses.sort(key=lambda x: x[0])
    worst = [k for _, k in losses[:WORST_SHOWN]]
    keys = sorted(
        [
            *ins,
            *(KeyMoment(h, e, "riichi", None, None, None) for h, e, _, _ in riichi),
            *worst,
        ],
        key=lambda k: (k.hand, k.event),
    )
    return SeatSummary(
        seat=seat,
        discards=len(turns),
        agree_efficient=sum(same_choice(d.actual, d.efficient) for d in turns),
        agree_defensive=sum(same_choice(d.actual, d.defensive) for d in turns),
        deal_ins=tuple(ins),
        riichi=riichi,
        key_moments=tuple(keys),
    )
