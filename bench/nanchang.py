"""Nanchang self-play: games/s with the bot and with random play, and how often each rule fires.

One process, no property checks (the tests run those). Beside our Nanchang figures,
the same run measures the riichi engine's self-play over as many East-only games
(random and efficient bots), as the in-house reference for what a game costs on this
machine: there is no other Nanchang engine to measure against. Then the frequency
of every winning shape and scoring element over the games played, so that one can
see each rule is reachable in play (the rarest ones are reached by scenario tests).

    .venv/bin/python bench/nanchang.py [--games N] [--seed S] [--preset nanchang-east]
"""

from __future__ import annotations

import argparse
import hashlib
import time

from server.bots import make_bot
from server.bots.selfplay import Checks, Stats, bot_seed, game_seed, play_game
from server.engine.nanchang import PRESETS
from server.engine.nanchang.scoring import SHAPES
from server.engine.riichi.rules import preset as riichi_preset

WAYS = ("zimo", "gangkai", "qianggang", "jingdiao", "tianhu", "dihu", "deguo", "dezhongde")
BONUS = ("jokers", "bawang", "chongguan", "chongguan_paid_by_discarder")
KANS = ("minkan", "kakan", "ankan", "gangjing")


def _seed(seed: str, i: int) -> bytes:
    return hashlib.sha256(f"jantaku-nanchang-bench:{seed}:{i}".encode()).digest()


def measure(bot: str, games: int, seed: str, preset: str) -> tuple[Stats, float, float]:
    total = Stats()
    wall0, cpu0 = time.perf_counter(), time.process_time()
    for i in range(games):
        bots = [make_bot(bot, 4 * i + s, "nanchang") for s in range(4)]
        _, st = play_game(PRESETS[preset], _seed(seed, i), bots, Checks.none(), first_dealer=i % 4)
        total.add(st)
    return total, time.perf_counter() - wall0, time.process_time() - cpu0


def riichi(bot: str, games: int, seed: str) -> tuple[int, float, float]:
    rules = riichi_preset("standard").with_overrides(length="tonpuu", west_extension=False)
    rounds = 0
    wall0, cpu0 = time.perf_counter(), time.process_time()
    for i in range(games):
        bots = [make_bot(bot, bot_seed(seed, i, s)) for s in range(4)]
        _, st = play_game(rules, game_seed(seed, i), bots, Checks.none())
        rounds += st.rounds
    return rounds, time.perf_counter() - wall0, time.process_time() - cpu0


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--seed", default="bench")
    p.add_argument("--preset", choices=sorted(PRESETS), default="nanchang-east")
    args = p.parse_args()
    measure("efficient", 1, "warm-up", args.preset)  # warm the memoised hand tables
    print(f"Self-play, one process, {args.games} games per row ({args.preset}; riichi: tonpuu).\n")
    print("| engine and bots | rounds/game | games/s (wall) | games/s (CPU) | decisions/s (CPU) |")
    print("|---|---:|---:|---:|---:|")
    stats: dict[str, Stats] = {}
    for bot in ("random", "efficient"):
        st, wall, cpu = measure(bot, args.games, args.seed, args.preset)
        stats[bot] = st
        print(
            f"| jantaku Nanchang, {bot} bot ×4 | {st.rounds / st.games:.1f} "
            f"| {st.games / wall:.1f} | {st.games / cpu:.1f} | {st.decisions / cpu:.0f} |",
            flush=True,
        )
    for bot in ("random", "efficient"):
        rounds, wall, cpu = riichi(bot, args.games, args.seed)
        print(
            f"| jantaku riichi (reference), {bot} ×4 | {rounds / args.games:.1f} "
            f"| {args.games / wall:.1f} | {args.games / cpu:.1f} | |",
            flush=True,
        )
    for bot, st in stats.items():
        wins, draws = st.tsumo + st.ron, sum(st.draws.values())
        print(f"\n{bot} ×4: {st.rounds} rounds, {wins} wins, {draws} exhausted walls (荒牌).\n")
        print("| element | count | per 100 rounds |")
        print("|---|---:|---:|")
        for key in (*SHAPES, *WAYS, *BONUS, *KANS):
            n = st.tags[f"shape:{key}"] if key in SHAPES else st.tags[f"element:{key}"]
            print(f"| {key} | {n} | {100 * n / max(st.rounds, 1):.1f} |")


if __name__ == "__main__":
    main()
