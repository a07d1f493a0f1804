"""Table leases in Redis: who owns each live table, for how long, under which token.

A lease is one key per game, ``{prefix}lease:{game}``, holding ``{node}:{token}``
with an expiry. It is taken only when absent (SET NX semantics, in a script that
also draws the token), renewed only by the exact holder, released only by it.
The token comes from a per-game counter that only grows (``{prefix}fence:{game}``):
a process whose lease expired and was taken cannot renew it even if it comes back
with the same node id, and every owner of a game has a larger token than the last.

The holder also keeps a local deadline per lease, measured from before each renewal
was sent: once it has passed, the table must not commit anything more (``valid``),
whatever Redis says later. A paused process that wakes up after its lease went to
another therefore stops before writing; if a write still slipped through, the
unique (game, version) index on the record (migration 0003) refuses one of the two.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from redis.asyncio import Redis

_ACQUIRE = """
if redis.call('exists', KEYS[1]) == 1 then return 0 end
local token = redis.call('incr', KEYS[2])
redis.call('set', KEYS[1], ARGV[1] .. ':' .. token, 'PX', ARGV[2])
return token
"""

# KEYS: the leases; ARGV[1]: ttl in ms, ARGV[i+1]: the value expected in KEYS[i].
_RENEW = """
local out = {}
for i, key in ipairs(KEYS) do
  if redis.call('get', key) == ARGV[i + 1] then
    redis.call('pexpire', key, ARGV[1])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
"""

_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


class Leases:
    """The leases this process (``node``) holds, and look-ups of everyone's."""

    def __init__(
        self,
        redis: Redis,
        prefix: str,
        node: str,
        ttl: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.redis = redis
        self.clock = clock
        self.prefix = prefix
        self.node = node
        self.ttl = ttl
        # game id -> (lease value, local deadline on the monotonic clock)
        self.held: dict[int, tuple[str, float]] = {}
        self._acquire: Any = redis.register_script(_ACQUIRE)
        self._renew: Any = redis.register_script(_RENEW)
        self._release: Any = redis.register_script(_RELEASE)

    def key(self, game_id: int) -> str:
        return f"{self.prefix}lease:{game_id}"

    def _fence(self, game_id: int) -> str:
        return f"{self.prefix}fence:{game_id}"

    def _deadline(self, sent: float) -> float:
        # A margin for clocks that drift and for the time Redis took to answer.
        return sent + self.ttl * 0.8

    async def acquire(self, game_id: int) -> int | None:
        """Take the lease when nobody holds it: its fencing token, else None."""
        sent = self.clock()
        token = int(
            await self._acquire(
                keys=[self.key(game_id), self._fence(game_id)],
                args=[self.node, int(self.ttl * 1000)],
            )
        )
        if not token:
            return None
        self.held[game_id] = (f"{self.node}:{token}", self._deadline(sent))
        return token

    async def renew(self) -> list[int]:
        """Renew every held lease in one round trip; the games whose lease was lost
        (expired, or taken by another) are forgotten and returned."""
        if not self.held:
            return []
        games = list(self.held)
        values = [self.held[g][0] for g in games]
        sent = self.clock()
        kept = await self._renew(
            keys=[self.key(g) for g in games], args=[int(self.ttl * 1000), *values]
        )
        lost = []
        deadline = self._deadline(sent)
        for g, value, ok in zip(games, values, kept, strict=True):
            if self.held.get(g, (None,))[0] != value:
                continue  # released or re-taken meanwhile
            if ok:
                self.held[g] = (value, deadline)
            else:
                del self.held[g]
                lost.append(g)
        return lost

    def valid(self, game_id: int) -> bool:
        """Whether this process still surely owns the game (its local deadline is ahead)."""
        held = self.held.get(game_id)
        return held is not None and self.clock() < held[1]

    def expired(self) -> list[int]:
        """Held leases whose local deadline passed without a renewal (Redis unreachable):
        forgotten and returned, as lost."""
        now = self.clock()
        out = [g for g, (_, deadline) in self.held.items() if deadline <= now]
        for g in out:
            del self.held[g]
        return out

    async def release(self, game_id: int) -> None:
        held = self.held.pop(game_id, None)
        if held is not None:
            await self._release(keys=[self.key(game_id)], args=[held[0]])

    async def release_all(self) -> None:
        for g in list(self.held):
            await self.release(g)

    async def owners(self, games: Iterable[int]) -> dict[int, str | None]:
        """The node holding each game's lease (None: nobody)."""
        ids = list(games)
        if not ids:
            return {}
        values = await self.redis.mget([self.key(g) for g in ids])
        return {g: _node_of(v) for g, v in zip(ids, values, strict=True)}


def _node_of(value: bytes | str | None) -> str | None:
    if value is None:
        return None
    text = value.decode() if isinstance(value, bytes) else value
    return text.rsplit(":", 1)[0]
