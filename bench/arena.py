"""Arena: two of our bots against two external mjai bots, full hanchan, seats rotated.

Every wall (a fixed seed per pair of games) is played twice, ours at seats 0 and 2,
then at 1 and 3, so that both sides get the same tiles. The external side is the
PyPI ``mjai`` package's ``RulebaseBot`` by default, run by ``bench/mjai/rulebase.py``
in ``.venv-mjai`` (made by ``tests/records/test_mortal.py``; ``--theirs`` names any
other mjai.app command). Prints each side's average placement with a 95 % confidence
interval (over games: a game's value is the mean of its side's two placements), and
the time our bot takes per decision.

    .venv/bin/python bench/arena.py --games 400 [--ours strong] [--seed arena] [--json]

A long run can be split: ``--start 200 --games 200 --out b.jsonl`` beside
``--games 200 --out a.jsonl``, then ``--merge a.jsonl b.jsonl`` sums them up.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from server.bots import RIICHI_BOTS, make_bot
from server.bots.selfplay import Checks, bot_seed, game_seed, play_game
from server.engine.actions import Action
from server.engine.riichi.observe import Observation
from server.engine.riichi.rules import PRESETS, preset
from server.external.channel import SyncChannel
from server.external.seat import MjaiBot

ROOT = Path(__file__).resolve().parents[1]
RULEBASE = f"{ROOT / '.venv-mjai' / 'bin' / 'python'} {ROOT / 'bench' / 'mjai' / 'rulebase.py'}"


class Timed:
    """One of our bots, its time per decision measured."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.name = bot.name
        self.times: list[float] = []

    def choose(self, obs: Observation) -> Action:
        t0 = time.perf_counter()
        a: Action = self.bot.choose(obs)
        self.times.append(time.perf_counter() - t0)
        return a


@dataclass
class ArenaResult:
    ours: str
    theirs: str
    rules: str
    games: int = 0
    seats: list[list[int]] = field(default_factory=list)  # per game: our seats
    placements: list[list[int]] = field(default_factory=list)  # per game: rank by seat
    decision_times: list[float] = field(default_factory=list)  # ours, seconds
    their_decisions: int = 0
    their_seconds: float = 0.0
    replaced: int = 0  # their decisions the stand-in made
    seconds: float = 0.0

    def side_means(self, ours: bool) -> list[float]:
        out = []
        for seats, ranks in zip(self.seats, self.placements, strict=True):
            mine = [ranks[s] for s in range(4) if (s in seats) == ours]
            out.append(sum(mine) / len(mine))
        return out

    def summary(self) -> dict[str, Any]:
        def ci(values: list[float]) -> tuple[float, float]:
            mean = statistics.fmean(values)
            if len(values) < 2:
                return mean, math.nan
            return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))

        o_mean, o_ci = ci(self.side_means(True))
        t_mean, t_ci = ci(self.side_means(False))
        times = sorted(self.decision_times)

        def pct(p: float) -> float:
            return times[min(len(times) - 1, int(p * len(times)))] * 1000 if times else 0.0

        return {
            "ours": self.ours,
            "theirs": self.theirs,
            "rules": self.rules,
            "games": self.games,
            "ours_placement": round(o_mean, 3),
            "ours_ci95": round(o_ci, 3),
            "theirs_placement": round(t_mean, 3),
            "theirs_ci95": round(t_ci, 3),
            "ours_ms_per_decision": {
                "mean": round(statistics.fmean(times) * 1000, 3) if times else 0.0,
                "p99": round(pct(0.99), 3),
                "max": round(times[-1] * 1000, 3) if times else 0.0,
                "decisions": len(times),
            },
            "theirs_ms_per_decision": round(
                self.their_seconds / max(1, self.their_decisions) * 1000, 3
            ),
            "theirs_replaced": self.replaced,
            "seconds": round(self.seconds, 1),
        }


def run_arena(
    ours: str,
    theirs: Callable[[int], MjaiBot],
    games: int,
    seed: str = "arena",
    rules_name: str = "tenhou",
    theirs_name: str = "RulebaseBot",
    progress: Callable[[ArenaResult, dict[str, Any]], None] | None = None,
    start: int = 0,
) -> ArenaResult:
    """Play hanchan ``start`` .. ``start + games - 1``; ``theirs(seat)`` makes an
    external seat's bot. ``progress(result, game)`` follows each game."""
    rules = preset(rules_name)
    res = ArenaResult(ours, theirs_name, rules_name)
    t0 = time.perf_counter()
    for g in range(start, start + games):
        wall = g // 2  # each wall twice, the sides swapped
        ours_at = (0, 2) if g % 2 == 0 else (1, 3)
        timed: list[Timed] = []
        external: list[MjaiBot] = []
        bots: list[Any] = []
        for s in range(4):
            if s in ours_at:
                t = Timed(make_bot(ours, bot_seed(seed, wall, s)))
                timed.append(t)
                bots.append(t)
            else:
                b = theirs(s)
                external.append(b)
                bots.append(b)
        try:
            st, stats = play_game(rules, game_seed(seed, wall), bots, Checks.none())
        finally:
            for b in external:
                b.close()
        if stats.failures or st.final is None:
            raise RuntimeError(f"game {g}: {stats.failures[:1] or 'did not end'}")
        ranks = [0] * 4
        for f in st.final:
            ranks[f.seat] = f.rank
        res.games += 1
        res.seats.append(list(ours_at))
        res.placements.append(ranks)
        times = [x for t in timed for x in t.times]
        res.decision_times.extend(times)
        their_decisions = sum(b.decisions for b in external)
        their_seconds = sum(b.seconds for b in external)
        replaced = sum(b.replaced for b in external)
        res.their_decisions += their_decisions
        res.their_seconds += their_seconds
        res.replaced += replaced
        game = {
            "game": g,
            "ours_at": list(ours_at),
            "ranks": ranks,
            "times": times,
            "their_decisions": their_decisions,
            "their_seconds": their_seconds,
            "replaced": replaced,
        }
        res.seconds = time.perf_counter() - t0
        if progress is not None:
            progress(res, game)
    return res


