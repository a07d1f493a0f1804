"""Abuse limits (issue 12): each per identity and per address, answered with 429 / a close
code, and sockets that never say hello are closed."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.server.conftest import bot_table
from tests.server.wsclient import TableClient


async def _closed_with(ws: Any) -> int:
    with pytest.raises(ConnectionClosed) as info:
        while True:
            await asyncio.wait_for(ws.recv(), 10)
    assert info.value.rcvd is not None
    return int(info.value.rcvd.code)


def test_lobby_creation_is_limited_per_player_and_per_address(
    sqlite_url: str, make_server: Any
) -> None:
    srv = make_server(sqlite_url, lobby_rate_per_minute=3)
    one, _ = srv.guest("One")
    codes = [one.post("/api/lobbies", json={}).status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    r = one.post("/api/lobbies", json={})
    assert r.json()["detail"]["code"] == "rate_limited" and int(r.headers["retry-after"]) >= 1
    # Another guest from the same address is limited too (the address is over).
    two, _ = srv.guest("Two")
    assert two.post("/api/lobbies", json={}).status_code == 429


def test_renames_are_limited(sqlite_url: str, make_server: Any) -> None:
    srv = make_server(sqlite_url, rename_rate_per_minute=2)
    me, _ = srv.guest("Me")
    codes = [me.patch("/api/me", json={"name": f"Me{i}"}).status_code for i in range(3)]
    assert codes == [200, 200, 429]
    assert me.get("/api/me").json()["name"] == "Me1"


async def test_code_look_ups_are_limited_over_http_and_the_lobby_socket(
    sqlite_url: str, make_server: Any
) -> None:
    srv = make_server(sqlite_url, join_rate_per_minute=3)
    with httpx.Client(base_url=srv.http) as c:
        got = [c.get("/api/lobbies/NoSuchCode/games").status_code for _ in range(3)]
        assert got == [404, 404, 404]
        assert c.get("/api/lobbies/NoSuchCode/games").status_code == 429
        assert c.get("/api/lobbies/NoSuchCode").status_code == 429
    async with connect(f"{srv.ws}/ws/lobby/NoSuchCode") as ws:
        await ws.send(json.dumps({"type": "hello"}))
        assert json.loads(await ws.recv())["code"] == "rate_limited"
        assert await _closed_with(ws) == 4429


async def test_a_socket_that_never_says_hello_is_closed(sqlite_url: str, make_server: Any) -> None:
    srv = make_server(sqlite_url, hello_timeout_seconds=0.3)
    for path in ("/ws/table/1", "/ws/lobby/abc"):
        async with connect(srv.ws + path) as ws:
            assert json.loads(await ws.recv())["code"] == "hello_timeout"
            assert await _closed_with(ws) == 4408


async def test_sockets_per_address_are_capped(sqlite_url: str, make_server: Any) -> None:
    srv = make_server(sqlite_url, max_sockets_per_address=3)
    held = [await connect(f"{srv.ws}/ws/lobby/abc") for _ in range(3)]
    # Refused at the handshake (HTTP 403): no socket is set up for it at all.
    with pytest.raises(InvalidStatus) as refused:
        await connect(f"{srv.ws}/ws/table/1")
    assert refused.value.response.status_code == 403
    await held[0].close()
    await asyncio.sleep(0.2)  # the server sees it go
    async with connect(f"{srv.ws}/ws/lobby/abc") as ws:
        await ws.send(json.dumps({"type": "hello"}))
        assert json.loads(await ws.recv())["code"] == "not_found"  # admitted
    for ws in held[1:]:
        await ws.close()


async def test_resync_is_limited_per_socket(sqlite_url: str, make_server: Any) -> None:
    # One token per thousand seconds: however slow the machine, no refill during the test
    # (the bucket's own refill arithmetic is tested with a fake clock in test_ratelimit).
    srv = make_server(sqlite_url, resync_rate_per_second=0.001, resync_burst=2)
    _client, g, game_id = bot_table(srv, {"preset": "standard", "think_seconds": 0})
    c = await TableClient.open(srv.ws, game_id, g["token"])
    for _ in range(6):
        await c.send({"type": "resync"})
    views = limited = 0
    while views + limited < 7:  # the welcome's view, 2 resyncs answered, 4 refused
        msg = await c.recv(5)
        views += msg["type"] == "view"
        limited += msg["type"] == "error" and msg["code"] == "rate_limited"
    assert (views, limited) == (3, 4)
    await c.close()


def test_imports_run_one_at_a_time_per_player(sqlite_url: str, make_server: Any) -> None:
    srv = make_server(sqlite_url)
    me, g = srv.guest("Importer")
    srv.ctx.imports[g["player"]["id"]] = 1  # one of theirs is running
    r = me.post("/api/games/import", content=b"<mjloggm/>")
    assert r.status_code == 429 and r.json()["detail"]["code"] == "busy"
    del srv.ctx.imports[g["player"]["id"]]
    assert me.post("/api/games/import", content=b"<mjloggm/>").status_code == 422
    assert srv.ctx.imports == {}


def test_compose_raises_the_file_limit() -> None:
    """Each socket holds a file descriptor: the default 1,024 is a few hundred players."""
    import re
    from pathlib import Path

    compose = (Path(__file__).resolve().parents[2] / "docker-compose.yml").read_text()
    found = re.search(r"nofile:\s*\n\s*soft:\s*(\d+)\s*\n\s*hard:\s*(\d+)", compose)
    assert found is not None and min(int(found[1]), int(found[2])) >= 65536
