"""A live table with an external mjai bot at a seat: the table never waits for it,
and a bot that says nothing has each decision made by defensive."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path
from typing import Any

from server.engine.riichi import new_game
from server.engine.riichi.rules import preset
from server.engine.riichi.variant import RIICHI
from server.external.channel import AsyncChannel
from server.external.registry import parse_registry, table_bot_factory
from server.external.seat import AsyncMjaiBot
from server.tables import external
from server.tables.clock import FakeClock
from server.tables.options import TableOptions
from server.tables.table import SeatSpec, Table, TableConfig
from tests.server.tablekit import HeldSink, PassBot, settle

BOT = Path(__file__).resolve().parents[1] / "external" / "tsumogiri_mjai.py"
TONPUU = preset("standard").with_overrides(length="tonpuu")


def _table(mode: str, timeout: float, seed: bytes) -> tuple[Table, Any, list[AsyncMjaiBot]]:
    made: list[AsyncMjaiBot] = []

    def factory(level: str, seed: int, variant: str) -> Any:
        if level != "mjai-tiny":
            return PassBot()
        command = f"{sys.executable} {BOT} {{seat}} {mode}"
        bot = AsyncMjaiBot(AsyncChannel(command, "array", timeout, startup=0))
        made.append(bot)
        return bot

    st = new_game(TONPUU, seed, 0)
    seats = [SeatSpec("ext", bot="mjai-tiny")] + [SeatSpec(f"b{i}", bot="pass") for i in (1, 2, 3)]
    table = Table(
        1,
        RIICHI,
        st,
        seats,
        options=TableOptions(think_seconds=0, bank_seconds=0),
        config=TableConfig(bot_delay=0.0, round_end_pause=0.0, disconnect_grace=1000.0),
        sink=HeldSink(auto=True),
        bot_factory=factory,
        clock=FakeClock(),
    )
    return table, st, made


async def _play(table: Table, st: Any, seconds: float) -> None:
    table.start(list(RIICHI.start_events(st)))
    end = time.monotonic() + seconds
    while st.phase != "game_end" and time.monotonic() < end:
        table.clock.advance(0.01)  # type: ignore[attr-defined]
        await settle()
        await asyncio.sleep(0.002)  # the bot's process answers in real time
    await settle()
    await external.drain()  # the finished table closes the bot's process


async def test_an_external_bot_plays_a_whole_game_at_a_table() -> None:
    table, st, made = _table("array", 10.0, b"external table")
    await _play(table, st, 240)
    assert st.phase == "game_end" and table.finished
    (bot,) = made
    assert bot.decisions > 10 and bot.replaced == 0
    assert bot.feed.actor == 0 and bot.seat == 0


async def test_a_silent_bot_is_replaced_and_the_loop_runs_on() -> None:
    table, st, made = _table("hang", 0.05, b"silent table")
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.001)
            ticks += 1

    t = asyncio.create_task(tick())
    await _play(table, st, 240)
    t.cancel()
    assert st.phase == "game_end"
    (bot,) = made
    assert bot.decisions > 10 and bot.replaced == bot.decisions
    assert ticks > bot.decisions  # the event loop went on while the bot said nothing


def test_the_operators_bots_are_table_levels() -> None:
    make = table_bot_factory(parse_registry(f"tiny={sys.executable} {BOT}"), 1.0)
    assert isinstance(make("mjai-tiny", 1, "riichi"), AsyncMjaiBot)
    assert make("strong", 1, "riichi").name == "strong"
