"""History routes: finished games and one game's record (the health check: health.py)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from server.api.context import Ctx, api_error
from server.db import games

router = APIRouter(prefix="/api", tags=["games"])


@router.get("/games")
async def list_games(
    ctx: Ctx,
    player: Annotated[int | None, Query(description="only games this player sat in")] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> dict[str, Any]:
    """Finished games, newest first."""
    rows, total = await ctx.run_db(lambda s: games.list_games(s, player, limit, offset))
    return {"games": rows, "total": total}


@router.get("/games/{game_id}")
async def get_game(game_id: int, ctx: Ctx) -> dict[str, Any]:
    """One game with its hands and full event record (record only once finished)."""
    data = await ctx.run_db(lambda s: games.game_detail(s, game_id))
    if data is None:
        raise api_error(404, "not_found", f"no game {game_id}")
    return data
