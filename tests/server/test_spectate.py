"""Private games: a live game is watched (or looked up) only with its spectate link's key,
or by a player of its table or lobby; to anyone else it does not exist (issue 12)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from server.api.auth import watch_key
from tests.server.conftest import bot_table
from tests.server.wsclient import TableClient

UNTIMED = {"preset": "standard", "think_seconds": 0}


async def _refused(srv: Any, game_id: int, hello: dict[str, Any]) -> None:
    async with connect(f"{srv.ws}/ws/table/{game_id}") as ws:
        await ws.send(json.dumps({"type": "hello", **hello}))
        assert json.loads(await ws.recv())["code"] == "not_found"
        with pytest.raises(ConnectionClosed) as info:
            await ws.recv()
        assert info.value.rcvd is not None and info.value.rcvd.code == 4404


async def test_only_the_link_or_the_players_open_a_live_game(db_url: str, make_server: Any) -> None:
    srv = make_server(db_url)
    host, g, game_id = bot_table(srv, UNTIMED)
    key = watch_key(srv.settings.secret, game_id)
    _stranger_http, stranger = srv.guest("Stranger")
    # No key: a stranger (signed in or not) is told the game does not exist, as for an
    # id never used (the ids are a plain counter).
    await _refused(srv, game_id, {})
    await _refused(srv, game_id, {"token": stranger["token"]})
    await _refused(srv, game_id, {"token": stranger["token"], "watch": key[:-1] + "A"})
    await _refused(srv, game_id + 1000, {"watch": watch_key(srv.settings.secret, game_id + 1000)})
    # The link's key opens it, with or without an identity; a player may watch too.
    for token, spectate in ((None, False), (stranger["token"], False), (g["token"], True)):
        c = await TableClient.open(
            srv.ws, game_id, token, spectate=spectate, watch=None if spectate else key
        )
        assert c.seat is None
        view = (await c.recv_type("view"))["view"]
        assert all(p["hand"] is None for p in view["players"])
        await c.close()

    # Over HTTP the same: a live game is not found by strangers.
    anon = srv.guest("Anon")[0]
    anon.cookies.clear()
    assert anon.get(f"/api/games/{game_id}").status_code == 404
    assert _stranger_http.get(f"/api/games/{game_id}").status_code == 404
    assert _stranger_http.get(f"/api/games/{game_id}/export?format=mjai").status_code == 404
    assert anon.get(f"/api/games/{game_id}", params={"key": key}).json()["status"] == "live"
    assert host.get(f"/api/games/{game_id}").json()["status"] == "live"
    assert host.get(f"/api/games/{game_id}/export?format=mjai").status_code == 409
    # Nor listed anywhere.
    assert game_id not in [x["id"] for x in anon.get("/api/games").json()["games"]]


async def test_the_lobby_gives_its_code_holders_the_spectate_link(
    sqlite_url: str, make_server: Any
) -> None:
    srv = make_server(sqlite_url)
    host, _g = srv.guest("Host")
    code = host.post("/api/lobbies", json={"rules": UNTIMED}).json()["code"]
    for _ in range(3):
        host.post(f"/api/lobbies/{code}/bots", json={"level": "tsumogiri"})
    started = host.post(f"/api/lobbies/{code}/start").json()
    game_id = started["game"]["id"]
    path = f"/#/game/{game_id}/{watch_key(srv.settings.secret, game_id)}"
    assert started["game"]["watch_path"] == path
    other, _ = srv.guest("Friend")
    assert other.get(f"/api/lobbies/{code}").json()["game"]["watch_path"] == path


async def test_spectators_get_batches_and_a_table_takes_so_many(
    sqlite_url: str, make_server: Any
) -> None:
    srv = make_server(sqlite_url, max_spectators_per_table=2, spectator_interval_seconds=0.05)
    _host, g, game_id = bot_table(srv, UNTIMED)
    key = watch_key(srv.settings.secret, game_id)
    watchers = [await TableClient.open(srv.ws, game_id, None, watch=key) for _ in range(2)]
    async with connect(f"{srv.ws}/ws/table/{game_id}") as ws:
        await ws.send(json.dumps({"type": "hello", "watch": key}))
        assert json.loads(await ws.recv())["code"] == "busy"
        with pytest.raises(ConnectionClosed) as info:
            await ws.recv()
        assert info.value.rcvd is not None and info.value.rcvd.code == 4429
    # The human plays on: the spectators' frames come gathered, several to a frame.
    me = await TableClient.open(srv.ws, game_id, g["token"])
    await me.play(max_actions=8)
    raw = json.loads(await watchers[0].ws.recv())
    while raw["type"] != "batch":
        raw = json.loads(await watchers[0].ws.recv())
    assert len(raw["messages"]) >= 2 and all("type" in m for m in raw["messages"])
    for c in [*watchers, me]:
        await c.close()
