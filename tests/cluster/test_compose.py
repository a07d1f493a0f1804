"""docker-compose.yml: two app processes behind a WebSocket-aware proxy, PostgreSQL and
Redis. No Docker daemon here: the file is parsed and checked, and the same topology runs
without Docker in test_processes.py (processes, a round-robin proxy)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]


def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return data


def app_services(c: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The services that run ``jantaku serve``."""
    return {
        name: s
        for name, s in c["services"].items()
        if "serve" in (s.get("command") or ["jantaku", "serve"]) and "build" in s
    }


def test_two_app_processes_share_postgres_and_redis() -> None:
    c = compose()
    services = c["services"]
    assert services["db"]["image"].startswith("postgres:")
    assert services["redis"]["image"].startswith("redis:")
    apps = app_services(c)
    assert len(apps) >= 2
    for name, app in apps.items():
        env = app["environment"]
        url = env["DATABASE_URL"]
        assert url.startswith("postgresql://") and "@db:5432/" in url
        assert env["JANTAKU_REDIS_URL"] == "redis://redis:6379/0", name
        assert env["JANTAKU_ENV"] == "production"
        # Migrations run once before any app process, not by each at the same time.
        assert "--no-migrate" in app["command"]
        assert app["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
        assert app["depends_on"]["redis"]["condition"] == "service_healthy"
        assert "ports" not in app  # reached through the proxy only
        assert app["ulimits"]["nofile"]["soft"] >= 65536
    migrate = services["migrate"]
    assert migrate["command"] == ["jantaku", "db", "upgrade"]
    assert (
        migrate["environment"]["DATABASE_URL"]
        == next(iter(apps.values()))["environment"]["DATABASE_URL"]
    )
    assert migrate["depends_on"]["db"]["condition"] == "service_healthy"


def test_the_proxy_spreads_over_every_app_process() -> None:
    c = compose()
    proxy = c["services"]["proxy"]
    assert proxy["image"].startswith("caddy:")
    assert "./deploy/Caddyfile:/etc/caddy/Caddyfile:ro" in proxy["volumes"]
    assert any(p.endswith(":80") for p in proxy["ports"])
    caddyfile = (ROOT / "deploy" / "Caddyfile").read_text()
    upstreams = re.search(r"reverse_proxy ([^{]+)\{", caddyfile)
    assert upstreams is not None
    assert set(upstreams[1].split()) == {f"{name}:8000" for name in app_services(c)}
    assert "lb_policy round_robin" in caddyfile
    assert "health_uri /api/health" in caddyfile
