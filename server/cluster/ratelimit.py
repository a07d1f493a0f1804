"""Rate limits shared by every process: a sliding window per key in a Redis sorted set.

The same limit as ``server.api.ratelimit.WindowLimiter`` (at most ``limit`` hits per
key in any ``window`` seconds, all keys hit or none), counted once for the cluster:
a client cannot get ``limit`` hits from each process by spreading its requests.
Redis's clock stamps the hits, so the processes' clocks need not agree.
"""

from __future__ import annotations

import itertools
import secrets
from typing import Any

from redis.asyncio import Redis

# KEYS: the limited keys; ARGV: limit, window (ms), a unique member for this hit.
# Returns 0 when the hit was recorded, else the milliseconds to wait.
_HIT = """
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local wait = 0
for _, key in ipairs(KEYS) do
  redis.call('zremrangebyscore', key, '-inf', now - window)
  if redis.call('zcard', key) >= limit then
    local first = redis.call('zrange', key, 0, 0, 'WITHSCORES')
    local w = tonumber(first[2]) + window - now
    if w < 1 then w = 1 end
    if w > wait then wait = w end
  end
end
if wait > 0 then return wait end
for _, key in ipairs(KEYS) do
  redis.call('zadd', key, now, ARGV[3])
  redis.call('pexpire', key, window)
end
return 0
"""


class RedisWindowLimiter:
    def __init__(self, redis: Redis, prefix: str, name: str, limit: int, window: float) -> None:
        self.prefix = f"{prefix}rate:{name}:"
        self.limit = limit
        self.window_ms = int(window * 1000)
        self._hit: Any = redis.register_script(_HIT)
        self._member = f"{secrets.token_hex(4)}."
        self._n = itertools.count()

    async def hit_keys(self, keys: list[str]) -> float | None:
        wait = int(
            await self._hit(
                keys=[self.prefix + k for k in keys],
                args=[self.limit, self.window_ms, f"{self._member}{next(self._n)}"],
            )
        )
        return wait / 1000 if wait else None
