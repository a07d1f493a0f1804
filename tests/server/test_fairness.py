"""Provably fair walls: the commitment before the first hand, the seed after the end,
every wall re-derived from it (issue 18)."""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update

from server.cli import main
from server.db.models import Game
from server.db.session import Database
from server.settings import get_settings
from server.tables.fairness import verify_game
from tests.server.wsclient import TableClient


@pytest.fixture(autouse=True)
def fresh_settings() -> Iterator[None]:
    yield
    get_settings.cache_clear()


TONPUU = {"preset": "standard", "length": "tonpuu", "think_seconds": 0}


def finished_game(srv: Any, rules: dict[str, Any]) -> tuple[Any, int, dict[str, Any]]:
    """A game played to its end by a scripted player and three bots: (client, id, welcome)."""
    level = "random" if "nanchang" in rules["preset"] else "tsumogiri"
    client, guest = srv.guest("Solo")
    code = client.post("/api/lobbies", json={"rules": rules}).json()["code"]
    for _ in range(3):
        assert client.post(f"/api/lobbies/{code}/bots", json={"level": level}).status_code == 200
    started = client.post(f"/api/lobbies/{code}/start").json()["game"]
    game_id = started["id"]
    live = client.get(f"/api/games/{game_id}").json()
    assert live["status"] == "live" and "seed" not in live
    assert len(live["seed_commitment"]) == 64
    assert started["seed_commitment"] == live["seed_commitment"]

    async def play() -> dict[str, Any]:
        table = await TableClient.open(srv.ws, game_id, guest["token"])
        await table.play(timeout=30)
        await table.close()
        assert table.welcome is not None
        return table.welcome

    welcome = asyncio.run(play())
    assert welcome["seed_commitment"] == live["seed_commitment"]
    return client, game_id, welcome


@pytest.mark.parametrize("rules", [TONPUU, {"preset": "nanchang-east", "think_seconds": 0}])
def test_commitment_verified_after_the_game(
    db_url: str,
    make_server: Any,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    rules: dict[str, Any],
) -> None:
    srv = make_server(db_url)
    client, game_id, welcome = finished_game(srv, rules)
    for _ in range(100):
        game = client.get(f"/api/games/{game_id}").json()
        if game["status"] == "finished":
            break
        asyncio.run(asyncio.sleep(0.05))
    assert game["status"] == "finished"
    seed = bytes.fromhex(game["seed"])
    assert hashlib.sha256(seed).hexdigest() == welcome["seed_commitment"]
    report = verify_game(game, welcome["seed_commitment"])
    assert report.ok, report.problems
    assert report.rounds == sum(1 for e in game["events"] if e["type"] == "round_start") >= 4
    assert report.events == sum(1 for e in game["events"] if e["kind"] == "event")

    # The command: from the database, and from the API's JSON.
    monkeypatch.setenv("DATABASE_URL", db_url)
    monkeypatch.setenv("JANTAKU_SECRET", "x" * 48)
    get_settings.cache_clear()  # the command reads the environment just set
    assert (
        main(["log", "verify-seed", str(game_id), "--commitment", welcome["seed_commitment"]]) == 0
    )
    assert "walls derived and matched" in capsys.readouterr().out
    saved = tmp_path / "game.json"
    saved.write_text(json.dumps(game))
    assert main(["log", "verify-seed", str(game_id), "--json", str(saved)]) == 0
    # A commitment other than the one shown is refused.
    assert main(["log", "verify-seed", str(game_id), "--commitment", "0" * 64]) == 1
    assert "REFUSED" in capsys.readouterr().out

    # A seed changed after the game (by whoever holds the database) is refused: it
    # does not hash to what the players were shown, nor give the walls they played.
    forged = bytes([seed[0] ^ 1]) + seed[1:]
    db = Database(db_url)
    try:
        db.run(
            lambda s: s.execute(update(Game).where(Game.id == game_id).values(seed=forged.hex()))
        )
    finally:
        db.dispose()
    assert (
        main(["log", "verify-seed", str(game_id), "--commitment", welcome["seed_commitment"]]) == 1
    )
    assert main(["log", "verify-seed", str(game_id)]) == 1
    out = capsys.readouterr().out
    assert "REFUSED" in out and ("not the seed's" in out or "not the wall's" in out)
    tampered = {**game, "seed": forged.hex(), "seed_commitment": hashlib.sha256(forged).hexdigest()}
    report = verify_game(tampered)
    assert not report.ok and report.rounds == 0
