"""Lobby pushes across processes carry one version sequence per lobby (issue 14):
changes made on either process reach listeners on both with every version once, in
order; a resync answers the lobby as it is and its version; the web client's module
ignores a stale push and asks for a resync on a gap (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection

from tests.cluster.conftest import Start
from tests.server.wsclient import lobby_listener
from tests.web.test_lobby_versions import accept

pytestmark = pytest.mark.postgres

TONPUU = {"preset": "standard", "length": "tonpuu", "think_seconds": 0}


async def next_lobby(ws: ClientConnection) -> dict[str, Any]:
    msg: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
    assert msg["type"] == "lobby", msg
    return msg


async def test_lobby_versions_are_shared_by_the_processes(start: Start) -> None:
    a, b = start(), start()
    a.wait_ready()
    b.wait_ready()
    host = httpx.Client(base_url=a.http, timeout=20)
    host_token = host.post("/api/guest", json={"name": "Host"}).json()["token"]
    code = host.post("/api/lobbies", json={"rules": TONPUU}).json()["code"]
    # the same host, through the other process
    host_b = httpx.Client(
        base_url=b.http, timeout=20, headers={"Authorization": f"Bearer {host_token}"}
    )
    on_a = await lobby_listener(a.ws, code, host_token)
    on_b = await lobby_listener(b.ws, code, host_token)
    try:
        first_a, first_b = await next_lobby(on_a), await next_lobby(on_b)
        assert first_a["version"] == first_b["version"]
        base = first_a["version"]
        # bots added and removed through A and B in turn: four changes, four versions
        got_a: list[dict[str, Any]] = []
        got_b: list[dict[str, Any]] = []
        for i, client in enumerate((host, host_b, host, host_b)):
            if i % 2 == 0:
                r = client.post(f"/api/lobbies/{code}/bots", json={"level": "random"})
            else:
                r = client.delete(f"/api/lobbies/{code}/bots/{r.json()['slots'][1]['slot']}")
            assert r.status_code == 200, r.text
            # each listener hears the change before the next one is made
            got_a.append(await next_lobby(on_a))
            got_b.append(await next_lobby(on_b))
        for got in (got_a, got_b):
            assert [m["version"] for m in got] == [base + 1, base + 2, base + 3, base + 4]
            assert [m["lobby"]["slots"][1]["bot"] for m in got] == ["random", None] * 2
        # A new listener starts at the version the lobby is at; a resync answers it too.
        late = await lobby_listener(b.ws, code, host_token)
        try:
            assert (await next_lobby(late))["version"] == base + 4
        finally:
            await late.close()
        await on_a.send(json.dumps({"type": "resync"}))
        again = await next_lobby(on_a)
        assert again["resync"] is True and again["version"] == base + 4
        # What a page makes of these frames: each in turn applied; one lost on the way
        # is seen as a gap (resync asked once, its answer taken); a late older one ignored.
        frames = [first_b, *got_b]
        assert accept(frames) == ["apply"] * 5
        lost = [first_b, got_b[0], got_b[2], got_b[3], again, got_b[1]]
        assert accept(lost) == ["apply", "apply", "resync", "wait", "apply", "stale"]
    finally:
        await on_a.close()
        await on_b.close()
        host.close()
        host_b.close()
