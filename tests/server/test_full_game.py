"""A whole game played by four scripted clients over real WebSockets, read back from the DB."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from server.db.models import Game, GameEvent, GameSeat, Hand
from tests.server.wsclient import TableClient, lobby_listener

PRIVATE_TYPES = {"haipai", "draw"}


def setup_lobby(srv: Any, rules: dict[str, Any]) -> tuple[list[Any], list[dict[str, Any]], str]:
    clients, guests = [], []
    for name in ("Aoi", "Ren", "Sora", "Hana"):
        c, g = srv.guest(name)
        clients.append(c)
        guests.append(g)
    r = clients[0].post("/api/lobbies", json={"rules": rules, "seat_mode": "draw"})
    assert r.status_code == 200, r.text
    code = r.json()["code"]
    return clients, guests, code


def start_lobby(clients: list[Any], code: str) -> dict[str, Any]:
    for c in clients[1:]:
        assert c.post(f"/api/lobbies/{code}/join", json={}).status_code == 200
        assert c.post(f"/api/lobbies/{code}/ready", json={"ready": True}).status_code == 200
    r = clients[0].post(f"/api/lobbies/{code}/start")
    assert r.status_code == 200, r.text
    lobby = r.json()
    assert lobby["status"] == "playing"
    return lobby


def _without_public_wall(node: Any) -> Any:
    """``node`` less the wall's public counts: ``wall_left`` and a view's ``wall``, which
    may hold only how many tiles were drawn from each end (docs/engine.md, "The public
    wall"); any other ``wall`` is left in, for the check to find."""
    if isinstance(node, dict):
        out = {}
        for k, v in node.items():
            if k == "wall_left" and isinstance(v, int):
                continue
            if (
                k == "wall"
                and isinstance(v, dict)
                and set(v) == {"drawn", "rinshan"}
                and all(type(x) is int for x in v.values())
            ):
                continue
            out[k] = _without_public_wall(v)
        return out
    if isinstance(node, list):
        return [_without_public_wall(x) for x in node]
    return node


def check_no_leak(client: TableClient, record: dict[int, list[int] | None]) -> None:
    """No frame holds another seat's concealed tiles or the wall."""
    seat = client.seat
    for f in client.frames:
        text = json.dumps(_without_public_wall(f))
        assert "wall" not in text, f
        if f["type"] == "event":
            seats = record[f["version"]]
            ev = f["event"]
            if seats is not None and (seat is None or seat not in seats):
                # masked: that it happened and to whom, not its tiles
                assert ev["type"] in PRIVATE_TYPES, (seat, f)
                assert ev.get("tile") is None and ev.get("tiles") is None, (seat, f)
            elif ev["type"] in PRIVATE_TYPES:
                assert ev["seat"] == seat, f
        elif f["type"] == "view":
            view = f["view"]
            assert view["seat"] == seat
            for p in view["players"]:
                if p["seat"] != seat:
                    assert p["hand"] is None and p["drawn"] is None, (seat, p)
            if seat is None:
                assert view["legal_actions"] == [] and not view.get("help")


async def play_full_game(db_url: str, make_server: Any) -> None:
    srv = make_server(db_url)
    rules = {"preset": "standard", "length": "tonpuu", "think_seconds": 0}
    http, guests, code = setup_lobby(srv, rules)
    lobby_ws = await lobby_listener(srv.ws, code, guests[1]["token"])
    first = json.loads(await asyncio.wait_for(lobby_ws.recv(), 10))
    assert first["type"] == "lobby" and first["lobby"]["code"] == code
    lobby = start_lobby(http, code)
    game_id = lobby["game"]["id"]
    d1, d2 = lobby["game"]["dice"]
    assert lobby["game"]["first_dealer"] == (d1 + d2 - 1) % 4
    # The listener saw every change up to the start, pushed live.
    pushed = []
    while not pushed or pushed[-1]["status"] != "playing":
        pushed.append(json.loads(await asyncio.wait_for(lobby_ws.recv(), 10))["lobby"])
    assert pushed[-1]["game"]["id"] == game_id

    seat_of = {s["player_id"]: s["seat"] for s in lobby["game"]["seats"]}
    players = [
        await TableClient.open(srv.ws, game_id, g["token"], name=g["player"]["name"])
        for g in guests
    ]
    # Anyone with the spectate link (in the lobby object, for holders of its code).
    watch = lobby["game"]["watch_path"].rsplit("/", 1)[1]
    spectator = await TableClient.open(srv.ws, game_id, None, watch=watch, name="watcher")
    assert spectator.seat is None
    for p, g in zip(players, guests, strict=True):
        assert p.seat == seat_of[g["player"]["id"]]

    async def watch() -> None:
        while spectator.game_over is None:
            await spectator.recv(30)

    started = time.monotonic()
    counts = await asyncio.gather(*(p.play(timeout=30) for p in players), watch())
    assert sum(c for c in counts if c) > 50
    assert time.monotonic() - started < 120
    for p in players:
        # "stale" is a correct answer when another seat's call overtook a decision
        # (for example a pon that cancels a pending chi offer); nothing else may occur.
        assert [e for e in p.errors if e["code"] != "stale"] == [], p.errors
        assert p.gaps == []
        assert p.game_over is not None
    results = players[0].game_over["results"]  # type: ignore[index]
    assert sum(r["points"] for r in results) == 100000
    assert sorted(r["rank"] for r in results) == [1, 2, 3, 4]

    # Every record row is in the database once the table has flushed.
    deadline = time.monotonic() + 10
    while True:
        detail = http[0].get(f"/api/games/{game_id}").json()
        if detail["status"] == "finished" or time.monotonic() > deadline:
            break
        await asyncio.sleep(0.1)
    assert detail["status"] == "finished"
    events = [e for e in detail["events"] if e["kind"] == "event"]
    assert [e["version"] for e in events] == list(range(1, players[0].version + 1))
    record = {e["version"]: e["seats"] for e in events}
    assert events[0]["type"] == "game_start" and events[-1]["type"] == "game_end"
    round_ends = [e for e in events if e["type"] in ("agari", "ryuukyoku")]
    assert len(detail["hands"]) == len(round_ends) >= 4
    for hand, ev in zip(detail["hands"], round_ends, strict=True):
        assert hand["kind"] == ev["type"]
        assert hand["deltas"] == ev["data"]["deltas"]
    for p in [*players, spectator]:
        check_no_leak(p, record)
    by_seat = {s["seat"]: s for s in detail["seats"]}
    for r in results:
        s = by_seat[r["seat"]]
        assert (s["final_points"], s["rank"], s["score"]) == (r["points"], r["rank"], r["score"])
    listed = http[1].get("/api/games", params={"player": guests[1]["player"]["id"]}).json()
    assert [g["id"] for g in listed["games"]] == [game_id]

    # And straight from the tables, not only through the API.
    engine = create_engine(db_url)
    try:
        with Session(engine) as s:
            game = s.get(Game, game_id)
            assert game is not None and game.status == "finished" and game.ended_at is not None
            seats = s.scalars(select(GameSeat).where(GameSeat.game_id == game_id)).all()
            assert sum(gs.final_points or 0 for gs in seats) == 100000
            n_hands = len(s.scalars(select(Hand).where(Hand.game_id == game_id)).all())
            assert n_hands == len(round_ends)
            n_actions = len(
                s.scalars(
                    select(GameEvent).where(
                        GameEvent.game_id == game_id, GameEvent.kind == "action"
                    )
                ).all()
            )
            refused = sum(len(p.errors) for p in players)
            assert n_actions == sum(c for c in counts if c) - refused
    finally:
        engine.dispose()
    # The lobby reopened for another game, and its listeners were told.
    while True:
        reopened = json.loads(await asyncio.wait_for(lobby_ws.recv(), 10))["lobby"]
        if reopened["status"] == "open":
            break
    assert reopened["game"]["id"] == game_id and reopened["game"]["status"] == "finished"
    assert not any(s["ready"] for s in reopened["slots"] if s["bot"] is None)
    await lobby_ws.close()
    for p in [*players, spectator]:
        await p.close()


async def test_full_game_four_clients(db_url: str, make_server: Any) -> None:
    await play_full_game(db_url, make_server)
