"""Browser-test fixtures: the real app on a free port, and Debian's Chromium via Playwright.

The app runs in a background thread (uvicorn) on a migrated temporary SQLite file.
Chromium is the system one (``/usr/bin/chromium``, installed by ``make browser-deps``);
Playwright's own browser download is never used. Without Chromium the browser tests
skip locally but fail under ``CI=true``.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}  # the same phone turned sideways


class AppServer:
    """uvicorn serving ``create_app`` from a thread, on a socket bound to port 0."""

    def __init__(self, db_url: str, **overrides: Any) -> None:
        from server.api.app import create_app
        from server.settings import Settings

        options: dict[str, Any] = {
            "env": "test",
            "secret": "web-tests-" + "s" * 40,
            "database_url": db_url,
            # Bots answer at once. A finished round waits for the people to click
            # "continue" (the tests always do), so every result card is seen.
            "bot_delay_seconds": 0.0,
            # A short call window: the client must show a discard before it closes.
            "call_window_seconds": 0.05,
            "round_end_pause_seconds": 30.0,
            "disconnect_grace_seconds": 30.0,
            "join_rate_per_minute": 1000,
            "guest_rate_per_minute": 1000,
            "lobby_rate_per_minute": 1000,
            "rename_rate_per_minute": 1000,
        }
        options.update(overrides)
        self.app = create_app(Settings(**options))
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port: int = self.sock.getsockname()[1]
        config = uvicorn.Config(self.app, log_level="warning", ws="websockets-sansio")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> AppServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the web test server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(20)
        self.sock.close()


@pytest.fixture(scope="module")
def app_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    from server.db import migrate

    db = tmp_path_factory.mktemp("webdb") / "jantaku-web.db"
    url = f"sqlite:///{db}"
    migrate.upgrade(url)
    srv = AppServer(url).start()
    yield srv
    srv.stop()


def _require_chromium() -> None:
    if Path(CHROMIUM).exists() or shutil.which("chromium"):
        return
    msg = f"Chromium not found at {CHROMIUM}; run `make browser-deps`"
    if os.environ.get("CI") == "true":
        pytest.fail(msg)
    pytest.skip(msg)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    _require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
