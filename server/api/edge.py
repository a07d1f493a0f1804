"""The HTTP edge: what every request and response passes through before and after a route.

Security headers on every response, the cookie's origin rule for changes, body
size limits, and one error shape for everything that goes wrong at the edge
(``{"detail": {"code", "message"}}``), never a 500 for bad input.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import orjson
from fastapi import FastAPI, HTTPException, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from server.api.auth import COOKIE_NAME, COOKIE_ORIGIN_REFUSED, bearer_token, cookie_origin_ok
from server.api.rootpath import route_path

log = logging.getLogger(__name__)

# The client is static ES modules and style sheets of our own: nothing inline, nothing
# from elsewhere, no framing (clickjacking), no plugins, forms only to ourselves.
# WebSockets to the same host are 'self' (CSP 3).
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'"
)


def security_headers(hsts: bool) -> list[tuple[bytes, bytes]]:
    headers = [
        (b"content-security-policy", CSP.encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"x-frame-options", b"DENY"),
        # Invite codes and spectate keys travel in URLs: never in a Referer.
        (b"referrer-policy", b"no-referrer"),
        (b"cross-origin-opener-policy", b"same-origin"),
        (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
    ]
    if hsts:
        headers.append((b"strict-transport-security", b"max-age=31536000"))
    return headers


class SecurityHeaders:
    """Adds ``security_headers`` to every HTTP response (pages, assets, API, errors)."""

    def __init__(self, app: ASGIApp, hsts: bool = False) -> None:
        self.app = app
        self.headers = security_headers(hsts)
        self.names = {name for name, _ in self.headers}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message.get("headers", []) if k not in self.names]
                message = {**message, "headers": kept + self.headers}
            await send(message)

        await self.app(scope, receive, with_headers)


async def send_error(send: Send, status: int, code: str, message: str) -> None:
    """An error response in the API's shape, from a middleware (no route involved)."""
    body = orjson.dumps({"detail": {"code": code, "message": message}})
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class CookieOrigin:
    """A request that changes something on the session cookie must come from our pages.

    POST, PUT, PATCH and DELETE carrying the cookie from a page of another origin
    (``Origin`` not the server's host: ``auth.cookie_origin_ok``) get 403
    ``cross_origin`` before any route runs. SameSite=Lax already keeps the cookie
    off other sites' requests, but not off a page on the same host at another
    port, which could otherwise post a body-less form (leave, start, logout) or a
    log import as the player. Only a bearer token (which the routes then use
    instead of the cookie) exempts a request: any other ``Authorization`` header
    (Basic, say) leaves the cookie in use, so it is checked.
    """

    UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})

    def __init__(self, app: ASGIApp, allowed: str) -> None:
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in self.UNSAFE:
            headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
            cookie = f"{COOKIE_NAME}=" in headers.get("cookie", "")
            if (
                cookie
                and bearer_token(headers.get("authorization")) is None
                and not cookie_origin_ok(headers, self.allowed)
            ):
                await send_error(send, 403, "cross_origin", COOKIE_ORIGIN_REFUSED)
                return
        await self.app(scope, receive, send)


class BodyLimit:
    """Request bodies over the limit get a 413 in the API's error shape; nothing is read.

    A declared Content-Length over the limit is answered before the body is read;
    a body that streams in without one is cut off once it passes the limit (the
    route sees an HTTP 413 error, which the error handler turns into the usual
    ``{"detail": {"code": "too_large", "message": ...}}``).
    """

    def __init__(self, app: ASGIApp, default: int, limits: dict[str, int | None]) -> None:
        self.app = app
        self.default = default
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limits.get(route_path(scope), self.default)
        if limit is None:  # the route applies its own limit and error format
            await self.app(scope, receive, send)
            return
        message = f"request body larger than {limit} bytes"
        for name, value in scope["headers"]:
            if name == b"content-length":
                if value.isdigit() and int(value) > limit:
                    await send_error(send, 413, "too_large", message)
                    return
                break
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > limit:
                    raise HTTPException(413, {"code": "too_large", "message": message})
            return msg

        await self.app(scope, limited, send)


class SafeJSONResponse(JSONResponse):
    """JSON that can always be sent: text a client sent back to it (a name in an
    error, a key of a refused object) may hold a lone surrogate, which UTF-8 cannot
    encode; such a body is sent with ``\\u`` escapes instead of failing with a 500."""

    def render(self, content: Any) -> bytes:
        try:
            return super().render(content)
        except UnicodeEncodeError:
            return json.dumps(content, ensure_ascii=True, separators=(",", ":")).encode()


def _where(loc: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in loc if p not in ("body", "query", "path")) or "request"


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        # Errors raised by FastAPI/Starlette themselves (body too large, not found,
        # method not allowed) get the same {"code", "message"} detail as ours.
        detail: Any = exc.detail
        if not isinstance(detail, dict):
            code = {
                400: "bad_input",
                413: "too_large",
                404: "not_found",
                405: "method_not_allowed",
            }.get(exc.status_code, "http_error")
            detail = {"code": code, "message": str(detail)}
        return SafeJSONResponse({"detail": detail}, exc.status_code, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def bad_input(request: Request, exc: RequestValidationError) -> Response:
        # What was wrong and where, without echoing the input back.
        errors = [
            {"loc": list(e.get("loc", ())), "msg": str(e.get("msg", ""))} for e in exc.errors()
        ]
        message = "; ".join(f"{_where(tuple(e['loc']))}: {e['msg']}" for e in errors[:3])
        return SafeJSONResponse(
            {"detail": {"code": "bad_input", "message": message, "errors": errors[:20]}}, 422
        )

    @app.exception_handler(RecursionError)
    async def too_deep(request: Request, exc: RecursionError) -> Response:
        return SafeJSONResponse(
            {"detail": {"code": "bad_input", "message": "the request is nested too deeply"}}, 400
        )
