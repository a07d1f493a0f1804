"""A scripted table client over a real WebSocket (``websockets``), recording every frame."""

from __future__ import annotations

import asyncio
import json
from collections import deque
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

WIN_FIRST = ("tsumo", "ron")


def scripted_choice(view: dict[str, Any]) -> dict[str, Any]:
    """A fixed policy: win when possible, riichi, never call, discard the drawn tile."""
    legal: list[dict[str, Any]] = view["legal_actions"]
    for t in WIN_FIRST:
        for a in legal:
            if a["type"] == t:
                return a
    for a in legal:
        if a["type"] == "riichi":
            return a
    for a in legal:
        if a["type"] == "pass":
            return a
    me = view["players"][view["seat"]]
    for a in legal:
        if a["type"] == "discard" and a.get("tile") == me.get("drawn"):
            return a
    discards = [a for a in legal if a["type"] == "discard"]
    return discards[-1] if discards else legal[0]


class TableClient:
    def __init__(self, ws: ClientConnection, name: str) -> None:
        self.ws = ws
        self.name = name
        self.frames: list[dict[str, Any]] = []
        self.version = 0
        self.seat: int | None = None
        self.view: dict[str, Any] | None = None
        self.welcome: dict[str, Any] | None = None
        self.game_over: dict[str, Any] | None = None
        self.errors: list[dict[str, Any]] = []
        self.gaps: list[tuple[int, int]] = []
        self.unread: deque[dict[str, Any]] = deque()  # the rest of a batch frame

    @classmethod
    async def open(
        cls,
        base: str,
        game_id: int,
        token: str | None,
        *,
        last_version: int | None = None,
        spectate: bool = False,
        watch: str | None = None,
        name: str = "",
    ) -> TableClient:
        # No receive-queue limit: a test that stops reading must still close promptly.
        ws = await connect(f"{base}/ws/table/{game_id}", max_size=None, max_queue=None)
        client = cls(ws, name)
        hello: dict[str, Any] = {"type": "hello", "last_version": last_version}
        if token is not None:
            hello["token"] = token
        if spectate:
            hello["spectate"] = True
        if watch is not None:
            hello["watch"] = watch
        await client.send(hello)
        client.welcome = await client.recv_type("welcome")
        client.seat = client.welcome["seat"]
        if last_version is not None:
            client.version = last_version
        return client

    async def send(self, obj: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(obj))

    async def recv(self, timeout: float = 20.0) -> dict[str, Any]:
        """The next message (a batch frame is read one message at a time)."""
        if not self.unread:
            msg: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
            self.unread.extend(msg["messages"] if msg["type"] == "batch" else [msg])
        msg = self.unread.popleft()
        self.frames.append(msg)
        t = msg["type"]
        if t == "event":
            if msg["version"] != self.version + 1:
                self.gaps.append((self.version, msg["version"]))
            self.version = msg["version"]
        elif t == "view":
            self.view = msg["view"]
            self.version = msg["version"]
        elif t == "welcome" and msg["mode"] == "resync":
            self.version = msg["version"]
        elif t == "error":
            self.errors.append(msg)
        elif t == "game_over":
            self.game_over = msg
        return msg

    async def recv_type(self, t: str, timeout: float = 20.0) -> dict[str, Any]:
        while True:
            msg = await self.recv(timeout)
            if msg["type"] == t:
                return msg

    async def play(self, *, max_actions: int | None = None, timeout: float = 20.0) -> int:
        """Answer every decision with ``scripted_choice`` until the game ends (or max_actions)."""
        acted = 0
        continued_at = -1
        while self.game_over is None:
            if max_actions is not None and acted >= max_actions:
                return acted
            msg = await self.recv(timeout)
            if msg["type"] != "view":
                continue
            view = msg["view"]
            if view["legal_actions"]:
                await self.send(
                    {"type": "action", "action": scripted_choice(view), "version": msg["version"]}
                )
                acted += 1
            elif view["phase"] == "round_end" and continued_at != msg["version"]:
                continued_at = msg["version"]
                await self.send({"type": "continue"})
        return acted

    async def close(self) -> None:
        await self.ws.close()


async def lobby_listener(base: str, code: str, token: str | None) -> ClientConnection:
    ws = await connect(f"{base}/ws/lobby/{code}")
    hello: dict[str, Any] = {"type": "hello"}
    if token:
        hello["token"] = token
    await ws.send(json.dumps(hello))
    return ws
