"""Remote bots with several processes (issue 14, server/cluster/bots.py): a bot whose
socket reached one process plays at a table another process owns; every process lists
and counts it; revoking it on one closes its socket on the other; and when the table's
owner is killed, the process that takes the game over gives the seat back to the bot."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from tests.cluster.conftest import Start
from tests.cluster.processes import ServeProcess
from tests.cluster.test_processes import (
    assert_finished_whole,
    guest,
    node_of,
    owner,
    play_on,
    reconnect,
)
from tests.server.test_remote_bot import (
    TsumogiriRemote,
    make_bot,
    masked_for,
    start_with_bots,
    until,
)
from tests.server.wsclient import TableClient

pytestmark = pytest.mark.postgres


def account(base: str, name: str) -> httpx.Client:
    client, _ = guest(base, name)
    body = {"username": name.lower(), "password": "correct horse battery"}
    r = client.post("/api/account/claim", json=body)
    assert r.status_code == 200, r.text
    return client


def listed(base: str, level: str) -> bool:
    return level in httpx.get(f"{base}/api/bots", timeout=10).json()["external"]


def host_game(base: str, levels: list[str]) -> tuple[dict[str, Any], int]:
    """A guest host and bots of ``levels`` at a table started through ``base`` (whose
    process so owns it)."""
    host, g = guest(base, "Host")
    try:
        return g, start_with_bots(host, levels)
    finally:
        host.close()


def mjai_export(base: str, game_id: int) -> list[dict[str, Any]]:
    r = httpx.get(f"{base}/api/games/{game_id}/export", params={"format": "mjai"}, timeout=20)
    assert r.status_code == 200, r.text
    return [json.loads(line) for line in r.text.splitlines() if line.strip()]


@dataclass
class BotOnA:
    a: ServeProcess
    b: ServeProcess
    owner: httpx.Client  # the bot's account
    bot: TsumogiriRemote  # connected to A
    runner: asyncio.Task[None]


@pytest.fixture
async def bot_on_a(start: Start) -> AsyncIterator[BotOnA]:
    """Two processes, A and B, and remote bot ``tiny`` connected to A, offered by B."""
    a, b = start(), start()
    a.wait_ready()
    b.wait_ready()
    owner_client = account(b.http, "Owner")
    bot = await TsumogiriRemote(a.ws, make_bot(owner_client, "tiny")).connect()
    runner = asyncio.create_task(bot.run())
    try:
        await until(lambda: listed(b.http, "remote-tiny"), "B offers the bot")
        yield BotOnA(a, b, owner_client, bot, runner)
    finally:
        owner_client.close()
        await bot.close()
        runner.cancel()


async def test_a_bot_on_one_process_plays_at_a_table_of_the_other(
    bot_on_a: BotOnA, redis_prefix: str
) -> None:
    a, b, owner_client, bot = bot_on_a.a, bot_on_a.b, bot_on_a.owner, bot_on_a.bot
    # Its socket is on A; B offers it, and counts the socket for its owner.
    mine = owner_client.get("/api/bots/remote").json()["bots"]
    assert [(x["name"], x["connections"]) for x in mine] == [("tiny", 1)]

    g, game_id = host_game(b.http, ["remote-tiny", "tsumogiri", "tsumogiri"])
    assert owner(redis_prefix, game_id) == node_of(b)
    me = await TableClient.open(b.ws, game_id, g["token"])
    await me.play(timeout=60)
    assert me.game_over is not None
    await me.close()
    end_game = [{"type": "end_game"}]
    await until(lambda: bool(bot.requests) and bot.requests[-1] == end_game, "end_game")
    # The game's end gave the socket back to A.
    assert b.health()["cluster"]["bot_sockets_borrowed"] == 0
    await until(lambda: a.health()["cluster"]["bot_sockets_lent"] == 0, "freed on A")

    record = mjai_export(b.http, game_id)
    actor = bot.actor
    assert actor is not None
    dahai = [e for e in record if e.get("actor") == actor and e["type"] == "dahai"]
    # Every decision of its seat was its own (the defensive stand-in would call and
    # riichi), made over the two processes' bus.
    assert len(dahai) == bot.discards and all(e["tsumogiri"] for e in dahai)
    calls = ("pon", "chi", "daiminkan", "reach")
    assert not [e for e in record if e.get("actor") == actor and e["type"] in calls]
    # It was sent its seat's view of the record, in order, and nothing else.
    seen = [e for req in bot.requests[:-1] for e in req]
    assert (seen[0]["type"], seen[0]["id"]) == ("start_game", actor)
    assert seen[1:] == masked_for(record, actor)[1 : len(seen)]
    assert len(seen) > len(record) // 2

    # Revoked through B: its socket on A is closed, and no process offers it.
    assert owner_client.delete("/api/bots/remote/tiny").status_code == 204
    await asyncio.wait_for(bot_on_a.runner, 10)
    assert bot.ws is not None and bot.ws.close_code == 4401
    await until(lambda: not listed(a.http, "remote-tiny"), "A no longer offers it")
    await until(lambda: not listed(b.http, "remote-tiny"), "B no longer offers it")


async def test_the_tables_owner_killed_the_bot_plays_on_at_the_new_owner(
    bot_on_a: BotOnA, pg_url: str, redis_prefix: str
) -> None:
    a, b, bot = bot_on_a.a, bot_on_a.b, bot_on_a.bot
    g, game_id = host_game(b.http, ["remote-tiny", "tsumogiri", "tsumogiri"])
    assert owner(redis_prefix, game_id) == node_of(b)
    # The player's socket is on A, relayed to B's table; the bot's is on A too.
    c = await TableClient.open(a.ws, game_id, g["token"])
    player = asyncio.create_task(c.play(timeout=30))
    await until(lambda: bot.discards >= 2, "the bot plays at B's table", 60)
    asked_before = len(bot.requests)
    assert a.health()["cluster"]["bot_sockets_lent"] == 1
    assert b.health()["cluster"]["bot_sockets_borrowed"] == 1

    b.kill9()  # the table's owner, mid-game
    with pytest.raises(ConnectionClosed):
        await player
    await c.close()
    c2 = await reconnect(a.ws, game_id, g["token"], c.version)
    await play_on(c2)
    assert c2.game_over is not None
    await c2.close()
    assert owner(redis_prefix, game_id) == node_of(a)
    await until(lambda: bot.requests[-1] == [{"type": "end_game"}], "end_game", 30)

    # A freed the socket B held (end_game), then its own rebuilt table claimed it:
    # the whole game so far from start_game, and the bot decided on to the end.
    after = bot.requests[asked_before:]
    freed = after.index([{"type": "end_game"}])
    again = after[freed + 1]
    assert again[0]["type"] == "start_game" and again[0]["id"] == bot.actor
    # (its first discard at B's table is in it, committed before B asked it again:
    # the same game, from its record)
    assert any(e["type"] == "dahai" and e.get("actor") == bot.actor for e in again)
    assert len(after) - freed > 3
    assert_finished_whole(pg_url, game_id, c, c2)
