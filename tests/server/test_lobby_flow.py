"""Getting back in (issue 15): your lobbies, rematch after a game, the lobby's
thinking time, and the spectator count players are shown."""

from __future__ import annotations

import asyncio
from typing import Any

from server.api.auth import watch_key
from tests.server.conftest import bot_table
from tests.server.wsclient import TableClient
from tests.short_game import SHORT

# One hand is enough to end it: with 1000 points any payment busts someone (tobi).


def _lobby(client: Any, rules: Any = SHORT) -> str:
    r = client.post("/api/lobbies", json={"rules": rules})
    assert r.status_code == 200, r.text
    code: str = r.json()["code"]
    return code


async def _play_to_end(srv: Any, game_id: int, token: str) -> dict[str, Any]:
    c = await TableClient.open(srv.ws, game_id, token)
    await c.play(timeout=60)
    await c.close()
    assert c.game_over is not None
    return c.game_over


def test_my_lobbies_lists_open_and_playing_lobbies_of_mine(db_url: str, make_server: Any) -> None:
    srv = make_server(db_url)
    host, hg = srv.guest("Host")
    other, _ = srv.guest("Other")
    stranger, _ = srv.guest("Stranger")
    open_code = _lobby(host)
    play_code = _lobby(host)
    for _ in range(3):
        assert host.post(f"/api/lobbies/{play_code}/bots", json={}).status_code == 200
    assert host.post(f"/api/lobbies/{play_code}/start").status_code == 200
    left_code = _lobby(host)
    assert host.post(f"/api/lobbies/{left_code}/leave").status_code == 200  # closes it
    other_code = _lobby(other)

    mine = host.get("/api/me/lobbies").json()["lobbies"]
    # Playing first, then the newest; closed lobbies and other people's are not listed.
    assert [x["code"] for x in mine] == [play_code, open_code]
    playing = mine[0]
    assert playing["status"] == "playing" and playing["game"]["status"] == "live"
    gid = playing["game"]["id"]
    assert playing["game"]["watch_path"] == f"/#/game/{gid}/{watch_key(srv.settings.secret, gid)}"
    assert [x["code"] for x in other.get("/api/me/lobbies").json()["lobbies"]] == [other_code]
    assert stranger.get("/api/me/lobbies").json() == {"lobbies": []}
    stranger.cookies.clear()
    r = stranger.get("/api/me/lobbies")
    assert r.status_code == 401 and r.json()["detail"]["code"] == "auth_required"
    assert hg["player"]["id"] == mine[0]["host_id"]


def test_a_lobby_without_a_timer_gets_the_friendly_one(db_url: str, make_server: Any) -> None:
    srv = make_server(db_url)
    host, _ = srv.guest("Host")
    for spec in ("tenhou", {"preset": "standard"}, {"preset": "majsoul", "length": "tonpuu"}):
        rules = host.get(f"/api/lobbies/{_lobby(host, spec)}").json()["rules"]
        assert (rules["think_seconds"], rules["bank_seconds"]) == (10, 60), spec
    # A timer that is given is kept, "none" included.
    rules = host.get(f"/api/lobbies/{_lobby(host, {'preset': 'tenhou', 'think_seconds': 0})}")
    assert rules.json()["rules"]["think_seconds"] == 0
    r = host.post("/api/lobbies", json={"rules": {"preset": "standard", "bank_seconds": 3}})
    assert (r.json()["rules"]["think_seconds"], r.json()["rules"]["bank_seconds"]) == (5, 3)


async def test_rematch_waits_for_every_human_then_keeps_seats(
    db_url: str, make_server: Any
) -> None:
    srv = make_server(db_url)
    host, hg = srv.guest("Host")
    guest, gg = srv.guest("Guest")
    code = host.post("/api/lobbies", json={"rules": SHORT, "seat_mode": "draw"}).json()["code"]
    u = f"/api/lobbies/{code}"
    assert guest.post(f"{u}/join", json={}).status_code == 200
    host.post(f"{u}/bots", json={"level": "tsumogiri"})
    host.post(f"{u}/bots", json={"level": "random"})
    guest.post(f"{u}/ready", json={"ready": True})
    r = host.post(f"{u}/start")
    assert r.status_code == 200, r.text
    first = r.json()["game"]
    seats = [(s["player_id"], s["bot"]) for s in first["seats"]]
    # Not before the game is over.
    r = guest.post(f"{u}/rematch", json={"game_id": first["id"]})
    assert r.status_code == 409 and r.json()["detail"]["code"] == "not_open"

    await asyncio.gather(
        _play_to_end(srv, first["id"], hg["token"]), _play_to_end(srv, first["id"], gg["token"])
    )
    lobby = host.get(u).json()
    assert lobby["status"] == "open" and lobby["game"]["id"] == first["id"]
    # Bad input changes nothing.
    for body in ({}, {"game_id": 0}, {"game_id": "x"}, {"game_id": first["id"], "x": 1}):
        assert host.post(f"{u}/rematch", json=body).status_code == 422
    r = host.post(f"{u}/rematch", json={"game_id": first["id"] + 7})
    assert r.status_code == 422 and r.json()["detail"]["code"] == "bad_input"
    outsider, _ = srv.guest("Outsider")
    r = outsider.post(f"{u}/rematch", json={"game_id": first["id"]})
    assert r.status_code == 403 and r.json()["detail"]["code"] == "not_member"
    assert host.get(u).json() == lobby

    # The host asks first: the guest has not, so the lobby waits (the host is ready).
    lobby = host.post(f"{u}/rematch", json={"game_id": first["id"]}).json()
    assert lobby["status"] == "open"
    ready = {s["player"]["id"]: s["ready"] for s in lobby["slots"] if s["player"]}
    assert ready == {hg["player"]["id"]: True, gg["player"]["id"]: False}
    # The guest's request completes it: a new game, same rules, same seats (draw mode
    # is not redrawn), bots included.
    lobby = guest.post(f"{u}/rematch", json={"game_id": first["id"]}).json()
    assert lobby["status"] == "playing"
    second = lobby["game"]
    assert second["id"] > first["id"] and second["status"] == "live"
    assert [(s["player_id"], s["bot"]) for s in second["seats"]] == seats
    assert host.get(f"/api/games/{second['id']}").json()["rules"] == lobby["rules"]
    # Asking again (a second click, the other screen) changes nothing.
    again = host.post(f"{u}/rematch", json={"game_id": first["id"]}).json()
    assert again["game"]["id"] == second["id"]


