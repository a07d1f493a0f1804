"""Accounts: claim a guest identity, sign in elsewhere, sessions, password, deletion.

Passwords travel only in request bodies, are checked against Argon2 hashes in a
worker thread, and are never logged nor echoed (a refused body is described
without its input, ``edge.install_error_handlers``). Sign-in attempts are
limited per address and per username (``login_rate_per_minute``).
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request, Response
from pydantic import Field
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from server.api.auth import COOKIE_NAME, new_token, token_hash
from server.api.context import (
    Ctx,
    ServerContext,
    api_error,
    client_address,
    lookup_credential,
    request_token,
)
from server.api.passwords import hash_password, verify_password
from server.api.players import COOKIE_MAX_AGE
from server.api.schemas import MAX_ID, Strict
from server.db import accounts
from server.db.accounts import AccountError, Credential

router = APIRouter(prefix="/api/account", tags=["accounts"])

USERNAME = r"^[A-Za-z0-9_.-]{3,24}$"
Username = Annotated[str, Field(pattern=USERNAME)]
# Long enough to mean something, short enough that hashing it is cheap.
Password = Annotated[str, Field(min_length=8, max_length=128)]


class ClaimBody(Strict):
    username: Username
    password: Password


class LoginBody(Strict):
    username: Annotated[str, Field(max_length=64)]
    password: Annotated[str, Field(max_length=128)]


class PasswordBody(Strict):
    current_password: Annotated[str, Field(max_length=128)]
    new_password: Password


class DeleteBody(Strict):
    password: Annotated[str, Field(max_length=128)]


SessionId = Annotated[int, Path(ge=1, le=MAX_ID)]


def account_json(p: Any) -> dict[str, Any]:
    return {"id": p.id, "name": p.name, "username": p.username}


async def _credential(request: Request, ctx: ServerContext) -> tuple[Credential, str]:
    found = await lookup_credential(ctx, request_token(request))
    if found is None:
        raise api_error(401, "auth_required", "sign in first")
    return found


async def _limit_login(ctx: ServerContext, request: Request, username: str) -> None:
    keys = [f"addr:{client_address(request)}", f"user:{username.lower()[:64]}"]
    wait = await ctx.login_limiter.hit_keys(keys)
    if wait is not None:
        raise api_error(
            429,
            "rate_limited",
            "too many sign-in attempts; try again shortly",
            headers={"Retry-After": str(int(wait) + 1)},
        )


async def _check_password(
    ctx: ServerContext, request: Request, cred: Credential, password: str
) -> None:
    """403 unless ``password`` is the account's (limited like a sign-in)."""
    if cred.player.username is None:
        raise api_error(409, "not_claimed", "a guest has no password: claim the identity first")
    await _limit_login(ctx, request, cred.player.username)
    ok = await asyncio.to_thread(verify_password, cred.player.password_hash, password)
    if not ok:
        raise api_error(403, "wrong_password", "the password is not right")


def _set_cookie(ctx: ServerContext, response: Response, token: str) -> None:
    response.set_cookie(
        COOKIE_NAME,
        token,
        max_age=COOKIE_MAX_AGE,
        httponly=True,
        samesite="lax",
        secure=ctx.settings.secure_cookies,
    )


def _refused(exc: AccountError) -> Any:
    status = {"not_found": 404, "game_live": 409}.get(exc.code, 409)
    return api_error(status, exc.code, str(exc))


@router.get("")
async def get_account(request: Request, ctx: Ctx) -> dict[str, Any]:
    """Who this token is: ``username`` is null for a guest."""
    cred, _ = await _credential(request, ctx)
    return account_json(cred.player)


