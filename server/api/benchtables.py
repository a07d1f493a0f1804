"""``POST /api/bench/tables``: started tables in bulk, for bench/load.py.

Making a thousand tables through the public routes is twelve requests a table (four
guests, a lobby, three joins, three ready flags, start), each its own transaction:
650 s for 1,000 tables on the shared 2-core machine. This route makes ``count``
tables of four guests each in one transaction, with the same functions the public
routes call, then opens their tables (on this process, under its lease in a
cluster). Mounted only with ``JANTAKU_BENCH_TABLES=1``, which production refuses.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import Field
from sqlalchemy.orm import Session

from server.api.auth import new_token, token_hash
from server.api.context import Ctx
from server.api.lobbies import _start_table, lobby_rules, validated_rules
from server.api.schemas import Strict
from server.db import lobbies

router = APIRouter(prefix="/api/bench", tags=["bench"])


class BenchTables(Strict):
    count: int = Field(ge=1, le=200)
    rules: str | dict[str, Any] = "standard"


@router.post("/tables")
async def bench_tables(body: BenchTables, ctx: Ctx) -> dict[str, Any]:
    """``count`` started tables of four guests: ``{"tables": [{"game_id", "tokens"}]}``
    (tokens in seat order)."""
    rules = validated_rules(lobby_rules(body.rules))
    seats = lobbies.lobby_variant(rules).seats
    tokens = [[new_token() for _ in range(seats)] for _ in range(body.count)]
    secret = ctx.settings.secret

    def work(s: Session) -> list[lobbies.StartedGame]:
        started = []
        for i, table in enumerate(tokens):
            players = [
                lobbies.create_player(s, f"bench{i}.{k}", token_hash(secret, t))
                for k, t in enumerate(table)
            ]
            lobby = lobbies.create_lobby(s, players[0], rules, "choose")
            for slot, p in enumerate(players[1:], start=1):
                lobbies.join(s, lobby, p, slot)
                lobbies.set_ready(s, lobby, p, True)
            started.append(lobbies.start(s, lobby, players[0]))
        return started

    games = await ctx.run_db(work)
    for g in games:
        await _start_table(ctx, g)
    return {
        "tables": [{"game_id": g.game_id, "tokens": t} for g, t in zip(games, tokens, strict=True)]
    }
