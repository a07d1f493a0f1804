"""History routes: import upload, export downloads, lobby games; a server-played game exports."""

from __future__ import annotations

import asyncio
import json
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from server.api.history import MAX_UPLOAD_BYTES
from server.cli import main
from server.records.load import parse_log
from server.records.tenhou6 import parse_tenhou6
from tests.server.wsclient import TableClient

FIXTURES = Path(__file__).parents[1] / "fixtures"
DOUBLE_RON = FIXTURES / "mjai-reviewer" / "double_ron.json"
MJLOG = FIXTURES / "mjx" / "mjlog" / "double-ron.mjlog"


def upload(client: Any, data: bytes, filename: str = "log.json") -> Any:
    return client.post(
        "/api/games/import",
        params={"filename": filename},
        content=data,
        headers={"Content-Type": "application/octet-stream"},
    )


def test_import_shows_in_history_and_exports_back(db_url: str, make_server: Any) -> None:
    srv = make_server(db_url)
    client, guest = srv.guest("Importer")
    r = upload(client, DOUBLE_RON.read_bytes(), "double_ron.json")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["format"] == "tenhou6" and body["rounds"] == 1
    gid = body["id"]

    listed = client.get("/api/games").json()
    assert gid in [g["id"] for g in listed["games"]]
    detail = client.get(f"/api/games/{gid}").json()
    assert detail["status"] == "finished"
    assert [s["name"] for s in detail["seats"]] == ["Ⓢ福地誠", "Bさん", "Ⓟ石橋伸洋", "Ⓟ多井隆晴"]
    assert len(detail["hands"]) == 1 and detail["hands"][0]["kind"] == "agari"
    assert len(detail["hands"][0]["result"]["winners"]) == 2
    meta = [e for e in detail["events"] if e["kind"] == "import"]
    assert meta[0]["data"]["format"] == "tenhou6"
    assert meta[0]["data"]["log_id"] is None
    assert meta[0]["data"]["uploaded_by"] == guest["player"]["id"]
    imports = client.get("/api/history/imports", params={"ids": f"{gid},999"}).json()
    assert list(imports["imports"]) == [str(gid)]

    t6 = client.get(f"/api/games/{gid}/export", params={"format": "tenhou6"})
    assert t6.status_code == 200
    assert t6.headers["content-type"].startswith("application/json")
    assert t6.headers["content-disposition"] == f'attachment; filename="jantaku-{gid}.tenhou6.json"'
    doc = t6.json()
    original = json.loads(DOUBLE_RON.read_bytes())
    assert doc["log"] == original["log"]  # the engine's replay gives back Tenhou's own log
    assert doc["name"] == original["name"]

    mj = client.get(f"/api/games/{gid}/export", params={"format": "mjai"})
    assert mj.status_code == 200
    assert 'filename="jantaku-' in mj.headers["content-disposition"]
    lines = [json.loads(x) for x in mj.text.splitlines()]
    assert lines[0]["type"] == "start_game" and lines[-1]["type"] == "end_game"
    assert [e["actor"] for e in lines if e["type"] == "hora"] == [0, 2]


def test_import_mjlog_keeps_final_standings(db_url: str, make_server: Any) -> None:
    srv = make_server(db_url)
    client, _ = srv.guest("Importer")
    r = upload(client, MJLOG.read_bytes(), "double-ron.mjlog")
    assert r.status_code == 200, r.text
    gid = r.json()["id"]
    # The same game again (even by someone else) is refused, naming the stored one.
    other, _ = srv.guest("Second")
    again = upload(other, MJLOG.read_bytes(), "copy.mjlog")
    assert again.status_code == 409
    assert again.json()["detail"] == {
        "code": "duplicate",
        "message": f"this game was already imported as game {gid}",
    }
    assert client.get("/api/games").json()["total"] == 1
    detail = client.get(f"/api/games/{gid}").json()
    # The file's name is not a Tenhou log id: dated when imported.
    assert r.json()["played_at"] is None
    meta = next(e["data"] for e in detail["events"] if e["kind"] == "import")
    assert detail["ended_at"] == detail["started_at"]
    assert abs(_ts(detail["started_at"]) - _ts(meta["imported_at"])) < 5
    logged = parse_log(MJLOG.read_bytes())
    assert logged.final_scores is not None
    assert [s["final_points"] for s in detail["seats"]] == list(logged.final_scores)
    assert sorted(s["rank"] for s in detail["seats"]) == [1, 2, 3, 4]
    t6 = client.get(f"/api/games/{gid}/export", params={"format": "tenhou6"}).json()
    back = parse_tenhou6(json.dumps(t6).encode())
    assert back.final_scores == logged.final_scores


