"""What a table's frames cost, per action: bytes per seat and server CPU, protocol 1
(a view per seat per step) beside protocol 2 (events and decision frames).

Plays the same seeded games of bots through the table actor three times, on a fake
clock with a sink that keeps nothing, all in this process: with four seats and a
spectator connected over protocol 1, over protocol 2, and with nobody connected.
The games are the same each time (same seeds, same bots), so the CPU of the run
with nobody connected (engine, bots, the actor) taken from the others' is what
building and encoding the frames costs. No sockets: a connection counts the bytes
of what it is given. Figures are CPU time, steadier than wall time on a shared
machine.

    .venv/bin/python bench/frames.py                  # 4 hanchan of riichi
    .venv/bin/python bench/frames.py --games 8 --variant nanchang --preset nanchang
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import time
from typing import Any

from server.bots import make_bot
from server.engine import AnyVariant, find_variant
from server.tables.clock import FakeClock
from server.tables.messages import Connect, SeatSpec, TableConfig
from server.tables.options import TableOptions
from server.tables.sink import NullSink
from server.tables.table import Table


class CountingConn:
    """A connection that keeps nothing but the bytes it was given."""

    def __init__(self, seat: int | None, protocol: int) -> None:
        self.seat = seat
        self.protocol = protocol
        self.bytes = 0

    def send(self, text: str) -> None:
        self.bytes += len(text.encode())

    def close(self, code: int) -> None:
        pass


async def play(
    variant: AnyVariant, rules: Any, seed: bytes, protocol: int | None
) -> dict[str, Any]:
    """One game; ``protocol`` None: nobody connected."""
    clock = FakeClock()
    state = variant.new_game(rules, seed, 0)
    seats = [SeatSpec(f"Bot {i}", bot="efficient") for i in range(variant.seats)]
    table = Table(
        1,
        variant,
        state,
        seats,
        options=TableOptions(think_seconds=0, bank_seconds=0),
        config=TableConfig(bot_delay=0.0, round_end_pause=0.0, spectator_interval=0.0),
        sink=NullSink(),
        bot_factory=make_bot,  # type: ignore[arg-type]
        seed=int.from_bytes(seed[:4], "big"),
        clock=clock,
    )
    conns = (
        [CountingConn(s, protocol) for s in [*range(variant.seats), None]]
        if protocol is not None
        else []
    )
    table.start(list(variant.start_events(state)))
    for c in conns:
        table.post(Connect(c, None))
    cpu0 = time.process_time()
    while not table.finished:
        clock.advance(0.001)
        for _ in range(5):
            await asyncio.sleep(0)
    cpu = time.process_time() - cpu0
    await table.stop()
    return {
        "actions": table.actions_applied,
        "cpu": cpu,
        "seat_bytes": sum(c.bytes for c in conns if c.seat is not None),
        "seats": variant.seats,
    }


async def run(args: argparse.Namespace) -> dict[str, Any]:
    variant = find_variant(args.variant)
    rules = variant.options(args.preset)
    out: dict[str, Any] = {"variant": args.variant, "preset": args.preset, "games": args.games}
    runs = (("none", None), ("1", 1), ("2", 2))
    totals = {name: {"actions": 0.0, "cpu": 0.0, "seat_bytes": 0.0} for name, _ in runs}
    # A game first that is not counted: the bots' and the engine's tables are built
    # on first use, which would be charged to whichever run came first.
    await play(variant, rules, b"warm-up", 1)
    for g in range(args.games):
        # each game with each protocol in turn, so that the machine's moods are shared
        for name, protocol in runs:
            gc.collect()
            r = await play(variant, rules, f"frames-{g}".encode(), protocol)
            for k in ("actions", "cpu", "seat_bytes"):
                totals[name][k] += r[k]
    for t in totals.values():
        t["seats"] = variant.seats
    actions = totals["none"]["actions"]
    out["actions"] = int(actions)
    for p in ("1", "2"):
        t = totals[p]
        assert t["actions"] == actions, "the games differ between runs"
        out[f"protocol_{p}_bytes_per_seat_per_action"] = round(
            t["seat_bytes"] / actions / t["seats"]
        )
        out[f"protocol_{p}_frames_cpu_ms_per_action"] = round(
            1000 * (t["cpu"] - totals["none"]["cpu"]) / actions, 3
        )
    out["table_without_frames_cpu_ms_per_action"] = round(1000 * totals["none"]["cpu"] / actions, 3)
    out["bytes_ratio_2_to_1"] = round(
        out["protocol_2_bytes_per_seat_per_action"] / out["protocol_1_bytes_per_seat_per_action"],
        3,
    )
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--variant", default="riichi")
    p.add_argument("--preset", default="standard")
    args = p.parse_args()
    out = asyncio.run(run(args))
    for k, v in out.items():
        print(f"{k:>38}: {v}")


if __name__ == "__main__":
    main()