@router.post("/claim")
async def claim(body: ClaimBody, request: Request, ctx: Ctx) -> dict[str, Any]:
    """Give the current guest a username and password; its games stay its own and
    this device stays signed in."""
    cred, h = await _credential(request, ctx)
    if cred.player.username is not None:
        raise api_error(409, "already_claimed", "this identity already has an account")
    await _limit_login(ctx, request, body.username)
    encoded = await asyncio.to_thread(hash_password, body.password)
    dead = token_hash(ctx.settings.secret, new_token())
    agent = request.headers.get("user-agent", "")
    pid = cred.player.id

    def work(s: Session) -> dict[str, Any]:
        return account_json(accounts.claim(s, pid, body.username, encoded, h, dead, agent))

    try:
        return await ctx.run_db(work)
    except AccountError as exc:
        raise _refused(exc) from None
    except IntegrityError:  # two claims of one name at once: the unique index decides
        raise api_error(409, "username_taken", "that username is taken") from None


@router.post("/login")
async def login(body: LoginBody, request: Request, response: Response, ctx: Ctx) -> dict[str, Any]:
    """Sign in on this device: a new session, its token in the body and the cookie."""
    await _limit_login(ctx, request, body.username)
    player = await ctx.run_db(lambda s: accounts.by_username(s, body.username))
    encoded = player.password_hash if player is not None else None
    ok = await asyncio.to_thread(verify_password, encoded, body.password)
    if player is None or not ok:
        raise api_error(401, "bad_credentials", "wrong username or password")
    token = new_token()
    h = token_hash(ctx.settings.secret, token)
    agent = request.headers.get("user-agent", "")
    pid = player.id
    await ctx.run_db(lambda s: accounts.add_session(s, pid, h, agent))
    _set_cookie(ctx, response, token)
    return {"player": account_json(player), "token": token}


@router.get("/sessions")
async def list_sessions(request: Request, ctx: Ctx) -> dict[str, Any]:
    """The account's signed-in devices (``current``: this one)."""
    cred, _ = await _credential(request, ctx)
    pid, current = cred.player.id, cred.session_id

    def work(s: Session) -> list[dict[str, Any]]:
        return [accounts.session_json(r, current) for r in accounts.sessions(s, pid)]

    return {"sessions": await ctx.run_db(work)}


@router.delete("/sessions/{session_id}", status_code=204)
async def revoke_session(session_id: SessionId, request: Request, ctx: Ctx) -> None:
    """Sign a device out: its token stops working and its open sockets are closed."""
    cred, _ = await _credential(request, ctx)
    pid = cred.player.id
    hashes = await ctx.run_db(lambda s: accounts.revoke(s, pid, [session_id]))
    if not hashes:
        raise api_error(404, "not_found", f"no session {session_id}")
    ctx.credential_sockets.close(hashes)


@router.post("/password", status_code=204)
async def change_password(body: PasswordBody, request: Request, ctx: Ctx) -> None:
    """A new password; every other session of the account is signed out."""
    cred, _ = await _credential(request, ctx)
    await _check_password(ctx, request, cred, body.current_password)
    encoded = await asyncio.to_thread(hash_password, body.new_password)
    pid, current = cred.player.id, cred.session_id

    def work(s: Session) -> list[str]:
        accounts.set_password(s, pid, encoded)
        others = [r.id for r in accounts.sessions(s, pid) if r.id != current]
        return accounts.revoke(s, pid, others)

    ctx.credential_sockets.close(await ctx.run_db(work))


@router.post("/delete", status_code=204)
async def delete_account(body: DeleteBody, request: Request, response: Response, ctx: Ctx) -> None:
    """Delete the account: its games stay, anonymised; it can no longer sign in."""
    cred, _ = await _credential(request, ctx)
    await _check_password(ctx, request, cred, body.password)
    dead = token_hash(ctx.settings.secret, new_token())
    pid = cred.player.id
    try:
        hashes = await ctx.run_db(lambda s: accounts.delete_account(s, pid, dead))
    except AccountError as exc:
        raise _refused(exc) from None
    ctx.credential_sockets.close(hashes)
    ctx.remote_bots.kick(owner=pid)  # its bots went with it
    response.delete_cookie(COOKIE_NAME)
