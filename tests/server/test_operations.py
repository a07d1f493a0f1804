"""Operating the server: health, metrics, logs, proxies and sub-paths, backups, CLI errors."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx
import pytest

from server.cli import main
from server.db import migrate
from server.settings import get_settings
from tests.server.conftest import LiveServer, bot_table
from tests.server.wsclient import TableClient

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _samples(text: str) -> dict[str, float]:
    """Prometheus text format: ``name{labels}`` -> value."""
    out = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            key, _, value = line.rpartition(" ")
            out[key] = float(value)
    return out


# -- health -----------------------------------------------------------------


class TcpRelay:
    """A TCP relay on 127.0.0.1 to the database: cutting it makes the database unreachable."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = _free_port()
        self.conns: list[socket.socket] = []
        self.listener: socket.socket | None = None
        self.lock = threading.Lock()

    def start(self) -> TcpRelay:
        lst = socket.socket()
        lst.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        lst.bind(("127.0.0.1", self.port))
        lst.listen(16)
        self.listener = lst
        threading.Thread(target=self._accept, args=(lst,), daemon=True).start()
        return self

    def _accept(self, lst: socket.socket) -> None:
        while True:
            try:
                client, _ = lst.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            with self.lock:
                self.conns += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass
        finally:
            for s in (a, b):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        """Refuse new connections and drop the open ones."""
        if self.listener is not None:
            # shutdown wakes the thread blocked in accept(); close alone would not
            with contextlib.suppress(OSError):
                self.listener.shutdown(socket.SHUT_RDWR)
            self.listener.close()
            self.listener = None
        with self.lock:
            for s in self.conns:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()
            self.conns.clear()


@pytest.fixture
def relayed_pg(pg_url: str) -> Iterator[tuple[str, TcpRelay]]:
    parts = urlsplit(pg_url)
    relay = TcpRelay((parts.hostname or "127.0.0.1", parts.port or 5432)).start()
    netloc = parts.netloc.replace(
        f"{parts.hostname}:{parts.port or 5432}", f"127.0.0.1:{relay.port}"
    )
    yield urlunsplit(parts._replace(netloc=netloc)), relay
    relay.cut()


@pytest.mark.postgres
def test_health_is_503_while_the_database_is_unreachable(
    relayed_pg: tuple[str, TcpRelay], make_server: Any
) -> None:
    url, relay = relayed_pg
    srv = make_server(url, health_timeout_seconds=2.0)
    with httpx.Client(base_url=srv.http, timeout=10) as c:
        ok = c.get("/api/health")
        assert ok.status_code == 200 and ok.json()["database"] == "ok"
        relay.cut()
        down = c.get("/api/health")
        assert down.status_code == 503
        body = down.json()
        assert body["status"] == "unavailable" and body["database"].startswith("error: ")
        relay.start()  # the database is back: healthy again (the pool reconnects)
        deadline = time.monotonic() + 10
        while c.get("/api/health").status_code != 200:
            assert time.monotonic() < deadline, "still unhealthy after the database came back"
            time.sleep(0.1)


# -- metrics ----------------------------------------------------------------


async def test_metrics_count_tables_sockets_actions_latency_and_db_writes(
    sqlite_url: str, make_server: Any
) -> None:
    srv: LiveServer = make_server(sqlite_url)
    client, guest, game_id = bot_table(srv, {"preset": "standard", "think_seconds": 0})
    player = await TableClient.open(srv.ws, game_id, guest["token"], name="Solo")
    try:
        acted = await player.play(max_actions=6)
        assert acted == 6
        # the sixth action is counted once its step is committed and sent: its view
        while (await player.recv(20.0))["type"] != "view":
            pass
        with_socket = _samples(client.get("/metrics").text)
    finally:
        await player.close()
    r = client.get("/metrics")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    assert with_socket['jantaku_websockets{kind="table"}'] == 1
    assert with_socket['jantaku_tables{state="live"}'] == 1
    assert with_socket['jantaku_actions_total{source="player"}'] >= 6
    assert with_socket['jantaku_actions_total{source="bot"}'] >= 6  # three bots between
    assert with_socket["jantaku_action_latency_seconds_count"] >= 6
    assert 0 < with_socket["jantaku_action_latency_seconds_sum"] < 6 * 0.5
    deadline = time.monotonic() + 5
    while True:
        after = _samples(client.get("/metrics").text)
        if (
            after["jantaku_db_write_seconds_count"] > 0
            and after['jantaku_websockets{kind="table"}'] == 0
        ):
            break
        assert time.monotonic() < deadline, after
        time.sleep(0.05)
    assert after["jantaku_db_write_lag_seconds"] < 5
    assert after["jantaku_db_write_failures_total"] == 0
    assert 'jantaku_http_request_duration_seconds_count{method="POST",status="200"}' in after
    assert "process_resident_memory_bytes" in after


