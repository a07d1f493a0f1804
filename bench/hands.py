"""Hand engine speed: scoring and shanten, ours beside PyPI ``mahjong`` 2.1 (issue 2).

Both engines get the SAME freshly generated hands in one run, with every input
object built before the clock starts, so only the call itself is timed:
``score_hand`` against ``HandCalculator.estimate_hand_value`` on random winning
hands (the generator of the differential test in tests/engine/test_scoring.py:
open hands, kans, red fives, every situational flag, four rule sets), and
``shanten`` against ``Shanten.calculate_shanten`` on random 13- and 14-tile deals.

Each repeat uses new hands (seed + repeat), so no engine can profit from having
seen a hand before; per-suit tables that both engines build as they go stay warm,
as they would in a running server. The first repeat (cold tables) is shown
apart. The engines take turns every few hundred hands so that a change
in machine load affects both alike. Wall and CPU time are both measured; the CPU
figure is the steadier one on a shared machine and is the one the ratio uses.

    .venv/bin/python bench/hands.py [--hands 20000] [--repeat 3] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mahjong.hand_calculating.hand import HandCalculator
from mahjong.shanten import Shanten

from server.engine.riichi.rules import RuleSet
from server.engine.riichi.scoring import score_hand
from server.engine.riichi.shanten import shanten
from server.engine.riichi.win import ScoreError
from tests.engine.test_scoring import DIFF_RULES, ours_args, random_hand, theirs_args

TARGETS = {"scoring": 5.0, "shanten": 3.0}


def scoring_inputs(seed: int, n: int) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """n random winning hands as argument tuples for us and for ``mahjong``."""
    rng = random.Random(seed)
    ours: list[tuple[Any, ...]] = []
    theirs: list[tuple[Any, ...]] = []
    while len(ours) < n:
        deal = random_hand(rng)
        if deal is None:
            continue
        rules: RuleSet = DIFF_RULES[len(ours) % len(DIFF_RULES)]
        concealed, melds, ctx = ours_args(deal)
        ours.append((concealed, melds, ctx, rules))
        theirs.append(theirs_args(deal, rules))
    return ours, theirs


def shanten_inputs(seed: int, n: int) -> list[list[int]]:
    """n random deals from a shuffled wall, alternately 13 and 14 tiles, as count arrays."""
    rng = random.Random(seed)
    wall = [k for k in range(34) for _ in range(4)]
    out: list[list[int]] = []
    for i in range(n):
        c = [0] * 34
        for k in rng.sample(wall, 13 + i % 2):
            c[k] += 1
        out.append(c)
    return out


def run_ours_scoring(hands: list[tuple[Any, ...]]) -> int:
    ok = 0
    for concealed, melds, ctx, rules in hands:
        try:
            score_hand(concealed, melds, ctx, rules)
            ok += 1
        except ScoreError:
            pass
    return ok


def run_theirs_scoring(hands: list[tuple[Any, ...]]) -> int:
    ok = 0
    estimate = HandCalculator.estimate_hand_value
    for tiles, win, melds, dora, config, ura in hands:
        r = estimate(
            tiles, win, melds=melds, dora_indicators=dora, config=config, ura_dora_indicators=ura
        )
        ok += r.error is None
    return ok


def run_ours_shanten(hands: list[list[int]]) -> int:
    return sum(shanten(c) for c in hands)


def run_theirs_shanten(hands: list[list[int]]) -> int:
    calc = Shanten.calculate_shanten
    return sum(calc(c) for c in hands)


CHUNK = 500  # hands per turn: the engines take turns, so a change in machine load hits both


def timed_pair(
    ours: Callable[[Any], int], theirs: Callable[[Any], int], a: list[Any], b: list[Any]
) -> tuple[float, float, float, float, int, int]:
    """CPU and wall seconds of both engines on the same hands, in alternating chunks."""
    cpu = [0.0, 0.0]
    wall = [0.0, 0.0]
    check = [0, 0]
    for i in range(0, len(a), CHUNK):
        for side, (fn, hands) in enumerate(((ours, a), (theirs, b))):
            w0, c0 = time.perf_counter(), time.process_time()
            check[side] += fn(hands[i : i + CHUNK])
            cpu[side] += time.process_time() - c0
            wall[side] += time.perf_counter() - w0
    return cpu[0], cpu[1], wall[0], wall[1], check[0], check[1]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=20000)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    n = args.hands
    # task -> per repeat (ours cpu, mahjong cpu, ours wall, mahjong wall)
    runs: dict[str, list[tuple[float, float, float, float]]] = {"scoring": [], "shanten": []}
    for rep in range(args.repeat):
        ours, theirs = scoring_inputs(args.seed + rep, n)
        c0, c1, w0, w1, ok_ours, ok_theirs = timed_pair(
            run_ours_scoring, run_theirs_scoring, ours, theirs
        )
        runs["scoring"].append((c0, c1, w0, w1))
        if ok_ours != ok_theirs:
            # The differential test holds the details; here it only means unequal work.
            print(f"warning: {ok_ours} hands scored by us, {ok_theirs} by mahjong", file=sys.stderr)
        sh = shanten_inputs(args.seed + rep, n)
        c0, c1, w0, w1, sum_ours, sum_theirs = timed_pair(
            run_ours_shanten, run_theirs_shanten, sh, sh
        )
        runs["shanten"].append((c0, c1, w0, w1))
        if sum_ours != sum_theirs:
            print(f"warning: shanten sums differ ({sum_ours} vs {sum_theirs})", file=sys.stderr)

    total = n * args.repeat
    print(
        f"{args.repeat} x {n} fresh hands, engines alternating every {CHUNK} hands; "
        "hands/s by CPU time over all repeats (first repeat, cold tables, in brackets); "
        "ratio = mahjong CPU / ours over all repeats, with each repeat's ratio\n"
    )
    print(
        "| task | ours hands/s | mahjong 2.1 hands/s | ratio (per repeat) | target "
        "| wall ours / mahjong |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for task, rs in runs.items():
        oc, tc, ow, tw = (sum(r[i] for r in rs) for i in range(4))
        each = ", ".join(f"{r[1] / r[0]:.1f}" for r in rs)
        print(
            f"| {task} | {total / oc:,.0f} ({n / rs[0][0]:,.0f}) "
            f"| {total / tc:,.0f} ({n / rs[0][1]:,.0f}) | {tc / oc:.1f}x ({each}) "
            f"| {TARGETS[task]:.0f}x | {total / ow:,.0f} / {total / tw:,.0f} |"
        )


if __name__ == "__main__":
    main()
