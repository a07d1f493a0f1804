"""The WebSocket gateway: validates client frames and forwards them to lobbies and tables.

Each connection has a reader (this coroutine) and a writer, so a table actor can
send without awaiting a slow client. A frame with nothing queued before it is
handed to the ASGI server at once (``run_now``): uvicorn's send completes without
suspending, so most frames cost no task switch and no pass of the event loop. Only
a send that does suspend leaves the rest to the writer task, which then drains the
frames queued behind it in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Coroutine, Generator, Iterator
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError
from sqlalchemy.orm import Session

from server.api.auth import COOKIE_NAME, COOKIE_ORIGIN_REFUSED, bearer_token, cookie_origin_ok
from server.api.context import ServerContext, lookup_credential, may_watch, with_watch_path
from server.api.ratelimit import TokenBucket
from server.api.schemas import (
    LOBBY_CODE,
    LOBBY_MESSAGES,
    TABLE_MESSAGES,
    ActionMsg,
    ContinueMsg,
    Hello,
    PingMsg,
    ResyncMsg,
    WsMessage,
)
from server.cluster.node import RETRY
from server.db import lobbies
from server.db.models import Player
from server.tables.table import ClientAction, Connect, Continue, Disconnect, Resync, error_frame

router = APIRouter(tags=["websocket"])

# A client that stops reading is cut off rather than left to grow memory.
MAX_QUEUED_FRAMES = 5000
_CLOSE = object()
# The table has no reachable owner for a moment (a process is taking it over).
TRY_AGAIN_LATER = 1013


def run_now(coro: Coroutine[Any, Any, None]) -> asyncio.Future[None] | None:
    """Run ``coro`` until it first suspends: None when it finished (its exception, if
    any, raised here), else a task that runs the rest of it."""
    try:
        first = coro.send(None)
    except StopIteration:
        return None
    return asyncio.ensure_future(_Rest(coro, first))


class _Rest:
    """The rest of a coroutine that ``run_now`` started, as an awaitable: it passes the
    future it was waiting on to the task, and the task's resumptions back to it."""

    def __init__(self, coro: Coroutine[Any, Any, None], first: Any) -> None:
        self.coro = coro
        self.first = first

    def __await__(self) -> Generator[Any, Any, None]:
        waiting = self.first
        while True:
            try:
                sent = yield waiting
            except BaseException as exc:  # cancelled, or the future's error
                try:
                    waiting = self.coro.throw(exc)
                except StopIteration:
                    return
                continue
            try:
                waiting = self.coro.send(sent)
            except StopIteration:
                return


class WsConn:
    """One client socket as seen by tables and the lobby hub (``send`` never blocks)."""

    def __init__(self, ws: WebSocket, seat: int | None = None) -> None:
        self.ws = ws
        self.seat = seat
        self.queue: asyncio.Queue[object] = asyncio.Queue()
        self.closed = False
        self.close_code = 1000
        self.batch = False
        self.protocol = 1  # the hello's (docs/protocol.md, "Frames")
        # A send ``run_now`` started that suspended: later frames wait behind it.
        self.sending: asyncio.Future[None] | None = None
        self.held: list[str] = []  # batch: this loop turn's frames
        self.writer = asyncio.get_running_loop().create_task(self._write())

    def send(self, text: str) -> None:
        if self.closed:
            return
        if self.batch:
            # Everything sent before the loop's next turn (one table step, usually)
            # goes out together: one frame, one write, not a dozen.
            if not self.held:
                asyncio.get_running_loop().call_soon(self._flush)
            self.held.append(text)
            return
        self._put(text)

    def _flush(self) -> None:
        frames, self.held = self.held, []
        if frames and not self.closed:
            self._put(
                frames[0]
                if len(frames) == 1
                else '{"type":"batch","messages":[' + ",".join(frames) + "]}"
            )

    def _put(self, text: str) -> None:
        started = self.sending
        if started is not None and started.done() and self.queue.empty():
            self.sending = None
            if started.cancelled() or started.exception() is not None:
                self.closed = True  # that send failed: the peer went away
                return
        if self.sending is None and self.queue.empty():
            try:
                self.sending = run_now(self.ws.send_text(text))
            except Exception:  # the peer went away; the reader notices too
                self.closed = True
            return
        if self.queue.qsize() >= MAX_QUEUED_FRAMES:
            self.close(1008)
            return
        self.queue.put_nowait(text)

    def send_json(self, obj: dict[str, Any]) -> None:
        self.send(orjson.dumps(obj).decode())

    def close(self, code: int) -> None:
        if not self.closed:
            self._flush()  # the frames before the close go first
            self.closed = True
            self.close_code = code
            self.queue.put_nowait(_CLOSE)

    async def _write(self) -> None:
        """Send what queued up behind a send that suspended, in order, then close."""
        try:
            while True:
                item = await self.queue.get()
                if self.sending is not None:
                    await self.sending
                    self.sending = None
                if item is _CLOSE:
                    await self.ws.close(self.close_code)
                    return
                assert isinstance(item, str)
                await self.ws.send_text(item)
        except Exception:  # the peer went away; the reader notices too
            self.closed = True

    async def finish(self) -> None:
        """Flush queued frames (briefly) and stop the writer."""
        self.close(self.close_code)
        with contextlib.suppress(Exception, asyncio.TimeoutError):
            await asyncio.wait_for(asyncio.shield(self.writer), 2.0)
        self.writer.cancel()


