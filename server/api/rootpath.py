"""Serving under a sub-path (``JANTAKU_ROOT_PATH``, e.g. ``/mahjong``).

A reverse proxy may pass the prefix on (``/mahjong/api/health``) or strip it
(``/api/health``); both reach the same route. The ASGI ``root_path`` is set, so
URLs the app builds (redirects, OpenAPI) carry the prefix; ``/mahjong`` itself
redirects to ``/mahjong/``, where the client's relative URLs resolve.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send


class RootPath:
    def __init__(self, app: ASGIApp, root: str) -> None:
        self.app = app
        self.root = root.rstrip("/")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        root = self.root
        if not root or scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        if scope["type"] == "http" and path == root:
            query = scope.get("query_string", b"")
            location = (root + "/" + ("?" + query.decode("latin-1") if query else "")).encode()
            await send(
                {
                    "type": "http.response.start",
                    "status": 307,
                    "headers": [(b"location", location), (b"content-length", b"0")],
                }
            )
            await send({"type": "http.response.body", "body": b""})
            return
        scope = dict(scope)
        scope["root_path"] = root
        if not path.startswith(root + "/"):
            # The proxy stripped the prefix: put it back, as ASGI's path includes root_path.
            scope["path"] = root + path
            raw = scope.get("raw_path")
            if raw is not None:
                scope["raw_path"] = root.encode() + raw
        await self.app(scope, receive, send)


def route_path(scope: Scope) -> str:
    """The request's path without the root path (what the routes are written against)."""
    path: str = scope["path"]
    root: str = scope.get("root_path", "")
    if root and path.startswith(root + "/"):
        return path[len(root) :]
    return path
