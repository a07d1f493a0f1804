"""History routes: finished games and one game's record (the health check: health.py)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from sqlalchemy.orm import Session

from server.api.context import Ctx, OptionalPlayer, api_error, may_watch
from server.api.schemas import MAX_ID, GameId, Limit, Offset
from server.db import games, stats

router = APIRouter(prefix="/api", tags=["games"])


@router.get("/games")
async def list_games(
    ctx: Ctx,
    player: Annotated[
        int | None, Query(ge=1, le=MAX_ID, description="only games this player sat in")
    ] = None,
    limit: Limit = 20,
    offset: Offset = 0,
) -> dict[str, Any]:
    """Finished games, newest first. With ``player``, each game carries that player's
    stats line (``stats``: rank, rounds, wins, deal-ins, riichi, calls, yakuman)."""

    def work(s: Session) -> tuple[list[dict[str, Any]], int]:
        rows, total = games.list_games(s, player, limit, offset)
        if player is not None:
            lines = stats.game_lines(s, player, [r["id"] for r in rows])
            for r in rows:
                r["stats"] = lines.get(r["id"])
        return rows, total

    rows, total = await ctx.run_db(work)
    return {"games": rows, "total": total}


@router.get("/games/{game_id}")
async def get_game(
    game_id: GameId,
    ctx: Ctx,
    viewer: OptionalPlayer,
    key: Annotated[str | None, Query(max_length=64, description="spectate link key")] = None,
) -> dict[str, Any]:
    """One game with its hands and full event record (record only once finished).

    A live game is found only by its players and with its spectate link's key."""
    data = await ctx.run_db(lambda s: games.game_detail(s, game_id))
    if data is None or (
        data["status"] == "live" and not await may_watch(ctx, game_id, viewer, key)
    ):
        raise api_error(404, "not_found", f"no game {game_id}")
    return data
