"""An external mjai bot at one seat, with the defensive bot standing in when it fails.

``MjaiBot`` is a bot like ours (``choose(obs)``) that also ``see``s every engine
event (its ``MjaiFeed`` keeps what its seat may know until the next decision). At a
decision it sends the waiting events and reads one reply; a ``reach`` is answered
with the seat's own ``reach`` and the discard read next. A reply that comes late,
is not JSON, or names nothing legal is replaced, for that decision only, by the
``fallback`` bot (``defensive``): the game goes on. ``replaced`` counts those.

``choose`` drives a ``SyncChannel`` (games in-process); ``decide`` awaits an
``AsyncChannel`` (live tables: the event loop goes on while the bot thinks).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

from server.bots import Bot
from server.bots.defensive import DefensiveBot
from server.engine.actions import A_RIICHI, Action
from server.engine.events import Event
from server.engine.riichi.observe import Observation
from server.external.channel import SyncChannel
from server.records.mjai_live import REACH, MjaiFeed, reply_action

Ask = Callable[[Sequence[dict[str, Any]]], Any]


class LiveChannel(Protocol):
    """What a live seat talks to: a process (``AsyncChannel``) or a socket
    (``remote.RemoteChannel``)."""

    async def start(self, seat: int) -> None: ...
    async def ask(self, events: Sequence[dict[str, Any]]) -> Any: ...
    async def close(self) -> None: ...


class _Seat:
    def __init__(self, name: str, seat: int, fallback: Bot | None) -> None:
        self.name = name
        self.seat = seat
        self.feed = MjaiFeed(seat)
        self.fallback: Bot = fallback or DefensiveBot(seat)
        self.replaced = 0
        self.decisions = 0
        self.seconds = 0.0  # waiting for the bot's answers

    def attach(self, seat: int) -> None:
        """Sit at ``seat`` (a bot made by a table's factory learns its seat here)."""
        self.seat = seat
        self.feed = MjaiFeed(seat)

    def see(self, events: Iterable[Event]) -> None:
        self.feed.add_all(events)

    def _stand_in(self, obs: Observation, declared: bool) -> Action:
        self.replaced += 1
        if declared:
            # the bot believes it declared riichi: keep the declaration if it can stand
            riichi = [a for a in obs.legal if a.type is A_RIICHI]
            if riichi:
                return next((a for a in riichi if a.tile == obs.drawn), riichi[0])
        return self.fallback.choose(obs)


class MjaiBot(_Seat):
    """A seat played by an external bot over a ``SyncChannel``."""

    def __init__(
        self, channel: SyncChannel, seat: int, name: str = "mjai", fallback: Bot | None = None
    ) -> None:
        super().__init__(name, seat, fallback)
        self.channel = channel
        self._started = False

    def _ask(self, events: Sequence[dict[str, Any]]) -> Any:
        if not self._started:
            self._started = True
            try:
                self.channel.start(self.feed.actor)
            except OSError:
                return None
        t0 = time.perf_counter()
        try:
            return self.channel.ask(events)
        finally:
            self.seconds += time.perf_counter() - t0

    def choose(self, obs: Observation) -> Action:
        self.decisions += 1
        a = reply_action(self._ask(self.feed.take()), obs.legal)
        declared = False
        if a == REACH:
            declared = True
            a = reply_action(self._ask([self.feed.own_reach()]), obs.legal, declared=True)
        if isinstance(a, Action):
            return a
        return self._stand_in(obs, declared)

    def close(self) -> None:
        self.channel.close()


class AsyncMjaiBot(_Seat):
    """A seat played by an external bot over an ``AsyncChannel`` or a remote bot's
    socket (live tables)."""

    def __init__(
        self, channel: LiveChannel, seat: int = 0, name: str = "mjai", fallback: Bot | None = None
    ) -> None:
        super().__init__(name, seat, fallback)
        self.channel = channel
        self._started = False

    async def _ask(self, events: Sequence[dict[str, Any]]) -> Any:
        if not self._started:
            self._started = True
            try:
                await self.channel.start(self.feed.actor)
            except OSError:
                return None
        t0 = time.perf_counter()
        try:
            return await self.channel.ask(events)
        finally:
            self.seconds += time.perf_counter() - t0

    def choose(self, obs: Observation) -> Action:
        """Without waiting for the bot (it cannot be awaited here): the stand-in's choice."""
        return self._stand_in(obs, False)

    async def decide(self, obs: Observation) -> Action:
        self.decisions += 1
        a = reply_action(await self._ask(self.feed.take()), obs.legal)
        declared = False
        if a == REACH:
            declared = True
            reply = await self._ask([self.feed.own_reach()])
            a = reply_action(reply, obs.legal, declared=True)
        if isinstance(a, Action):
            return a
        return self._stand_in(obs, declared)

    async def close(self) -> None:
        await self.channel.close()
