"""Timers (per-action seconds + bank, default action on expiry) and disconnected seats
(grace period, bot takeover, return)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from server.api.auth import watch_key
from tests.server.conftest import bot_table
from tests.server.wsclient import TableClient


async def _wait_my_turn(c: TableClient) -> dict[str, Any]:
    """Pass every call window; return the view frame of this seat's next turn."""
    while True:
        msg = await c.recv_type("view", timeout=30)
        legal = msg["view"]["legal_actions"]
        if any(a["type"] == "discard" for a in legal) and not any(
            a["type"] in ("tsumo", "riichi", "ankan", "kakan", "kyuushu") for a in legal
        ):
            return msg
        if legal:
            # Any other decision: answer at once so that only plain turns are timed.
            pick = next((a for a in legal if a["type"] == "pass"), None) or next(
                a for a in legal if a["type"] == "discard"
            )
            await c.send({"type": "action", "action": pick})


async def _own_discard(c: TableClient) -> dict[str, Any]:
    while True:
        msg = await c.recv_type("event", timeout=30)
        ev = msg.get("event")
        if ev and ev["type"] == "discard" and ev["seat"] == c.seat:
            return ev
        if ev and ev["type"] in ("agari", "ryuukyoku"):
            raise AssertionError("the round ended before the timeout")


async def test_timeout_discards_drawn_tile_using_bank(sqlite_url: str, make_server: Any) -> None:
    srv = make_server(sqlite_url, bot_delay_seconds=0.0)
    rules = {"preset": "standard", "think_seconds": 1, "bank_seconds": 1}
    _client, g, game_id = bot_table(srv, rules)
    c = await TableClient.open(srv.ws, game_id, g["token"])

    turn = await _wait_my_turn(c)
    assert turn["timer"]["seat"] == c.seat
    assert 0 < turn["timer"]["think_ms"] <= 1000 and turn["timer"]["bank_ms"] == 1000
    drawn = turn["view"]["players"][c.seat]["drawn"]
    t0 = time.monotonic()
    ev = await _own_discard(c)
    waited = time.monotonic() - t0
    # Think time and then the whole bank ran out before the default action.
    assert 1.7 <= waited < 3.5, waited
    assert ev["tile"] == drawn and ev["tsumogiri"] is True

    turn = await _wait_my_turn(c)
    assert turn["timer"]["bank_ms"] == 0
    drawn = turn["view"]["players"][c.seat]["drawn"]
    t0 = time.monotonic()
    ev = await _own_discard(c)
    waited = time.monotonic() - t0
    assert 0.7 <= waited < 1.8, waited  # no bank left: think time only
    assert ev["tile"] == drawn
    await c.close()


async def test_timeout_passes_on_call_window(sqlite_url: str, make_server: Any) -> None:
    """A seat that can call but does not answer is passed for by the server."""
    srv = make_server(sqlite_url, bot_delay_seconds=0.0)
    rules = {"preset": "standard", "think_seconds": 1, "bank_seconds": 0}
    _client, g, game_id = bot_table(srv, rules)
    c = await TableClient.open(srv.ws, game_id, g["token"])
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        msg = await c.recv_type("view", timeout=30)
        legal = msg["view"]["legal_actions"]
        if any(a["type"] == "pass" for a in legal) and not any(a["type"] == "ron" for a in legal):
            version = msg["version"]
            t0 = time.monotonic()
            nxt = await c.recv_type("event", timeout=5)
            waited = time.monotonic() - t0
            assert nxt["version"] == version + 1
            assert 0.7 <= waited < 2.0, waited
            # The call was not made: whatever happened next, it is not our call.
            ev = nxt.get("event")
            assert not (ev and ev["type"] == "call" and ev["seat"] == c.seat)
            await c.close()
            return
        if legal:
            drawn = msg["view"]["players"][c.seat]["drawn"]
            pick = next(
                (a for a in legal if a["type"] == "discard" and a.get("tile") == drawn), legal[0]
            )
            await c.send({"type": "action", "action": pick})
    raise AssertionError("no call window came up for this seat")


