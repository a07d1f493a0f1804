"""Remote bots across processes: a bot's sockets are on the process each one reached
(its home); a table on another process (the borrower) claims one through the bus and
sends it the seat's requests from there.

Every process lists its bots in Redis: ``{prefix}bots:{node}``, a hash of bot name to
open sockets, rewritten when a socket comes or goes and renewed every keep period (it
expires with a process that died), its node in the set ``{prefix}botnodes``. Any
process can so offer, count and claim them.

Items on a process's own channel (``Bus``), one list each:

  borrower -> home: ``["bot_claim", req, name, borrower]``: a free socket of ``name``
  home -> borrower: ``["bot_claimed", req, lid, form]``: its id (None: none free)
  borrower -> home: ``["bot_ask", lid, req, texts, timeout, borrower]``: one request
  home -> borrower: ``["bot_answer", req, text, closed]``: the answer (None: none in time)
  borrower -> home: ``["bot_end", lid]``: the game is over (``end_game``; freed)
  home -> borrower: ``["bot_gone", lid]``: the bot's socket closed

and on the shared ``bots`` channel ``["bot_kick", owner, name]``: a revoked token or a
deleted account closes the bot's sockets on every process.

The late-answer bookkeeping stays with the socket, on its home (``RemoteLink.exchange``).
A home frees the sockets it lent to a process that is gone (its channel has no
listener at a keep, or a message to it reached nobody); a borrower counts a socket
whose home is gone, or silent past the request's time and a margin, as closed: the
stand-in decides, and the seat's next decision claims another.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis

from server.cluster.bus import Bus, Item
from server.external.names import Form
from server.external.remote import Link, RemoteHub, RemoteLink

log = logging.getLogger(__name__)

# How long a claim waits for the home's answer (s): a live home answers in a few ms.
CLAIM_SECONDS = 2.0
# How much longer than the request's own time a borrower waits for its answer (s).
ANSWER_MARGIN = 2.0


@dataclass
class _Lent:
    link: RemoteLink
    borrower: str


def _text(x: Any) -> str:
    return x.decode() if isinstance(x, bytes) else str(x)


class RelayedLink:
    """A socket of another process (the bot's home), as the seat that claimed it sees it."""

    def __init__(self, bots: ClusterBots, home: str, lid: str, form: Form) -> None:
        self.bots = bots
        self.home = home
        self.lid = lid
        self.form = form
        self.closed = False
        self._given_back = False

    async def exchange(self, texts: Sequence[str], timeout: float) -> str | None:
        if self.closed:
            return None
        req, fut = self.bots.expect(self.home)
        bus = self.bots.bus
        bus.to_node(self.home, ["bot_ask", self.lid, req, list(texts), timeout, bus.node])
        try:
            text, closed = await asyncio.wait_for(fut, timeout + ANSWER_MARGIN)
        except TimeoutError:
            # The home does not answer: the socket is given back, and another claimed.
            self.give_back()
            closed, text = True, None
        finally:
            self.bots.pending.pop(req, None)
        if closed:
            self.gone()
        return str(text) if text is not None else None

    async def end(self) -> None:
        if not self.closed:
            self.give_back()
        self.gone()

    def give_back(self) -> None:
        """Tell the home the seat is done with the socket (``end_game``, then free)."""
        if not self._given_back:
            self._given_back = True
            self.bots.bus.to_node(self.home, ["bot_end", self.lid])

    def gone(self) -> None:
        self.closed = True
        self.bots.borrowed.pop(self.lid, None)


class ClusterBots:
    """This process's side of every remote bot shared with the others (``Elsewhere``)."""

    def __init__(self, bus: Bus, redis: Redis, hub: RemoteHub, ttl: float) -> None:
        self.bus = bus
        self.redis = redis
        self.hub = hub
        self.ttl = max(2, round(ttl))
        self.prefix = f"{bus.prefix}bots:"
        self.key = self.prefix + bus.node
        self.nodes = f"{bus.prefix}botnodes"
        self._ids = itertools.count(1)
        # requests of this process waiting for an answer: req -> (future, node asked);
        # each future's result is a pair, (lid, form) for a claim, (text, closed) else
        self.pending: dict[int, tuple[asyncio.Future[Any], str]] = {}
        self.lent: dict[str, _Lent] = {}  # this process's sockets at other processes' seats
        self.borrowed: dict[str, RelayedLink] = {}  # other processes' sockets at seats here
        self._tasks: set[asyncio.Task[None]] = set()
        self._listing: asyncio.Task[None] | None = None
        self._dirty = False
        hub.elsewhere = self
        hub.on_change = self.changed

    # -- the listing ------------------------------------------------------------

    def changed(self) -> None:
        """A socket came or went: the listing is rewritten, and the seat of another
        process holding a socket that closed is told."""
        for lid, lent in list(self.lent.items()):
            if lent.link.closed:
                del self.lent[lid]
                self.bus.to_node(lent.borrower, ["bot_gone", lid])
        if self._listing is not None and not self._listing.done():
            self._dirty = True
            return
        self._listing = asyncio.get_running_loop().create_task(self._list())

    async def _list(self) -> None:
        while True:
            self._dirty = False
            try:
                await self.publish()
            except Exception as exc:  # the next keep writes it again
                log.warning("cluster: listing the bots failed: %r", exc)
                return
            if not self._dirty:
                return

    async def publish(self) -> None:
        counts: dict[Any, Any] = self.hub.counts()
        pipe = self.redis.pipeline(transaction=True)
        pipe.delete(self.key)
        if counts:
            pipe.hset(self.key, mapping=counts)
            pipe.expire(self.key, self.ttl)
            pipe.sadd(self.nodes, self.bus.node)
        else:
            pipe.srem(self.nodes, self.bus.node)
        await pipe.execute()

    async def _others(self) -> dict[str, dict[str, int]]:
        """Every other process's bots: node -> name -> sockets (none while Redis is out
        of reach: the bots here are still offered)."""
        try:
            return await self._read_others()
        except Exception as exc:
            log.warning("cluster: reading the other processes' bots failed: %r", exc)
            return {}

    async def _read_others(self) -> dict[str, dict[str, int]]:
        nodes = sorted(_text(n) for n in await self.redis.smembers(self.nodes))
        nodes = [n for n in nodes if n != self.bus.node]
        if not nodes:
            return {}
        pipe = self.redis.pipeline(transaction=False)
        for n in nodes:
            pipe.hgetall(self.prefix + n)
        out: dict[str, dict[str, int]] = {}
        gone = []
        for n, h in zip(nodes, await pipe.execute(), strict=True):
            counts = {_text(name): int(c) for name, c in h.items() if int(c) > 0}
            if counts:
                out[n] = counts
            elif not h:
                gone.append(n)  # its listing expired: the process died
        if gone:
            await self.redis.srem(self.nodes, *gone)
        return out

    async def counts(self) -> dict[str, int]:
        """Sockets by bot name on the other processes, summed."""
        out: dict[str, int] = {}
        for counts in (await self._others()).values():
            for name, n in counts.items():
                out[name] = out.get(name, 0) + n
        return out

    def kick(self, owner: int | None, name: str | None) -> None:
        self.bus.send(self.bus.bots, ["bot_kick", owner, name])

    # -- the borrower -----------------------------------------------------------

    def expect(self, node: str) -> tuple[int, asyncio.Future[Any]]:
        """A new request id and the future its answer from ``node`` resolves."""
        req = next(self._ids)
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.pending[req] = (fut, node)
        return req, fut

    async def claim(self, name: str) -> Link | None:
        homes = [node for node, counts in (await self._others()).items() if name in counts]
        random.shuffle(homes)
        for home in homes:
            req, fut = self.expect(home)
            self.bus.to_node(home, ["bot_claim", req, name, self.bus.node])
            try:
                lid, form = await asyncio.wait_for(fut, CLAIM_SECONDS)
            except TimeoutError:
                continue
            finally:
                self.pending.pop(req, None)
            if lid is not None:
                link = RelayedLink(self, home, str(lid), form)
                self.borrowed[link.lid] = link
                return link
        return None

    def _answer(self, req: Any, value: Any) -> None:
        entry = self.pending.get(int(req))
        if entry is not None and not entry[0].done():
            entry[0].set_result(value)

    # -- the home -----------------------------------------------------------------

    def _claimed(self, req: Any, name: str, borrower: str) -> None:
        link = self.hub.claim_here(name)
        if link is None:
            self.bus.to_node(borrower, ["bot_claimed", req, None, None])
            return
        lid = f"{self.bus.node}.{next(self._ids)}"
        self.lent[lid] = _Lent(link, borrower)
        self.bus.to_node(borrower, ["bot_claimed", req, lid, link.form])

    def _ask(self, lid: str, req: Any, texts: list[str], timeout: float, borrower: str) -> None:
        lent = self.lent.get(lid)
        if lent is None or lent.link.closed or lent.borrower != borrower:
            self.bus.to_node(borrower, ["bot_answer", req, None, True])
            return
        link = lent.link

        async def run() -> None:
            text = await link.exchange(texts, timeout)
            self.bus.to_node(borrower, ["bot_answer", req, text, link.closed])

        self._spawn(run())

    def _end(self, lid: str) -> None:
        lent = self.lent.pop(lid, None)
        if lent is not None:
            self._spawn(lent.link.end())

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def free_lent_to(self, borrower: str) -> None:
        """``borrower`` is gone: the sockets it held are told the game ended, and freed."""
        for lid, lent in list(self.lent.items()):
            if lent.borrower == borrower:
                self._end(lid)

    async def keep(self) -> None:
        """Every keep period: renew the listing; free what gone processes held."""
        await self.publish()
        borrowers = sorted({lent.borrower for lent in self.lent.values()})
        if borrowers:
            heard = await self.redis.pubsub_numsub(*(self.bus.node_channel(b) for b in borrowers))
            for b, (_, n) in zip(borrowers, heard, strict=True):
                if not n:
                    self.free_lent_to(b)

    async def close(self) -> None:
        for t in list(self._tasks):
            t.cancel()
        try:
            pipe = self.redis.pipeline(transaction=True)
            pipe.delete(self.key)
            pipe.srem(self.nodes, self.bus.node)
            await pipe.execute()
        except Exception as exc:
            log.warning("cluster: unlisting the bots failed: %r", exc)

    # -- messages -------------------------------------------------------------------

    def on_item(self, item: Item) -> None:
        """An item of this process's channel whose op starts with ``bot_``."""
        op = item[0]
        if op == "bot_claim":
            self._claimed(item[1], str(item[2]), str(item[3]))
        elif op == "bot_claimed":
            self._answer(item[1], (item[2], item[3]))
        elif op == "bot_ask":
            texts = [str(t) for t in item[3]]
            self._ask(str(item[1]), item[2], texts, float(item[4]), str(item[5]))
        elif op == "bot_answer":
            self._answer(item[1], (item[2], item[3]))
        elif op == "bot_end":
            self._end(str(item[1]))
        elif op == "bot_gone":
            link = self.borrowed.get(str(item[1]))
            if link is not None:
                link.gone()

    def on_kick(self, item: Item) -> None:
        owner = None if item[1] is None else int(item[1])
        name = None if item[2] is None else str(item[2])
        self.hub.kick_here(owner, name)

    def unheard(self, node: str) -> None:
        """A message to ``node`` reached nobody: that process is gone."""
        for fut, asked in list(self.pending.values()):
            if asked == node and not fut.done():
                fut.set_result((None, True))  # no socket claimed; no answer, gone
        for link in list(self.borrowed.values()):
            if link.home == node:
                link.gone()
        self.free_lent_to(node)
