"""Lobbies of every game: the seat count and the bot levels come from the lobby's game,
and the host may change the game before the start (SQLite and PostgreSQL)."""

from __future__ import annotations

from typing import Any

import pytest

from server.bots import LEVELS


@pytest.fixture
def srv(db_url: str, make_server: Any) -> Any:
    return make_server(db_url)


def _lobby(client: Any, rules: Any) -> tuple[str, dict[str, Any]]:
    r = client.post("/api/lobbies", json={"rules": rules})
    assert r.status_code == 200, r.text
    lobby = r.json()
    return f"/api/lobbies/{lobby['code']}", lobby


def test_variants_list_every_game_with_its_presets_seats_and_levels(srv: Any) -> None:
    client, _ = srv.guest("Aoi")
    r = client.get("/api/variants")
    assert r.status_code == 200
    games = {v["key"]: v for v in r.json()["variants"]}
    assert {k: v["seats"] for k, v in games.items()} == {"riichi": 4, "sanma": 3, "nanchang": 4}
    assert [p["name"] for p in games["sanma"]["presets"]] == ["tenhou-sanma", "majsoul-sanma"]
    assert [p["name"] for p in games["nanchang"]["presets"]] == ["nanchang", "nanchang-east"]
    assert games["nanchang"]["bot_levels"] == ["random", "efficient"]
    assert games["riichi"]["bot_levels"] == list(LEVELS["riichi"])
    # A preset's rules are what a lobby of that name stores.
    preset = games["sanma"]["presets"][0]
    _, lobby = _lobby(client, preset["name"])
    assert lobby["rules"] == preset["rules"]


def test_a_sanma_lobby_has_three_seats_and_starts_with_three(srv: Any) -> None:
    host, _ = srv.guest("Host")
    u, lobby = _lobby(host, {"preset": "tenhou-sanma", "length": "tonpuu"})
    assert (lobby["variant"], lobby["seats"]) == ("sanma", 3)
    assert [s["slot"] for s in lobby["slots"]] == [0, 1, 2]
    assert lobby["bot_levels"] == list(LEVELS["sanma"])
    r = host.post(f"{u}/bots", json={"level": "tsumogiri", "slot": 3})
    assert r.status_code == 422 and "0..2" in r.json()["detail"]["message"]
    r = host.post(f"{u}/start")
    assert r.status_code == 409 and "3 players or bots" in r.json()["detail"]["message"]
    host.post(f"{u}/bots", json={"level": "tsumogiri"})
    host.post(f"{u}/bots", json={"level": "defensive"})
    r = host.post(f"{u}/bots", json={"level": "random"})
    assert r.status_code == 409 and r.json()["detail"]["code"] == "lobby_full"
    late, _ = srv.guest("Late")
    r = late.post(f"{u}/join", json={})
    assert r.status_code == 409 and r.json()["detail"]["code"] == "lobby_full"
    r = host.post(f"{u}/start")
    assert r.status_code == 200, r.text
    game = r.json()["game"]
    assert [s["seat"] for s in game["seats"]] == [0, 1, 2]
    # The first dealer is counted round three seats.
    assert game["first_dealer"] == (sum(game["dice"]) - 1) % 3
    detail = host.get(f"/api/games/{game['id']}").json()
    assert detail["rules"]["variant"] == "sanma" and len(detail["seats"]) == 3


def test_bot_levels_are_the_games_and_others_are_refused(srv: Any) -> None:
    host, _ = srv.guest("Host")
    u, lobby = _lobby(host, "nanchang-east")
    assert (lobby["variant"], lobby["seats"]) == ("nanchang", 4)
    assert lobby["bot_levels"] == ["random", "efficient"]
    for level in ("defensive", "tsumogiri", "genius"):
        r = host.post(f"{u}/bots", json={"level": level})
        assert r.status_code == 422, r.text
        detail = r.json()["detail"]
        assert detail["code"] == "bad_input"
        assert "random, efficient" in detail["message"] and level in detail["message"]
    assert host.get(u).json()["slots"] == lobby["slots"]  # nothing changed
    r = host.post(f"{u}/bots", json={"level": "x" * 33})
    assert r.status_code == 422
    for level in ("random", "efficient", "efficient"):
        assert host.post(f"{u}/bots", json={"level": level}).status_code == 200
    r = host.post(f"{u}/start")
    assert r.status_code == 200, r.text
    bots = [s["bot"] for s in r.json()["game"]["seats"]]
    assert bots == [None, "random", "efficient", "efficient"]


def test_the_host_changes_the_game_bots_past_the_seats_go(srv: Any) -> None:
    host, _ = srv.guest("Host")
    a, _ = srv.guest("A")
    u, _ = _lobby(host, "standard")
    assert a.post(f"{u}/join", json={"slot": 1}).status_code == 200
    host.post(f"{u}/bots", json={"level": "defensive", "slot": 2})
    host.post(f"{u}/bots", json={"level": "tsumogiri", "slot": 3})
    a.post(f"{u}/ready", json={"ready": True})
    # Sanma has three seats: the bot in the fourth goes, the rest stay.
    r = host.patch(u, json={"rules": "tenhou-sanma"})
    assert r.status_code == 200, r.text
    lobby = r.json()
    assert (lobby["variant"], lobby["seats"], len(lobby["slots"])) == ("sanma", 3, 3)
    assert [s["bot"] for s in lobby["slots"]] == [None, None, "defensive"]
    assert not lobby["slots"][1]["ready"]  # the rules changed: ready again
    # Nanchang has no defensive bot: it becomes the level every game has.
    lobby = host.patch(u, json={"rules": {"preset": "nanchang", "rounds": 1}}).json()
    assert (lobby["variant"], lobby["seats"]) == ("nanchang", 4)
    assert [s["bot"] for s in lobby["slots"]] == [None, None, "efficient", None]
    assert lobby["rules"]["rounds"] == 1
    # Options of another game are refused with the game's own message.
    r = host.patch(u, json={"rules": {"preset": "nanchang", "kuitan": False}})
    assert r.status_code == 422 and r.json()["detail"]["code"] == "bad_rules"
    assert host.get(u).json()["rules"] == lobby["rules"]


def test_a_person_in_a_seat_the_new_game_lacks_refuses_the_change(srv: Any) -> None:
    host, _ = srv.guest("Host")
    a, _ = srv.guest("Aki")
    u, _ = _lobby(host, "standard")
    assert a.post(f"{u}/join", json={"slot": 3}).status_code == 200
    host.post(f"{u}/bots", json={"level": "random", "slot": 1})
    a.post(f"{u}/ready", json={"ready": True})
    before = host.get(u).json()
    r = host.patch(u, json={"rules": "majsoul-sanma"})
    assert r.status_code == 409
    detail = r.json()["detail"]
    assert detail["code"] == "seat_occupied"
    assert "Aki" in detail["message"] and "seat 4" in detail["message"]
    assert host.get(u).json() == before  # nothing changed, not even the ready flags
    # Once the person moves, the change goes through.
    assert a.post(f"{u}/seat", json={"slot": 2}).status_code == 200
    r = host.patch(u, json={"rules": "majsoul-sanma"})
    assert r.status_code == 200, r.text
    assert [s["player"]["name"] if s["player"] else s["bot"] for s in r.json()["slots"]] == [
        "Host",
        "random",
        "Aki",
    ]
    # A seat past the count cannot be taken.
    r = a.post(f"{u}/seat", json={"slot": 3})
    assert r.status_code == 422 and "3 seats" in r.json()["detail"]["message"]
