"""Guest identity routes."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from sqlalchemy.orm import Session

from server.api.auth import COOKIE_NAME, new_token, token_hash
from server.api.context import Ctx, CurrentPlayer, check_rate, lookup_credential, request_token
from server.api.schemas import GuestCreate, GuestCreated, PlayerPublic
from server.db import accounts, lobbies
from server.db.models import Player

router = APIRouter(prefix="/api", tags=["players"])

COOKIE_MAX_AGE = 365 * 24 * 3600


@router.post("/guest", response_model=GuestCreated)
async def create_guest(
    body: GuestCreate, request: Request, response: Response, ctx: Ctx
) -> GuestCreated:
    """Create a guest identity; the token comes back in the body and as an HttpOnly cookie."""
    await check_rate(ctx.guest_limiter, request, "new guests from this address")
    token = new_token()
    h = token_hash(ctx.settings.secret, token)
    player = await ctx.run_db(lambda s: lobbies.create_player(s, body.name, h))
    response.set_cookie(
        COOKIE_NAME,
        token,
        max_age=COOKIE_MAX_AGE,
        httponly=True,
        samesite="lax",
        secure=ctx.settings.secure_cookies,
    )
    return GuestCreated(player=PlayerPublic(id=player.id, name=player.name), token=token)


@router.get("/me", response_model=PlayerPublic)
async def me(player: CurrentPlayer) -> PlayerPublic:
    return PlayerPublic(id=player.id, name=player.name)


@router.patch("/me", response_model=PlayerPublic)
async def rename(
    body: GuestCreate, request: Request, player: CurrentPlayer, ctx: Ctx
) -> PlayerPublic:
    await check_rate(ctx.rename_limiter, request, "renames", player)

    def _rename(s: Session) -> None:
        p = s.get(Player, player.id)
        assert p is not None
        p.name = body.name

    await ctx.run_db(_rename)
    return PlayerPublic(id=player.id, name=body.name)


@router.post("/logout", status_code=204)
async def logout(request: Request, response: Response, ctx: Ctx) -> None:
    """Sign out here: this token stops working at once and the sockets opened with it
    are closed; the cookie is cleared. An account's other devices stay signed in; a
    guest has no other credential, so a guest's logout is for good."""
    found = await lookup_credential(ctx, request_token(request))
    if found is not None:
        cred, h = found
        pid, session_id = cred.player.id, cred.session_id
        # A guest's stored hash now belongs to a token nobody holds.
        dead = token_hash(ctx.settings.secret, new_token())

        def revoke(s: Session) -> None:
            if session_id is not None:
                accounts.revoke(s, pid, [session_id])
                return
            p = s.get(Player, pid)
            if p is not None:
                p.token_hash = dead

        await ctx.run_db(revoke)
        ctx.credential_sockets.close([h])
    response.delete_cookie(COOKIE_NAME)
