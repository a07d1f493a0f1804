"""Self-play speed: full hanchan per second with random and with efficient bots.

One process, no property checks (``jantaku simulate`` runs those). Prints our
figures beside the reference engines of issue 3, measured in the same run when
they are installed (``pip install -e '.[bench]'``: riichienv and jansou from
PyPI), and beside the issue's own figures for this 2-core machine. This VM's
speed changes from day to day, so the reference engines measured in the same
run are what our figures should be read against. mjx is on PyPI only as a
source package that needs a C++ build with gRPC; its row shows the issue's figure.
Wall time and CPU time are both shown: on a shared machine the CPU figure is
the steadier one.

    .venv/bin/python bench/selfplay.py [--games N] [--seed S] [--rules standard]
"""

from __future__ import annotations

import argparse
import importlib
import time
from collections.abc import Callable
from typing import Any

from server.bots import make_bot
from server.bots.selfplay import Checks, Stats, bot_seed, game_seed, play_game
from server.engine.riichi.rules import PRESETS, preset

# games/s with random agents on this 2-core machine, from issue 3
ISSUE_REFERENCE = {"riichienv": 53.0, "mjx": 22.0, "jansou": 16.0}
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


def _timed(play_one: Callable[[int], None], games: int) -> tuple[float, float]:
    wall0, cpu0 = time.perf_counter(), time.process_time()
    for g in range(games):
        play_one(g)
    return time.perf_counter() - wall0, time.process_time() - cpu0


def riichienv_random(games: int) -> tuple[float, float]:
    """riichienv (Rust core): full hanchan, its README's game loop and ``RandomAgent``."""
    rv: Any = importlib.import_module("riichienv")
    agents: Any = importlib.import_module("riichienv.agents")

    def one(g: int) -> None:
        env = rv.RiichiEnv(game_mode="4p-red-half", seed=g)
        agent = agents.RandomAgent(seed=g)
        obs = env.reset()
        while not env.done():
            obs = env.step({p: agent.act(o) for p, o in obs.items()})

    return _timed(one, games)


def jansou_game(agent_name: str) -> Callable[[int], tuple[float, float]]:
    """jansou (pure Python): ``Environment.run`` of a hanchan with four ``agent_name``."""

    def run(games: int) -> tuple[float, float]:
        rules: Any = importlib.import_module("jansou.core.rules")
        env_mod: Any = importlib.import_module("jansou.game.environment")
        agent_cls = getattr(importlib.import_module("jansou.game.agents"), agent_name)

        def one(g: int) -> None:
            env = env_mod.Environment(rules.preset("tenhou"), seed=g)
            env.run([agent_cls(seed=4 * g + s) for s in range(4)])

        return _timed(one, games)

    return run


# (row label, which of our bots it compares with, runner, issue figure or None)
REFERENCES: list[tuple[str, str, Callable[[int], tuple[float, float]] | None, float | None]] = [
    ("riichienv 0.4 (Rust) random ×4", "random", riichienv_random, ISSUE_REFERENCE["riichienv"]),
    ("mjx (C++) random ×4", "random", None, ISSUE_REFERENCE["mjx"]),
    (
        "jansou 0.14 (Python) random ×4",
        "random",
        jansou_game("RandomAgent"),
        ISSUE_REFERENCE["jansou"],
    ),
    (
        "jansou 0.14 (Python) SmartEfficiencyAgent ×4",
        "efficient",
        jansou_game("SmartEfficiencyAgent"),
        None,
    ),
]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seed", default="bench")
    p.add_argument("--rules", choices=sorted(PRESETS), default="standard")
    p.add_argument(
        "--reference-games",
        type=int,
        default=0,
        help="games per reference row (default: as --games; jansou's efficient agent: a quarter)",
    )
    args = p.parse_args()
    # Warm the memoised shanten tables so that both runs see the same state.
    measure("efficient", 1, "warm-up", args.rules)
    ours: dict[str, tuple[float, float]] = {}
    print(f"Full hanchan ({args.rules} rules), one process, {args.games} games per row.\n")
    print("| engine and bots | games/s (wall) | games/s (CPU) | issue's figure | target |")
    print("|---|---:|---:|---:|---:|")
    for bot in ("random", "efficient"):
        st, wall, cpu = measure(bot, args.games, args.seed, args.rules)
        ours[bot] = (st.games / wall, st.games / cpu)
        print(
            f"| jantaku {bot} ×4 ({st.rounds / st.games:.1f} rounds/game) "
            f"| {st.games / wall:.1f} | {st.games / cpu:.1f} | | ≥ {TARGETS[bot]:.0f} |",
            flush=True,
        )
    ratios = []
    for label, ours_bot, runner, issue in REFERENCES:
        issue_cell = f"{issue:.1f}" if issue is not None else ""
        n = args.reference_games or (
            args.games if ours_bot == "random" else max(2, args.games // 4)
        )
        if runner is None:
            print(f"| {label} | no wheel (C++ build) | | {issue_cell} | |")
            continue
        try:
            wall, cpu = runner(n)
        except ImportError:
            print(f"| {label} | not installed (`.[bench]`) | | {issue_cell} | |")
            continue
        print(f"| {label} | {n / wall:.1f} | {n / cpu:.1f} | {issue_cell} | |", flush=True)
        ratios.append(f"jantaku {ours_bot} / {label}: {ours[ours_bot][1] / (n / cpu):.2f}x")
    if ratios:
        print("\nCPU-time ratios measured in this run:")
        for r in ratios:
            print(f"- {r}")


if __name__ == "__main__":
    main()
