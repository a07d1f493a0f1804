"""Self-play speed: full hanchan per second with random and with efficient bots.

One process, no property checks (``jantaku simulate`` runs those). Prints our
figures beside the reference figures of issue 3 for this 2-core machine.
Wall time and CPU time are both shown: on a shared machine the CPU figure is
the steadier one.

    .venv/bin/python bench/selfplay.py [--games N] [--seed S] [--rules standard]
"""

from __future__ import annotations

import argparse
import time

from server.bots import make_bot
from server.bots.selfplay import Checks, Stats, bot_seed, game_seed, play_game
from server.engine.rules import PRESETS, preset

REFERENCE = {  # games/s with random agents, from issue 3
    "riichienv (Rust)": 53.0,
    "mjx (C++)": 22.0,
    "jansou (Python)": 16.0,
}
TARGETS = {"random": 25.0, "efficient": 8.0}


def measure(bot: str, games: int, seed: str, rules_name: str) -> tuple[Stats, float, float]:
    rules = preset(rules_name)
    total = Stats()
    wall0, cpu0 = time.perf_counter(), time.process_time()
    for g in range(games):
        bots = [make_bot(bot, bot_seed(seed, g, s)) for s in range(4)]
        _, st = play_game(rules, game_seed(seed, g), bots, Checks.none())
        total.add(st)
    return total, time.perf_counter() - wall0, time.process_time() - cpu0


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seed", default="bench")
    p.add_argument("--rules", choices=sorted(PRESETS), default="standard")
    args = p.parse_args()
    # Warm the memoised shanten tables so that both runs see the same state.
    measure("efficient", 1, "warm-up", args.rules)
    rows = []
    for bot in ("random", "efficient"):
        st, wall, cpu = measure(bot, args.games, args.seed, args.rules)
        rows.append((bot, st, wall, cpu))
    print(f"Full hanchan ({args.rules} rules), one process, {args.games} games per row.\n")
    print("| bots | games/s (wall) | games/s (CPU) | rounds/game | wins | target |")
    print("|---|---:|---:|---:|---:|---:|")
    for bot, st, wall, cpu in rows:
        print(
            f"| jantaku {bot} x4 | {st.games / wall:.1f} | {st.games / cpu:.1f} "
            f"| {st.rounds / st.games:.1f} | {st.tsumo + st.ron} | >= {TARGETS[bot]:.0f} |"
        )
    for name, gps in REFERENCE.items():
        print(f"| {name} random x4 | {gps:.1f} | | | | |")


if __name__ == "__main__":
    main()
