"""Per-app runtime objects (database, tables, hubs) and FastAPI dependencies."""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

from fastapi import Depends, HTTPException, Request
from sqlalchemy.orm import Session

from server.api.auth import COOKIE_NAME, bearer_token, token_hash, watch_key, watch_key_ok
from server.api.hub import LobbyHub
from server.api.ratelimit import Limiter, WindowLimiter
from server.api.revocation import SocketRegistry
from server.db import accounts, games
from server.db.models import Player
from server.db.recorder import Recorder
from server.db.session import Database
from server.external.remote import RemoteHub
from server.settings import Settings
from server.tables.manager import TableManager

if TYPE_CHECKING:
    from server.cluster.node import Node

T = TypeVar("T")


@dataclass
class ServerContext:
    settings: Settings
    db: Database
    tables: TableManager
    recorder: Recorder
    hub: LobbyHub
    join_limiter: Limiter
    guest_limiter: Limiter
    lobby_limiter: Limiter
    rename_limiter: Limiter
    # Sign-in attempts (and password checks) per address and per username.
    login_limiter: Limiter = field(default_factory=lambda: WindowLimiter(10, 60.0))
    # Open WebSockets by the credential (token hash) they were opened with.
    credential_sockets: SocketRegistry = field(default_factory=SocketRegistry)
    # This process among many (JANTAKU_REDIS_URL), else None.
    node: Node | None = None
    # Remote bots connected on /ws/bot (api/remotebots.py).
    remote_bots: RemoteHub = field(default_factory=RemoteHub)
    # Log imports running now, per player.
    imports: dict[int, int] = field(default_factory=dict)
    # Analyses of finished games (immutable once over), newest last: api/analysis.py.
    analyses: dict[int, Any] = field(default_factory=dict)
    # One analysis computed at a time: a second of CPU each, beside the live tables.
    analysis_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # Open WebSockets per client address.
    sockets: dict[str, int] = field(default_factory=dict)
    # One lock per lobby: its changes and pushes happen in order, other lobbies run freely.
    lobby_locks: weakref.WeakValueDictionary[str, asyncio.Lock] = field(
        default_factory=weakref.WeakValueDictionary
    )

    def lobby_lock(self, code: str) -> asyncio.Lock:
        lock = self.lobby_locks.get(code)
        if lock is None:
            lock = self.lobby_locks[code] = asyncio.Lock()
        return lock

    async def run_db(self, fn: Callable[[Session], T]) -> T:
        """Run ``fn`` in a worker thread inside one committed transaction."""
        return await asyncio.to_thread(self.db.run, fn)


def api_error(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> Any:
    return HTTPException(status, {"code": code, "message": message}, headers=headers)


def get_ctx(request: Request) -> ServerContext:
    ctx: ServerContext = request.app.state.ctx
    return ctx


Ctx = Annotated[ServerContext, Depends(get_ctx)]


def request_token(request: Request) -> str | None:
    return bearer_token(request.headers.get("authorization")) or request.cookies.get(COOKIE_NAME)


async def lookup_credential(
    ctx: ServerContext, token: str | None
) -> tuple[accounts.Credential, str] | None:
    """The identity a token stands for and the token's hash (the credential's key)."""
    if not token or len(token) > 200:
        return None
    h = token_hash(ctx.settings.secret, token)
    found = await ctx.run_db(lambda s: accounts.by_token_hash(s, h))
    return (found, h) if found is not None else None


async def lookup_player(ctx: ServerContext, token: str | None) -> Player | None:
    found = await lookup_credential(ctx, token)
    return found[0].player if found is not None else None


async def current_player(request: Request, ctx: Ctx) -> Player:
    player = await lookup_player(ctx, request_token(request))
    if player is None:
        raise api_error(401, "auth_required", "sign in as a guest first (POST /api/guest)")
    return player


CurrentPlayer = Annotated[Player, Depends(current_player)]


async def optional_player(request: Request, ctx: Ctx) -> Player | None:
    return await lookup_player(ctx, request_token(request))


OptionalPlayer = Annotated[Player | None, Depends(optional_player)]


def client_address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


async def check_rate(
    limiter: Limiter, request: Request, too_many: str, player: Player | None = None
) -> None:
    """429 ``rate_limited`` (with Retry-After) once the client's address, or the player
    (when given), is over ``limiter``: a player cannot get round it by changing address,
    nor many guests by sharing one."""
    keys = [f"addr:{client_address(request)}"]
    if player is not None:
        keys.append(f"player:{player.id}")
    wait = await limiter.hit_keys(keys)
    if wait is not None:
        raise api_error(
            429,
            "rate_limited",
            f"too many {too_many}; try again shortly",
            headers={"Retry-After": str(int(wait) + 1)},
        )


async def may_watch(
    ctx: ServerContext, game_id: int, player: Player | None, key: str | None
) -> bool:
    """Whether a live game may be watched or looked up: with its spectate link's key,
    or by a player seated at it or in its lobby (issue 12: private games)."""
    if watch_key_ok(ctx.settings.secret, game_id, key):
        return True
    if player is None:
        return False
    pid = player.id
    return await ctx.run_db(lambda s: games.is_participant(s, game_id, pid))


def with_watch_path(ctx: ServerContext, lobby: dict[str, Any]) -> dict[str, Any]:
    """The lobby object as sent: a live game carries its spectate link (the lobby's code
    is itself a secret that lets anyone join, so its holders may watch)."""
    game = lobby.get("game")
    if game is not None and game.get("status") == "live":
        lobby["game"] = {
            **game,
            "watch_path": f"/#/game/{game['id']}/{watch_key(ctx.settings.secret, game['id'])}",
        }
    return lobby
