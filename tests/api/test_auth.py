"""Guest tokens and the WebSocket origin rule for the session cookie (server/api/auth.py)."""

from __future__ import annotations

import pytest

from server.api.auth import bearer_token, cookie_origin_ok


@pytest.mark.parametrize(
    ("headers", "allowed", "ok"),
    [
        ({}, "", True),  # no Origin: not a browser
        ({"origin": "http://a.example:8000", "host": "a.example:8000"}, "", True),
        ({"origin": "http://a.example", "host": "a.example:80"}, "", True),  # default port
        ({"origin": "https://a.example", "host": "a.example:443"}, "", True),
        ({"origin": "https://A.Example", "host": "a.example"}, "", True),  # case
        ({"origin": "http://a.example:8001", "host": "a.example:8000"}, "", False),
        # a Host header names no scheme: its default port is dropped either way
        ({"origin": "https://a.example", "host": "a.example:80"}, "", True),
        ({"origin": "https://b.example", "host": "a.example"}, "", False),
        ({"origin": "null", "host": "a.example"}, "", False),  # sandboxed or file pages
        # behind a proxy: the public host arrives as X-Forwarded-Host (maybe a list)
        (
            {"origin": "https://b.example", "host": "app:8000", "x-forwarded-host": "b.example"},
            "",
            True,
        ),
        (
            {
                "origin": "https://c.example",
                "host": "app",
                "x-forwarded-host": "b.example, c.example",
            },
            "",
            True,
        ),
        # or the operator names it
        ({"origin": "https://b.example", "host": "app:8000"}, "https://b.example", True),
        (
            {"origin": "https://b.example", "host": "app"},
            "https://x.example, https://b.example",
            True,
        ),
        ({"origin": "https://b.example", "host": "app"}, "https://x.example", False),
    ],
)
def test_cookie_origin_rule(headers: dict[str, str], allowed: str, ok: bool) -> None:
    assert cookie_origin_ok(headers, allowed) is ok


def test_bearer_token() -> None:
    assert bearer_token("Bearer abc") == "abc"
    assert bearer_token("bearer  abc ") == "abc"
    assert bearer_token("Basic abc") is None
    assert bearer_token("Bearer ") is None
    assert bearer_token(None) is None