def test_metrics_can_be_turned_off(sqlite_url: str, make_server: Any) -> None:
    srv = make_server(sqlite_url, metrics=False)
    with httpx.Client(base_url=srv.http) as c:
        r = c.get("/metrics")
        assert r.status_code == 404 and r.json()["detail"]["code"] == "not_found"


# -- jantaku serve: JSON logs, proxies, sub-path, healthcheck ----------------


class Served:
    def __init__(self, proc: subprocess.Popen[bytes], port: int, log: Path) -> None:
        self.proc, self.port, self.log = proc, port, log

    def lines(self) -> list[str]:
        return self.log.read_text(encoding="utf-8").splitlines()


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Any]:
    started: list[Served] = []

    def start(**env: str) -> Served:
        port = _free_port()
        log = tmp_path / f"serve-{port}.log"
        full = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{tmp_path / 'serve.db'}",
            "JANTAKU_ENV": "development",
            **env,
        }
        with open(log, "wb") as out:
            proc = subprocess.Popen(
                [sys.executable, "-m", "server", "serve", "--port", str(port)],
                cwd=tmp_path,
                env=full,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        served = Served(proc, port, log)
        started.append(served)
        root = env.get("JANTAKU_ROOT_PATH", "")
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, log.read_text()
            try:
                httpx.get(f"http://127.0.0.1:{port}{root}/api/health", timeout=1)
                return served
            except httpx.HTTPError:
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.1)

    yield start
    for s in started:
        s.proc.send_signal(signal.SIGINT)
        try:
            s.proc.wait(15)
        except subprocess.TimeoutExpired:
            s.proc.kill()


def test_serve_logs_json_trusts_forwarded_for_and_serves_a_sub_path(serve: Any) -> None:
    srv = serve(
        JANTAKU_ROOT_PATH="/mahjong",
        FORWARDED_ALLOW_IPS="127.0.0.1",
        JANTAKU_GUEST_RATE_PER_MINUTE="2",
    )
    base = f"http://127.0.0.1:{srv.port}"
    with httpx.Client(base_url=base, timeout=5) as c:
        # The sub-path, with or without the prefix (a proxy may strip it), and a redirect
        # from the bare prefix to the client's page.
        assert c.get("/mahjong/api/health").status_code == 200
        assert c.get("/api/health").status_code == 200
        bare = c.get("/mahjong")
        assert bare.status_code == 307 and bare.headers["location"] == "/mahjong/"
        page = c.get("/mahjong/")
        assert page.status_code == 200 and 'src="js/app.js"' in page.text
        assert c.get("/mahjong/js/app.js").status_code == 200
        assert c.get("/mahjong/metrics").status_code == 200
        # Behind a trusted proxy each user has their own rate-limit bucket.
        for who in ("203.0.113.7", "203.0.113.7"):
            r = c.post("/mahjong/api/guest", json={"name": "A"}, headers={"X-Forwarded-For": who})
            assert r.status_code == 200, r.text
        r = c.post(
            "/mahjong/api/guest", json={"name": "A"}, headers={"X-Forwarded-For": "203.0.113.7"}
        )
        assert r.status_code == 429
        other = c.post(
            "/mahjong/api/guest", json={"name": "B"}, headers={"X-Forwarded-For": "198.51.100.2"}
        )
        assert other.status_code == 200
        # The Docker healthcheck's command follows the port and the sub-path.
    env = {**os.environ, "JANTAKU_PORT": str(srv.port), "JANTAKU_ROOT_PATH": "/mahjong"}
    ok = subprocess.run([sys.executable, "-m", "server", "health"], env=env, capture_output=True)
    assert ok.returncode == 0, ok.stderr
    env["JANTAKU_PORT"] = str(_free_port())
    down = subprocess.run([sys.executable, "-m", "server", "health"], env=env, capture_output=True)
    assert down.returncode == 1
    # Every line is a JSON object; the app's own INFO lines are there; access lines carry
    # the client (the forwarded address), method, path and status.
    deadline = time.monotonic() + 5
    while not any("198.51.100.2" in x for x in srv.lines()):
        assert time.monotonic() < deadline, srv.lines()
        time.sleep(0.05)
    records = [json.loads(x) for x in srv.lines()]
    assert all({"time", "level", "logger", "message"} <= set(r) for r in records)
    ready = [r for r in records if r["logger"] == "server.api.app"]
    assert ready and ready[0]["message"] == "jantaku ready" and ready[0]["root_path"] == "/mahjong"
    access = [r for r in records if r["logger"] == "uvicorn.access"]
    limited = [r for r in access if r["status"] == 429]
    assert limited and limited[0]["client"].startswith("203.0.113.7")
    assert limited[0]["method"] == "POST" and limited[0]["path"] == "/mahjong/api/guest"


