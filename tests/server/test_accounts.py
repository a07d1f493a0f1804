"""Accounts: claim a guest, sign in elsewhere, sessions, passwords, deletion (issue 18)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from tests.server.conftest import bot_table
from tests.server.wsclient import TableClient

PASSWORD = "correct horse battery"


def claim(client: httpx.Client, username: str, password: str = PASSWORD) -> httpx.Response:
    return client.post("/api/account/claim", json={"username": username, "password": password})


def new_device(srv: Any) -> httpx.Client:
    client = httpx.Client(base_url=srv.http, timeout=10)
    srv.clients.append(client)
    return client


def login(client: httpx.Client, username: str, password: str = PASSWORD) -> httpx.Response:
    return client.post("/api/account/login", json={"username": username, "password": password})


def test_claim_keeps_the_guest_and_refuses_twice(db_url: str, make_server: Any) -> None:
    srv = make_server(db_url)
    client, guest = srv.guest("Aoi")
    pid = guest["player"]["id"]
    assert client.get("/api/account").json() == {"id": pid, "name": "Aoi", "username": None}
    r = claim(client, "Aoi_99")
    assert r.status_code == 200, r.text
    assert r.json() == {"id": pid, "name": "Aoi", "username": "aoi_99"}
    # The claiming device stays signed in, by cookie and by its token.
    assert client.get("/api/me").json()["id"] == pid
    bearer = {"Authorization": f"Bearer {guest['token']}"}
    assert new_device(srv).get("/api/me", headers=bearer).json()["id"] == pid
    assert claim(client, "other").json()["detail"]["code"] == "already_claimed"
    other, _ = srv.guest("Ren")
    r = claim(other, "AOI_99")  # names are unique whatever their case
    assert r.status_code == 409 and r.json()["detail"]["code"] == "username_taken"
    assert claim(other, "x").status_code == 422  # too short
    assert claim(other, "ren", "short").status_code == 422
    assert other.get("/api/account").json()["username"] is None  # nothing changed


def test_sign_in_elsewhere_sees_the_guests_games(db_url: str, make_server: Any) -> None:
    srv = make_server(db_url)
    client, guest, game_id = bot_table(srv)
    pid = guest["player"]["id"]
    assert claim(client, "solo").status_code == 200
    phone = new_device(srv)
    r = login(phone, "SOLO")
    assert r.status_code == 200, r.text
    assert r.json()["player"]["id"] == pid
    assert phone.get("/api/me").json()["id"] == pid
    # The live game is theirs on the new device too (only its players may look it up).
    assert phone.get(f"/api/games/{game_id}").status_code == 200
    sessions = phone.get("/api/account/sessions").json()["sessions"]
    assert len(sessions) == 2 and [s["current"] for s in sessions] == [False, True]


def test_wrong_password_and_the_rate_limit(db_url: str, make_server: Any) -> None:
    srv = make_server(db_url, login_rate_per_minute=3)
    client, _ = srv.guest("Sora")
    assert claim(client, "sora").status_code == 200  # one attempt of the three
    device = new_device(srv)
    r = login(device, "sora", "wrong password")
    assert r.status_code == 401 and r.json()["detail"]["code"] == "bad_credentials"
    r = login(device, "nobody", PASSWORD)
    assert r.status_code == 401 and r.json()["detail"]["code"] == "bad_credentials"
    # The fourth attempt of the minute is refused, right password or not.
    r = login(device, "sora")
    assert r.status_code == 429 and "Retry-After" in r.headers
    assert device.get("/api/me").status_code == 401


def test_no_password_in_logs_or_errors(
    db_url: str, make_server: Any, caplog: pytest.LogCaptureFixture
) -> None:
    srv = make_server(db_url)
    client, _ = srv.guest("Hana")
    secret = "s3cret-never-logged"
    with caplog.at_level(logging.DEBUG):
        assert claim(client, "hana", secret).status_code == 200
        assert login(new_device(srv), "hana", secret + "x").status_code == 401
        r = client.post(
            "/api/account/claim", json={"username": "bad name!", "password": secret, "x": 1}
        )
        assert r.status_code == 422 and secret not in r.text
        r = client.post(
            "/api/account/password", json={"current_password": secret, "new_password": "s"}
        )
        assert r.status_code == 422 and secret not in r.text
    assert all(secret not in rec.getMessage() for rec in caplog.records)


def test_logout_revokes_one_session_and_closes_its_sockets(db_url: str, make_server: Any) -> None:
    srv = make_server(db_url)
    client, guest, game_id = bot_table(srv)
    assert claim(client, "solo").status_code == 200
    phone = new_device(srv)
    token = login(phone, "solo").json()["token"]

    async def scenario() -> None:
        table = await TableClient.open(srv.ws, game_id, token)
        assert table.seat is not None
        laptop = await TableClient.open(srv.ws, game_id, guest["token"], spectate=True)
        assert await asyncio.to_thread(phone.post, "/api/logout") is not None
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await table.recv(timeout=5)
        await table.close()  # the closing handshake ends: no socket left for the GC
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
        # The other device's socket goes on.
        await laptop.send({"type": "ping"})
        assert (await laptop.recv_type("pong", timeout=5))["type"] == "pong"
        await laptop.close()

    asyncio.run(scenario())
    assert phone.get("/api/me").status_code == 401
    assert client.get("/api/me").json()["id"] == guest["player"]["id"]
    assert len(client.get("/api/account/sessions").json()["sessions"]) == 1


def test_guest_logout_closes_its_sockets(db_url: str, make_server: Any) -> None:
    srv = make_server(db_url)
    client, guest, game_id = bot_table(srv)

    async def scenario() -> None:
        table = await TableClient.open(srv.ws, game_id, guest["token"])
        await asyncio.to_thread(client.post, "/api/logout")
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await table.recv(timeout=5)
        await table.close()  # the closing handshake ends: no socket left for the GC
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401

    asyncio.run(scenario())


def test_change_password_signs_out_the_other_devices(db_url: str, make_server: Any) -> None:
    srv = make_server(db_url)
    client, _ = srv.guest("Ren")
    assert claim(client, "ren").status_code == 200
    phone = new_device(srv)
    assert login(phone, "ren").status_code == 200
    sessions = client.get("/api/account/sessions").json()["sessions"]
    assert len(sessions) == 2
    r = client.post(
        "/api/account/password",
        json={"current_password": "not it at all", "new_password": "a new password"},
    )
    assert r.status_code == 403 and r.json()["detail"]["code"] == "wrong_password"
    r = client.post(
        "/api/account/password",
        json={"current_password": PASSWORD, "new_password": "a new password"},
    )
    assert r.status_code == 204
    assert phone.get("/api/me").status_code == 401
    assert client.get("/api/me").status_code == 200
    assert login(new_device(srv), "ren").status_code == 401
    assert login(new_device(srv), "ren", "a new password").status_code == 200


def test_revoke_a_session_by_id(db_url: str, make_server: Any) -> None:
    srv = make_server(db_url)
    client, _ = srv.guest("Ren")
    assert claim(client, "ren").status_code == 200
    phone = new_device(srv)
    assert login(phone, "ren").status_code == 200
    sessions = client.get("/api/account/sessions").json()["sessions"]
    other = next(s["id"] for s in sessions if not s["current"])
    assert client.delete(f"/api/account/sessions/{other}").status_code == 204
    assert phone.get("/api/me").status_code == 401
    assert client.delete(f"/api/account/sessions/{other}").status_code == 404
    # Another account's session is not found either.
    stranger, _ = srv.guest("Sora")
    assert claim(stranger, "sora").status_code == 200
    mine = client.get("/api/account/sessions").json()["sessions"][0]["id"]
    assert stranger.delete(f"/api/account/sessions/{mine}").status_code == 404
    assert client.get("/api/me").status_code == 200


def test_delete_account_keeps_its_games_anonymised(db_url: str, make_server: Any) -> None:
    srv = make_server(db_url)
    client, guest = srv.guest("Hana")
    pid = guest["player"]["id"]
    assert claim(client, "hana").status_code == 200
    r = client.post("/api/account/delete", json={"password": "wrong password"})
    assert r.status_code == 403
    assert client.post("/api/account/delete", json={"password": PASSWORD}).status_code == 204
    assert client.get("/api/me").status_code == 401
    assert login(new_device(srv), "hana").status_code == 401
    assert new_device(srv).get(f"/api/players/{pid}/stats").status_code == 404
    # The name is free again.
    again, _ = srv.guest("Hana2")
    assert claim(again, "hana").status_code == 200


def test_delete_is_refused_during_a_live_game(db_url: str, make_server: Any) -> None:
    srv = make_server(db_url)
    client, _, _ = bot_table(srv)
    assert claim(client, "solo").status_code == 200
    r = client.post("/api/account/delete", json={"password": PASSWORD})
    assert r.status_code == 409 and r.json()["detail"]["code"] == "game_live"
    assert client.get("/api/me").status_code == 200


def test_a_guest_plays_without_an_account(db_url: str, make_server: Any) -> None:
    srv = make_server(db_url)
    client, _, game_id = bot_table(srv)
    assert client.get("/api/account").json()["username"] is None
    assert client.get(f"/api/games/{game_id}").status_code == 200
    r = client.post(
        "/api/account/password", json={"current_password": "whatever1", "new_password": "whatever2"}
    )
    assert r.status_code == 409 and r.json()["detail"]["code"] == "not_claimed"
