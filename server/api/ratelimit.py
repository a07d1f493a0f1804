"""Rate limits: a token bucket per WebSocket connection, a sliding window per address."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from typing import Protocol


class TokenBucket:
    """``rate`` tokens per second up to ``burst``; each message takes one."""

    __slots__ = ("burst", "clock", "rate", "stamp", "tokens")

    def __init__(
        self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = float(burst)
        self.stamp = clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class WindowLimiter:
    """At most ``limit`` hits per key in any ``window`` seconds."""

    def __init__(self, limit: int, window: float) -> None:
        self.limit = limit
        self.window = window
        self.hits: dict[str, deque[float]] = {}

    def hit_all(self, keys: list[str]) -> float | None:
        """Record a hit on every key if each allows one; else the longest wait (no hit)."""
        now = time.monotonic()
        waits = [w for w in (self._wait(k, now) for k in keys) if w is not None]
        if waits:
            return max(waits)
        for k in keys:
            self.hit(k)
        return None

    async def hit_keys(self, keys: list[str]) -> float | None:
        return self.hit_all(keys)

    def _wait(self, key: str, now: float) -> float | None:
        q = self.hits.get(key)
        if q is None:
            return None
        while q and q[0] <= now - self.window:
            q.popleft()
        return q[0] + self.window - now if len(q) >= self.limit else None

    def hit(self, key: str) -> float | None:
        """Record a hit; None when allowed, else seconds until the next one is allowed."""
        now = time.monotonic()
        q = self.hits.setdefault(key, deque())
        while q and q[0] <= now - self.window:
            q.popleft()
        if len(q) >= self.limit:
            return q[0] + self.window - now
        q.append(now)
        # Keep memory bounded when many addresses come and go.
        if len(self.hits) > 10000:
            self.hits = {k: v for k, v in self.hits.items() if v and v[-1] > now - self.window}
        return None


class Limiter(Protocol):
    """A sliding-window limit over keys, in this process's memory or shared (Redis)."""

    async def hit_keys(self, keys: list[str]) -> float | None:
        """Record a hit on every key if each allows one; else seconds to wait (no hit)."""