def test_untrusted_proxy_headers_are_ignored_and_text_logs(serve: Any) -> None:
    """Without FORWARDED_ALLOW_IPS naming the proxy, X-Forwarded-For is not believed."""
    srv = serve(
        FORWARDED_ALLOW_IPS="192.0.2.1",
        JANTAKU_GUEST_RATE_PER_MINUTE="1",
        JANTAKU_LOG_FORMAT="text",
    )
    with httpx.Client(base_url=f"http://127.0.0.1:{srv.port}", timeout=5) as c:
        first = c.post("/api/guest", json={"name": "A"}, headers={"X-Forwarded-For": "203.0.113.7"})
        assert first.status_code == 200
        second = c.post(
            "/api/guest", json={"name": "B"}, headers={"X-Forwarded-For": "198.51.100.2"}
        )
        assert second.status_code == 429  # one bucket: the proxy's own address
    time.sleep(0.2)
    text = "\n".join(srv.lines())
    assert "INFO server.api.app: jantaku ready" in text
    assert not text.lstrip().startswith("{")


def test_dockerfile_healthcheck_uses_the_configured_port() -> None:
    docker = (ROOT / "Dockerfile").read_text()
    check = docker[docker.index("HEALTHCHECK") :].split("\n# ")[0]
    assert '"jantaku", "health"' in check
    assert "8000" not in check


# -- settings errors, CLI outside a checkout --------------------------------


@pytest.fixture
def fresh_settings() -> Iterator[None]:
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


def test_settings_errors_never_echo_a_secret(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], fresh_settings: None
) -> None:
    monkeypatch.setenv("JANTAKU_ENV", "production")
    monkeypatch.setenv("JANTAKU_SECRET", "hunter2-is-too-short")
    monkeypatch.setenv("DATABASE_URL", "postgresql://app:db-password-42@db.example/jantaku")
    assert main(["db", "current"]) == 2
    err = capsys.readouterr().err
    assert "JANTAKU_SECRET must be set" in err
    assert "hunter2" not in err and "db-password-42" not in err
    get_settings.cache_clear()
    monkeypatch.setenv("JANTAKU_SECRET", "s" * 48)
    monkeypatch.setenv("JANTAKU_PORT", "not-a-port-hunter2")
    assert main(["log", "export", "1"]) == 2
    err = capsys.readouterr().err
    assert "JANTAKU_PORT" in err and "hunter2" not in err and "s" * 48 not in err
    assert "db-password-42" not in err


def test_log_commands_outside_a_checkout_say_why(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    fresh_settings: None,
) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'x.db'}")
    monkeypatch.setenv("JANTAKU_HOME", str(tmp_path))  # no migrations/ here
    monkeypatch.chdir(tmp_path)
    assert main(["log", "export", "1"]) == 2
    err = capsys.readouterr().err
    assert "migrations/ not found" in err and "JANTAKU_HOME" in err
    assert "Traceback" not in err
    log = ROOT / "tests" / "fixtures" / "mjai-reviewer" / "double_ron.json"
    assert main(["log", "import", str(log)]) == 2
    assert "migrations/ not found" in capsys.readouterr().err


# -- backups ----------------------------------------------------------------


async def test_db_backup_copies_a_live_sqlite_database(
    tmp_path: Path,
    sqlite_url: str,
    make_server: Any,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    fresh_settings: None,
) -> None:
    """Taken while the server is writing a game: a consistent, self-contained copy."""
    srv = make_server(sqlite_url)
    _, guest, game_id = bot_table(srv, {"preset": "standard", "think_seconds": 0})
    player = await TableClient.open(srv.ws, game_id, guest["token"], name="Solo")
    monkeypatch.setenv("DATABASE_URL", sqlite_url)
    out = tmp_path / "backup.db"
    try:
        await player.play(max_actions=4)
        assert main(["db", "backup", str(out)]) == 0
        await player.play(max_actions=4)  # the server goes on writing
    finally:
        await player.close()
    assert "pages written" in capsys.readouterr().out
    copy = sqlite3.connect(out)
    try:
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert copy.execute("PRAGMA journal_mode").fetchone() == ("delete",)
        assert copy.execute("SELECT count(*) FROM games WHERE id = ?", (game_id,)).fetchone() == (
            1,
        )
        assert copy.execute("SELECT count(*) FROM game_events").fetchone()[0] > 0
    finally:
        copy.close()
    assert migrate.current(f"sqlite:///{out}") == migrate.current(sqlite_url)
    # Never over an existing file.
    assert main(["db", "backup", str(out)]) == 1
    assert "exists" in capsys.readouterr().err


def test_db_backup_on_postgresql_says_pg_dump_without_the_password(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    fresh_settings: None,
) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://app:db-password-42@db.example:5432/jantaku")
    assert main(["db", "backup", str(tmp_path / "x.dump")]) == 2
    err = capsys.readouterr().err
    assert (
        "pg_dump --format=custom" in err and "postgresql://app:***@db.example:5432/jantaku" in err
    )
    assert "db-password-42" not in err
