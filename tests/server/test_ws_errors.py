"""Bad input on the table socket: each gets an error code, changes nothing, and (except
for authentication failures) the connection survives."""

from __future__ import annotations

import json
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from server.api.auth import COOKIE_NAME, watch_key
from tests.server.conftest import bot_table
from tests.server.wsclient import TableClient


async def _until_my_turn(c: TableClient) -> dict[str, Any]:
    """Pass call windows until this seat has a turn decision; returns that view frame.

    A call window can be shown more than once (a new view of the same window, or a
    pass that crosses the window's close), and a late pass gets an error. The ping
    round trip at the end lets every such answer arrive before the caller starts
    reading errors of its own."""
    passed_at = -1
    while True:
        msg = await c.recv_type("view")
        legal = msg["view"]["legal_actions"]
        if any(a["type"] == "discard" for a in legal):
            await _alive(c)
            return msg
        if legal and passed_at != msg["version"]:
            passed_at = msg["version"]
            await c.send({"type": "action", "action": {"type": "pass"}, "version": passed_at})


async def _alive(c: TableClient) -> None:
    await c.send({"type": "ping"})
    await c.recv_type("pong", timeout=5)


async def _error(c: TableClient, frame: str | bytes) -> dict[str, Any]:
    await c.ws.send(frame)
    return await c.recv_type("error", timeout=5)


@pytest.fixture
def table(sqlite_url: str, make_server: Any) -> tuple[Any, dict[str, Any], int]:
    srv = make_server(sqlite_url, bot_delay_seconds=0.0)
    _client, g, game_id = bot_table(srv, {"preset": "standard", "think_seconds": 0})
    return srv, g, game_id


async def test_bad_frames_get_error_codes_and_change_nothing(table: Any) -> None:
    srv, g, game_id = table
    c = await TableClient.open(srv.ws, game_id, g["token"])
    turn = await _until_my_turn(c)
    version = turn["version"]
    view = turn["view"]
    me = view["players"][c.seat]
    hand = me["hand"] + [me["drawn"]]
    not_in_hand = next(t for t in ("1z", "2z", "3z", "4z", "5z", "6z", "7z") if t not in hand)

    cases: list[tuple[str | bytes, str]] = [
        ("{not json", "bad_json"),
        ("[1, 2, 3]", "bad_json"),
        (b"\xff\xfe", "bad_json"),
        (json.dumps({"type": "shout"}), "unknown_type"),
        (json.dumps({"no": "type"}), "unknown_type"),
        (json.dumps({"type": "action"}), "bad_message"),
        (json.dumps({"type": "action", "action": {"type": "discard", "tile": 5}}), "bad_message"),
        (
            json.dumps({"type": "action", "action": {"type": "discard", "tile": "9x"}}),
            "bad_message",
        ),
        (json.dumps({"type": "action", "action": {"type": "fly"}}), "bad_message"),
        (json.dumps({"type": "resync", "extra": 1}), "bad_message"),
        (
            json.dumps({"type": "action", "action": {"type": "discard", "tile": not_in_hand}}),
            "illegal_action",
        ),
        (
            json.dumps({"type": "action", "action": {"type": "chi", "tiles": ["1m", "2m"]}}),
            "illegal_action",
        ),
        (
            json.dumps(
                {
                    "type": "action",
                    "action": {"type": "discard", "tile": me["drawn"], "seat": (c.seat + 1) % 4},
                }
            ),
            "wrong_seat",
        ),
        (
            json.dumps(
                {
                    "type": "action",
                    "action": {"type": "discard", "tile": me["drawn"]},
                    "version": version - 1,
                }
            ),
            "stale",
        ),
        (json.dumps({"type": "hello"}), "already_hello"),
        (json.dumps({"type": "ping", "pad": "x" * 5000}), "too_large"),
    ]
    for frame, code in cases:
        err = await _error(c, frame)
        assert err["code"] == code, (frame, err)
        assert err["message"]
    # The ref of a message comes back with its error.
    err = await _error(c, json.dumps({"type": "action", "action": {"type": "tsumo"}, "ref": "r1"}))
    assert (err["code"], err["ref"]) == ("illegal_action", "r1")
    await _alive(c)

    # Nothing changed: a resync shows the same version and the same hand.
    await c.send({"type": "resync"})
    again = await c.recv_type("view")
    assert again["version"] == version
    assert again["view"]["players"][c.seat]["hand"] == me["hand"]
    assert again["view"]["legal_actions"] == view["legal_actions"]
    # And the seat can still play.
    await c.send(
        {"type": "action", "action": {"type": "discard", "tile": me["drawn"]}, "version": version}
    )
    ev = await c.recv_type("event")
    assert ev["version"] == version + 1 and ev["event"]["type"] == "discard"
    await c.close()


async def test_hello_required_first(table: Any) -> None:
    srv, g, game_id = table
    async with connect(f"{srv.ws}/ws/table/{game_id}") as ws:
        await ws.send(json.dumps({"type": "resync"}))
        err = json.loads(await ws.recv())
        assert err["code"] == "hello_required"
        await ws.send(json.dumps({"type": "hello", "token": g["token"]}))
        assert json.loads(await ws.recv())["type"] == "welcome"