def merge(paths: Sequence[str], ours: str, theirs: str, rules: str) -> ArenaResult:
    """One result from the per-game lines (``--out``) of several runs."""
    res = ArenaResult(ours, theirs, rules)
    seen: set[int] = set()
    for path in paths:
        for line in Path(path).read_text().splitlines():
            g = json.loads(line)
            if g["game"] in seen:
                raise SystemExit(f"{path}: game {g['game']} twice")
            seen.add(g["game"])
            res.games += 1
            res.seats.append(g["ours_at"])
            res.placements.append(g["ranks"])
            res.decision_times.extend(g["times"])
            res.their_decisions += g["their_decisions"]
            res.their_seconds += g["their_seconds"]
            res.replaced += g["replaced"]
            res.seconds += g.get("seconds", 0.0)
    return res


def _print(s: dict[str, Any]) -> None:
    print(
        f"{s['games']} hanchan ({s['rules']} rules), 2 × {s['ours']} against 2 × {s['theirs']},"
        f" seats rotated, {s['seconds']} s"
    )
    print(f"  {s['ours']:<12} average placement {s['ours_placement']:.3f} ± {s['ours_ci95']:.3f}")
    print(
        f"  {s['theirs']:<12} average placement {s['theirs_placement']:.3f}"
        f" ± {s['theirs_ci95']:.3f}"
    )
    t = s["ours_ms_per_decision"]
    print(
        f"  {s['ours']} per decision: mean {t['mean']} ms, p99 {t['p99']} ms, max {t['max']} ms"
        f" ({t['decisions']} decisions); {s['theirs']} {s['theirs_ms_per_decision']} ms"
        f" (round trip), replaced {s['theirs_replaced']}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=400, help="hanchan (even: walls twice)")
    p.add_argument("--ours", default="strong", choices=sorted(RIICHI_BOTS))
    p.add_argument("--theirs", default=RULEBASE, help="mjai.app command (seat appended)")
    p.add_argument("--theirs-name", default="RulebaseBot")
    p.add_argument("--seed", default="arena")
    p.add_argument("--rules", choices=sorted(PRESETS), default="tenhou")
    p.add_argument("--timeout", type=float, default=10.0, help="seconds per external decision")
    p.add_argument("--every", type=int, default=20, help="print the running figures this often")
    p.add_argument("--start", type=int, default=0, help="first game's index (split a run)")
    p.add_argument("--out", help="append one JSON line per game to this file")
    p.add_argument("--merge", nargs="+", metavar="FILE", help="only sum up --out files")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if args.merge:
        s = merge(args.merge, args.ours, args.theirs_name, args.rules).summary()
        print(json.dumps(s) if args.json else "", end="\n" if args.json else "")
        if not args.json:
            _print(s)
        return 0
    last = [time.perf_counter()]

    def theirs(seat: int) -> MjaiBot:
        return MjaiBot(SyncChannel(args.theirs, "array", args.timeout), seat, args.theirs_name)

    def progress(r: ArenaResult, game: dict[str, Any]) -> None:
        if args.out:
            now = time.perf_counter()
            game["seconds"] = round(now - last[0], 3)
            last[0] = now
            with open(args.out, "a") as f:
                f.write(json.dumps(game) + "\n")
        if args.every and r.games % args.every == 0:
            s = r.summary()
            print(
                f"[{r.games}] {s['ours']} {s['ours_placement']:.3f} ± {s['ours_ci95']:.3f}"
                f"  {s['theirs']} {s['theirs_placement']:.3f}  ({s['seconds']} s)",
                file=sys.stderr,
                flush=True,
            )

    res = run_arena(
        args.ours,
        theirs,
        args.games,
        args.seed,
        args.rules,
        args.theirs_name,
        progress,
        args.start,
    )
    s = res.summary()
    if args.json:
        print(json.dumps(s))
    else:
        _print(s)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
