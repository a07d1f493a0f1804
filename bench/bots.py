"""Bot strength: two bots of one level against two of another, full hanchan.

Seats alternate every game (A B A B, then B A B A) and every game has its own
recorded seed, so a run is reproducible. Prints, per level: wins, deal-ins (all,
and into riichi), average final points and average rank.

    .venv/bin/python bench/bots.py [--games 100] [--seed bots] [defensive efficient]
"""

from __future__ import annotations

import argparse
import time

from server.bots import BOTS, make_bot
from server.bots.selfplay import Checks, bot_seed, game_seed, play_game
from server.engine.riichi.rules import PRESETS, preset


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("a", nargs="?", default="defensive", choices=sorted(BOTS))
    p.add_argument("b", nargs="?", default="efficient", choices=sorted(BOTS))
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", default="bots")
    p.add_argument("--rules", choices=sorted(PRESETS), default="standard")
    args = p.parse_args()
    if args.a == args.b:
        p.error("name two different levels")
    rules = preset(args.rules)
    row = {
        n: {"wins": 0, "deal_ins": 0, "into_riichi": 0, "points": 0, "ranks": 0}
        for n in (args.a, args.b)
    }
    hands = 0
    t0 = time.perf_counter()
    for g in range(args.games):
        names = [args.a, args.b] * 2 if g % 2 == 0 else [args.b, args.a] * 2
        bots = [make_bot(n, bot_seed(args.seed, g, s)) for s, n in enumerate(names)]
        st, stats = play_game(rules, game_seed(args.seed, g), bots, Checks.none())
        if stats.failures:
            raise SystemExit(f"game {g}: {stats.failures[0]}")
        for r in st.round_results:
            hands += 1
            for w in r.wins:
                row[names[w.seat]]["wins"] += 1
                if w.from_seat is not None and w.from_seat != w.seat:
                    row[names[w.from_seat]]["deal_ins"] += 1
                    if any(y in ("riichi", "double_riichi") for y, _ in w.result.yaku):
                        row[names[w.from_seat]]["into_riichi"] += 1
        for f in st.final or ():
            row[names[f.seat]]["points"] += f.points
            row[names[f.seat]]["ranks"] += f.rank
    took = time.perf_counter() - t0
    seats = 2 * args.games
    print(
        f"{args.games} hanchan ({args.rules} rules), {hands} hands, 2 × {args.a} against "
        f"2 × {args.b}, {took:.1f} s\n"
    )
    print("| bot | wins | deal-ins | into riichi | average points | average rank |")
    print("|---|---:|---:|---:|---:|---:|")
    for n, r in row.items():
        print(
            f"| {n} | {r['wins']} | {r['deal_ins']} | {r['into_riichi']} "
            f"| {r['points'] / seats:,.0f} | {r['ranks'] / seats:.3f} |"
        )


if __name__ == "__main__":
    main()
