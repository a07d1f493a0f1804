"""Remote bots: an account makes a bot token, the bot connects on /ws/bot and speaks
mjai, a host seats it in a lobby, and it plays; a bad token changes nothing, a bot
that leaves mid-game is stood in for, and it sees only its own seat's events."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from server.db.models import RemoteBot
from tests.external.tsumogiri_remote import answer
from tests.server.wsclient import TableClient

RULES = {"preset": "standard", "length": "tonpuu", "think_seconds": 0}


def account(srv: Any, name: str) -> httpx.Client:
    """A signed-in account (a guest that claimed a username)."""
    client, _ = srv.guest(name)
    body = {"username": name.lower(), "password": "correct horse battery"}
    r = client.post("/api/account/claim", json=body)
    assert r.status_code == 200, r.text
    return client


def make_bot(client: httpx.Client, name: str) -> str:
    r = client.post("/api/bots/remote", json={"name": name})
    assert r.status_code == 200, r.text
    assert r.json()["level"] == f"remote-{name}"
    token: str = r.json()["token"]
    return token


class TsumogiriRemote:
    """A remote mjai bot (mjai.app's form): discards what it draws, passes on the rest.
    ``quit_after``: it closes its socket after that many discards."""

    def __init__(self, base: str, token: str, quit_after: int | None = None) -> None:
        self.base = base
        self.token = token
        self.quit_after = quit_after
        self.requests: list[list[dict[str, Any]]] = []
        self.discards = 0
        self.actor: int | None = None
        self.ws: ClientConnection | None = None

    async def connect(self, auth: str = "header") -> TsumogiriRemote:
        headers = {"Authorization": f"Bearer {self.token}"} if auth == "header" else None
        self.ws = await connect(f"{self.base}/ws/bot", additional_headers=headers)
        if auth == "message":
            await self.ws.send(json.dumps({"type": "auth", "token": self.token}))
        return self

    async def run(self) -> None:
        assert self.ws is not None
        try:
            async for raw in self.ws:
                events = json.loads(raw)
                assert isinstance(events, list), events
                self.requests.append(events)
                self.actor, reply = answer(events, self.actor)
                self.discards += reply["type"] == "dahai"
                await self.ws.send(json.dumps(reply))
                if self.quit_after is not None and self.discards >= self.quit_after:
                    await self.ws.close()
                    return
        except ConnectionClosed:
            pass

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


async def until(check: Any, what: str, seconds: float = 10.0) -> None:
    """Wait for a condition the server reaches on its own thread."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while not check():
        assert loop.time() < end, f"timed out waiting: {what}"
        await asyncio.sleep(0.01)


def listed(client: httpx.Client, level: str) -> bool:
    return level in client.get("/api/bots").json()["external"]


async def refused(base: str, token: str | None, auth: str) -> tuple[dict[str, Any], int]:
    """(the error message, the close code) a bad token gets."""
    headers = {"Authorization": f"Bearer {token}"} if auth == "header" and token else None
    ws = await connect(f"{base}/ws/bot", additional_headers=headers)
    if auth == "message":
        await ws.send(json.dumps({"type": "auth", "token": token} if token else {"type": "x"}))
    error = json.loads(await asyncio.wait_for(ws.recv(), 10))
    with pytest.raises(ConnectionClosed):
        await asyncio.wait_for(ws.recv(), 10)
    assert ws.close_code is not None
    return error, ws.close_code


def start_with_bots(host: httpx.Client, levels: list[str]) -> int:
    """A tonpuu lobby of ``host`` with bots of ``levels``, started: its game's id."""
    code = host.post("/api/lobbies", json={"rules": RULES}).json()["code"]
    for level in levels:
        r = host.post(f"/api/lobbies/{code}/bots", json={"level": level})
        assert r.status_code == 200, r.text
    r = host.post(f"/api/lobbies/{code}/start")
    assert r.status_code == 200, r.text
    game_id: int = r.json()["game"]["id"]
    return game_id


def host_game(srv: Any, levels: list[str]) -> tuple[dict[str, Any], int]:
    """A host (a guest) with bots of ``levels`` at a started table: (guest, game id)."""
    host, g = srv.guest("Host")
    return g, start_with_bots(host, levels)


def mjai_export(srv: Any, game_id: int) -> list[dict[str, Any]]:
    client, _ = srv.guest("Reader")
    r = client.get(f"/api/games/{game_id}/export", params={"format": "mjai"})
    assert r.status_code == 200, r.text
    return [json.loads(line) for line in r.text.splitlines() if line.strip()]


def masked_for(events: list[dict[str, Any]], actor: int) -> list[dict[str, Any]]:
    """The record's events as seat ``actor`` may see them: others' draws and deals hidden."""
    out = []
    for e in events:
        e = dict(e)
        if e["type"] == "tsumo" and e["actor"] != actor:
            e["pai"] = "?"
        elif e["type"] == "start_kyoku":
            e["tehais"] = [t if i == actor else ["?"] * len(t) for i, t in enumerate(e["tehais"])]
        out.append(e)
    return out


async def test_remote_bot_plays_a_lobby_game_to_the_end(db_url: str, make_server: Any) -> None:
    srv = make_server(db_url)
    owner = account(srv, "Owner")
    bot = await TsumogiriRemote(srv.ws, make_bot(owner, "tiny")).connect()
    runner = asyncio.create_task(bot.run())
    await until(lambda: listed(owner, "remote-tiny"), "the bot is offered")

    g, game_id = host_game(srv, ["remote-tiny", "efficient", "defensive"])
    me = await TableClient.open(srv.ws, game_id, g["token"])
    await me.play(timeout=30)
    assert me.game_over is not None
    await me.close()
    await until(lambda: bot.requests and bot.requests[-1] == [{"type": "end_game"}], "end_game")
    await bot.close()
    await runner

    record = mjai_export(srv, game_id)
    actor = bot.actor
    assert actor is not None
    mine = [e for e in record if e.get("actor") == actor]
    dahai = [e for e in mine if e["type"] == "dahai"]
    # Every decision of its seat was its own: as many discards as it sent, all tsumogiri,
    # and never a call or a riichi (which the defensive stand-in would make). It played on
    # through the game: its discards fall in at least three of the tonpuu's four or more
    # hands (one may end before its first turn, by a ron or a tenhou).
    assert len(dahai) == bot.discards
    hand_of, hand = [], 0
    for e in record:
        hand += e["type"] == "start_kyoku"
        if e.get("actor") == actor and e["type"] == "dahai":
            hand_of.append(hand)
    assert len(set(hand_of)) >= 3, hand_of
    assert all(e["tsumogiri"] for e in dahai)
    assert not [e for e in mine if e["type"] in ("pon", "chi", "daiminkan", "reach")]
    # It was sent exactly its own seat's view of the record, in order, and nothing else.
    seen = [e for req in bot.requests[:-1] for e in req]
    assert (seen[0]["type"], seen[0]["id"]) == ("start_game", actor)
    # (its start_game names the seats p0..p3, and says which is its own: "id")
    assert seen[1:] == masked_for(record, actor)[1 : len(seen)]
    assert len(seen) > len(record) // 2
    others = [e for e in seen if e["type"] == "tsumo" and e["actor"] != actor]
    assert others and all(e["pai"] == "?" for e in others)
    assert all(e["pai"] != "?" for e in seen if e["type"] == "tsumo" and e["actor"] == actor)


async def test_a_bot_that_leaves_is_stood_in_for_and_resumes(db_url: str, make_server: Any) -> None:
    srv = make_server(db_url)
    owner = account(srv, "Owner")
    token = make_bot(owner, "flaky")
    first = await TsumogiriRemote(srv.ws, token, quit_after=3).connect(auth="message")
    runner = asyncio.create_task(first.run())
    await until(lambda: listed(owner, "remote-flaky"), "the bot is offered")

    g, game_id = host_game(srv, ["remote-flaky", "tsumogiri", "tsumogiri"])
    me = await TableClient.open(srv.ws, game_id, g["token"])
    player = asyncio.create_task(me.play(timeout=30))
    await runner  # it left after three discards
    await until(lambda: not listed(owner, "remote-flaky"), "the bot is gone")
    hub = srv.ctx.remote_bots
    assert hub.connections("flaky") == 0

    # Meanwhile the game goes on: the stand-in plays its seat.
    while me.game_over is None and sum(f["type"] == "event" for f in me.frames) < 120:
        await asyncio.sleep(0.01)

    # Back again: its first request is the whole game so far, then it decides again.
    again = await TsumogiriRemote(srv.ws, token).connect()
    rerun = asyncio.create_task(again.run())
    await player
    assert me.game_over is not None
    await me.close()
    await until(lambda: again.requests and again.requests[-1] == [{"type": "end_game"}], "end")
    await again.close()
    await rerun

    record = mjai_export(srv, game_id)
    actor = first.actor
    assert actor is not None and again.actor == actor
    assert again.requests[0][0]["type"] == "start_game"
    resent = again.requests[0]
    assert resent[1:] == masked_for(record, actor)[1 : len(resent)]
    dahai = [e for e in record if e["type"] == "dahai" and e["actor"] == actor]
    # Three discards from the first socket, some from the second, the rest the stand-in's.
    assert again.discards > 0
    assert len(dahai) > first.discards + again.discards
    assert record[-1]["type"] == "end_game"


async def test_bot_tokens_are_made_listed_refused_and_revoked(
    sqlite_url: str, make_server: Any
) -> None:
    srv = make_server(sqlite_url)
    guest, _ = srv.guest("Guest")
    r = guest.post("/api/bots/remote", json={"name": "tiny"})
    assert r.status_code == 403 and r.json()["detail"]["code"] == "account_required"

    owner = account(srv, "Owner")
    token = make_bot(owner, "tiny")
    assert token.startswith("jtb_") and len(token) > 40
    assert make_bot(owner, "tiny2") != token
    r = owner.post("/api/bots/remote", json={"name": "tiny"})
    assert r.status_code == 409 and r.json()["detail"]["code"] == "name_taken"
    for bad in ("Tiny", "a b", "", "x" * 17, "-x"):
        assert owner.post("/api/bots/remote", json={"name": bad}).status_code == 422, bad
    bots = owner.get("/api/bots/remote").json()["bots"]
    assert [(b["name"], b["level"], b["connections"]) for b in bots] == [
        ("tiny", "remote-tiny", 0),
        ("tiny2", "remote-tiny2", 0),
    ]
    assert token not in json.dumps(bots)
    engine = create_engine(sqlite_url)
    try:
        with Session(engine) as s:
            stored = s.scalars(select(RemoteBot)).all()
            assert len(stored) == 2
            assert all(
                token not in (b.token_hash, b.name) and len(b.token_hash) == 64 for b in stored
            )
    finally:
        engine.dispose()

    # A bad token is refused, whichever way it comes, and nothing is offered.
    for bad, auth in ((token + "x", "header"), (token[:-1], "message"), (None, "message")):
        error, code = await refused(srv.ws, bad, auth)
        assert (error["code"], code) == ("auth_failed", 4401)
    host, _ = srv.guest("Host")
    lobby = host.post("/api/lobbies", json={"rules": RULES}).json()["code"]
    assert not listed(host, "remote-tiny")
    r = host.post(f"/api/lobbies/{lobby}/bots", json={"level": "remote-tiny"})
    assert r.status_code == 422

    # Connected, it is offered to every host; two sockets are two seats' worth.
    bot = await TsumogiriRemote(srv.ws, token).connect(auth="message")
    bot2 = await TsumogiriRemote(srv.ws, token).connect()
    await until(lambda: srv.ctx.remote_bots.connections("tiny") == 2, "two sockets")
    assert listed(host, "remote-tiny") and not listed(host, "remote-tiny2")
    conns = {b["name"]: b["connections"] for b in owner.get("/api/bots/remote").json()["bots"]}
    assert conns == {"tiny": 2, "tiny2": 0}
    r = host.post(f"/api/lobbies/{lobby}/bots", json={"level": "remote-tiny"})
    assert r.status_code == 200, r.text

    # Only its owner revokes it; then its sockets close and its token is dead.
    other = account(srv, "Other")
    assert other.delete("/api/bots/remote/tiny").status_code == 404
    assert owner.delete("/api/bots/remote/tiny").status_code == 204
    for b in (bot, bot2):
        assert b.ws is not None
        with pytest.raises(ConnectionClosed):
            await asyncio.wait_for(b.ws.recv(), 10)
        assert b.ws.close_code == 4401
    assert not listed(host, "remote-tiny")
    error, code = await refused(srv.ws, token, "header")
    assert (error["code"], code) == ("auth_failed", 4401)
    assert [b["name"] for b in owner.get("/api/bots/remote").json()["bots"]] == ["tiny2"]
    assert owner.delete("/api/bots/remote/tiny").status_code == 404
