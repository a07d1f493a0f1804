"""Analysis bench: the time to analyse a whole game (every seat), issue 16's "a 10-round
game under 2 seconds", beside the reference measured in the same run: the import
verifier's replay of the same log (``import_log``: parse, replay every round through
the engine, compare the results), which is what any analysis must do at least.

Games: Tenhou hanchan logs among the mjx fixtures, and hanchan self-played here by the
efficient bot (our own record: rules, seed and actions). Each game is analysed cold
(fresh process memo tables are not cleared: the first game pays for them) and the CPU
time is printed per game and per 10 rounds.

    .venv/bin/python bench/analysis.py             # the fixture logs and 3 played games
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path
from typing import Any

from server.analysis import analyse, imported_moments, played_moments
from server.bots import make_bot
from server.engine import find_variant
from server.engine.actions import Action
from server.engine.riichi import observe
from server.records.importer import import_log

ROOT = Path(__file__).resolve().parents[1]
LOGS = ROOT / "tests" / "fixtures" / "mjx" / "mjlog"


def cpu() -> float:
    return time.process_time()


def self_played(seed: bytes) -> tuple[Any, Any, list[Action]]:
    variant = find_variant("riichi")
    options = variant.options({"preset": "standard", "length": "hanchan"})
    st = variant.new_game(options, seed, 0)
    bots = [make_bot("efficient", s) for s in range(4)]
    actions: list[Action] = []
    while variant.phase(st) != "game_end":
        if variant.phase(st) == "round_end":
            variant.next_round(st)
            continue
        seat = min(variant.waiting_on(st))
        a = bots[seat].choose(observe(st, seat))
        variant.apply(st, a)
        actions.append(a)
    return variant, options, actions


def row(
    name: str, hands: int, decisions: int, ref: float | None, replay: float, total: float
) -> None:
    per10 = total * 10 / max(hands, 1)
    ref_s = f"{ref:7.3f}" if ref is not None else "      -"
    print(f"{name:<52} {hands:5d} {decisions:6d} {ref_s} {replay:7.3f} {total:7.3f} {per10:7.3f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--played", type=int, default=3, help="self-played hanchan to analyse")
    args = ap.parse_args()
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(f"# {when} · {platform.machine()} · Python {platform.python_version()} · CPU seconds")
    cols = f"{'hands':>5} {'decis.':>6} {'ref s':>7} {'replay':>7} {'total s':>7} {'/10 rd':>7}"
    print(f"{'game':<52} {cols}")
    worst = 0.0
    for path in sorted(LOGS.glob("*.mjlog")):
        data = path.read_bytes()
        t0 = cpu()
        game = import_log(data, path.name)  # the reference: the import's verified replay
        ref = cpu() - t0
        hands = sum(e["type"] == "round_start" for e in game.events)
        if hands < 8:
            continue
        t0 = cpu()
        rep = imported_moments(game.events, game.rules)
        replay = cpu() - t0
        analyse(rep)
        total = cpu() - t0
        worst = max(worst, total * 10 / hands)
        row(path.name, hands, len(rep.moments), ref, replay, total)
    for i in range(args.played):
        seed = f"bench-analysis-{i}".encode()
        variant, options, actions = self_played(seed)
        t0 = cpu()
        rep = played_moments(variant, options, seed, actions, 0)
        replay = cpu() - t0
        analyse(rep)
        total = cpu() - t0
        worst = max(worst, total * 10 / rep.hands)
        row(
            f"self-played hanchan {i} (efficient x4)",
            rep.hands,
            len(rep.moments),
            None,
            replay,
            total,
        )
    print(f"worst per 10 rounds: {worst:.3f} s CPU (target < 2 s)")


if __name__ == "__main__":
    main()
