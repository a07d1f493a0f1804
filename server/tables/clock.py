"""Time for the table actors: the event loop's clock, or a fake one that tests move by hand."""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Callable
from typing import Protocol


class Handle(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    """What an actor needs of time: the current time and a callback later."""

    def now(self) -> float: ...

    def call_later(self, delay: float, fn: Callable[[], None]) -> Handle: ...


class LoopClock:
    """The running event loop's monotonic clock."""

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    def call_later(self, delay: float, fn: Callable[[], None]) -> Handle:
        return asyncio.get_running_loop().call_later(delay, fn)


class _FakeHandle:
    __slots__ = ("cancelled",)

    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class FakeClock:
    """A clock that stands still until ``advance`` moves it (tests of timing, no sleeps).

    It counts whole milliseconds, so that steps add up exactly (0.05 s twenty times
    is 1.0 s, as a test expects)."""

    def __init__(self, start: float = 0.0) -> None:
        self.ms = round(start * 1000)
        self._due: list[tuple[int, int, _FakeHandle, Callable[[], None]]] = []
        self._seq = itertools.count()

    def now(self) -> float:
        return self.ms / 1000

    def call_later(self, delay: float, fn: Callable[[], None]) -> Handle:
        handle = _FakeHandle()
        due = self.ms + max(0, round(delay * 1000))
        heapq.heappush(self._due, (due, next(self._seq), handle, fn))
        return handle

    def advance(self, seconds: float) -> None:
        """Move time on, running every callback that falls due, in time order."""
        end = self.ms + round(seconds * 1000)
        while self._due and self._due[0][0] <= end:
            when, _, handle, fn = heapq.heappop(self._due)
            self.ms = max(self.ms, when)
            if not handle.cancelled:
                fn()
        self.ms = end

    def next_due(self) -> float | None:
        """When the next pending callback falls due (None: nothing pending)."""
        while self._due and self._due[0][2].cancelled:
            heapq.heappop(self._due)
        return self._due[0][0] / 1000 if self._due else None