async def test_disconnect_grace_bot_takeover_and_return(sqlite_url: str, make_server: Any) -> None:
    srv = make_server(sqlite_url, bot_delay_seconds=0.05, disconnect_grace_seconds=0.5)
    _client, g, game_id = bot_table(srv, {"preset": "standard", "think_seconds": 0})
    key = watch_key(srv.settings.secret, game_id)
    watcher = await TableClient.open(srv.ws, game_id, None, watch=key)
    c = await TableClient.open(srv.ws, game_id, g["token"])
    seat = c.seat
    assert seat is not None
    await c.play(max_actions=1, timeout=10)
    await c.close()

    async def players_msg(pred: Any) -> dict[str, Any]:
        while True:
            msg = await watcher.recv_type("players", timeout=10)
            if pred(msg["players"][seat]):
                return msg

    t0 = time.monotonic()
    await players_msg(lambda p: not p["connected"] and not p["auto"])
    await players_msg(lambda p: p["auto"])
    assert time.monotonic() - t0 >= 0.4
    # With the seat on autopilot, the seat's own discards keep coming.
    v_auto = watcher.version
    while True:
        msg = await watcher.recv_type("event", timeout=10)
        ev = msg.get("event")
        if ev and ev["type"] == "discard" and ev["seat"] == seat:
            break
    assert watcher.version > v_auto

    back = await TableClient.open(srv.ws, game_id, g["token"], last_version=c.version)
    assert back.welcome is not None
    me = back.welcome["players"][seat]
    assert me["connected"] and not me["auto"]
    # Control is back with the human: the table now waits for this seat's answer.
    while True:
        msg = await back.recv_type("view", timeout=10)
        if msg["view"]["legal_actions"]:
            break
    version = msg["version"]
    await asyncio.sleep(0.6)
    await back.send({"type": "resync"})
    again = await back.recv_type("view")
    assert again["version"] == version, "a bot acted for a connected human"
    await back.close()
    await watcher.close()


async def test_absent_player_is_played_by_bot_after_grace(
    sqlite_url: str, make_server: Any
) -> None:
    """A seated player who never opens the table does not block it forever."""
    srv = make_server(sqlite_url, bot_delay_seconds=0.01, disconnect_grace_seconds=0.3)
    host, hg = srv.guest("Host")
    absent, _ag = srv.guest("Absent")
    code = host.post("/api/lobbies", json={"rules": {"preset": "standard", "think_seconds": 0}})
    code = code.json()["code"]
    absent.post(f"/api/lobbies/{code}/join", json={"slot": 1})
    absent.post(f"/api/lobbies/{code}/ready", json={"ready": True})
    for _ in range(2):
        host.post(f"/api/lobbies/{code}/bots", json={"level": "tsumogiri"})
    game = host.post(f"/api/lobbies/{code}/start").json()["game"]
    absent_seat = next(s["seat"] for s in game["seats"] if s["name"] == "Absent")
    c = await TableClient.open(srv.ws, game["id"], hg["token"])
    seen_discard = False
    while not seen_discard:
        msg = await c.recv(timeout=10)
        if msg["type"] == "view" and msg["view"]["legal_actions"]:
            view = msg["view"]
            drawn = view["players"][c.seat]["drawn"]
            legal = view["legal_actions"]
            pick = next((a for a in legal if a["type"] == "pass"), None) or next(
                (a for a in legal if a["type"] == "discard" and a.get("tile") == drawn), legal[0]
            )
            await c.send({"type": "action", "action": pick})
        ev = msg.get("event") if msg["type"] == "event" else None
        seen_discard = bool(ev and ev["type"] == "discard" and ev["seat"] == absent_seat)
    assert c.welcome is not None
    states = [c.welcome["players"]] + [f["players"] for f in c.frames if f["type"] == "players"]
    assert states[-1][absent_seat]["auto"] is True
    assert states[-1][absent_seat]["connected"] is False
    await c.close()


async def test_broken_bot_does_not_stall_table(sqlite_url: str, make_server: Any) -> None:
    """A bot that raises is replaced by the default action (pass / discard the drawn tile)."""

    def broken(level: str, seed: int, variant: str) -> Any:
        raise RuntimeError("no such bot today")

    srv = make_server(sqlite_url, bot_factory=broken, bot_delay_seconds=0.0)
    _client, g, game_id = bot_table(srv, {"preset": "standard", "think_seconds": 0})
    c = await TableClient.open(srv.ws, game_id, g["token"])
    await c.play(max_actions=5, timeout=10)
    others = {
        f["event"]["seat"]
        for f in c.frames
        if f["type"] == "event" and "event" in f and f["event"]["type"] == "discard"
    } - {c.seat}
    assert len(others) == 3
    await c.close()
