"""Game records over HTTP: export (tenhou.net/6, mjai), import of Tenhou logs, lobby history.

The game list and one game's detail (hands and full record) are ``games.py``'s
``GET /api/games`` and ``GET /api/games/{id}``; this module adds what the
history page and the replay viewer need beyond them.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request, Response
from sqlalchemy.orm import Session

from server.api.context import (
    Ctx,
    CurrentPlayer,
    OptionalPlayer,
    api_error,
    check_rate,
    may_watch,
)
from server.api.schemas import MAX_ID, GameId, Limit, LobbyCode, Offset
from server.db import imported as queries
from server.records.exports import Rendered, render
from server.records.importer import import_log
from server.records.model import RecordError

router = APIRouter(prefix="/api", tags=["history"])

# A hanchan mjlog is ~30 kB and its tenhou.net/6 JSON ~60 kB; anything far larger is not a log.
MAX_UPLOAD_BYTES = 2 * 1024 * 1024

ExportFormat = Literal["tenhou6", "mjai", "jantaku"]


@router.get("/games/{game_id}/export")
async def export_game(
    game_id: GameId,
    ctx: Ctx,
    viewer: OptionalPlayer,
    format: Annotated[
        ExportFormat,
        Query(description="tenhou6 (JSON), mjai (JSON lines) or jantaku (our own record)"),
    ],
) -> Response:
    """Download a finished game as tenhou.net/6 JSON or mjai JSON lines."""
    src = await ctx.run_db(lambda s: queries.export_source(s, game_id))
    if src is None or (src.status == "live" and not await may_watch(ctx, game_id, viewer, None)):
        raise api_error(404, "not_found", f"no game {game_id}")
    if src.status == "live":
        raise api_error(409, "game_live", "the record is published once the game is over")

    def build() -> Rendered:
        return render(format, game_id, src)

    try:
        out = await asyncio.to_thread(build)
    except RecordError as exc:
        raise api_error(422, "not_exportable", str(exc)) from None
    return Response(
        out.text.encode("utf-8"),
        media_type=f"{out.media_type}; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{out.filename}"'},
    )


@router.post("/games/import")
async def import_game(
    request: Request,
    ctx: Ctx,
    player: CurrentPlayer,
    filename: Annotated[str, Query(max_length=200)] = "upload",
) -> dict[str, Any]:
    """Import a Tenhou mjlog XML (plain or gzip) or tenhou.net/6 JSON file sent as the body.

    The log is replayed through the engine first; a file that is not a valid
    log, or whose results the engine does not reproduce, gets 422 naming why.
    """
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > MAX_UPLOAD_BYTES:
        raise api_error(413, "too_large", f"a log file is at most {MAX_UPLOAD_BYTES} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_UPLOAD_BYTES:
            raise api_error(413, "too_large", f"a log file is at most {MAX_UPLOAD_BYTES} bytes")
    if not body.strip():
        raise api_error(400, "empty", "send the log file as the request body")
    name = filename.strip() or "upload"
    # Each import replays a whole game in a worker thread: a few at a time per player.
    running = ctx.imports.get(player.id, 0)
    if running >= ctx.settings.imports_per_player:
        raise api_error(
            429, "busy", "an import of yours is still running", headers={"Retry-After": "1"}
        )
    ctx.imports[player.id] = running + 1
    try:
        game = await asyncio.to_thread(import_log, bytes(body), name)
    except RecordError as exc:
        raise api_error(422, "invalid_log", str(exc)) from None
    finally:
        left = ctx.imports[player.id] - 1
        if left:
            ctx.imports[player.id] = left
        else:
            del ctx.imports[player.id]

    def store(s: Session) -> tuple[int, str | None]:
        known = queries.find_import(s, game.digest)
        if known is not None:
            return known, f"this game was already imported as game {known}"
        original = queries.find_original(s, game)
        if original is not None:
            return original, f"this is an export of game {original}, which is here already"
        return queries.store_imported(s, game, player.id), None

    game_id, duplicate = await ctx.run_db(store)
    if duplicate is not None:
        raise api_error(409, "duplicate", duplicate)
    return {
        "id": game_id,
        "format": game.format,
        "players": list(game.players),
        "rounds": len(game.results),
        "incomplete_rounds": game.incomplete_rounds,
        "final": game.final,
        "log_id": game.log_id,
        "played_at": game.played_at.isoformat() if game.played_at else None,
    }


@router.get("/lobbies/{code}/games")
async def lobby_games(
    code: LobbyCode,
    request: Request,
    ctx: Ctx,
    limit: Limit = 20,
    offset: Offset = 0,
) -> dict[str, Any]:
    """Finished games played in one lobby, newest first."""
    # A code look-up like any other (it tells whether a code exists).
    await check_rate(ctx.join_limiter, request, "lobby look-ups")
    got = await ctx.run_db(lambda s: queries.lobby_games(s, code, limit, offset))
    if got is None:
        raise api_error(404, "not_found", f"no lobby {code}")
    rows, total = got
    return {"games": rows, "total": total}


@router.get("/history/imports")
async def imports_of(
    ctx: Ctx,
    ids: Annotated[str, Query(max_length=2000, pattern=r"^[0-9]{1,10}(,[0-9]{1,10})*$")],
) -> dict[str, Any]:
    """Which of the given game ids were imported, and from what (for the history list)."""
    wanted = [n for n in (int(x) for x in ids.split(",")[:100]) if n <= MAX_ID]
    info = await ctx.run_db(lambda s: queries.import_info(s, wanted))
    return {"imports": {str(k): v for k, v in info.items()}}
