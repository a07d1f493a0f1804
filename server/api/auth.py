"""Guest identity: opaque random tokens, stored only as HMACs keyed by the server secret."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Mapping

COOKIE_NAME = "jantaku_token"


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(secret: str, token: str) -> str:
    return hmac.new(secret.encode(), token.encode(), hashlib.sha256).hexdigest()


def watch_key(secret: str, game_id: int) -> str:
    """The secret of a game's spectate link (``/#/game/{id}/{key}``): without it, or a
    seat at the table or in its lobby, a live game cannot be watched or looked up.

    Derived from the server secret (nothing stored): 128 bits, so a game id, which
    is a plain counter, is no help in guessing it."""
    mac = hmac.new(secret.encode(), f"watch:{game_id}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:16]).decode().rstrip("=")


def watch_key_ok(secret: str, game_id: int, key: str | None) -> bool:
    return key is not None and hmac.compare_digest(key, watch_key(secret, game_id))


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, if any."""
    if not authorization:
        return None
    scheme, _, value = authorization.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


def _netloc(origin: str) -> str:
    """``host[:port]`` of an origin or a Host header, lower case, default ports dropped."""
    scheme, sep, rest = origin.strip().lower().partition("://")
    if not sep:
        scheme, rest = "", scheme
    host = rest.split("/", 1)[0]
    for default in ((":80", "http", "ws"), (":443", "https", "wss")):
        if host.endswith(default[0]) and scheme in ("", *default[1:]):
            host = host[: -len(default[0])]
    return host


# What a request refused by ``cookie_origin_ok`` is told (HTTP 403 and WebSocket alike).
COOKIE_ORIGIN_REFUSED = (
    "the session cookie is not accepted from this page's origin "
    "(behind a proxy: pass Host or X-Forwarded-Host, or set JANTAKU_ALLOWED_ORIGINS)"
)


def cookie_origin_ok(headers: Mapping[str, str], allowed: str) -> bool:
    """May this request use the session cookie? (cross-site request forgery and WebSocket
    hijacking: a WebSocket handshake, or a change over HTTP, ``app.CookieOrigin``)

    Browsers send ``Origin`` on those and a page cannot forge it: the cookie is
    taken only from the server's own pages, whose origin is the host the request
    names (``Host``, or ``X-Forwarded-Host`` behind a proxy), or from one of
    ``allowed`` (comma-separated origins). Without ``Origin`` the client is not a
    browser, and no other site's page can be behind it.
    """
    origin = headers.get("origin")
    if origin is None:
        return True
    own = {
        _netloc(h)
        for name in ("host", "x-forwarded-host")
        for h in (headers.get(name) or "").split(",")
        if h.strip()
    }
    own |= {_netloc(o) for o in allowed.split(",") if o.strip()}
    return _netloc(origin) in own
