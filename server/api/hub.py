"""Pushes lobby changes to every WebSocket listening on that lobby.

With many processes (server/cluster) a change is relayed through Redis to every
process, this one included, and each delivers it to its own listeners.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

Sender = Callable[[str], None]


class LobbyHub:
    def __init__(self) -> None:
        self.listeners: dict[str, set[Sender]] = {}
        # (code, frame) -> every process's hub.deliver; None: this process alone.
        self.relay: Callable[[str, str], None] | None = None

    def subscribe(self, code: str, send: Sender) -> None:
        self.listeners.setdefault(code, set()).add(send)

    def unsubscribe(self, code: str, send: Sender) -> None:
        subs = self.listeners.get(code)
        if subs is not None:
            subs.discard(send)
            if not subs:
                del self.listeners[code]

    def publish(self, code: str, lobby: dict[str, Any]) -> None:
        frame = orjson.dumps({"type": "lobby", "lobby": lobby}).decode()
        if self.relay is not None:
            self.relay(code, frame)
        else:
            self.deliver(code, frame)

    def deliver(self, code: str, frame: str) -> None:
        for send in list(self.listeners.get(code, ())):
            send(frame)
