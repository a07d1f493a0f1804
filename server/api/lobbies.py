"""Lobby routes: create, join by code, seats, bots, ready, start. Changes are pushed live."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Request
from sqlalchemy.orm import Session

from server.api.context import (
    Ctx,
    CurrentPlayer,
    ServerContext,
    api_error,
    check_rate,
    with_watch_path,
)
from server.api.schemas import (
    BotBody,
    JoinBody,
    LobbyCode,
    LobbyCreate,
    LobbyUpdate,
    ReadyBody,
    RematchBody,
    SeatBody,
    SlotPath,
)
from server.db import games, lobbies
from server.db.lobbies import LobbyError
from server.db.models import Lobby, Player
from server.external.names import parse_registry
from server.tables.options import TIMER_KEYS, game_setup, stored_rules
from server.tables.table import SeatSpec

router = APIRouter(prefix="/api/lobbies", tags=["lobbies"])
me_router = APIRouter(prefix="/api/me", tags=["lobbies"])
log = logging.getLogger(__name__)

STATUS = {
    "not_found": 404,
    "not_host": 403,
    "not_member": 403,
    "lobby_full": 409,
    "slot_taken": 409,
    "already_member": 409,
    "not_open": 409,
    "not_ready": 409,
    "seat_occupied": 409,
    "bad_input": 422,
    "bad_rules": 422,
}


# A private lobby's thinking time unless its rules say otherwise: friends chat and
# think; the presets' rooms (5 + 10 or 5 + 20) are for strangers.
LOBBY_TIMER = {"think_seconds": 10, "bank_seconds": 60}


def lobby_rules(spec: str | dict[str, Any]) -> str | dict[str, Any]:
    """A new lobby's rules spec with the lobby's thinking time when it names none."""
    if isinstance(spec, str):
        return {"preset": spec, **LOBBY_TIMER}
    if any(k in spec for k in TIMER_KEYS):
        return spec
    return {**spec, **LOBBY_TIMER}


def validated_rules(spec: str | dict[str, Any]) -> dict[str, Any]:
    """The full rules object (variant, options, thinking time) of a preset name or
    ``{"preset": ..., overrides}``.

    What is stored must give back the same rules when the game starts (and again
    when a restarted server rebuilds it): a ``name`` override, say, would name a
    preset that does not exist."""
    try:
        rules = stored_rules(*game_setup(spec))
        if stored_rules(*game_setup(rules)) != rules:
            raise ValueError("these rules do not survive being stored (the name is the preset's)")
        return rules
    except (TypeError, ValueError) as exc:
        raise api_error(422, "bad_rules", str(exc)) from None


async def _limit(ctx: ServerContext, request: Request, player: Player | None = None) -> None:
    await check_rate(ctx.join_limiter, request, "lobby look-ups", player)


async def _change(
    ctx: ServerContext,
    code: str,
    fn: Callable[[Session, Lobby], Any],
) -> dict[str, Any]:
    """Apply ``fn`` to the lobby in one transaction, then push the new state to listeners."""

    def work(s: Session) -> tuple[dict[str, Any], Any]:
        lobby = lobbies.get_lobby(s, code)
        extra = fn(s, lobby)
        if isinstance(extra, lobbies.StartedGame):
            # In the transaction: rules that cannot start a game leave the lobby open.
            try:
                game_setup(extra.rules)
            except (TypeError, ValueError) as exc:
                raise LobbyError("bad_rules", f"the lobby's rules cannot start: {exc}") from None
        s.flush()
        s.expire_all()
        return lobbies.lobby_json(s, lobbies.get_lobby(s, code)), extra

    async with ctx.lobby_lock(code):
        try:
            data, extra = await ctx.run_db(work)
        except LobbyError as exc:
            raise api_error(STATUS.get(exc.code, 400), exc.code, str(exc)) from None
        if isinstance(extra, lobbies.StartedGame):
            await _start_table(ctx, extra)
        data = with_watch_path(ctx, data)
        # Published under the lock so that listeners see changes in order.
        await ctx.hub.publish(code, data, lobby_loader(ctx, code, data))
    return data


def lobby_loader(
    ctx: ServerContext, code: str, fallback: dict[str, Any]
) -> Callable[[], Awaitable[dict[str, Any]]]:
    """Reads the lobby as pushed (``fallback`` once it is gone: a closed lobby)."""

    def read(s: Session) -> dict[str, Any]:
        return lobbies.lobby_json(s, lobbies.get_lobby(s, code))

    async def load() -> dict[str, Any]:
        try:
            return with_watch_path(ctx, await ctx.run_db(read))
        except lobbies.LobbyError:
            return fallback

    return load


async def _start_table(ctx: ServerContext, g: lobbies.StartedGame) -> None:
    """Open the table of a game just created; if that fails, the game is aborted and the
    lobby reopened, as if start had not been pressed (all or nothing)."""
    try:
        variant, rules, options = game_setup(g.rules)

        def start() -> None:
            ctx.tables.start_table(
                g.game_id,
                variant,
                rules,
                options,
                g.seed,
                g.first_dealer,
                [SeatSpec(name, pid, bot) for name, pid, bot in g.seats],
            )

        if ctx.node is None:
            start()
        else:
            # Under its lease; if another process took the new game first (its sweep
            # saw it live), that one plays it: nothing to do here.
            await ctx.node.claim(g.game_id, start)
    except Exception:
        log.exception("game %d: the table could not be started", g.game_id)
        await ctx.run_db(lambda s: games.abort_game(s, g.game_id))
        raise api_error(
            409, "start_failed", "the game could not be started; the lobby is open again"
        ) from None


@router.post("")
async def create_lobby(
    body: LobbyCreate, request: Request, player: CurrentPlayer, ctx: Ctx
) -> dict[str, Any]:
    """Create a private lobby; the host takes slot 0."""
    await check_rate(ctx.lobby_limiter, request, "new lobbies", player)
    rules = validated_rules(lobby_rules(body.rules))

    def work(s: Session) -> dict[str, Any]:
        host = s.get(Player, player.id)
        assert host is not None
        return lobbies.lobby_json(s, lobbies.create_lobby(s, host, rules, body.seat_mode))

    return await ctx.run_db(work)


@router.get("/{code}")
async def get_lobby(code: LobbyCode, request: Request, ctx: Ctx) -> dict[str, Any]:
    await _limit(ctx, request)

    def work(s: Session) -> dict[str, Any]:
        return lobbies.lobby_json(s, lobbies.get_lobby(s, code))

    try:
        return with_watch_path(ctx, await ctx.run_db(work))
    except LobbyError as exc:
        raise api_error(404, exc.code, str(exc)) from None


@router.patch("/{code}")
async def update_lobby(
    code: LobbyCode, body: LobbyUpdate, player: CurrentPlayer, ctx: Ctx
) -> dict[str, Any]:
    rules = validated_rules(body.rules) if body.rules is not None else None
    return await _change(
        ctx, code, lambda s, lobby: lobbies.update(s, lobby, player, rules, body.seat_mode)
    )


@router.post("/{code}/join")
async def join_lobby(
    code: LobbyCode, body: JoinBody, request: Request, player: CurrentPlayer, ctx: Ctx
) -> dict[str, Any]:
    await _limit(ctx, request, player)
    return await _change(ctx, code, lambda s, lobby: lobbies.join(s, lobby, player, body.slot))


@router.post("/{code}/leave")
async def leave_lobby(code: LobbyCode, player: CurrentPlayer, ctx: Ctx) -> dict[str, Any]:
    return await _change(ctx, code, lambda s, lobby: lobbies.leave(s, lobby, player))


@router.post("/{code}/seat")
async def move_seat(
    code: LobbyCode, body: SeatBody, player: CurrentPlayer, ctx: Ctx
) -> dict[str, Any]:
    return await _change(ctx, code, lambda s, lobby: lobbies.move(s, lobby, player, body.slot))


@router.post("/{code}/bots")
async def add_bot(
    code: LobbyCode, body: BotBody, player: CurrentPlayer, ctx: Ctx
) -> dict[str, Any]:
    # the operator's external bots and the remote bots connected now (to any process)
    external = [*parse_registry(ctx.settings.mjai_bots), *await ctx.remote_bots.all_levels()]
    return await _change(
        ctx,
        code,
        lambda s, lobby: lobbies.add_bot(s, lobby, player, body.level, body.slot, external),
    )


@router.delete("/{code}/bots/{slot}")
async def remove_bot(
    code: LobbyCode, slot: SlotPath, player: CurrentPlayer, ctx: Ctx
) -> dict[str, Any]:
    return await _change(ctx, code, lambda s, lobby: lobbies.remove_bot(s, lobby, player, slot))


@router.post("/{code}/ready")
async def set_ready(
    code: LobbyCode, body: ReadyBody, player: CurrentPlayer, ctx: Ctx
) -> dict[str, Any]:
    return await _change(
        ctx, code, lambda s, lobby: lobbies.set_ready(s, lobby, player, body.ready)
    )


@router.post("/{code}/start")
async def start_game(code: LobbyCode, player: CurrentPlayer, ctx: Ctx) -> dict[str, Any]:
    """Seat everyone, roll for the first dealer and open the table."""
    return await _change(ctx, code, lambda s, lobby: lobbies.start(s, lobby, player))


@router.post("/{code}/rematch")
async def rematch(
    code: LobbyCode, body: RematchBody, player: CurrentPlayer, ctx: Ctx
) -> dict[str, Any]:
    """Ask for another game after ``game_id`` (the final screen's "Rematch"): it starts,
    same rules and seats, once every human still in the lobby has asked."""
    return await _change(
        ctx, code, lambda s, lobby: lobbies.rematch(s, lobby, player, body.game_id)
    )


@me_router.get("/lobbies")
async def my_lobbies(player: CurrentPlayer, ctx: Ctx) -> dict[str, Any]:
    """The open and playing lobbies you sit in (playing first, then newest; at most 20),
    each a Lobby object: the home page's "Return to your game" and open lobbies."""
    pid = player.id
    rows = await ctx.run_db(lambda s: lobbies.my_lobbies(s, pid))
    return {"lobbies": [with_watch_path(ctx, lobby) for lobby in rows]}
