"""Talking to an external mjai bot over its standard input and output.

Two forms, as the bots out there speak them:

* ``array`` (mjai.app's convention): each request is one line holding a JSON array
  of the events since the last one; each answer is one line holding one action
  (``{"type": "none"}`` when there is nothing to do).
* ``lines`` (Mortal's ``mjai`` mode): one event per line; the bot writes a line
  only after an event it may act on.

The command gets the seat as mjai numbers it: ``{seat}`` in the command is replaced
by it, else it is added as the last argument (mjai.app runs ``bot.py <player_id>``).

Every request has a deadline. In the array form every request has one answer, so
one that comes after the deadline is owed: the next request first skips as many
late lines as are owed, and a slow bot never answers the wrong question. In the
lines form a bot may stay silent, so lines already waiting before a request are
skipped instead. A bot that writes no line in time, garbage, or has died answers
None. A bot's first answer may also take ``startup`` seconds more: its process
starts then.

``SyncChannel`` serves in-process games (``jantaku simulate``, ``bench/arena.py``);
``AsyncChannel`` serves live tables, never blocking the event loop.
"""

from __future__ import annotations

import asyncio
import json
import os
import selectors
import shlex
import subprocess
import time
from collections.abc import Sequence
from typing import Any

from server.external.names import Form

FORMS: tuple[Form, ...] = ("array", "lines")
MAX_LINE = 1 << 20  # a longer answer is garbage
# Seconds a bot may take to start (an interpreter, a model to load) on top of its first
# decision's limit.
STARTUP = 30.0


def command_for(command: str, seat: int) -> list[str]:
    """The argument list of ``command`` for a bot at mjai seat ``seat``."""
    args = shlex.split(command)
    if not args:
        raise ValueError("an external bot needs a command")
    if any("{seat}" in a for a in args):
        return [a.replace("{seat}", str(seat)) for a in args]
    return [*args, str(seat)]


def requests(events: Sequence[dict[str, Any]], form: Form) -> bytes:
    """What to write for one request."""
    if form == "array":
        return (json.dumps(list(events), separators=(",", ":")) + "\n").encode()
    return b"".join((json.dumps(e, separators=(",", ":")) + "\n").encode() for e in events)


def parse_answer(line: bytes) -> Any:
    """One answer line as JSON; None when it is not JSON."""
    try:
        return json.loads(line)
    except (ValueError, UnicodeDecodeError):
        return None


class SyncChannel:
    """A bot process driven synchronously (a game played in-process)."""

    def __init__(
        self, command: str, form: Form = "array", timeout: float = 5.0, startup: float = STARTUP
    ) -> None:
        if form not in FORMS:
            raise ValueError(f"form must be one of {FORMS}")
        self.command = command
        self.form = form
        self.timeout = timeout
        self.startup = startup  # added to the first request's deadline
        self.proc: subprocess.Popen[bytes] | None = None
        self._buf = b""
        self.owed = 0

    def start(self, seat: int) -> None:
        self.proc = subprocess.Popen(
            command_for(self.command, seat),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        assert self.proc.stdout is not None
        os.set_blocking(self.proc.stdout.fileno(), False)

    def _line(self, deadline: float) -> bytes | None:
        """The next line (without its newline) before ``deadline``; None if none came."""
        proc = self.proc
        assert proc is not None and proc.stdout is not None
        fd = proc.stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buf:
                if len(self._buf) > MAX_LINE:
                    self._buf = b""
                    return None
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    return None
                try:
                    chunk = os.read(fd, 65536)
                except BlockingIOError:
                    continue
                if not chunk:
                    return None  # the bot has gone
                self._buf += chunk
        line, _, self._buf = self._buf.partition(b"\n")
        return line

    def ask(self, events: Sequence[dict[str, Any]]) -> Any:
        """Send ``events``, return the answer (parsed JSON) or None."""
        proc = self.proc
        if proc is None or proc.poll() is not None:
            return None
        assert proc.stdin is not None
        # late answers to earlier requests (array), or lines the bot wrote unasked
        # (lines): skip those already here
        while (self.owed or self.form == "lines") and self._line(time.monotonic()) is not None:
            self.owed = max(0, self.owed - 1)
        try:
            proc.stdin.write(requests(events, self.form))
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            return None
        deadline = time.monotonic() + self.timeout + self.startup
        self.startup = 0.0
        while True:
            line = self._line(deadline)
            if line is None:
                if self.form == "array":
                    self.owed += 1  # its answer may still come
                return None
            if self.owed:
                self.owed -= 1
                continue
            return parse_answer(line)

    def close(self) -> None:
        proc = self.proc
        if proc is None:
            return
        self.proc = None
        try:
            if proc.stdin is not None:
                proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()


class AsyncChannel:
    """A bot process driven from the event loop (a live table)."""

    def __init__(
        self, command: str, form: Form = "array", timeout: float = 5.0, startup: float = STARTUP
    ) -> None:
        if form not in FORMS:
            raise ValueError(f"form must be one of {FORMS}")
        self.command = command
        self.form = form
        self.timeout = timeout
        self.startup = startup  # added to the first request's deadline
        self.proc: asyncio.subprocess.Process | None = None
        self.owed = 0

    async def start(self, seat: int) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            *command_for(self.command, seat),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
            limit=MAX_LINE,
        )

    async def _line(self, timeout: float) -> bytes | None:
        proc = self.proc
        assert proc is not None and proc.stdout is not None
        try:
            line = await asyncio.wait_for(proc.stdout.readline(), timeout)
        except TimeoutError:
            return None
        except (ValueError, asyncio.LimitOverrunError):
            return None  # a line over the limit: garbage
        if not line:
            return None
        return line.rstrip(b"\n")

    async def ask(self, events: Sequence[dict[str, Any]]) -> Any:
        proc = self.proc
        if proc is None or proc.returncode is not None:
            return None
        assert proc.stdin is not None
        while (self.owed or self.form == "lines") and await self._line(0.001) is not None:
            self.owed = max(0, self.owed - 1)
        try:
            proc.stdin.write(requests(events, self.form))
            await proc.stdin.drain()
        except (BrokenPipeError, ConnectionResetError, OSError):
            return None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout + self.startup
        self.startup = 0.0
        while True:
            line = await self._line(max(0.0, deadline - loop.time()))
            if line is None:
                if self.form == "array":
                    self.owed += 1
                return None
            if self.owed:
                self.owed -= 1
                continue
            return parse_answer(line)

    async def close(self) -> None:
        proc = self.proc
        if proc is None:
            return
        self.proc = None
        if proc.stdin is not None:
            proc.stdin.close()
        try:
            await asyncio.wait_for(proc.wait(), 2)
        except TimeoutError:
            proc.kill()
            await proc.wait()