async def test_rematch_does_not_wait_for_people_who_left(db_url: str, make_server: Any) -> None:
    srv = make_server(db_url)
    host, hg = srv.guest("Host")
    guest, gg = srv.guest("Guest")
    u = f"/api/lobbies/{_lobby(host)}"
    guest.post(f"{u}/join", json={"slot": 1})
    host.post(f"{u}/bots", json={"level": "tsumogiri", "slot": 2})
    host.post(f"{u}/bots", json={"level": "tsumogiri", "slot": 3})
    guest.post(f"{u}/ready", json={"ready": True})
    game_id = host.post(f"{u}/start").json()["game"]["id"]

    await asyncio.gather(
        _play_to_end(srv, game_id, hg["token"]), _play_to_end(srv, game_id, gg["token"])
    )
    assert guest.post(f"{u}/leave").status_code == 200
    # The guest's seat is empty: nobody is forced in, the rematch waits for a fourth.
    lobby = host.post(f"{u}/rematch", json={"game_id": game_id}).json()
    assert lobby["status"] == "open" and lobby["slots"][1]["player"] is None
    r = guest.post(f"{u}/rematch", json={"game_id": game_id})
    assert r.status_code == 403 and r.json()["detail"]["code"] == "not_member"
    host.post(f"{u}/bots", json={"level": "efficient", "slot": 1})
    lobby = host.post(f"{u}/rematch", json={"game_id": game_id}).json()
    assert lobby["status"] == "playing"
    bots = [s["bot"] for s in lobby["game"]["seats"]]
    assert bots == [None, "efficient", "tsumogiri", "tsumogiri"]


async def test_players_are_told_how_many_watch(db_url: str, make_server: Any) -> None:
    srv = make_server(db_url)
    _, hg, game_id = bot_table(srv, {"preset": "standard", "think_seconds": 0})
    key = watch_key(srv.settings.secret, game_id)
    me = await TableClient.open(srv.ws, game_id, hg["token"])
    assert me.welcome is not None and me.welcome["spectators"] == 0
    w1 = await TableClient.open(srv.ws, game_id, None, watch=key)
    assert w1.welcome is not None and w1.welcome["spectators"] == 1
    assert (await me.recv_type("players"))["spectators"] == 1
    w2 = await TableClient.open(srv.ws, game_id, None, watch=key)
    assert (await me.recv_type("players"))["spectators"] == 2
    await w1.close()
    assert (await me.recv_type("players"))["spectators"] == 1
    await w2.close()
    assert (await me.recv_type("players"))["spectators"] == 0
    await me.close()


async def test_players_see_the_watchers_names(db_url: str, make_server: Any) -> None:
    srv = make_server(db_url)
    _, hg, game_id = bot_table(srv, {"preset": "standard", "think_seconds": 0})
    _, kg = srv.guest("Kai")
    key = watch_key(srv.settings.secret, game_id)
    me = await TableClient.open(srv.ws, game_id, hg["token"])
    assert me.welcome is not None and me.welcome["watchers"] == []
    kai = await TableClient.open(srv.ws, game_id, kg["token"], watch=key)
    # the guest's display name, from its token; a watcher's welcome has no names
    assert kai.welcome is not None and "watchers" not in kai.welcome
    assert (await me.recv_type("players"))["watchers"] == ["Kai"]
    anon = await TableClient.open(srv.ws, game_id, None, watch=key)
    got = await me.recv_type("players")
    assert got["spectators"] == 2 and got["watchers"] == ["Kai"]
    await kai.close()
    got = await me.recv_type("players")
    assert got["spectators"] == 1 and got["watchers"] == []
    await anon.close()
    await me.close()


def test_a_new_host_starts_without_a_rematch_request(db_url: str, make_server: Any) -> None:
    srv = make_server(db_url)
    host, _ = srv.guest("Host")
    guest, gg = srv.guest("Guest")
    u = f"/api/lobbies/{_lobby(host)}"
    guest.post(f"{u}/join", json={})
    assert guest.post(f"{u}/ready", json={"ready": True}).json()["slots"][1]["ready"]
    lobby = host.post(f"{u}/leave").json()
    # The host role passes on; the heir's ready flag (a host's is a rematch request) clears.
    assert lobby["host_id"] == gg["player"]["id"] and not lobby["slots"][1]["ready"]
