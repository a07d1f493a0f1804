"""Players' stats and the leaderboard (docs/players.md)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query
from sqlalchemy import select
from sqlalchemy.orm import Session

from server.api.context import Ctx, CurrentPlayer, api_error
from server.api.schemas import MAX_ID
from server.db import stats
from server.db.models import GameSeat, Player, Rating
from server.db.ratings import ordinal

router = APIRouter(prefix="/api", tags=["stats"])

PlayerId = Annotated[int, Path(ge=1, le=MAX_ID, description="a player id")]
Kind = Literal["riichi", "sanma", "nanchang"]


def _rating_json(r: Rating) -> dict[str, Any]:
    return {
        "rating": round(ordinal(r.mu, r.sigma), 2),
        "mu": round(r.mu, 3),
        "sigma": round(r.sigma, 3),
        "games": r.games,
    }


@router.get("/players/{player_id}/stats")
async def player_stats(player_id: PlayerId, ctx: Ctx) -> dict[str, Any]:
    """A player's figures per game (4-player riichi, sanma, Nanchang) and ratings,
    added up from the per-game summaries written at each game's end."""

    def work(s: Session) -> dict[str, Any] | None:
        p = s.get(Player, player_id)
        if p is None or p.deleted_at is not None:
            return None
        ratings = {
            r.kind: _rating_json(r)
            for r in s.scalars(select(Rating).where(Rating.player_id == player_id))
        }
        return {
            "player": {"id": p.id, "name": p.name, "username": p.username},
            "games": stats.player_stats(s, player_id),
            "ratings": ratings,
        }

    out = await ctx.run_db(work)
    if out is None:
        raise api_error(404, "not_found", f"no player {player_id}")
    return out


@router.get("/leaderboard")
async def leaderboard(
    ctx: Ctx,
    player: CurrentPlayer,
    game: Annotated[Kind, Query(description="riichi (4 players), sanma or nanchang")] = "riichi",
) -> dict[str, Any]:
    """The ratings of the accounts you have played a finished game with (and yours),
    best first."""
    pid = player.id

    def work(s: Session) -> list[dict[str, Any]]:
        mine = select(GameSeat.game_id).where(GameSeat.player_id == pid)
        met = select(GameSeat.player_id).where(
            GameSeat.game_id.in_(mine), GameSeat.player_id.is_not(None)
        )
        rows = s.execute(
            select(Rating, Player)
            .join(Player, Player.id == Rating.player_id)
            .where(
                Rating.kind == game,
                Player.deleted_at.is_(None),
                (Rating.player_id == pid) | Rating.player_id.in_(met),
            )
        ).all()
        entries = [
            {"player_id": p.id, "name": p.name, "username": p.username, **_rating_json(r)}
            for r, p in rows
        ]
        entries.sort(key=lambda e: (-e["rating"], e["player_id"]))
        for i, e in enumerate(entries):
            e["place"] = i + 1
        return entries

    return {"game": game, "entries": await ctx.run_db(work)}
