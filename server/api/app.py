"""The FastAPI application: HTTP routes, WebSocket gateway, static web client."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from sqlalchemy import select
from sqlalchemy.orm import Session

from server.api import (
    accounts,
    analysis,
    bots,
    games,
    health,
    history,
    lobbies,
    memory,
    players,
    remotebots,
    score,
    stats,
    variants,
    ws,
)
from server.api.context import ServerContext, with_watch_path
from server.api.edge import (
    BodyLimit,
    CookieOrigin,
    SafeJSONResponse,
    SecurityHeaders,
    install_error_handlers,
)
from server.api.hub import LobbyHub, RedisVersions
from server.api.lobbies import lobby_loader
from server.api.metrics import Metrics, MetricsMiddleware, attach
from server.api.ratelimit import WindowLimiter
from server.api.rootpath import RootPath
from server.cluster.fanout import ClusterFanout
from server.cluster.node import FencedSink, Node
from server.cluster.ratelimit import RedisWindowLimiter
from server.db import games as game_queries
from server.db import lobbies as lobby_queries
from server.db.models import Lobby
from server.db.recorder import Recorder
from server.db.session import Database
from server.external.registry import parse_registry, table_bot_factory
from server.external.remote import RemoteHub
from server.paths import project_root
from server.settings import Settings, get_settings
from server.tables.manager import TableManager
from server.tables.options import game_setup
from server.tables.resume import ResumeError
from server.tables.sink import TableSink
from server.tables.table import BotFactory, SeatSpec, TableConfig

# The largest JSON request body any API route takes (the log import has its own limit).
MAX_BODY_BYTES = 64 * 1024

log = logging.getLogger(__name__)


async def push_lobby_after_game(ctx: ServerContext, game_id: int) -> None:
    """Push a finished game's lobby (open again: committed with the game's end) to the
    listeners."""
    code = await ctx.run_db(lambda s: s.scalar(select(Lobby.code).where(Lobby.game_id == game_id)))
    if code is None:
        return

    def load(s: Session) -> dict[str, Any]:
        return lobby_queries.lobby_json(s, lobby_queries.get_lobby(s, code))

    async with ctx.lobby_lock(code):
        data = with_watch_path(ctx, await ctx.run_db(load))
        await ctx.hub.publish(code, data, lobby_loader(ctx, code, data))


async def resume_games(
    db: Database, tables: TableManager, live: list[game_queries.LiveGame]
) -> None:
    """Start again the tables of games a previous process left live, from their records.

    A game whose record does not replay (say, the engine changed its rules since)
    is marked aborted and its lobby reopened, with the reason in the log.
    """
    for g in live:
        try:
            variant, rules, options = game_setup(g.rules)
            tables.resume_table(
                g.game_id,
                variant,
                rules,
                options,
                g.seed,
                g.first_dealer,
                [SeatSpec(name, pid, bot) for name, pid, bot in g.seats],
                g.rows,
                g.hands_saved,
            )
        except (ResumeError, ValueError) as exc:
            log.error("game %d cannot be resumed, marked aborted: %s", g.game_id, exc)
            await asyncio.to_thread(
                db.run, lambda s, gid=g.game_id: game_queries.abort_game(s, gid)
            )
    if live:
        log.info("resumed %d of %d live games", len(tables.tables), len(live))


async def reload_game(db: Database, tables: TableManager, game_id: int) -> None:
    """Rebuild a table that stopped because a step was not committed, from its record,
    once the database answers again (its players reconnect as after a restart)."""
    delay = 1.0
    while True:
        try:
            live = await asyncio.to_thread(db.run, lambda s: game_queries.live_game(s, game_id))
        except Exception as exc:
            log.warning("game %d: the record cannot be read yet (%r)", game_id, exc)
            await asyncio.sleep(delay)
            delay = min(delay * 2, 30.0)
            continue
        if live is not None and tables.get(game_id) is None:
            await resume_games(db, tables, [live])
        return


def shared_limits(ctx: ServerContext, node: Node) -> None:
    """The rate limits counted in Redis, once for every process."""
    s = ctx.settings

    def limiter(name: str, per_minute: int) -> RedisWindowLimiter:
        return RedisWindowLimiter(node.redis, s.redis_prefix, name, per_minute, 60.0)

    ctx.join_limiter = limiter("join", s.join_rate_per_minute)
    ctx.guest_limiter = limiter("guest", s.guest_rate_per_minute)
    ctx.lobby_limiter = limiter("lobby", s.lobby_rate_per_minute)
    ctx.rename_limiter = limiter("rename", s.rename_rate_per_minute)
    ctx.login_limiter = limiter("login", s.login_rate_per_minute)


def swagger_ui_dir() -> Path:
    """Swagger UI's files, as the fastapi-offline package ships them."""
    import fastapi_offline

    return Path(fastapi_offline.__file__).parent / "static"