def _ts(iso: str) -> float:
    return datetime.fromisoformat(iso).timestamp()


def test_import_is_dated_by_its_tenhou_log_id(db_url: str, make_server: Any) -> None:
    """Listed by when it was played (the log id's hour, JST), not when it was imported."""
    srv = make_server(db_url)
    client, _ = srv.guest("Importer")
    name = "2010081709gm-00a9-0000-fe3371ad.mjlog"
    path = FIXTURES / "mjx" / "mjlog" / name
    r = upload(client, path.read_bytes(), name)
    assert r.status_code == 200, r.text
    assert r.json()["log_id"] == name.removesuffix(".mjlog")
    assert r.json()["played_at"] == "2010-08-17T00:00:00+00:00"
    gid = r.json()["id"]
    r2 = upload(client, DOUBLE_RON.read_bytes(), "double_ron.json")  # dated now
    listed = client.get("/api/games").json()["games"]
    assert [g["id"] for g in listed] == [r2.json()["id"], gid]  # newest play first
    detail = client.get(f"/api/games/{gid}").json()
    assert _ts(detail["started_at"]) == _ts(detail["ended_at"]) == _ts("2010-08-17T00:00:00Z")
    meta = next(e["data"] for e in detail["events"] if e["kind"] == "import")
    assert meta["log_id"] == "2010081709gm-00a9-0000-fe3371ad"
    assert time.time() - _ts(meta["imported_at"]) < 60
    # The export keeps Tenhou's log id as its ref; importing it again is the same game.
    t6 = client.get(f"/api/games/{gid}/export", params={"format": "tenhou6"})
    assert t6.json()["ref"] == "2010081709gm-00a9-0000-fe3371ad"
    assert t6.json()["title"] == ["Jantaku", f"game {gid} 2010-08-17"]
    again = upload(client, t6.content, "export.json")
    assert again.status_code == 409
    assert again.json()["detail"]["message"] == f"this game was already imported as game {gid}"


def test_import_errors(db_url: str, make_server: Any) -> None:
    srv = make_server(db_url)
    client, _ = srv.guest("Importer")
    import httpx

    with httpx.Client(base_url=srv.http) as anon:
        r = upload(anon, DOUBLE_RON.read_bytes())
        assert r.status_code == 401
    r = upload(client, b"")
    assert r.status_code == 400 and r.json()["detail"]["code"] == "empty"
    r = upload(client, b"this is not a log", "notes.txt")
    assert r.status_code == 422
    assert r.json()["detail"] == {
        "code": "invalid_log",
        "message": "notes.txt: neither mjlog XML nor tenhou.net/6 JSON",
    }
    bad = (FIXTURES / "mjai-reviewer" / "confusing_nakis_2.json").read_bytes()
    r = upload(client, bad, "nakis.json")
    assert r.status_code == 422
    assert "round E1-0 win 1" in r.json()["detail"]["message"]
    r = upload(client, b"{" + b" " * MAX_UPLOAD_BYTES + b"}")
    assert r.status_code == 413 and r.json()["detail"]["code"] == "too_large"
    # nothing was stored by the failed uploads
    assert client.get("/api/games").json()["total"] == 0


def test_export_errors(db_url: str, make_server: Any) -> None:
    srv = make_server(db_url)
    client, _ = srv.guest("Reader")
    r = client.get("/api/games/12345/export", params={"format": "tenhou6"})
    assert r.status_code == 404 and r.json()["detail"]["code"] == "not_found"
    gid = upload(client, DOUBLE_RON.read_bytes()).json()["id"]
    assert client.get(f"/api/games/{gid}/export", params={"format": "csv"}).status_code == 422
    assert client.get(f"/api/games/{gid}/export").status_code == 422
    assert client.get("/api/lobbies/NOSUCHCODE/games").status_code == 404


