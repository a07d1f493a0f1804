"""Seats played by external bots (``server.external``) at a live table.

Such a bot follows the game's events (``see``) and decides asynchronously
(``decide``): the table never waits for it. At its turn the table starts the
decision as a task and goes on handling messages; the answer comes back as a
``_BotAnswer`` tagged with the decision's token, so an answer to a decision that
is over is dropped. The bot itself stands in the defensive bot for a late,
wrong or missing answer (``server.external.seat``).

A bot made after the game began (the first decision, or a game rebuilt by a new
server process) first sees the whole game so far, replayed from the record.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Sequence
from typing import Any

from server.engine import Action, AnyVariant, Event
from server.engine.replay import steps
from server.tables.messages import _BotAnswer

log = logging.getLogger(__name__)

# decisions under way, kept so that they are not collected before they finish
_running: set[asyncio.Task[None]] = set()


def is_external(bot: Any) -> bool:
    return hasattr(bot, "decide") and hasattr(bot, "see")


def catch_up(bot: Any, variant: AnyVariant, state: Any, seat: int) -> None:
    """A new external bot at ``seat``: shown every event of the game so far."""
    bot.attach(seat)
    for _, step in steps(variant, state.rules, state.seed, state.log, state.first_dealer):
        bot.see(step.events)


def tell(bots: Iterable[Any], events: Sequence[Event]) -> None:
    """Every external bot at the table sees ``events``."""
    for bot in bots:
        if bot is not None and is_external(bot):
            bot.see(events)


def ask(table: Any, seat: int, token: int, bot: Any, obs: Any) -> None:
    """Start ``bot``'s decision; its answer is posted to ``table`` when it comes."""

    async def run() -> None:
        try:
            action: Action | None = await bot.decide(obs)
        except Exception:
            log.exception("table %s: external bot at seat %s failed", table.game_id, seat)
            action = None
        table.post(_BotAnswer(seat, token, action))

    task = asyncio.get_running_loop().create_task(run())
    _running.add(task)
    task.add_done_callback(_running.discard)


def close(bots: Iterable[Any]) -> None:
    """End the external bots' processes (in the background)."""
    for bot in bots:
        if bot is not None and is_external(bot):
            task = asyncio.get_running_loop().create_task(bot.close())
            _running.add(task)
            task.add_done_callback(_running.discard)


async def drain() -> None:
    """Wait for the decisions and closings under way (a server shutting down, tests)."""
    while _running:
        await asyncio.gather(*list(_running), return_exceptions=True)
