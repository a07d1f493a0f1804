"""Remote mjai bots: a bot that connects over a WebSocket with its token (``/ws/bot``)
and plays the seats of the bot level ``remote-<name>``.

The API's socket handler (``server/api/remotebots.py``) makes a ``RemoteLink`` per
connection and adds it to the ``RemoteHub``. A seat's ``RemoteChannel`` (what
``AsyncChannel`` is to a process, driven by the same ``AsyncMjaiBot``) claims a free
link of its bot at a decision and keeps it until the game ends or the link drops: one
link plays one seat, so a bot plays as many seats at once as it holds connections.

One WebSocket text message carries what one stdio line does: in the ``array`` form a
request is a JSON array of the events since the last one and the answer one action;
in the ``lines`` form each event is a message and the bot answers after an event it
may act on. A link newly claimed (the first decision, or the bot reconnected
mid-game) first gets every event of the seat's game so far, from ``start_game``: the
bot rebuilds its state, then decides. With no link at decision time, or an answer
late, wrong or missing, the seat's stand-in decides (``server.external.seat``); the
skipping of late answers is the stdio channel's.

With several server processes a bot's sockets are on the process each reached, and a
table may be on another: the hub then claims a link there (``Elsewhere``, done by
``server/cluster/bots.py``), and the seat talks to it through the same two calls a
link here answers, ``exchange`` and ``end``.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

from server.external.channel import FORMS, parse_answer
from server.external.names import REMOTE_PREFIX, Form

# Messages a bot may have waiting unread; more is a flood and its socket is closed.
MAX_INBOX = 64
# Seconds one send may take before the link counts as gone (a bot that stopped reading).
SEND_TIMEOUT = 5.0


def messages(events: Sequence[dict[str, Any]], form: Form) -> list[str]:
    """The WebSocket messages of one request."""
    if form == "array":
        return [json.dumps(list(events), separators=(",", ":"))]
    return [json.dumps(e, separators=(",", ":")) for e in events]


class RemoteLink:
    """One open bot socket: messages in through ``received``, out through ``send``."""

    def __init__(
        self,
        name: str,
        owner: int,
        form: Form,
        send: Callable[[str], Awaitable[None]],
        close: Callable[[int], None],
    ) -> None:
        if form not in FORMS:
            raise ValueError(f"form must be one of {FORMS}")
        self.name = name
        self.owner = owner
        self.form = form
        self._send = send
        self._close = close
        self.inbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.claimed = False
        self.owed = 0  # answers to requests that timed out (array form)

    def received(self, text: str) -> bool:
        """A message from the bot; False when it floods (its socket is to be closed)."""
        if self.inbox.qsize() >= MAX_INBOX:
            return False
        self.inbox.put_nowait(text)
        return True

    def gone(self) -> None:
        """The socket is closed: a decision waiting on it ends now, not at its deadline."""
        if not self.closed:
            self.closed = True
            self.inbox.put_nowait(None)

    def close(self, code: int) -> None:
        """Close the socket (its token was revoked, or it floods)."""
        self.gone()
        self._close(code)

    async def send(self, text: str) -> bool:
        if self.closed:
            return False
        try:
            await asyncio.wait_for(self._send(text), SEND_TIMEOUT)
        except Exception:
            self.gone()
            return False
        return True

    def waiting(self) -> str | None:
        """A message already here, without waiting; None if none."""
        try:
            return self.inbox.get_nowait()
        except asyncio.QueueEmpty:
            return None

    async def next(self, timeout: float) -> str | None:
        """The bot's next message within ``timeout`` seconds; None: none, or it left."""
        if self.closed and self.inbox.empty():
            return None
        try:
            return await asyncio.wait_for(self.inbox.get(), timeout)
        except TimeoutError:
            return None

    async def exchange(self, texts: Sequence[str], timeout: float) -> str | None:
        """One request: send ``texts``, then the bot's answer within ``timeout`` seconds
        (None: none, or the link went). Answers owed to requests that timed out before
        are skipped first (array form); in the lines form anything unasked is."""
        while (self.owed or self.form == "lines") and self.waiting() is not None:
            self.owed = max(0, self.owed - 1)
        for text in texts:
            if not await self.send(text):
                return None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            reply = await self.next(max(0.0, deadline - loop.time()))
            if reply is None:
                if self.form == "array" and not self.closed:
                    self.owed += 1
                return None
            if self.owed:
                self.owed -= 1
                continue
            return reply

    async def end(self) -> None:
        """The seat's game is over: the bot hears ``end_game`` and the link is free."""
        if not self.closed:
            sent = await self.send(messages([{"type": "end_game"}], self.form)[0])
            if sent and self.form == "array":
                self.owed += 1  # its "none" to end_game is skipped
        self.claimed = False


