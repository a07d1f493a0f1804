"""A whole game's analysis: every seat's decisions and summary."""

from __future__ import annotations

from dataclasses import dataclass

from server.analysis.decisions import Decision, analyse_moment
from server.analysis.moments import Replayed
from server.analysis.summary import SeatSummary, summarise


class AnalysisError(ValueError):
    """A game that cannot be analysed (another game than riichi, or no record)."""


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    seats: int
    hands: int
    decisions: tuple[tuple[Decision, ...], ...]  # per seat, in game order
    summaries: tuple[SeatSummary, ...]


def analyse(replayed: Replayed, seats: frozenset[int] | None = None) -> GameAnalysis:
    """Decisions of ``seats`` (default: all) and every seat's summary.

    A summary needs the seat's decisions, so the seats asked for and the seats
    summarised are the same: the API asks for all of them once and caches.
    """
    n = replayed.seats
    wanted = seats if seats is not None else frozenset(range(n))
    per_seat: list[list[Decision]] = [[] for _ in range(n)]
    for m in replayed.moments:
        if m.action.seat in wanted:
            per_seat[m.action.seat].append(analyse_moment(m))
    return GameAnalysis(
        seats=n,
        hands=replayed.hands,
        decisions=tuple(tuple(d) for d in per_seat),
        summaries=tuple(
            summarise(s, per_seat[s], replayed.deal_ins) for s in range(n) if s in wanted
        ),
    )
