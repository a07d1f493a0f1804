"""Stats page speed: one player's figures over 10,000 finished games (issue 18).

Ours: ``server.db.stats.player_stats`` adds up the per-game summary rows written
at each game's end (``player_game_stats``), in SQL. The reference, measured in
the same run: what a stats page costs without summaries, reading each game's
recorded events and summarising them (``server.records.summary.summarise``, no
engine replay at all, so a floor for "replay per request"), over a sample of
games and scaled to the same count.

The database is filled with ``--games`` summary rows of the player measured,
three times as many of other players (they share the table and index), and for
the reference ``--sample`` copies of a real recorded hanchan's events.

    .venv/bin/python bench/stats.py [--games 10000] [--sample 200] [--db URL]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import insert, select

from server.db import migrate, stats
from server.db.imported import store_imported
from server.db.models import Game, GameEvent, Player, PlayerGameStats
from server.db.session import Database
from server.records.importer import import_log
from server.records.summary import summarise

LOG = Path(__file__).resolve().parent.parent / "tests/fixtures/mjai-reviewer/ranked_game.json"


def fill(db: Database, games: int, sample: int) -> tuple[int, list[int]]:
    rng = random.Random(1)
    now = datetime.now(UTC)

    def players(s):  # type: ignore[no-untyped-def]
        ps = [Player(name=f"P{i}", token_hash=f"{i:064d}") for i in range(4)]
        s.add_all(ps)
        s.flush()
        return [p.id for p in ps]

    pids = db.run(players)
    # One real game's events, stored `sample` times for the reference.
    game = import_log(LOG.read_bytes(), LOG.name)
    sample_ids = db.run(lambda s: [store_imported(s, game, None) for _ in range(sample)])
    first = sample_ids[0]

    def rows(s):  # type: ignore[no-untyped-def]
        base = [
            Game(rules={"variant": "riichi"}, seed="00", first_dealer=0, dice=[], status="finished")
            for _ in range(games)
        ]
        s.add_all(base)
        s.flush()
        values = []
        for g in base:
            ranks = rng.sample(range(1, 5), 4)
            for seat, pid in enumerate(pids):
                rounds = rng.randint(6, 14)
                wins = rng.randint(0, 4)
                values.append(
                    {
                        "game_id": g.id,
                        "seat": seat,
                        "player_id": pid,
                        "kind": "riichi",
                        "seats": 4,
                        "rank": ranks[seat],
                        "points": 25000,
                        "score": 0.0,
                        "rounds": rounds,
                        "wins": wins,
                        "tsumo": rng.randint(0, wins),
                        "deal_ins": rng.randint(0, 3),
                        "riichi": rng.randint(0, 3),
                        "calls": rng.randint(0, rounds),
                        "win_points": wins * 6400,
                        "deal_in_points": 5200,
                        "yakuman": (y := [["kokushi"]] if rng.random() < 0.001 else []),
                        "yakuman_count": len(y),
                        "ended_at": now,
                    }
                )
        s.execute(insert(PlayerGameStats), values)

    db.run(rows)
    return pids[0], [first, *sample_ids[1:]]


def timed(fn, repeat: int) -> list[float]:  # type: ignore[no-untyped-def]
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--sample", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--db", help="database URL (default: a new SQLite file)")
    args = ap.parse_args()
    tmp = None
    url = args.db
    if url is None:
        tmp = tempfile.mkdtemp()
        url = f"sqlite:///{tmp}/bench-stats.db"
    migrate.upgrade(url)
    db = Database(url)
    try:
        pid, sample = fill(db, args.games, args.sample)
        ours = timed(lambda: db.run(lambda s: stats.player_stats(s, pid)), args.repeat)
        figures = db.run(lambda s: stats.player_stats(s, pid))

        def reference() -> None:
            def work(s):  # type: ignore[no-untyped-def]
                for gid in sample:
                    events = s.execute(
                        select(GameEvent.type, GameEvent.data)
                        .where(GameEvent.game_id == gid, GameEvent.kind == "event")
                        .order_by(GameEvent.id)
                    ).all()
                    summarise("riichi", 4, ((e.type, e.data) for e in events))

            db.run(work)

        ref = timed(reference, max(1, args.repeat // 2))
    finally:
        db.dispose()
    scale = args.games / len(sample)
    ref_total = statistics.median(ref) * scale
    our_total = statistics.median(ours)
    engine = url.split(":", 1)[0]
    print(
        f"date {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.machine()}, "
        f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}, database {engine}"
    )
    print(f"player's games: {figures['riichi']['games']}")
    print(
        f"ours (summaries, SQL): median {our_total * 1000:.1f} ms of {args.repeat} "
        f"(min {min(ours) * 1000:.1f} ms)"
    )
    print(
        f"reference (read and summarise each game's events): {ref_total:.2f} s "
        f"for {args.games} games (measured on {len(sample)}, scaled)"
    )
    print(f"ratio: {ref_total / our_total:.0f}x")


if __name__ == "__main__":
    main()
