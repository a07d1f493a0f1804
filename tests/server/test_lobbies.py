"""Guest identity and lobby routes over HTTP, with live pushes on the lobby socket."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from server.db.models import Player
from tests.server.wsclient import lobby_listener


@pytest.fixture
def srv(sqlite_url: str, make_server: Any) -> Any:
    return make_server(sqlite_url)


def test_guest_cookie_and_bearer(srv: Any) -> None:
    client, g = srv.guest("Aoi")
    assert g["player"]["name"] == "Aoi" and len(g["token"]) >= 40
    cookie = client.cookies.get("jantaku_token")
    assert cookie == g["token"]
    set_cookie = client.post("/api/guest", json={"name": "Other"}).headers["set-cookie"]
    assert "httponly" in set_cookie.lower() and "samesite=lax" in set_cookie.lower()
    client.cookies.set("jantaku_token", g["token"])
    assert client.get("/api/me").json() == g["player"]
    with httpx.Client(base_url=srv.http) as bare:
        assert bare.get("/api/me").status_code == 401
        r = bare.get("/api/me", headers={"Authorization": f"Bearer {g['token']}"})
        assert r.json() == g["player"]
        r = bare.get("/api/me", headers={"Authorization": "Bearer wrong"})
        assert r.status_code == 401 and r.json()["detail"]["code"] == "auth_required"
        for name in ("", "   ", "x" * 33):
            assert bare.post("/api/guest", json={"name": name}).status_code == 422
        assert bare.post("/api/guest", json={"name": "ok", "admin": True}).status_code == 422


def test_oversized_bodies_are_refused_and_change_nothing(srv: Any) -> None:
    client, _g = srv.guest("Aoi")
    big = {"name": "Big", "pad": "x" * (64 * 1024)}
    with httpx.Client(base_url=srv.http) as bare:
        r = bare.post("/api/guest", json=big)
        assert r.status_code == 413 and r.json()["detail"]["code"] == "too_large"
        # A chunked body (no Content-Length) is cut off as it streams in.
        chunks = (b"x" * 8192 for _ in range(20))
        r = bare.post("/api/guest", content=chunks, headers={"Content-Type": "application/json"})
        assert r.status_code == 413 and r.json()["detail"]["code"] == "too_large"
        # Routes FastAPI itself answers use the same error shape.
        r = bare.get("/api/nothing-here")
        assert r.status_code == 404 and r.json()["detail"]["code"] == "not_found"
    r = client.post("/api/lobbies", json={"rules": {"preset": "standard"}, "pad": "x" * 70_000})
    assert r.status_code == 413
    # nobody was created by the refused requests: the one guest is still the only player
    from sqlalchemy import create_engine, text

    engine = create_engine(srv.settings.database_url)
    try:
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM players")).scalar() == 1
            assert conn.execute(text("SELECT count(*) FROM lobbies")).scalar() == 0
    finally:
        engine.dispose()


def test_cookie_requests_from_another_origins_page_are_refused(srv: Any) -> None:
    """A page of another origin cannot act on the cookie (leave, start, logout, import...)."""
    host, _ = srv.guest("Host")
    code = host.post("/api/lobbies", json={}).json()["code"]
    evil = {"Origin": "http://127.0.0.1:1"}  # same host, another port: another origin
    for method, path in (
        ("POST", f"/api/lobbies/{code}/leave"),
        ("POST", f"/api/lobbies/{code}/start"),
        ("POST", f"/api/lobbies/{code}/bots"),
        ("DELETE", f"/api/lobbies/{code}/bots/1"),
        ("PATCH", "/api/me"),
        ("POST", "/api/games/import"),
        ("POST", "/api/logout"),
    ):
        r = host.request(method, path, headers=evil, content=b"{}")
        assert r.status_code == 403, (path, r.text)
        assert r.json()["detail"]["code"] == "cross_origin"
        assert "JANTAKU_ALLOWED_ORIGINS" in r.json()["detail"]["message"]
    # Nothing changed: still the host of an open lobby, still signed in.
    lobby = host.get(f"/api/lobbies/{code}").json()
    assert lobby["status"] == "open" and lobby["slots"][0]["player"]["name"] == "Host"
    assert host.get("/api/me").status_code == 200
    # Reading is not refused; our own page, a bearer token and a client without Origin act.
    assert host.get(f"/api/lobbies/{code}", headers=evil).status_code == 200
    own = {"Origin": srv.http}
    assert host.post(f"/api/lobbies/{code}/bots", json={}, headers=own).status_code == 200
    token = host.cookies.get("jantaku_token")
    bearer = {**evil, "Authorization": f"Bearer {token}"}
    assert host.post(f"/api/lobbies/{code}/bots", json={}, headers=bearer).status_code == 200
    assert host.post(f"/api/lobbies/{code}/bots", json={}).status_code == 200


def test_token_stored_only_as_hmac(srv: Any) -> None:
    from sqlalchemy import create_engine, text

    _client, g = srv.guest("Aoi")
    engine = create_engine(srv.settings.database_url)
    try:
        with engine.connect() as conn:
            stored = conn.execute(text("SELECT token_hash FROM players")).scalars().all()
    finally:
        engine.dispose()
    assert g["token"] not in stored and len(stored) == 1 and len(stored[0]) == 64


def test_create_with_preset_and_overrides(srv: Any) -> None:
    host, _ = srv.guest("Host")
    r = host.post("/api/lobbies", json={"rules": "tenhou"})
    assert r.status_code == 200
    assert r.json()["rules"]["uma"] == [20, 10, -10, -20]
    rules = {"preset": "majsoul", "length": "tonpuu", "red_fives": 0, "think_seconds": 0}
    lobby = host.post("/api/lobbies", json={"rules": rules, "seat_mode": "draw"}).json()
    assert lobby["rules"]["name"] == "majsoul" and lobby["rules"]["length"] == "tonpuu"
    assert lobby["rules"]["red_fives"] == 0 and lobby["rules"]["multiple_ron"] == "triple"
    assert lobby["seat_mode"] == "draw" and len(lobby["code"]) >= 16
    assert lobby["slots"][0]["player"]["name"] == "Host"
    assert lobby["invite_path"].endswith(lobby["code"])


@pytest.mark.parametrize(
    ("rules", "needle"),
    [
        ("nosuch", "unknown rules preset"),
        ({"preset": "standard", "red_fives": 2}, "red_fives"),
        ({"preset": "standard", "colour": "red"}, "colour"),
        ({"preset": "standard", "uma": [10, 10, 10, 10]}, "uma"),
        ({"preset": "standard", "length": "forever"}, "length"),
        ({"preset": "standard", "think_seconds": -1}, "think_seconds"),
    ],
)
def test_bad_rules_refused(srv: Any, rules: Any, needle: str) -> None:
    host, _ = srv.guest("Host")
    r = host.post("/api/lobbies", json={"rules": rules})
    assert r.status_code == 422
    assert r.json()["detail"]["code"] == "bad_rules" and needle in r.json()["detail"]["message"]


def test_join_seats_bots_ready_start(srv: Any) -> None:
    host, hg = srv.guest("Host")
    a, ag = srv.guest("A")
    b, _ = srv.guest("B")
    c, _ = srv.guest("C")
    code = host.post("/api/lobbies", json={"rules": {"preset": "standard"}}).json()["code"]
    u = f"/api/lobbies/{code}"
    assert a.post(f"{u}/join", json={"slot": 2}).json()["slots"][2]["player"]["name"] == "A"
    r = b.post(f"{u}/join", json={"slot": 2})
    assert r.status_code == 409 and r.json()["detail"]["code"] == "slot_taken"
    assert a.post(f"{u}/join", json={}).json()["detail"]["code"] == "already_member"
    # Non-hosts cannot manage bots, start or change the rules.
    assert a.post(f"{u}/bots", json={"level": "random"}).json()["detail"]["code"] == "not_host"
    assert a.post(f"{u}/start").json()["detail"]["code"] == "not_host"
    assert a.patch(u, json={"rules": "tenhou"}).status_code == 403
    r = host.post(f"{u}/bots", json={"level": "genius"})
    assert r.status_code == 422
    lobby = host.post(f"{u}/bots", json={"level": "random", "slot": 1}).json()
    assert lobby["slots"][1]["bot"] == "random" and lobby["slots"][1]["ready"]
    assert a.post(f"{u}/seat", json={"slot": 3}).json()["slots"][3]["player"]["name"] == "A"
    assert c.post(f"{u}/join", json={}).json()["slots"][2]["player"]["name"] == "C"
    r = b.post(f"{u}/join", json={})
    assert r.status_code == 409 and r.json()["detail"]["code"] == "lobby_full"
    r = host.post(f"{u}/start")
    assert r.status_code == 409 and "not ready: " in r.json()["detail"]["message"]
    a.post(f"{u}/ready", json={"ready": True})
    c.post(f"{u}/ready", json={"ready": True})
    # Changing the rules clears every ready flag (people agreed to the old ones).
    lobby = host.patch(u, json={"rules": {"preset": "standard", "length": "tonpuu"}}).json()
    assert not lobby["slots"][3]["ready"] and lobby["rules"]["length"] == "tonpuu"
    assert host.post(f"{u}/start").status_code == 409
    a.post(f"{u}/ready", json={"ready": True})
    c.post(f"{u}/ready", json={"ready": True})
    r = host.post(f"{u}/start")
    assert r.status_code == 200, r.text
    lobby = r.json()
    assert lobby["status"] == "playing"
    game = lobby["game"]
    names = [s["name"] for s in game["seats"]]
    assert names == ["Host", "Bot (random)", "C", "A"]  # choose mode: slot = seat
    assert game["first_dealer"] == (sum(game["dice"]) - 1) % 4
    assert all(1 <= d <= 6 for d in game["dice"])
    assert host.post(f"{u}/start").json()["detail"]["code"] == "not_open"
    assert b.post(f"{u}/join", json={}).json()["detail"]["code"] == "not_open"
    assert host.get(f"/api/games/{game['id']}").json()["status"] == "live"
    assert host.get(f"/api/games/{game['id']}").json()["events"] == []
    assert hg["player"]["id"] != ag["player"]["id"]


def test_leave_passes_host_and_closes_empty_lobby(srv: Any) -> None:
    host, _ = srv.guest("Host")
    a, ag = srv.guest("A")
    code = host.post("/api/lobbies", json={}).json()["code"]
    u = f"/api/lobbies/{code}"
    a.post(f"{u}/join", json={})
    lobby = host.post(f"{u}/leave").json()
    assert lobby["host_id"] == ag["player"]["id"]
    assert a.post(f"{u}/leave").json()["status"] == "closed"
    assert host.post(f"{u}/leave").json()["detail"]["code"] == "not_open"


def test_draw_mode_shuffles_seats(sqlite_url: str, make_server: Any) -> None:
    srv = make_server(sqlite_url, bot_delay_seconds=600.0)  # the tables need not play
    seen = set()
    for _ in range(12):
        host, _ = srv.guest("Host")
        code = host.post("/api/lobbies", json={"seat_mode": "draw"}).json()["code"]
        for level in ("random", "efficient", "defensive"):
            host.post(f"/api/lobbies/{code}/bots", json={"level": level})
        game = host.post(f"/api/lobbies/{code}/start").json()["game"]
        seen.add(next(s["seat"] for s in game["seats"] if s["name"] == "Host"))
    assert len(seen) > 1  # 12 draws all putting the host in one seat: p = 4 * (1/4)**12


def test_unknown_code_and_join_rate_limit(sqlite_url: str, make_server: Any) -> None:
    srv = make_server(sqlite_url, join_rate_per_minute=5)
    a, _ = srv.guest("A")
    codes = [a.get("/api/lobbies/nope").status_code for _ in range(5)]
    assert codes == [404] * 5
    r = a.post("/api/lobbies/nope/join", json={})
    assert r.status_code == 429 and r.json()["detail"]["code"] == "rate_limited"
    assert int(r.headers["retry-after"]) >= 1


def test_guest_creation_rate_limit(sqlite_url: str, make_server: Any) -> None:
    srv = make_server(sqlite_url, guest_rate_per_minute=3)
    first, _ = srv.guest("G0")
    srv.guest("G1")
    srv.guest("G2")
    with httpx.Client(base_url=srv.http) as c:
        r = c.post("/api/guest", json={"name": "One too many"})
        assert r.status_code == 429, r.text
        assert r.json()["detail"] == {
            "code": "rate_limited",
            "message": "too many new guests from this address; try again shortly",
        }
        assert int(r.headers["retry-after"]) >= 1
        assert "set-cookie" not in r.headers
    # Nothing was made, and the guests made before still work.
    with srv.ctx.db.session() as s:
        assert s.scalar(select(func.count()).select_from(Player)) == 3
    assert first.get("/api/me").json()["name"] == "G0"


async def test_lobby_changes_pushed_live(srv: Any) -> None:
    host, _ = srv.guest("Host")
    a, ag = srv.guest("A")
    code = host.post("/api/lobbies", json={}).json()["code"]
    ws = await lobby_listener(srv.ws, code, ag["token"])

    versions: list[int] = []

    async def next_lobby() -> dict[str, Any]:
        msg = json.loads(await asyncio.wait_for(ws.recv(), 5))
        assert msg["type"] == "lobby"
        versions.append(msg["version"])
        return msg["lobby"]

    assert (await next_lobby())["slots"][1]["player"] is None
    a.post(f"/api/lobbies/{code}/join", json={"slot": 1})
    assert (await next_lobby())["slots"][1]["player"]["name"] == "A"
    host.post(f"/api/lobbies/{code}/bots", json={"level": "random"})
    assert (await next_lobby())["slots"][2]["bot"] == "random"
    a.post(f"/api/lobbies/{code}/ready", json={"ready": True})
    assert (await next_lobby())["slots"][1]["ready"] is True
    # every push one version on from the one before (docs/protocol.md)
    assert versions == list(range(versions[0], versions[0] + 4))
    await ws.send(json.dumps({"type": "resync"}))
    again = json.loads(await asyncio.wait_for(ws.recv(), 5))
    assert again["resync"] is True and again["version"] == versions[-1]
    assert again["lobby"]["slots"][1]["ready"] is True
    await ws.send("garbage")
    err = json.loads(await asyncio.wait_for(ws.recv(), 5))
    assert err["type"] == "error" and err["code"] == "bad_json"
    await ws.close()


def test_health_and_docs(srv: Any) -> None:
    with httpx.Client(base_url=srv.http) as c:
        h = c.get("/api/health").json()
        assert h["status"] == "ok" and h["database"] == "ok" and h["tables"] == 0
        # /docs is served from here, Swagger UI included: nothing from a CDN.
        docs = c.get("/docs", follow_redirects=True)
        assert docs.status_code == 200 and 'id="swagger-ui"' in docs.text
        assert "http:" not in docs.text and "https:" not in docs.text
        for asset in ("/docs/vendor/swagger-ui-bundle.js", "/docs/vendor/swagger-ui.css"):
            assert c.get(asset).status_code == 200
        assert "/openapi.json" in c.get("/docs/init.js").text
        paths = c.get("/openapi.json").json()["paths"]
        assert "/api/lobbies/{code}/start" in paths and "/api/games" in paths


def test_score_endpoint_is_served(srv: Any) -> None:
    """The score calculator's router is part of the app (its behaviour is tested with it)."""
    with httpx.Client(base_url=srv.http) as c:
        body = {"tiles": "234m406p55s789s111z", "win": "5s", "seat_wind": "S", "round_wind": "E"}
        r = c.post("/api/score", json=body)
        assert r.status_code == 200, r.text
        assert {"id": "yakuhai_round_wind", "han": 1} in r.json()["yaku"]


def test_rename_logout_and_remove_bot(srv: Any) -> None:
    host, hg = srv.guest("Host")
    assert host.patch("/api/me", json={"name": "  Aoi  "}).json() == {
        "id": hg["player"]["id"],
        "name": "Aoi",
    }
    assert host.patch("/api/me", json={"name": ""}).status_code == 422
    code = host.post("/api/lobbies", json={}).json()["code"]
    assert host.get(f"/api/lobbies/{code}").json()["slots"][0]["player"]["name"] == "Aoi"
    host.post(f"/api/lobbies/{code}/bots", json={"level": "random", "slot": 3})
    r = host.delete(f"/api/lobbies/{code}/bots/2")
    assert r.status_code == 404 and r.json()["detail"]["code"] == "not_found"
    assert host.delete(f"/api/lobbies/{code}/bots/3").json()["slots"][3]["bot"] is None
    r = host.post("/api/logout")
    assert r.status_code == 204 and "jantaku_token=" in r.headers["set-cookie"]
    assert host.get("/api/me").status_code == 401
