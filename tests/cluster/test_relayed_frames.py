"""Protocol 2 over a relayed socket (issue 14): the player's socket is on one process,
its table on another; the step, event and decision frames it gets through Redis fold
(web/js/fold.js) into exactly the view a resync then sends, with every version once."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
import redis
from websockets.asyncio.client import connect

from server.tables.steps import expand
from server.wire.actions import expand_runs
from tests.cluster.conftest import REDIS_URL, Start
from tests.web.foldkit import fold_view

pytestmark = pytest.mark.postgres

TONPUU = {"preset": "standard", "length": "tonpuu", "think_seconds": 0}


def bot_game(base: str) -> tuple[str, int]:
    """A game of one guest and three bots, started on ``base``'s process."""
    with httpx.Client(base_url=base, timeout=20) as client:
        token = client.post("/api/guest", json={"name": "Solo"}).json()["token"]
        code = client.post("/api/lobbies", json={"rules": TONPUU}).json()["code"]
        for _ in range(3):
            r = client.post(f"/api/lobbies/{code}/bots", json={"level": "tsumogiri"})
            assert r.status_code == 200, r.text
        r = client.post(f"/api/lobbies/{code}/start")
        assert r.status_code == 200, r.text
        return token, r.json()["game"]["id"]


def choose(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """Win when possible, never call, else the last discard listed."""
    for t in ("tsumo", "ron", "pass"):
        for a in legal:
            if a["type"] == t:
                return a
    discards = [a for a in legal if a["type"] == "discard"]
    return discards[-1] if discards else legal[0]


async def test_protocol_2_through_the_relay_folds_into_the_resync_view(
    start: Start, redis_prefix: str
) -> None:
    a, b = start(), start()
    a.wait_ready()
    b.wait_ready()
    token, game_id = bot_game(a.http)
    with redis.Redis.from_url(REDIS_URL) as r:
        lease = r.get(f"{redis_prefix}lease:{game_id}")
    assert lease is not None and lease.decode().startswith(a.health()["cluster"]["node"])

    ws = await connect(f"{b.ws}/ws/table/{game_id}", max_size=None, max_queue=None)
    raw: list[dict[str, Any]] = []  # every frame, as received
    frames: list[dict[str, Any]] = []  # the same, step frames expanded

    async def recv() -> dict[str, Any]:
        msg: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 30))
        for m in msg["messages"] if msg["type"] == "batch" else [msg]:
            raw.append(m)
            frames.extend(expand(m, 0))
        return msg

    try:
        await ws.send(json.dumps({"type": "hello", "token": token, "protocol": 2}))
        acted = 0
        game_over = False
        while not game_over:
            seen = len(frames)
            await recv()
            for f in frames[seen:]:
                if f["type"] == "game_over":
                    game_over = True
                elif f["type"] == "error":
                    # a decision overtaken by the next step (never here: bots wait for us)
                    raise AssertionError(f)
                elif f["type"] == "event" and f.get("event", {}).get("type") in (
                    "agari",
                    "ryuukyoku",
                ):
                    await ws.send(json.dumps({"type": "continue"}))
                legal = (
                    expand_runs(f["legal"], 0)
                    if f["type"] == "decision" and "legal" in f
                    else f["view"]["legal_actions"]
                    if f["type"] == "view"
                    else []
                )
                if legal:
                    action = {"type": "action", "action": choose(legal), "version": f["version"]}
                    await ws.send(json.dumps(action))
                    acted += 1
        # The socket stayed on B, relayed to the table on A, all game long.
        assert b.health()["cluster"]["relayed_sockets"] == 1
        assert a.health()["cluster"]["remote_sockets"] == 1
        await ws.send(json.dumps({"type": "resync"}))
        while raw[-1]["type"] != "view":
            await recv()
    finally:
        await ws.close()

    assert acted > 20
    types = [f["type"] for f in raw]
    assert types[:2] == ["welcome", "view"] and types.count("view") == 2
    # most of the game came as step frames (events merged with our decision)
    assert types.count("step") > 20
    assert any("legal" in f for f in raw if f["type"] == "step")
    # every version once, in order, from the first view on
    first = raw[1]["version"]
    versions = [f["version"] for f in frames if f["type"] == "event"]
    assert versions == list(range(first + 1, first + 1 + len(versions)))
    resync = raw[-1]
    assert resync["version"] == versions[-1]
    # what the client folded from the relayed frames is what the table's view says
    folded = fold_view(raw[:-1])
    assert folded is not None
    assert folded["version"] == resync["version"]
    assert folded["view"] == resync["view"]
    assert folded["view"]["phase"] == "game_end"
