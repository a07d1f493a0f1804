"""Remote bots: an account makes a bot and its token (``/api/bots/remote``); the bot
connects on ``/ws/bot`` with the token and plays mjai at the seats of its level
``remote-<name>`` (``server/external/remote.py``).

The token is shown once, when the bot is made; only its HMAC is kept. Revoking
the bot deletes it and closes its sockets (close code 4401).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Path, WebSocket, WebSocketDisconnect
from pydantic import Field
from sqlalchemy.orm import Session

from server.api.auth import bearer_token, new_token, token_hash
from server.api.context import Ctx, CurrentPlayer, ServerContext, api_error
from server.api.schemas import Strict
from server.api.ws import socket_slot
from server.db import remotebots
from server.db.remotebots import RemoteBotError
from server.external.channel import FORMS
from server.external.remote import RemoteLink

router = APIRouter(prefix="/api/bots/remote", tags=["bots"])
ws_router = APIRouter(tags=["websocket"])

BOT_NAME = r"^[a-z0-9][a-z0-9_-]{0,15}$"
BotName = Annotated[str, Field(pattern=BOT_NAME)]
# A bot's messages are single mjai actions: anything longer is not one.
MAX_BOT_MESSAGE = 16 * 1024


class RemoteBotBody(Strict):
    name: BotName


def _account(player: Any) -> int:
    if player.username is None:
        raise api_error(403, "account_required", "claim an account first to make a bot")
    pid: int = player.id
    return pid


@router.post("")
async def create_bot(body: RemoteBotBody, player: CurrentPlayer, ctx: Ctx) -> dict[str, Any]:
    """A new bot of this account: its token, shown this once."""
    pid = _account(player)
    token = "jtb_" + new_token()
    h = token_hash(ctx.settings.secret, token)

    def work(s: Session) -> dict[str, Any]:
        return remotebots.bot_json(remotebots.create(s, pid, body.name, h), 0)

    try:
        out = await ctx.run_db(work)
    except RemoteBotError as exc:
        raise api_error(409, exc.code, str(exc)) from None
    return {**out, "token": token}


@router.get("")
async def list_bots(player: CurrentPlayer, ctx: Ctx) -> dict[str, Any]:
    """This account's bots, with how many sockets each has open now (on any process)."""
    pid = _account(player)
    rows = await ctx.run_db(lambda s: remotebots.owned(s, pid))
    counts = await ctx.remote_bots.all_counts()
    return {"bots": [remotebots.bot_json(r, counts.get(r.name, 0)) for r in rows]}


@router.delete("/{name}", status_code=204)
async def revoke_bot(
    name: Annotated[str, Path(pattern=BOT_NAME)], player: CurrentPlayer, ctx: Ctx
) -> None:
    """Delete a bot: its token stops working and its sockets are closed."""
    pid = _account(player)
    if not await ctx.run_db(lambda s: remotebots.revoke(s, pid, name)):
        raise api_error(404, "not_found", f"you have no bot {name!r}")
    ctx.remote_bots.kick(name=name)


async def _refuse(ws: WebSocket, code: int, error: str, message: str) -> None:
    with contextlib.suppress(Exception):
        await ws.send_text(
            orjson.dumps({"type": "error", "code": error, "message": message}).decode()
        )
        await ws.close(code, message)


async def _first_message_token(ctx: ServerContext, ws: WebSocket) -> str | None:
    """The token of ``{"type": "auth", "token": ...}``, the socket's first message."""
    try:
        async with asyncio.timeout(ctx.settings.hello_timeout_seconds):
            raw = await ws.receive_text()
    except (TimeoutError, WebSocketDisconnect, KeyError, RuntimeError):
        return None
    try:
        msg = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    if isinstance(msg, dict) and msg.get("type") == "auth" and isinstance(msg.get("token"), str):
        token: str = msg["token"]
        return token
    return None


@ws_router.websocket("/ws/bot")
async def bot_socket(ws: WebSocket) -> None:
    ctx: ServerContext = ws.app.state.ctx
    with socket_slot(ctx, ws) as admitted:
        if not admitted:
            await ws.close(4429)  # refused at the handshake
            return
        await ws.accept()
        await _bot_socket(ctx, ws)


async def _bot_socket(ctx: ServerContext, ws: WebSocket) -> None:
    form = ws.query_params.get("form", "array")
    if form not in FORMS:
        await _refuse(ws, 4400, "bad_input", f"form must be one of {', '.join(FORMS)}")
        return
    token = bearer_token(ws.headers.get("authorization"))
    if token is None:
        token = await _first_message_token(ctx, ws)
    found = None
    if token is not None and len(token) <= 200:
        h = token_hash(ctx.settings.secret, token)
        found = await ctx.run_db(lambda s: remotebots.by_token_hash(s, h))
    if found is None:
        await _refuse(ws, 4401, "auth_failed", "unknown or revoked bot token")
        return
    name, owner = found
    closing: set[asyncio.Task[None]] = set()

    def close(code: int) -> None:
        task = asyncio.get_running_loop().create_task(ws.close(code))
        closing.add(task)
        task.add_done_callback(closing.discard)

    link = RemoteLink(name, owner, form, ws.send_text, close)
    ctx.remote_bots.add(link)
    try:
        while not link.closed:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                break
            text = msg.get("text")
            if text is None and msg.get("bytes") is not None:
                text = msg["bytes"].decode("utf-8", "replace")
            if text is None:
                continue
            if len(text) > MAX_BOT_MESSAGE or not link.received(text):
                link.close(1008)  # not an mjai action, or a flood
                break
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        ctx.remote_bots.remove(link)
        if closing:
            await asyncio.gather(*closing, return_exceptions=True)
