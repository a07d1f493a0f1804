"""Other games than four-player riichi, through the whole server: lobby, table, records."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from server.records.record import GameRecord, replay
from tests.server.conftest import bot_table
from tests.server.wsclient import TableClient


async def test_a_nanchang_game_plays_to_its_ledger_and_exports_as_our_record(
    db_url: str, make_server: Any
) -> None:
    srv = make_server(db_url, bot_delay_seconds=0.0, round_end_pause_seconds=0.0)
    client, g, game_id = bot_table(
        srv, {"preset": "nanchang-east", "think_seconds": 0}, level="efficient"
    )
    lobby_game = client.get(f"/api/games/{game_id}").json()
    assert lobby_game["rules"]["variant"] == "nanchang"
    c = await TableClient.open(srv.ws, game_id, g["token"])
    await c.play(timeout=30)
    await c.close()
    assert c.view is not None and c.view["variant"] == "nanchang"
    assert c.view["indicator"] and c.view["jokers"]["zheng"]
    assert c.game_over is not None
    final = {r["seat"]: r["points"] for r in c.game_over["results"]}
    assert sum(final.values()) == 0  # a points ledger: what one wins the others pay
    deadline = time.monotonic() + 10
    while (detail := client.get(f"/api/games/{game_id}").json())["status"] != "finished":
        assert time.monotonic() < deadline
        await asyncio.sleep(0.05)
    assert detail["status"] == "finished" and detail["hands"]
    assert {h["kind"] for h in detail["hands"]} <= {"agari", "ryuukyoku"}
    types = {e["type"] for e in detail["events"] if e["kind"] == "event"}
    assert {"deal", "jokers", "draw", "discard", "round_end", "game_end"} <= types

    tenhou = client.get(f"/api/games/{game_id}/export", params={"format": "tenhou6"})
    assert tenhou.status_code == 422
    assert "no tenhou6 format for Nanchang" in tenhou.json()["detail"]["message"]
    own = client.get(f"/api/games/{game_id}/export", params={"format": "jantaku"})
    assert own.status_code == 200, own.text
    record = GameRecord.loads(own.text)
    assert record.variant.key == "nanchang"
    again = replay(record)
    assert {f.seat: f.points for f in again.final} == final
