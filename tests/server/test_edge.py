"""Sessions and headers (issue 12): logout revokes, the cookie's origin rule has no
Authorization loophole, security headers on every response, no inline script."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.api.auth import COOKIE_NAME

WEB = Path(__file__).resolve().parents[2] / "web"


@pytest.fixture
def srv(sqlite_url: str, make_server: Any) -> Any:
    return make_server(sqlite_url)


def test_logout_revokes_the_token_everywhere(srv: Any) -> None:
    client, g = srv.guest("Leaving")
    token = g["token"]
    bearer = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=srv.http) as other:
        assert other.get("/api/me", headers=bearer).status_code == 200
        r = client.post("/api/logout")
        assert r.status_code == 204 and COOKIE_NAME in r.headers.get("set-cookie", "")
        # The same token from anywhere else (a stolen copy, another device) is dead.
        assert other.get("/api/me", headers=bearer).status_code == 401
        other.cookies.set(COOKIE_NAME, token)
        assert other.get("/api/me").status_code == 401


def test_a_non_bearer_authorization_header_does_not_lift_the_origin_rule(srv: Any) -> None:
    client, _g = srv.guest("Victim")
    evil = {"Origin": "http://evil.example", "Authorization": "Basic dXNlcjpwYXNz"}
    r = client.post("/api/lobbies", json={}, headers=evil)
    assert r.status_code == 403 and r.json()["detail"]["code"] == "cross_origin"
    r = client.post("/api/logout", headers=evil)
    assert r.status_code == 403
    assert client.get("/api/me").status_code == 200  # still signed in
    # A bearer token is used instead of the cookie, so it may come from anywhere.
    bearer = {"Origin": "http://evil.example", "Authorization": f"Bearer {_g['token']}"}
    assert client.post("/api/lobbies", json={}, headers=bearer).status_code == 200


@pytest.mark.parametrize(
    "path",
    ["/", "/js/app.js", "/api/health", "/api/nothing-here", "/docs/", "/openapi.json"],
)
def test_security_headers_on_every_response(srv: Any, path: str) -> None:
    r = httpx.get(srv.http + path)
    h = r.headers
    csp = h["content-security-policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert h["x-content-type-options"] == "nosniff"
    assert h["referrer-policy"] == "no-referrer"
    assert h["x-frame-options"] == "DENY"


def test_no_inline_script_or_style_in_any_page() -> None:
    """The CSP allows no inline script or style: every page loads them from files."""
    pages = sorted(WEB.rglob("*.html"))
    assert len(pages) >= 4
    for page in pages:
        html = page.read_text()
        for tag in re.findall(r"<script\b[^>]*>", html):
            assert "src=" in tag, (page, tag)
        assert not re.search(r"<script\b[^>]*>\s*[^<\s]", html), page
        assert "<style" not in html and not re.search(r"\sstyle=", html), page
        assert not re.search(r"\son[a-z]+=", html), page  # no inline event handlers
        assert "http://" not in html and "https://" not in html, page
    for js in WEB.rglob("*.js"):
        text = js.read_text()
        assert "cssText" not in text and 'setAttribute("style"' not in text, js