async def test_bad_token_closes_with_4401(table: Any) -> None:
    srv, _g, game_id = table
    async with connect(f"{srv.ws}/ws/table/{game_id}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": "not-a-real-token"}))
        err = json.loads(await ws.recv())
        assert err["code"] == "auth_failed"
        with pytest.raises(ConnectionClosed) as info:
            await ws.recv()
        assert info.value.rcvd is not None and info.value.rcvd.code == 4401


async def test_unknown_game_closes_with_4404(table: Any) -> None:
    srv, g, _game_id = table
    async with connect(f"{srv.ws}/ws/table/999999") as ws:
        await ws.send(json.dumps({"type": "hello", "token": g["token"]}))
        assert json.loads(await ws.recv())["code"] == "not_found"
        with pytest.raises(ConnectionClosed) as info:
            await ws.recv()
        assert info.value.rcvd is not None and info.value.rcvd.code == 4404


async def test_spectator_cannot_act(table: Any) -> None:
    srv, g, game_id = table
    key = watch_key(srv.settings.secret, game_id)
    for token, spectate, watch in ((None, False, key), (g["token"], True, None)):
        c = await TableClient.open(srv.ws, game_id, token, spectate=spectate, watch=watch)
        assert c.seat is None
        view = (await c.recv_type("view"))["view"]
        assert all(p["hand"] is None for p in view["players"])
        err = await _error(c, json.dumps({"type": "action", "action": {"type": "pass"}}))
        assert err["code"] == "not_seated"
        await _alive(c)
        await c.close()


async def test_message_rate_limit(sqlite_url: str, make_server: Any) -> None:
    srv = make_server(sqlite_url, ws_rate_per_second=1.0, ws_rate_burst=5)
    _client, g, game_id = bot_table(srv, {"preset": "standard", "think_seconds": 0})
    async with connect(f"{srv.ws}/ws/table/{game_id}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": g["token"]}))
        for _ in range(10):
            await ws.send(json.dumps({"type": "ping"}))
        codes = []
        while len(codes) < 10:
            msg = json.loads(await ws.recv())
            if msg["type"] in ("pong", "error"):
                codes.append(msg.get("code", "pong"))
        # hello used one token of the burst of five.
        assert codes.count("pong") == 4 and codes.count("rate_limited") == 6


async def test_second_connection_replaces_first(table: Any) -> None:
    srv, g, game_id = table
    first = await TableClient.open(srv.ws, game_id, g["token"])
    second = await TableClient.open(srv.ws, game_id, g["token"])
    assert first.seat == second.seat is not None
    with pytest.raises(ConnectionClosed) as info:
        while True:
            await first.recv(5)
    await first.close()
    assert info.value.rcvd is not None and info.value.rcvd.code == 4409
    await _alive(second)
    await second.close()


@pytest.mark.parametrize(
    ("origin", "headers", "accepted"),
    [
        (None, {}, True),  # not a browser: no other site's page behind it
        ("own", {}, True),  # the server's own page
        ("http://evil.example", {}, False),  # another site's page riding the cookie
        ("http://127.0.0.1:1", {}, False),  # same host, another port: another origin
        ("https://mahjong.example", {"X-Forwarded-Host": "mahjong.example"}, True),  # a proxy
    ],
)
async def test_session_cookie_is_taken_only_from_the_servers_own_pages(
    table: Any, origin: str | None, headers: dict[str, str], accepted: bool
) -> None:
    srv, g, game_id = table
    sent = {"Cookie": f"{COOKIE_NAME}={g['token']}", **headers}
    if origin is not None:
        sent["Origin"] = srv.http if origin == "own" else origin
    async with connect(f"{srv.ws}/ws/table/{game_id}", additional_headers=sent) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        msg = json.loads(await ws.recv())
        if accepted:
            assert msg["type"] == "welcome" and msg["seat"] is not None
            return
        assert msg["code"] == "auth_failed"
        assert "JANTAKU_ALLOWED_ORIGINS" in msg["message"]
        with pytest.raises(ConnectionClosed) as info:
            await ws.recv()
        assert info.value.rcvd is not None and info.value.rcvd.code == 4401


async def test_allowed_origins_and_explicit_tokens(sqlite_url: str, make_server: Any) -> None:
    srv = make_server(sqlite_url, bot_delay_seconds=0.0, allowed_origins="https://mahjong.example")
    _client, g, game_id = bot_table(srv, {"preset": "standard", "think_seconds": 0})
    cookie = {"Cookie": f"{COOKIE_NAME}={g['token']}"}
    for origin, hello in (
        ("https://mahjong.example", {"type": "hello"}),  # configured
        # A token sent in hello is no ambient credential: any page that has it may use it.
        ("http://evil.example", {"type": "hello", "token": g["token"]}),
    ):
        headers = {**cookie, "Origin": origin}
        async with connect(f"{srv.ws}/ws/table/{game_id}", additional_headers=headers) as ws:
            await ws.send(json.dumps(hello))
            msg = json.loads(await ws.recv())
            assert msg["type"] == "welcome" and msg["seat"] is not None, (origin, msg)
