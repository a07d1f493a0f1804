"""Real ``python -m server serve`` processes on one PostgreSQL and one Redis, and a TCP
proxy in front of them (the docker-compose topology, without Docker)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from tests.cluster.conftest import REDIS_URL
from tests.server.conftest import TEST_SECRET

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def cluster_env(db_url: str, prefix: str, **settings: Any) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JANTAKU_")}
    env.update(
        {
            "PYTHONPATH": str(ROOT),
            "DATABASE_URL": db_url,
            "JANTAKU_REDIS_URL": REDIS_URL,
            "JANTAKU_REDIS_PREFIX": prefix,
            "JANTAKU_ENV": "test",
            "JANTAKU_SECRET": TEST_SECRET,
            "JANTAKU_LEASE_SECONDS": "2",
            "JANTAKU_BOT_DELAY_SECONDS": "0",
            "JANTAKU_CALL_WINDOW_SECONDS": "0",
            "JANTAKU_ROUND_END_PAUSE_SECONDS": "30",
            "JANTAKU_DISCONNECT_GRACE_SECONDS": "30",
            # As tests/server/conftest.py's LiveServer: the scripted clients answer every
            # view at once, far above a player's pace (the per-socket limit would drop
            # their actions, and they would wait for an answer that never comes).
            "JANTAKU_WS_RATE_PER_SECOND": "10000",
            "JANTAKU_WS_RATE_BURST": "10000",
            "JANTAKU_RESYNC_RATE_PER_SECOND": "1000",
            "JANTAKU_RESYNC_BURST": "1000",
            "JANTAKU_JOIN_RATE_PER_MINUTE": "1000",
            "JANTAKU_LOBBY_RATE_PER_MINUTE": "1000",
            "JANTAKU_GUEST_RATE_PER_MINUTE": "1000",
            "JANTAKU_LOG_FORMAT": "text",
            "JANTAKU_LOG_LEVEL": "info",
            **{f"JANTAKU_{k.upper()}": str(v) for k, v in settings.items()},
        }
    )
    return env


class ServeProcess:
    """``jantaku serve`` in a child process on a free port; its output in a log file."""

    def __init__(self, env: dict[str, str], log: Path, port: int | None = None) -> None:
        self.port = port or free_port()
        self.where = ["--host", "127.0.0.1", "--port", str(self.port)]
        self.log = log
        self._out = log.open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "server", "serve", "--no-migrate", *self.where],
            env=env,
            cwd=ROOT,
            stdout=self._out,
            stderr=subprocess.STDOUT,
        )

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def wait_ready(self, timeout: float = 180.0) -> ServeProcess:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"serve exited: {self.log.read_text()[-2000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.http}/api/health", timeout=2).status_code == 200:
                    return self
            time.sleep(0.1)
        raise RuntimeError(f"serve did not start: {self.log.read_text()[-2000:]}")

    def health(self) -> dict[str, Any]:
        body: dict[str, Any] = httpx.get(f"{self.http}/api/health", timeout=5).json()
        return body

    def kill9(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self._out.close()


class TcpProxy:
    """A round-robin TCP proxy (each new connection to the next backend), in a thread:
    the WebSocket-aware, not sticky, proxy of docker-compose.yml."""

    def __init__(self, backends: list[int]) -> None:
        self.backends = backends
        self.port = free_port()
        self.connections = 0
        self._next = itertools.cycle(backends)
        self._loop = asyncio.new_event_loop()
        self._open: set[asyncio.StreamWriter] = set()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        self._ready.wait(10)

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        server = self._loop.run_until_complete(
            asyncio.start_server(self._serve, "127.0.0.1", self.port)
        )
        self._ready.set()
        self._loop.run_forever()
        server.close()
        for w in self._open:
            w.close()
        # Let the transports close before the loop does.
        self._loop.run_until_complete(asyncio.sleep(0.1))
        self._loop.run_until_complete(server.wait_closed())
        self._loop.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        self._open.add(writer)
        try:
            up_r, up_w = await asyncio.open_connection("127.0.0.1", next(self._next))
        except OSError:
            writer.close()
            return
        self._open.add(up_w)

        async def pipe(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
            with contextlib.suppress(Exception):
                while data := await r.read(65536):
                    w.write(data)
                    await w.drain()
            with contextlib.suppress(Exception):
                w.close()

        await asyncio.gather(pipe(reader, up_w), pipe(up_r, writer))

    def close(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)