def create_app(
    settings: Settings | None = None,
    bot_factory: BotFactory | None = None,
    *,
    manage_gc: bool = False,
) -> FastAPI:
    """The app; the database must already be migrated (``jantaku serve`` does it).

    ``manage_gc``: run ``memory.freeze_survivors`` (for the server process, which
    owns the interpreter; not for an app embedded in tests or another program).
    """
    settings = settings or get_settings()
    metrics = Metrics()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        db = Database(settings.sqlalchemy_url)
        # Many processes: live games are taken over by the node's sweep, one lease each.
        live: list[game_queries.LiveGame] = []
        if not settings.clustered:
            live = await asyncio.to_thread(db.run, game_queries.live_games)
        recorder = Recorder(db)
        recorder.start()
        config = TableConfig(
            disconnect_grace=settings.disconnect_grace_seconds,
            round_end_pause=settings.round_end_pause_seconds,
            bot_delay=settings.bot_delay_seconds,
            replay_buffer=settings.replay_buffer_events,
            on_action=metrics.observe_action,
            call_window=settings.call_window_seconds,
            spectator_interval=settings.spectator_interval_seconds,
        )
        # Many processes: a table commits only while this process surely holds its lease.
        sink: TableSink = recorder
        if settings.clustered:
            sink = FencedSink(recorder, lambda g: node is not None and node.leases.valid(g))
        remote = RemoteHub()  # the bots connected on /ws/bot
        factory = bot_factory or table_bot_factory(
            parse_registry(settings.mjai_bots), settings.mjai_timeout_seconds, remote
        )
        tables = TableManager(config, sink, factory)
        node: Node | None = None
        if settings.clustered:
            node = Node(
                settings, db, tables, lambda g: resume_games(db, tables, [g]), remote_bots=remote
            )
            tables.fanout = ClusterFanout(node.bus)
        background: set[asyncio.Task[None]] = set()

        def game_ended(game_id: int) -> None:
            task = asyncio.get_running_loop().create_task(push_lobby_after_game(ctx, game_id))
            background.add(task)
            task.add_done_callback(background.discard)

        def table_broken(game_id: int) -> None:
            if node is not None:
                return  # its lease is released; a sweep rebuilds it from the record
            task = asyncio.get_running_loop().create_task(reload_game(db, tables, game_id))
            background.add(task)
            task.add_done_callback(background.discard)

        tables.on_game_end = game_ended
        tables.on_broken = table_broken
        app.state.ctx = ctx = ServerContext(
            settings=settings,
            db=db,
            tables=tables,
            recorder=recorder,
            hub=LobbyHub(),
            join_limiter=WindowLimiter(settings.join_rate_per_minute, 60.0),
            guest_limiter=WindowLimiter(settings.guest_rate_per_minute, 60.0),
            lobby_limiter=WindowLimiter(settings.lobby_rate_per_minute, 60.0),
            rename_limiter=WindowLimiter(settings.rename_rate_per_minute, 60.0),
            login_limiter=WindowLimiter(settings.login_rate_per_minute, 60.0),
            node=node,
            remote_bots=remote,
        )
        if node is not None:
            shared_limits(ctx, node)
            ctx.hub.relay = lambda code, frame: node.bus.send(node.bus.lobby, [code, frame])
            ctx.hub.versions = RedisVersions(node.redis, settings.redis_prefix)
            node.on_lobby = ctx.hub.deliver
            await node.start()
        attach(metrics, ctx)
        await resume_games(db, tables, live)
        log.info(
            "jantaku ready",
            extra={"live_games": len(live), "root_path": settings.root_path or "/"},
        )
        if manage_gc:
            keeper = asyncio.get_running_loop().create_task(
                memory.freeze_survivors(0.1, lambda: tables.stats()["live"] == 0)
            )
            background.add(keeper)
        try:
            yield
        finally:
            for task in list(background):
                task.cancel()
            await tables.shutdown()
            await recorder.close()
            if node is not None:
                await node.close()
            db.dispose()

    # Every JSON body of the API is small; the log import sets its own, larger limit.
    # /docs is our own page (web/docs/) with Swagger UI served from the fastapi-offline
    # package's files: FastAPI's would load it from a CDN, with an inline script.
    app = FastAPI(
        title="Jantaku",
        version="0.1.0",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        default_response_class=SafeJSONResponse,
    )
    app.state.metrics = metrics
    app.add_middleware(
        BodyLimit,
        default=MAX_BODY_BYTES,
        # /api/score answers in the calculator's own {"error": ...} format (16 KiB).
        limits={"/api/games/import": history.MAX_UPLOAD_BYTES, "/api/score": None},
    )
    app.add_middleware(CookieOrigin, allowed=settings.allowed_origins)
    app.add_middleware(MetricsMiddleware, metrics=metrics)
    app.add_middleware(RootPath, root=settings.root_path)  # sees the raw path
    app.add_middleware(SecurityHeaders, hsts=settings.secure_cookies)  # on every answer
    install_error_handlers(app)

    app.include_router(players.router)
    app.include_router(accounts.router)
    app.include_router(stats.router)
    app.include_router(lobbies.router)
    app.include_router(variants.router)
    app.include_router(lobbies.me_router)
    app.include_router(remotebots.router)
    app.include_router(bots.router)
    app.include_router(games.router)
    app.include_router(score.router)
    app.include_router(history.router)
    app.include_router(analysis.router)
    app.include_router(ws.router)
    app.include_router(remotebots.ws_router)
    app.include_router(health.router)
    if settings.bench_tables:
        from server.api import benchtables

        app.include_router(benchtables.router)
    app.mount("/docs/vendor", StaticFiles(directory=swagger_ui_dir()), name="swagger-ui")
    web = Path(settings.web_dir)
    if not web.is_absolute():
        web = project_root() / web
    if web.is_dir():
        # Mounted last so that /api and /ws routes take precedence.
        app.mount("/", StaticFiles(directory=web, html=True), name="web")
    return app
