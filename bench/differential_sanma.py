"""Sanma differential run against riichienv's three-player mode, more games than CI.

Plays ``--games`` hanchan in riichienv (``RiichiEnv(game_mode="3p-red-half")``) with
seeded agents and replays each round in our engine (``tests/engine/riichienv_sanma.py``,
the machinery of ``tests/engine/test_differential_riichienv_sanma.py``), then prints
what was compared, the known riichienv deviations met and every unexplained
difference. Needs riichienv (``pip install -e '.[dev]'``). Exit status 1 when an
unexplained difference was found.

    .venv/bin/python bench/differential_sanma.py [--games 1000] [--start 1000]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root

from tests.engine.riichienv_sanma import KNOWN, Report, compare, play


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--start", type=int, default=1000, help="first seed (CI plays 0..199)")
    ap.add_argument("--show", type=int, default=20, help="differences to print")
    args = ap.parse_args()
    rep = Report()
    played = replayed = 0.0
    for seed in range(args.start, args.start + args.games):
        t0 = time.process_time()
        game = play(seed)
        t1 = time.process_time()
        compare(game, rep)
        played += t1 - t0
        replayed += time.process_time() - t1
    print(
        f"{rep.games} games, {rep.rounds} rounds, {rep.decisions} decisions compared "
        f"(seeds {args.start}..{args.start + args.games - 1})"
    )
    print(f"CPU: riichienv play with our agents {played:.1f} s, our replay {replayed:.1f} s")
    print("kinds offered:", ", ".join(f"{k} {n}" for k, n in rep.offers.most_common()))
    print("round ends:", ", ".join(f"{k} {n}" for k, n in rep.results.most_common()))
    print("situations:", ", ".join(f"{k} {n}" for k, n in rep.features.most_common()))
    for k, n in rep.known.most_common():
        print(f"known deviation {k!r}: {n} ({KNOWN[k]})")
    print(f"unexplained differences: {len(rep.diffs)}")
    for d in rep.diffs[: args.show]:
        print("  " + d)
    return 1 if rep.diffs else 0


if __name__ == "__main__":
    sys.exit(main())
