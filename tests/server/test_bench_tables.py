"""``POST /api/bench/tables`` (bench/load.py's bulk setup): started tables of four new
guests, only when the setting mounts it, never in production."""

from __future__ import annotations

import secrets
from typing import Any

import httpx
import pytest
from pydantic import ValidationError

from server.settings import Settings
from tests.server.wsclient import TableClient


async def test_bulk_tables_are_started_and_their_tokens_seat_their_players(
    sqlite_url: str, make_server: Any
) -> None:
    srv = make_server(sqlite_url, bench_tables=True)
    with httpx.Client(base_url=srv.http, timeout=30) as http:
        r = http.post("/api/bench/tables", json={"count": 3, "rules": {"preset": "standard"}})
        assert r.status_code == 200, r.text
        tables = r.json()["tables"]
        assert len(tables) == 3 and len({t["game_id"] for t in tables}) == 3
        assert http.get("/api/health").json()["tables"] == 3
        for bad in ({"count": 0}, {"count": 201}, {"count": 1, "rules": "nope"}):
            assert http.post("/api/bench/tables", json=bad).status_code == 422
    # each token is its table's seat in order
    game = tables[1]
    for seat, token in enumerate(game["tokens"]):
        c = await TableClient.open(srv.ws, game["game_id"], token)
        assert c.seat == seat
        await c.close()


def test_the_route_is_absent_by_default_and_refused_in_production(
    sqlite_url: str, make_server: Any
) -> None:
    srv = make_server(sqlite_url)
    with httpx.Client(base_url=srv.http, timeout=30) as http:
        # (the static files answer a POST to a path they do not serve)
        assert http.post("/api/bench/tables", json={"count": 1}).status_code in (404, 405)
    secret = secrets.token_urlsafe(48)
    assert Settings(env="production", secret=secret).bench_tables is False
    with pytest.raises(ValidationError, match="JANTAKU_BENCH_TABLES"):
        Settings(env="production", secret=secret, bench_tables=True)
