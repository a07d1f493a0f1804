"""``GET /api/bots``: the bot levels a lobby offers, ours per game, and the external mjai
bots (four-player riichi only): the operator's, and the remote bots connected now."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from server.api.context import Ctx
from server.bots import LEVELS
from server.external.names import parse_registry

router = APIRouter(prefix="/api", tags=["bots"])


@router.get("/bots")
async def bot_levels(ctx: Ctx) -> dict[str, Any]:
    return {
        "levels": list(LEVELS["riichi"]),
        "external": [
            *sorted(parse_registry(ctx.settings.mjai_bots)),
            *await ctx.remote_bots.all_levels(),
        ],
    }