class Link(Protocol):
    """What a seat holds: a link here, or one on another process (server/cluster/bots.py)."""

    @property
    def form(self) -> Form: ...

    @property
    def closed(self) -> bool: ...

    async def exchange(self, texts: Sequence[str], timeout: float) -> str | None: ...

    async def end(self) -> None: ...


class Elsewhere(Protocol):
    """The bots connected to the other server processes (server/cluster/bots.py)."""

    async def claim(self, name: str) -> Link | None: ...

    async def counts(self) -> dict[str, int]: ...

    def kick(self, owner: int | None, name: str | None) -> None: ...


class RemoteHub:
    """The bots connected to this process, by name; with ``elsewhere``, also those of
    the other processes (claimed, listed, counted and kicked through it)."""

    def __init__(self) -> None:
        self._links: dict[str, list[RemoteLink]] = {}
        self.elsewhere: Elsewhere | None = None
        # Told after a link came or went (the cluster lists this process's bots).
        self.on_change: Callable[[], None] | None = None

    def add(self, link: RemoteLink) -> None:
        self._links.setdefault(link.name, []).append(link)
        if self.on_change is not None:
            self.on_change()

    def remove(self, link: RemoteLink) -> None:
        link.gone()
        links = self._links.get(link.name, [])
        if link in links:
            links.remove(link)
        if not links:
            self._links.pop(link.name, None)
        if self.on_change is not None:
            self.on_change()

    def connections(self, name: str) -> int:
        """Sockets of bot ``name`` on this process."""
        return len(self._links.get(name, ()))

    def counts(self) -> dict[str, int]:
        """Sockets on this process by bot name."""
        return {name: len(links) for name, links in self._links.items() if links}

    def levels(self) -> list[str]:
        """The bot levels of the bots connected to this process (``remote-<name>``)."""
        return sorted(REMOTE_PREFIX + name for name in self.counts())

    async def all_counts(self) -> dict[str, int]:
        """Sockets by bot name on every process."""
        counts = self.counts()
        if self.elsewhere is not None:
            for name, n in (await self.elsewhere.counts()).items():
                counts[name] = counts.get(name, 0) + n
        return counts

    async def all_levels(self) -> list[str]:
        """The levels of the bots connected to any process."""
        return sorted(REMOTE_PREFIX + name for name in await self.all_counts())

    def claim_here(self, name: str) -> RemoteLink | None:
        """A free open link of bot ``name`` on this process, now taken; None if none."""
        for link in self._links.get(name, ()):
            if not link.claimed and not link.closed:
                link.claimed = True
                return link
        return None

    async def claim(self, name: str) -> Link | None:
        """A free link of bot ``name``, here or else on another process; None if none."""
        link = self.claim_here(name)
        if link is None and self.elsewhere is not None:
            return await self.elsewhere.claim(name)
        return link

    def kick(self, owner: int | None = None, name: str | None = None) -> int:
        """Close the sockets of bot ``name``, or of every bot of ``owner``, on every
        process; how many were on this one."""
        if self.elsewhere is not None:
            self.elsewhere.kick(owner, name)
        return self.kick_here(owner, name)

    def kick_here(self, owner: int | None = None, name: str | None = None) -> int:
        """``kick`` on this process only."""
        n = 0
        for links in list(self._links.values()):
            for link in list(links):
                if link.name == name or (owner is not None and link.owner == owner):
                    link.close(4401)
                    self.remove(link)
                    n += 1
        return n


class RemoteChannel:
    """One seat's conversation with remote bot ``name``, over whichever link it holds."""

    def __init__(self, hub: RemoteHub, name: str, timeout: float = 5.0) -> None:
        self.hub = hub
        self.name = name
        self.timeout = timeout
        self.link: Link | None = None
        # every event this seat was sent, for a link claimed mid-game
        self.history: list[dict[str, Any]] = []

    async def start(self, seat: int) -> None:
        """Nothing to start: the seat's number travels in ``start_game``."""

    async def ask(self, events: Sequence[dict[str, Any]]) -> Any:
        """Send ``events``, return the answer (parsed JSON) or None."""
        self.history.extend(events)
        link = self.link
        if link is None or link.closed:
            link = self.link = await self.hub.claim(self.name)
            if link is None:
                return None  # not connected: the stand-in decides
            events = self.history
        reply = await link.exchange(messages(events, link.form), self.timeout)
        return None if reply is None else parse_answer(reply.encode())

    async def close(self) -> None:
        """The game is over: the bot hears ``end_game`` and its link is free again."""
        link, self.link = self.link, None
        if link is not None and not link.closed:
            await link.end()
