"""A live server (uvicorn in a background thread on a free port) and HTTP helpers."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
import uvicorn

from server.api.app import create_app
from server.db import migrate
from server.settings import Settings
from server.tables.table import BotFactory

TEST_SECRET = "test-secret-" + "x" * 40


class LiveServer:
    def __init__(self, db_url: str, bot_factory: BotFactory | None = None, **overrides: Any):
        options: dict[str, Any] = {
            "env": "test",
            "secret": TEST_SECRET,
            "database_url": db_url,
            "bot_delay_seconds": 0.0,
            # The call window has tests of its own (test_call_window.py); elsewhere it
            # would only slow the games down.
            "call_window_seconds": 0.0,
            "round_end_pause_seconds": 30.0,
            "disconnect_grace_seconds": 30.0,
            "join_rate_per_minute": 1000,
            "guest_rate_per_minute": 1000,
            "lobby_rate_per_minute": 1000,
            "rename_rate_per_minute": 1000,
            "ws_rate_per_second": 10000.0,
            "ws_rate_burst": 10000,
        }
        options.update(overrides)
        self.settings = Settings(**options)
        self.clients: list[httpx.Client] = []
        self.app = create_app(self.settings, bot_factory)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        config = uvicorn.Config(
            self.app,
            log_level="warning",
            ws_max_size=1 << 20,
            lifespan="on",
            ws="websockets-sansio",
            ws_per_message_deflate=self.settings.ws_compression,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def guest(self, name: str) -> tuple[httpx.Client, dict[str, Any]]:
        """A new guest and an HTTP client carrying its cookie (closed with the server)."""
        client = httpx.Client(base_url=self.http, timeout=10)
        self.clients.append(client)
        r = client.post("/api/guest", json={"name": name})
        assert r.status_code == 200, r.text
        return client, r.json()

    def stop(self) -> None:
        for c in self.clients:
            c.close()
        self.server.should_exit = True
        self.thread.join(20)
        self.sock.close()

    @property
    def ctx(self) -> Any:
        return self.app.state.ctx


@pytest.fixture
def make_server() -> Iterator[Callable[..., LiveServer]]:
    servers: list[LiveServer] = []

    def make(db_url: str, bot_factory: BotFactory | None = None, **overrides: Any) -> LiveServer:
        migrate.upgrade(db_url)  # as `jantaku serve` does; a no-op when already at head
        srv = LiveServer(db_url, bot_factory, **overrides).start()
        servers.append(srv)
        return srv

    yield make
    for srv in servers:
        srv.stop()


def bot_table(
    srv: LiveServer, rules: dict[str, Any] | None = None, level: str = "tsumogiri"
) -> tuple[httpx.Client, dict[str, Any], int]:
    """One human (the host) and three bots at a started table: (client, guest, game id)."""
    client, g = srv.guest("Solo")
    r = client.post("/api/lobbies", json={"rules": rules or {"preset": "standard"}})
    assert r.status_code == 200, r.text
    code = r.json()["code"]
    for _ in range(3):
        assert client.post(f"/api/lobbies/{code}/bots", json={"level": level}).status_code == 200
    r = client.post(f"/api/lobbies/{code}/start")
    assert r.status_code == 200, r.text
    return client, g, r.json()["game"]["id"]
