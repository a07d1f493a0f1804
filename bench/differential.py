"""Differential run against riichienv (issue 11): thousands of hanchan, every difference.

riichienv (PyPI, Rust) plays full hanchan with seeded agents under its Tenhou
or Mahjong Soul rules; each game is replayed through our engine under the
matching preset (``tests/differential``). Prints every difference category
with its count and examples, marking the ones the CI test lists as
riichienv's known deviations or as pending engine fixes, and how often each
rare situation occurred.

    .venv/bin/python bench/differential.py --games 2000 --seed 0 --rules tenhou [--jobs 2]
    .venv/bin/python bench/differential.py --rules tenhou --show 4608   # one game, by seed

The examples name riichienv's seed (not the game number); ``--show`` replays that
one game and prints all of its differences in full.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.differential.replay import replay_game
from tests.differential.riichienv_play import play
from tests.differential.run import Summary, run, seeds_for
from tests.differential.test_riichienv import KNOWN, PENDING_ISSUE_11, classify


def report(s: Summary, seconds: float, examples: int) -> None:
    print(
        f"\n## {s.rules}: {s.games} games, {s.rounds} rounds, {s.decisions} decisions "
        f"compared, {seconds:.1f} s"
    )
    print("\n### Differences by category\n")
    if not s.categories:
        print("none")
    for cat, n in s.categories.most_common():
        print(f"- {n:6d}  {cat}  [{classify(cat, s.rules)}]")
        for ex in s.examples[cat][:examples]:
            print(f"            e.g. {ex}")
    print("\n### Rare situations\n")
    for name, n in sorted(s.coverage.items()):
        print(f"- {n:6d}  {name}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=0, help="first seed")
    p.add_argument("--rules", choices=("tenhou", "majsoul", "both"), default="both")
    p.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    p.add_argument("--examples", type=int, default=2, help="examples printed per category")
    p.add_argument("--show", type=int, help="replay this one riichienv seed, print everything")
    args = p.parse_args()
    if args.show is not None:
        rules = "tenhou" if args.rules == "both" else args.rules
        game = play(args.show, rules)
        rep = replay_game(game)
        print(f"seed {args.show} {rules}: agents {game.agents}, {rep.rounds} rounds")
        for d in rep.differences:
            print(f"- {d.category}  [{classify(d.category, rules)}]\n    {d.detail}")
        return
    print(
        f"known riichienv deviations: {len(KNOWN)}; pending issue-11 items: {len(PENDING_ISSUE_11)}"
    )
    for rules in ("tenhou", "majsoul") if args.rules == "both" else (args.rules,):
        t0 = time.perf_counter()
        s = run(rules, seeds_for(rules, args.seed, args.games), args.jobs)
        report(s, time.perf_counter() - t0, args.examples)


if __name__ == "__main__":
    main()
