"""``GET /api/games/{id}/analysis``: a finished riichi game's analysis as JSON.

The analysis itself is ``server.analysis`` (pure, no JSON); this module finds the
game, applies the same visibility as ``GET /api/games/{id}``, runs the analysis in
a worker thread once per game (a finished game never changes: a few are cached)
and writes the JSON documented in docs/analysis.md.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Query

from server.analysis import (
    Candidate,
    Decision,
    GameAnalysis,
    KeyMoment,
    SeatSummary,
    analyse,
    imported_moments,
    played_moments,
)
from server.analysis.danger import band
from server.analysis.decisions import same_choice
from server.api.context import Ctx, OptionalPlayer, api_error, may_watch
from server.api.schemas import GameId
from server.db import imported as queries
from server.engine import resolve_rules
from server.engine.tiles import tile_str
from server.records.exports import ExportSource
from server.records.model import RecordError
from server.wire.actions import action_json, parse_action

router = APIRouter(prefix="/api", tags=["history"])

ANALYSED_VARIANTS = ("riichi", "sanma")
CACHED_GAMES = 8
_TIMER = ("think_seconds", "bank_seconds")


def run_analysis(src: ExportSource) -> GameAnalysis:
    """Replay a stored finished game and analyse every seat (RecordError if it cannot)."""
    spec = {k: v for k, v in (src.rules or {}).items() if k not in _TIMER}
    try:
        variant, rules = resolve_rules(spec)
    except ValueError as exc:
        raise RecordError(f"rules: {exc}") from None
    if src.seed:
        actions = [parse_action(a, seats=variant.seats) for a in src.actions or ()]
        seed = bytes.fromhex(src.seed)
        replayed = played_moments(variant, rules, seed, actions, src.first_dealer)
    else:
        replayed = imported_moments(src.events, rules)
    return analyse(replayed)


def _kinds(items: tuple[tuple[int, int], ...]) -> list[dict[str, Any]]:
    return [{"tile": tile_str(k), "left": n} for k, n in items]


def _candidate(c: Candidate) -> dict[str, Any]:
    level = c.level
    return {
        "tile": tile_str(c.tile),
        "shanten": c.shanten,
        "ukeire": _kinds(c.ukeire),
        "total": c.total,
        "danger": None
        if level is None
        else {
            "level": level,
            "band": band(level),
            "threats": [
                {
                    "seat": d.threat,
                    "level": d.level,
                    "reasons": [{"key": k, "n": n} for k, n in d.reasons],
                }
                for d in c.danger
            ],
        },
    }


def _decision(d: Decision) -> dict[str, Any]:
    return {
        "hand": d.hand,
        "event": d.event,
        "turn": d.turn,
        "junme": d.junme,
        "shanten": d.shanten,
        "actual": action_json(d.actual),
        "efficient": action_json(d.efficient),
        "defensive": action_json(d.defensive),
        "agree_efficient": same_choice(d.actual, d.efficient),
        "agree_defensive": same_choice(d.actual, d.defensive),
        "threats": list(d.threats),
        "candidates": [_candidate(c) for c in d.candidates],
        "after_shanten": d.after_shanten,
        "waits": _kinds(d.waits),
        "furiten": d.furiten,
    }


def _moment(k: KeyMoment) -> dict[str, Any]:
    return {
        "hand": k.hand,
        "event": k.event,
        "kind": k.kind,
        "tile": tile_str(k.tile) if k.tile is not None else None,
        "loss": k.loss,
        "level": k.level,
        "band": band(k.level) if k.level is not None else None,
        "threats": list(k.threats),
    }


def _summary(s: SeatSummary) -> dict[str, Any]:
    return {
        "seat": s.seat,
        "discards": s.discards,
        "agree_efficient": s.agree_efficient,
        "agree_defensive": s.agree_defensive,
        "deal_ins": [_moment(k) for k in s.deal_ins],
        "riichi": [{"hand": h, "event": e, "junme": j, "left": n} for h, e, j, n in s.riichi],
        "key_moments": [_moment(k) for k in s.key_moments],
    }


def analysis_json(game_id: int, a: GameAnalysis, seat: int | None) -> dict[str, Any]:
    return {
        "game": game_id,
        "seats": a.seats,
        "hands": a.hands,
        "seat": seat,
        "decisions": [_decision(d) for d in a.decisions[seat]] if seat is not None else [],
        "summary": [_summary(s) for s in a.summaries],
    }


@router.get("/games/{game_id}/analysis")
async def game_analysis(
    game_id: GameId,
    ctx: Ctx,
    viewer: OptionalPlayer,
    seat: Annotated[
        int | None, Query(ge=0, le=3, description="the seat whose decisions to list")
    ] = None,
) -> dict[str, Any]:
    """Every decision of ``seat`` in a finished riichi game (4 or 3 players) and every
    player's summary. A live game is refused; Nanchang games have no analysis."""
    src = await ctx.run_db(lambda s: queries.export_source(s, game_id))
    if src is None or (src.status == "live" and not await may_watch(ctx, game_id, viewer, None)):
        raise api_error(404, "not_found", f"no game {game_id}")
    if src.status == "live":
        raise api_error(409, "game_live", "a game is analysed once it is over")
    if src.variant not in ANALYSED_VARIANTS:
        raise api_error(
            422, "not_analysable", "analysis is for riichi games (four or three players) only"
        )
    cached = ctx.analyses.pop(game_id, None)
    if cached is None:
        # One at a time (each is about a second of CPU on a 2-core server): requests
        # for the same game wait for the first and find its result cached.
        async with ctx.analysis_lock:
            cached = ctx.analyses.pop(game_id, None)
            if cached is None:
                try:
                    cached = await asyncio.to_thread(run_analysis, src)
                except RecordError as exc:
                    raise api_error(422, "not_analysable", str(exc)) from None
    ctx.analyses[game_id] = cached  # newest last
    while len(ctx.analyses) > CACHED_GAMES:
        del ctx.analyses[next(iter(ctx.analyses))]
    if seat is not None and seat >= cached.seats:
        raise api_error(422, "bad_seat", f"seat must be 0..{cached.seats - 1}")
    return analysis_json(game_id, cached, seat)
