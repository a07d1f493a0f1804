"""Many ``jantaku serve`` processes on one PostgreSQL and one Redis (issue 14).

Real processes on random ports: a player's socket on one process plays at a table
owned by another; a killed owner's tables are taken over and their games finish
with every version once; a process that loses a lease stops writing; lobby pushes
and rate limits hold across processes, also behind a round-robin proxy.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import pytest
import redis
from sqlalchemy import select
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from server.db.models import Game, GameEvent
from server.db.session import Database
from tests.cluster.conftest import REDIS_URL, Start
from tests.cluster.processes import ServeProcess, TcpProxy
from tests.cluster.test_compose import app_services, compose
from tests.server.wsclient import TableClient, lobby_listener

pytestmark = pytest.mark.postgres

TONPUU = {"preset": "standard", "length": "tonpuu", "think_seconds": 0}


def guest(base: str, name: str) -> tuple[httpx.Client, dict[str, Any]]:
    client = httpx.Client(base_url=base, timeout=20)
    r = client.post("/api/guest", json={"name": name})
    assert r.status_code == 200, r.text
    return client, r.json()


def bot_game(base: str, rules: dict[str, Any]) -> tuple[dict[str, Any], int]:
    client, g = guest(base, "Solo")
    try:
        code = client.post("/api/lobbies", json={"rules": rules}).json()["code"]
        for _ in range(3):
            r = client.post(f"/api/lobbies/{code}/bots", json={"level": "tsumogiri"})
            assert r.status_code == 200, r.text
        r = client.post(f"/api/lobbies/{code}/start")
        assert r.status_code == 200, r.text
        return g, r.json()["game"]["id"]
    finally:
        client.close()


def owner(prefix: str, game_id: int) -> str | None:
    with redis.Redis.from_url(REDIS_URL) as r:
        value = r.get(f"{prefix}lease:{game_id}")
    return None if value is None else value.decode().rsplit(":", 1)[0]


def node_of(p: ServeProcess) -> str:
    name: str = p.health()["cluster"]["node"]
    return name


async def reconnect(base: str, game_id: int, token: str, last: int) -> TableClient:
    """Open the table again, as the web client does, until a process answers for it."""
    deadline = time.monotonic() + 30
    while True:
        ws = await connect(f"{base}/ws/table/{game_id}", max_size=None, max_queue=None)
        c = TableClient(ws, "again")
        try:
            await c.send({"type": "hello", "last_version": last, "token": token})
            c.version = last
            c.welcome = await c.recv_type("welcome")
            c.seat = c.welcome["seat"]
            return c
        except ConnectionClosed as exc:
            await ws.close()
            # 1012/1013: the table is moving to another process; anything else is final.
            assert exc.rcvd is not None and exc.rcvd.code in (1012, 1013), exc
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.2)


async def play_on(c: TableClient, timeout: float = 120) -> None:
    """Play to the game's end as the web client does: a ``stale`` answer (the table had
    moved past the view acted on) asks for a resync (web/js/game.js)."""
    seen = 0
    while c.game_over is None:
        task = asyncio.ensure_future(c.play(timeout=timeout))
        while not task.done():
            await asyncio.sleep(0.05)
            for e in c.errors[seen:]:
                assert e["code"] == "stale", c.errors[-8:]
                if e["code"] == "stale":
                    await c.send({"type": "resync"})
            seen = len(c.errors)
        task.result()


async def play_until_closed(c: TableClient) -> None:
    """Play on until the process closes the socket for a reconnect (code 1012)."""
    with pytest.raises(ConnectionClosed) as closed:
        await c.play(timeout=30)
    await c.close()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012


def record(db_url: str, game_id: int) -> tuple[str, dict[int, str]]:
    """The game's status and its recorded events, by version."""
    db = Database(db_url)
    try:
        with db.session() as s:
            game = s.get(Game, game_id)
            assert game is not None
            rows = s.execute(
                select(GameEvent.version, GameEvent.type)
                .where(GameEvent.game_id == game_id, GameEvent.kind == "event")
                .order_by(GameEvent.id)
            ).all()
            return game.status, {v: t for v, t in rows}
    finally:
        db.dispose()


def told(c: TableClient) -> dict[int, str]:
    """The events a client was shown whole, by version."""
    shown = [f for f in c.frames if f["type"] == "event" and "event" in f]
    return {f["version"]: f["event"]["type"] for f in shown}


def assert_finished_whole(db_url: str, game_id: int, *clients: TableClient) -> None:
    status, events = record(db_url, game_id)
    assert status == "finished"
    # Every version once, none skipped: one writer at a time, end to end.
    assert sorted(events) == list(range(1, len(events) + 1))
    # What a player was shown is what the record says (nothing shown was lost).
    for c in clients:
        for version, kind in told(c).items():
            assert events[version] == kind, version