async def test_server_game_exports_and_verifies(
    db_url: str, make_server: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    srv = make_server(db_url)
    host, guest = srv.guest("Host")
    r = host.post(
        "/api/lobbies",
        json={"rules": {"preset": "standard", "length": "tonpuu", "think_seconds": 0}},
    )
    assert r.status_code == 200, r.text
    code = r.json()["code"]
    for _ in range(3):
        assert (
            host.post(f"/api/lobbies/{code}/bots", json={"level": "efficient"}).status_code == 200
        )
    r = host.post(f"/api/lobbies/{code}/start")
    assert r.status_code == 200, r.text
    game_id = r.json()["game"]["id"]
    # A live game's record holds concealed tiles: no export before the end.
    live = host.get(f"/api/games/{game_id}/export", params={"format": "tenhou6"})
    assert live.status_code == 409
    player = await TableClient.open(srv.ws, game_id, guest["token"], name="Host")
    await asyncio.wait_for(player.play(timeout=30), 120)
    await player.close()
    deadline = time.monotonic() + 10
    while host.get(f"/api/games/{game_id}").json()["status"] != "finished":
        assert time.monotonic() < deadline
        await asyncio.sleep(0.1)
    detail = host.get(f"/api/games/{game_id}").json()

    lobby_list = host.get(f"/api/lobbies/{code}/games").json()
    assert [g["id"] for g in lobby_list["games"]] == [game_id] and lobby_list["total"] == 1

    t6 = host.get(f"/api/games/{game_id}/export", params={"format": "tenhou6"})
    assert t6.status_code == 200
    doc = t6.json()
    assert len(doc["log"]) == len(detail["hands"])
    first_dealer = detail["first_dealer"]
    names = {s["seat"]: s["name"] for s in detail["seats"]}
    assert doc["name"] == [names[(p + first_dealer) % 4] for p in range(4)]
    # One title for the CLI and HTTP; integer sc (Tenhou's); the rules and the game id.
    assert doc["title"] == ["Jantaku", f"game {game_id} {detail['started_at'][:10]}"]
    assert all(type(x) is int for x in doc["sc"]) and sum(doc["sc"][1::2]) == 0
    # the game's rules, without what is the table's (the thinking time) or the variant
    table_keys = ("variant", "think_seconds", "bank_seconds")
    rules = {k: v for k, v in detail["rules"].items() if k not in table_keys}
    assert doc["jantaku"] == {"rules": rules, "game": game_id}
    assert "ref" not in doc  # only imported Tenhou games have one
    # Importing our own export: the original game, not a new one.
    again = upload(host, t6.content, "server-game.json")
    assert again.status_code == 409, again.text
    assert again.json()["detail"] == {
        "code": "duplicate",
        "message": f"this is an export of game {game_id}, which is here already",
    }
    # The same file with another game's id is no duplicate of it: imported as new.
    other = dict(doc, jantaku={"rules": doc["jantaku"]["rules"], "game": 999})
    fresh = upload(host, json.dumps(other, ensure_ascii=False).encode(), "other.json")
    assert fresh.status_code == 200, fresh.text
    stored = host.get(f"/api/games/{fresh.json()['id']}").json()
    assert stored["rules"] == rules  # uma and oka kept
    assert sorted(s["score"] for s in stored["seats"]) == sorted(
        s["score"] for s in detail["seats"]
    )
    path = tmp_path / "server-game.json"
    path.write_bytes(t6.content)
    assert main(["log", "verify", str(path)]) == 0
    n = len(detail["hands"])
    assert f"{n} rounds, {n} match" in capsys.readouterr().out

    mj = host.get(f"/api/games/{game_id}/export", params={"format": "mjai"})
    assert mj.status_code == 200
    lines = [json.loads(x) for x in mj.text.splitlines()]
    assert sum(e["type"] == "start_kyoku" for e in lines) == n
    assert lines[-1]["scores"] == [
        next(s["final_points"] for s in detail["seats"] if s["seat"] == (p + first_dealer) % 4)
        for p in range(4)
    ]
