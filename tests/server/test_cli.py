"""``jantaku serve`` (migrates, then serves) and ``jantaku db`` from the command line."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from server.cli import main
from server.db import migrate

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_migrates_then_serves(tmp_path: Path) -> None:
    db = tmp_path / "serve.db"
    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{db}",
        "JANTAKU_ENV": "development",
    }
    env.pop("JANTAKU_SECRET", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "server", "serve", "--port", str(port)],
        cwd=tmp_path,  # a fresh directory: nothing but what serve creates
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 30
        health = None
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).json()
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        assert health is not None, proc.stderr.read().decode() if proc.stderr else ""
        assert health["database"] == "ok"
        assert migrate.current(f"sqlite:///{db}") is not None
        # The web client is served at /.
        r = httpx.get(f"http://127.0.0.1:{port}/", timeout=5)
        assert r.status_code == 200 and "<html" in r.text.lower()
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(15)
        finally:
            if proc.stderr:
                proc.stderr.close()


def test_serve_refuses_unsafe_secret_in_production(tmp_path: Path) -> None:
    env = {**os.environ, "JANTAKU_ENV": "production", "JANTAKU_SECRET": "short"}
    r = subprocess.run(
        [sys.executable, "-m", "server", "serve", "--port", str(_free_port())],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        timeout=60,
    )
    assert r.returncode == 2
    assert b"JANTAKU_SECRET" in r.stderr


def test_db_command_upgrade_current_downgrade(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("JANTAKU_ENV", "development")
    from server.settings import get_settings

    get_settings.cache_clear()
    try:
        assert main(["db", "upgrade"]) == 0
        head = capsys.readouterr().out.strip()
        assert head == migrate.current(url) and head
        assert main(["db", "current"]) == 0
        assert capsys.readouterr().out.strip() == head
        assert main(["db", "downgrade"]) == 0
        assert capsys.readouterr().out.strip() == "(empty)"
        assert migrate.current(url) is None
    finally:
        get_settings.cache_clear()
