"""The registry of live tables of one server process."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import Callable, Sequence
from typing import Any

from server.bots import make_bot
from server.engine import AnyVariant
from server.tables.clock import Clock
from server.tables.fanout import Fanout
from server.tables.options import TableOptions
from server.tables.resume import rebuild
from server.tables.sink import TableSink
from server.tables.table import BotFactory, SeatSpec, Table, TableConfig

log = logging.getLogger(__name__)


def default_bot_factory(level: str, seed: int, variant: str) -> object:
    return make_bot(level, seed, variant)


class TableManager:
    """Creates table actors, finds them by game id, drops them a while after the game ends."""

    def __init__(
        self,
        config: TableConfig,
        sink: TableSink,
        bot_factory: BotFactory | None = None,
        linger_seconds: float = 300.0,
        clock: Clock | None = None,
        fanout: Fanout | None = None,
    ) -> None:
        self.config = config
        self.sink = sink
        self.bot_factory: BotFactory = bot_factory or default_bot_factory  # type: ignore[assignment]
        self.linger_seconds = linger_seconds
        self.clock = clock
        # Where every table's frames go (fanout.py; None: this process's sockets).
        self.fanout = fanout
        self.tables: dict[int, Table] = {}
        # The pending removal of each finished table (dropped once it has run).
        self._reapers: dict[int, asyncio.TimerHandle] = {}
        # Called with the game id when a game ends (the app pushes the reopened lobby).
        self.on_game_end: Callable[[int], None] | None = None
        # Called with the game id when a table stopped because a step could not be
        # committed (the app rebuilds it from the record once the database answers).
        self.on_broken: Callable[[int], None] | None = None

    def get(self, game_id: int) -> Table | None:
        return self.tables.get(game_id)

    def start_table(
        self,
        game_id: int,
        variant: AnyVariant,
        rules: Any,
        options: TableOptions,
        seed: bytes,
        first_dealer: int,
        seats: Sequence[SeatSpec],
    ) -> Table:
        """Deal the first round and start the actor (call inside the event loop)."""
        state = variant.new_game(rules, seed, first_dealer)
        table = self._register(game_id, variant, state, options, seats, seed)
        table.start(list(variant.start_events(state)))
        return table

    def resume_table(
        self,
        game_id: int,
        variant: AnyVariant,
        rules: Any,
        options: TableOptions,
        seed: bytes,
        first_dealer: int,
        seats: Sequence[SeatSpec],
        rows: Sequence[tuple[str, str, dict[str, Any]]],
        hands_saved: int,
    ) -> Table:
        """Rebuild a game left live by a previous process and start its actor.

        Raises ``ResumeError`` when the record does not replay (nothing is started).
        """
        done = rebuild(variant, rules, seed, first_dealer, rows)
        table = self._register(game_id, variant, done.state, options, seats, seed)
        if done.fresh:
            table.start(list(variant.start_events(done.state)))
        else:
            table.resume(done.version, hands_saved)
        return table

    def _register(
        self,
        game_id: int,
        variant: AnyVariant,
        state: Any,
        options: TableOptions,
        seats: Sequence[SeatSpec],
        seed: bytes,
    ) -> Table:
        """The actor of ``state`` (not started yet), known by its game id from now on."""
        table = Table(
            game_id,
            variant,
            state,
            list(seats),
            options=options,
            config=self.config,
            sink=self.sink,
            bot_factory=self.bot_factory,
            seed=int.from_bytes(seed[:4], "big"),
            seed_commitment=hashlib.sha256(seed).hexdigest(),
            on_finished=self._finished,
            on_broken=self._broken,
            clock=self.clock,
            fanout=self.fanout,
        )
        self.tables[game_id] = table
        return table

    def _finished(self, table: Table) -> None:
        if self.on_game_end is not None:
            self.on_game_end(table.game_id)
        loop = asyncio.get_running_loop()
        self._reapers[table.game_id] = loop.call_later(
            self.linger_seconds, self._reap, table.game_id
        )

    def _broken(self, table: Table) -> None:
        if self.tables.get(table.game_id) is table:
            del self.tables[table.game_id]
        if self.on_broken is not None:
            self.on_broken(table.game_id)

    def _reap(self, game_id: int) -> None:
        self._reapers.pop(game_id, None)
        table = self.tables.pop(game_id, None)
        if table is not None:
            table.post_stop()

    def drop(self, game_id: int) -> None:
        """Stop a table at once and forget it, the record untouched: this process lost the
        right to run it (its lease, server/cluster), and another rebuilds it from there."""
        h = self._reapers.pop(game_id, None)
        if h is not None:
            h.cancel()
        table = self.tables.pop(game_id, None)
        if table is not None:
            table.halt()

    async def shutdown(self) -> None:
        """Stop every actor. Unfinished games stay "live": the next process resumes them."""
        for h in self._reapers.values():
            h.cancel()
        self._reapers.clear()
        for table in list(self.tables.values()):
            with contextlib.suppress(Exception):
                await table.stop()
        self.tables.clear()

    def stats(self) -> dict[str, int]:
        return {
            "tables": len(self.tables),
            "live": sum(1 for t in self.tables.values() if not t.finished),
        }