async def test_play_across_processes_and_kill_the_owner(
    start: Start, pg_url: str, redis_prefix: str
) -> None:
    a, b = start(), start()
    a.wait_ready()
    b.wait_ready()
    g, game_id = bot_game(a.http, TONPUU)
    assert owner(redis_prefix, game_id) == node_of(a)
    # The player's socket is on B; the table stays on A (relayed both ways).
    c = await TableClient.open(b.ws, game_id, g["token"])
    assert c.seat == 0
    await c.play(max_actions=10)
    assert b.health()["cluster"]["relayed_sockets"] == 1
    assert a.health()["cluster"]["remote_sockets"] == 1
    assert owner(redis_prefix, game_id) == node_of(a)

    a.kill9()  # mid-hand
    await play_until_closed(c)
    c2 = await reconnect(b.ws, game_id, g["token"], c.version)
    assert c2.welcome is not None and c2.welcome["mode"] in ("replay", "resync")
    # B took the lease and rebuilt the table from the record.
    assert owner(redis_prefix, game_id) == node_of(b)
    assert b.health()["cluster"]["takeovers"] == 1
    await play_on(c2)
    await c2.close()
    assert c2.game_over is not None
    assert_finished_whole(pg_url, game_id, c, c2)


async def test_a_process_that_loses_its_lease_stops_writing(
    start: Start, pg_url: str, redis_prefix: str
) -> None:
    a, b = start(), start()
    a.wait_ready()
    b.wait_ready()
    g, game_id = bot_game(a.http, TONPUU)
    c = await TableClient.open(a.ws, game_id, g["token"])
    await c.play(max_actions=8)
    # Another owner appears (as if A had stalled past its lease): A must stop at once.
    with redis.Redis.from_url(REDIS_URL) as r:
        r.set(f"{redis_prefix}lease:{game_id}", "ghost:999999", px=4000)
    await play_until_closed(c)
    _, frozen = record(pg_url, game_id)
    # While the ghost holds the lease nobody writes: not A (it stopped), nor B.
    while True:
        written = len(record(pg_url, game_id)[1])
        tables = a.health()["tables"], b.health()["tables"]
        if owner(redis_prefix, game_id) != "ghost":
            break  # (what was read may be from after the ghost's lease)
        assert written == len(frozen) and tables == (0, 0)
        await asyncio.sleep(0.3)
    # The ghost's lease ran out: a process takes the game over and it finishes whole.
    c2 = await reconnect(b.ws, game_id, g["token"], c.version)
    await play_on(c2)
    await c2.close()
    assert c2.game_over is not None
    assert_finished_whole(pg_url, game_id, c, c2)
    assert "lost its lease" in a.log.read_text()


async def test_lobbies_and_limits_are_shared_behind_a_proxy(
    start: Start, pg_url: str, redis_prefix: str
) -> None:
    # As many processes as docker-compose.yml runs, behind a proxy like its Caddy.
    procs = [start(guest_rate_per_minute=4) for _ in app_services(compose())]
    for p in procs:
        p.wait_ready()
    a, b = procs[0], procs[1]
    proxy = TcpProxy([p.port for p in procs])
    try:
        host, hg = guest(a.http, "Host")
        code = host.post("/api/lobbies", json={"rules": TONPUU}).json()["code"]
        # A guest's lobby socket on B hears the host's changes made on A.
        joiner, jg = guest(b.http, "Joiner")
        assert joiner.post(f"/api/lobbies/{code}/join", json={}).status_code == 200
        joiner.close()
        ws = await lobby_listener(b.ws, code, jg["token"])
        try:
            first = await asyncio.wait_for(ws.recv(), 10)
            # (the lobby lists its game's levels: the seat's "bot" is what changes)
            assert '"Joiner"' in str(first) and '"bot":"random"' not in str(first)
            r = host.post(f"/api/lobbies/{code}/bots", json={"level": "random"})
            assert r.status_code == 200
            pushed = await asyncio.wait_for(ws.recv(), 10)
            assert '"bot":"random"' in str(pushed)
        finally:
            await ws.close()
        # Guests per address per minute: 4 in all, whichever process answers. Two were
        # made above (on A and B); through the proxy the next ones go to A, B, ...
        got = []
        for i in range(3):
            with httpx.Client(base_url=proxy.http, timeout=20) as client:
                got.append(client.post("/api/guest", json={"name": f"G{i}"}).status_code)
        assert got == [200, 200, 429]
        # A game started through the proxy is played through it: each socket lands
        # on either process, the table stays on one.
        host.close()
        bearer = {"Authorization": f"Bearer {hg['token']}"}
        solo = httpx.Client(base_url=proxy.http, timeout=20, headers=bearer)
        code = solo.post("/api/lobbies", json={"rules": TONPUU}).json()["code"]
        for _ in range(3):
            assert solo.post(f"/api/lobbies/{code}/bots", json={"level": "tsumogiri"}).is_success
        r = solo.post(f"/api/lobbies/{code}/start")
        assert r.status_code == 200, r.text
        game_id = r.json()["game"]["id"]
        solo.close()
        token = hg["token"]
        c = await TableClient.open(proxy.ws, game_id, token)
        await c.play(max_actions=3)
        await c.close()
        c = await TableClient.open(proxy.ws, game_id, token, last_version=c.version)
        await play_on(c)
        await c.close()
        assert c.game_over is not None
        assert_finished_whole(pg_url, game_id)
        assert proxy.connections >= 5
    finally:
        proxy.close()