class BadFrame(Exception):
    def __init__(self, code: str, message: str, ref: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.ref = ref


def parse_frame(
    raw: str | bytes | None, registry: dict[str, type[WsMessage]], max_bytes: int
) -> WsMessage:
    """A validated client message, or BadFrame with the protocol error code."""
    if raw is None:
        raise BadFrame("bad_json", "empty frame")
    size = len(raw.encode()) if isinstance(raw, str) else len(raw)
    if size > max_bytes:
        raise BadFrame("too_large", f"frame of {size} bytes exceeds {max_bytes}")
    try:
        obj = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise BadFrame("bad_json", "frame is not valid JSON") from None
    if not isinstance(obj, dict):
        raise BadFrame("bad_json", "frame must be a JSON object")
    ref = obj.get("ref") if isinstance(obj.get("ref"), str | int) else None
    kind = obj.get("type")
    model = registry.get(kind) if isinstance(kind, str) else None
    if model is None:
        raise BadFrame("unknown_type", f"unknown message type {kind!r}", ref)
    try:
        return model.model_validate(obj)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'message'}: {e['msg']}"
            for e in exc.errors()[:3]
        )
        raise BadFrame("bad_message", problems, ref) from None


async def _receive(ws: WebSocket) -> str | bytes | None:
    msg = await ws.receive()
    if msg["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(msg.get("code", 1000))
    text: str | None = msg.get("text")
    return text if text is not None else msg.get("bytes")


class _Session:
    """Reads frames with the size limit, rate limit and hello handshake shared by both sockets."""

    def __init__(
        self, ctx: ServerContext, ws: WebSocket, conn: WsConn, registry: dict[str, type[WsMessage]]
    ) -> None:
        self.ctx = ctx
        self.ws = ws
        self.conn = conn
        self.registry = registry
        s = ctx.settings
        self.bucket = TokenBucket(s.ws_rate_per_second, s.ws_rate_burst)
        # The token hash this socket signed in with: revoking it closes the socket.
        self.credential: str | None = None

    def release(self) -> None:
        if self.credential is not None:
            self.ctx.credential_sockets.discard(self.credential, self.conn)

    async def next_message(self) -> WsMessage:
        """The next valid message; errors for bad frames are sent here and skipped."""
        while True:
            raw = await _receive(self.ws)
            if not self.bucket.take():
                self.conn.send(error_frame("rate_limited", "too many messages; slow down"))
                continue
            try:
                msg = parse_frame(raw, self.registry, self.ctx.settings.max_message_bytes)
            except BadFrame as exc:
                self.conn.send(error_frame(exc.code, str(exc), exc.ref))
                continue
            if isinstance(msg, PingMsg):
                self.conn.send_json({"type": "pong"})
                continue
            return msg

    async def hello(self) -> Hello:
        """The hello message; a socket that sends none within the hello timeout is closed
        (code 4408): an idle socket holds a file descriptor and memory for nothing."""
        try:
            async with asyncio.timeout(self.ctx.settings.hello_timeout_seconds):
                while True:
                    msg = await self.next_message()
                    if isinstance(msg, Hello):
                        return msg
                    self.conn.send(error_frame("hello_required", "send hello first", msg.ref))
        except TimeoutError:
            self.conn.send(error_frame("hello_timeout", "no hello in time; closing"))
            self.conn.close(4408)
            raise WebSocketDisconnect(4408) from None

    async def authenticate(self, hello: Hello) -> tuple[bool, Player | None]:
        """(ok, player). No token at all is an anonymous spectator; a bad token fails."""
        token = hello.token or bearer_token(self.ws.headers.get("authorization"))
        if not token:
            token = self.ws.cookies.get(COOKIE_NAME)
            if token and not cookie_origin_ok(self.ws.headers, self.ctx.settings.allowed_origins):
                self.conn.send(error_frame("auth_failed", COOKIE_ORIGIN_REFUSED, hello.ref))
                self.conn.close(4401)
                return False, None
        if not token:
            return True, None
        found = await lookup_credential(self.ctx, token)
        if found is None:
            self.conn.send(error_frame("auth_failed", "unknown or invalid token", hello.ref))
            self.conn.close(4401)
            return False, None
        self.credential = found[1]
        self.ctx.credential_sockets.add(found[1], self.conn)
        return True, found[0].player


def _ctx(ws: WebSocket) -> ServerContext:
    ctx: ServerContext = ws.app.state.ctx
    return ctx


def _address(ws: WebSocket) -> str:
    return ws.client.host if ws.client else "unknown"


@contextlib.contextmanager
def socket_slot(ctx: ServerContext, ws: WebSocket) -> Iterator[bool]:
    """One of the client address's open sockets (False: it has as many as it may)."""
    addr = _address(ws)
    n = ctx.sockets.get(addr, 0)
    if n >= ctx.settings.max_sockets_per_address:
        yield False
        return
    ctx.sockets[addr] = n + 1
    try:
        yield True
    finally:
        left = ctx.sockets[addr] - 1
        if left:
            ctx.sockets[addr] = left
        else:
            del ctx.sockets[addr]


async def _refuse_busy(ws: WebSocket) -> None:
    """Refused at the handshake (HTTP 403), before a socket is set up at all: the
    cheapest answer to a client opening sockets by the thousand."""
    await ws.close(4429)


@router.websocket("/ws/table/{game_id}")
async def table_socket(ws: WebSocket, game_id: int) -> None:
    ctx = _ctx(ws)
    with socket_slot(ctx, ws) as admitted:
        if admitted:
            await ws.accept()
            await _table_socket(ctx, ws, game_id)
        else:
            await _refuse_busy(ws)


async def _table_socket(ctx: ServerContext, ws: WebSocket, game_id: int) -> None:
    conn = WsConn(ws)
    s = ctx.settings
    resyncs = TokenBucket(s.resync_rate_per_second, s.resync_burst)
    session = _Session(ctx, ws, conn, TABLE_MESSAGES)
    table = None
    try:
        hello = await session.hello()
        ok, player = await session.authenticate(hello)
        if not ok:
            return
        table = ctx.tables.get(game_id)
        if table is None and ctx.node is not None:
            # Owned by another process (relayed), or by nobody right now.
            table = await ctx.node.route(game_id)
            if table == RETRY:
                table = None
                conn.send(error_frame("unavailable", "the table is moving; reconnect", hello.ref))
                conn.close(TRY_AGAIN_LATER)
                return
        seat = table.seat_of(player.id) if table is not None and player is not None else None
        watching = seat is None or hello.spectate
        # A live game is watched only with its spectate link or by its own players:
        # to anyone else it does not exist (game ids are a plain counter).
        if table is None or (watching and not await may_watch(ctx, game_id, player, hello.watch)):
            conn.send(error_frame("not_found", f"no live table for game {game_id}", hello.ref))
            conn.close(4404)
            return
        if watching:
            if len(table.spectators) >= ctx.settings.max_spectators_per_table:
                conn.send(error_frame("busy", "this table has as many spectators as it takes"))
                conn.close(4429)
                return
            # A spectator's frames come from the table's spectator stream, already
            # gathered into batch frames (docs/protocol.md).
            conn.batch = False
        else:
            conn.seat = seat
            conn.batch = hello.batch
        conn.protocol = hello.protocol
        name = player.name if watching and player is not None else None
        table.post(Connect(conn, hello.last_version, name))
        while True:
            msg = await session.next_message()
            if conn.closed:  # its credential was revoked: nothing more is taken from it
                break
            if isinstance(msg, ActionMsg):
                if conn.seat is None:
                    conn.send(error_frame("not_seated", "spectators cannot act", msg.ref))
                elif msg.action.seat is not None and msg.action.seat != conn.seat:
                    conn.send(
                        error_frame(
                            "wrong_seat",
                            f"this connection plays seat {conn.seat}, not {msg.action.seat}",
                            msg.ref,
                        )
                    )
                else:
                    table.post(
                        ClientAction(
                            conn, msg.action.model_dump(exclude_none=True), msg.version, msg.ref
                        )
                    )
            elif isinstance(msg, ResyncMsg):
                # Each builds and sends a whole view: a client needs one now and then.
                if resyncs.take():
                    table.post(Resync(conn))
                else:
                    conn.send(error_frame("rate_limited", "too many resyncs; slow down", msg.ref))
            elif isinstance(msg, ContinueMsg):
                table.post(Continue(conn))
            else:
                conn.send(error_frame("already_hello", "hello was already sent", msg.ref))
    except WebSocketDisconnect:
        pass
    finally:
        session.release()
        if table is not None:
            table.post(Disconnect(conn))
        await conn.finish()


@router.websocket("/ws/lobby/{code}")
async def lobby_socket(ws: WebSocket, code: str) -> None:
    ctx = _ctx(ws)
    with socket_slot(ctx, ws) as admitted:
        if admitted:
            await ws.accept()
            await _lobby_socket(ctx, ws, code)
        else:
            await _refuse_busy(ws)


async def _lobby_socket(ctx: ServerContext, ws: WebSocket, code: str) -> None:
    conn = WsConn(ws)
    session = _Session(ctx, ws, conn, LOBBY_MESSAGES)
    subscribed = False
    try:
        hello = await session.hello()
        ok, player = await session.authenticate(hello)
        if not ok:
            return
        # A code look-up like GET /api/lobbies/{code}: limited per address and player.
        keys = [f"addr:{_address(ws)}"] + ([f"player:{player.id}"] if player else [])
        if await ctx.join_limiter.hit_keys(keys) is not None or not re.fullmatch(LOBBY_CODE, code):
            limited = re.fullmatch(LOBBY_CODE, code) is not None
            conn.send(
                error_frame("rate_limited", "too many lobby look-ups", hello.ref)
                if limited
                else error_frame("not_found", "no lobby with that code", hello.ref)
            )
            conn.close(4429 if limited else 4404)
            return

        def read(s: Session) -> dict[str, Any]:
            return lobbies.lobby_json(s, lobbies.get_lobby(s, code))

        async def load() -> dict[str, Any]:
            return with_watch_path(ctx, await ctx.run_db(read))

        # Pushes that arrive before the lobby is sent wait for it: with many processes a
        # change made elsewhere may be read by the load and pushed too (a repeat), or
        # committed after the load (its push follows the lobby sent).
        held: list[str] | None = []

        def listen(frame: str) -> None:
            if held is None:
                conn.send(frame)
            else:
                held.append(frame)

        async with ctx.lobby_lock(code):
            # Subscribing under the lock: no change can slip between the load and the push.
            ctx.hub.subscribe(code, listen)
            subscribed = True
            try:
                first = await ctx.hub.snapshot(code, load)
            except lobbies.LobbyError:
                conn.send(error_frame("not_found", "no lobby with that code", hello.ref))
                conn.close(4404)
                return
        conn.send(first)
        for frame in held or ():
            conn.send(frame)  # (a version the lobby sent already has: the client drops it)
        held = None
        while True:
            msg = await session.next_message()
            if not isinstance(msg, ResyncMsg):
                conn.send(error_frame("already_hello", "hello was already sent", msg.ref))
                continue
            # The client saw a version skipped: the lobby as it is now, and its version.
            async with ctx.lobby_lock(code):
                try:
                    frame = await ctx.hub.snapshot(code, load, resync=True)
                except lobbies.LobbyError:
                    conn.send(error_frame("not_found", "no lobby with that code", msg.ref))
                    conn.close(4404)
                    return
            conn.send(frame)
    except WebSocketDisconnect:
        pass
    finally:
        session.release()
        if subscribed:
            ctx.hub.unsubscribe(code, listen)
        await conn.finish()
