"""The games this server plays, as the lobby's pickers need them: presets grouped by
game, each preset's full rules (its defaults), the seat count and the bot levels."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from server.api.lobbies import lobby_rules
from server.db.lobbies import bot_levels
from server.engine import VARIANTS, AnyVariant
from server.tables.options import game_setup, stored_rules

router = APIRouter(prefix="/api/variants", tags=["lobbies"])


def variant_json(v: AnyVariant) -> dict[str, Any]:
    return {
        "key": v.key,
        "title": v.title,
        "seats": v.seats,
        "default_preset": v.default_preset,
        "bot_levels": list(bot_levels(v)),
        # What a lobby made of the preset name stores (the lobby's timer included).
        "presets": [
            {"name": p, "rules": stored_rules(*game_setup(lobby_rules(p)))} for p in v.presets
        ],
    }


_VARIANTS = [variant_json(v) for v in VARIANTS.values()]


@router.get("")
async def list_variants() -> dict[str, Any]:
    """Every game with its presets (a lobby's ``rules`` takes any of these names)."""
    return {"variants": _VARIANTS}
