"""Play riichienv games and replay them through our engine, in one or two processes.

``run(rules, seeds, jobs)`` plays each seed's hanchan with riichienv, replays
it through our engine (``replay.replay_game``) and sums the differences by
category (with the first few examples of each) and the rare-situation counts.
With ``jobs=2`` the games are shared by two worker processes (spawned, so
nothing of the parent's state is shared).
"""

from __future__ import annotations

import multiprocessing
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from tests.differential.replay import GameReport, replay_game
from tests.differential.riichienv_play import play

EXAMPLES = 3  # examples kept per category


@dataclass(slots=True)
class Summary:
    rules: str
    games: int = 0
    rounds: int = 0
    decisions: int = 0
    categories: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)
    coverage: Counter[str] = field(default_factory=Counter)

    def add(self, rep: GameReport) -> None:
        self.games += 1
        self.rounds += rep.rounds
        self.decisions += rep.decisions
        self.coverage.update(rep.coverage)
        for d in rep.differences:
            self.categories[d.category] += 1
            ex = self.examples.setdefault(d.category, [])
            if len(ex) < EXAMPLES:
                ex.append(d.detail)


def check(args: tuple[int, str]) -> GameReport:
    """Play one seed under riichienv's ``rules`` and replay it through our engine."""
    seed, rules = args
    return replay_game(play(seed, rules))


def run(rules: str, seeds: Iterable[int], jobs: int = 1) -> Summary:
    summary = Summary(rules)
    work = [(s, rules) for s in seeds]
    if jobs <= 1:
        for w in work:
            summary.add(check(w))
        return summary
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(jobs) as pool:
        for rep in pool.imap(check, work, chunksize=8):
            summary.add(rep)
    return summary


# riichienv deals round k of the game seeded s from splitmix64(s + k), so the games of
# seeds s and s + 1 share all but one wall; seeds this far apart share none.
SEED_STEP = 256


def seeds_for(rules: str, start: int, games: int) -> Sequence[int]:
    """riichienv seeds of games ``start`` .. ``start + games - 1``, disjoint per rule set."""
    base = {"tenhou": 0, "majsoul": 1 << 40}[rules]
    return range(base + start * SEED_STEP, base + (start + games) * SEED_STEP, SEED_STEP)
