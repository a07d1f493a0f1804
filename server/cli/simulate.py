"""``jantaku simulate``: bot games in-process, with the self-play property checks.

Prints games, rounds, wins (tsumo/ron), draws by type, games/s and the check
counts; ``--json`` prints one JSON object instead. Exit status 0 when every
check passed, 1 when any failed, 2 on bad arguments.
"""

from __future__ import annotations

import argparse
import json
import sys

from server.bots import LEVELS
from server.bots.selfplay import Checks, Stats, parse_bots, run_games
from server.engine import VARIANTS, resolve_rules
from server.engine.riichi.rules import LENGTHS
from server.external.registry import make_seat_bot, parse_spec

PRESETS = {name: v for v in VARIANTS.values() for name in v.presets}

DEFAULT_BOTS = ("efficient", "efficient", "random", "random")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=10, help="number of games (default 10)")
    parser.add_argument("--seed", default="0", help="run seed: every wall and bot follows from it")
    parser.add_argument(
        "--bots",
        default=None,
        help=(
            "bot per seat, comma-separated, from the game's levels ("
            + "; ".join(f"{k}: {', '.join(v)}" for k, v in LEVELS.items())
            + "; or an external mjai bot: mjai:CMD (mjai.app's form), mjai-lines:CMD"
            + " (Mortal's)) (default: efficient,efficient,random,random; for three seats"
            + " the first three)"
        ),
    )
    parser.add_argument(
        "--rules",
        choices=sorted(PRESETS),
        default="standard",
        help="a preset of any game: tenhou-sanma and majsoul-sanma are played by three, "
        "nanchang and nanchang-east are Nanchang mahjong",
    )
    parser.add_argument(
        "--length", choices=LENGTHS, default=None, help="override a riichi game's length"
    )
    parser.add_argument(
        "--checks",
        choices=("full", "sampled", "invariants", "none"),
        default="sampled",
        help=(
            "full: every check at every decision (slow); sampled (default): invariants and"
            " views after every transition, illegal actions at every decision, every listed"
            " action on a clone at 10%% of decisions, replay; invariants: check_invariants"
            " only; none: just play"
        ),
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=5.0,
        help="seconds an external bot (mjai:CMD) has for each decision (default 5)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _checks(name: str) -> Checks:
    if name == "full":
        return Checks(legal_rate=1.0, illegal_rate=1.0, illegal_tries=4, view_rate=1.0)
    if name == "sampled":
        return Checks()
    if name == "invariants":
        return Checks(True, 0.0, 0.0, 0, 0.0, False)
    return Checks.none()


def _print_text(stats: Stats, names: list[str]) -> None:
    d = stats.to_json()
    print(f"bots       {','.join(names)}")
    print(f"games      {d['games']}  ({d['games_per_second']} games/s, {d['seconds']} s)")
    print(f"rounds     {d['rounds']}")
    w = d["wins"]
    print(f"wins       {w['total']}  (tsumo {w['tsumo']}, ron {w['ron']})")
    draws = ", ".join(f"{k} {v}" for k, v in d["draws"].items()) or "none"
    print(f"draws      {sum(d['draws'].values())}  ({draws})")
    if d["tags"]:
        print(f"scoring    {', '.join(f'{k} {v}' for k, v in d['tags'].items())}")
    acts = ", ".join(f"{k} {v}" for k, v in d["actions"].items())
    print(f"actions    {acts}")
    checks = ", ".join(f"{k} {v}" for k, v in d["checks"].items()) or "none"
    print(f"checks     {checks}")
    if stats.failures:
        print(f"FAILED     {len(stats.failures)} check(s):")
        for f in stats.failures[:50]:
            print(f"  {f}")
    else:
        print("all checks passed")


def run(args: argparse.Namespace) -> int:
    try:
        variant = PRESETS[args.rules]
        names = parse_bots(args.bots or ",".join(DEFAULT_BOTS[: variant.seats]), variant.seats)
        levels = LEVELS[variant.key]
        external = [n for n in names if parse_spec(n) is not None]
        if external and variant.key != "riichi":
            raise ValueError("external mjai bots play the four-player game only")
        unknown = [n for n in names if n not in levels and n not in external]
        if unknown:
            raise ValueError(f"unknown bot {unknown[0]!r}; choose from {', '.join(levels)}")
        if args.games < 1:
            raise ValueError("--games must be at least 1")
        spec: dict[str, object] = {"preset": args.rules}
        if args.length:
            if variant.key == "nanchang":
                raise ValueError("--length is for riichi; Nanchang's presets set its rounds")
            spec["length"] = args.length
        _, rules = resolve_rules(spec)
    except ValueError as exc:
        print(f"jantaku simulate: {exc}", file=sys.stderr)
        return 2
    stats = run_games(
        rules,
        names,
        args.games,
        args.seed,
        _checks(args.checks),
        factory=lambda n, seed, v, seat: make_seat_bot(n, seed, v, seat, timeout=args.timeout),
    )
    if args.json:
        out = {
            "bots": names,
            "rules": args.rules,
            "length": getattr(rules, "length", None),
            **stats.to_json(),
        }
        print(json.dumps(out))
    else:
        _print_text(stats, names)
    return 1 if stats.failures else 0
