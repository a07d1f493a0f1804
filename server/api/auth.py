"""Guest identity: opaque random tokens, stored only as HMACs keyed by the server secret."""

from __future__ import annotations

import hashlib
import hmac
import secrets

COOKIE_NAME = "jantaku_token"


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(secret: str, token: str) -> str:
    return hmac.new(secret.encode(), token.encode(), hashlib.sha256).hexdigest()


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, if any."""
    if not authorization:
        return None
    scheme, _, value = authorization.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()
