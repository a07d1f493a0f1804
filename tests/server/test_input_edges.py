"""Any input gets a 4xx and changes nothing (issue 12's list of 500s), on both databases."""

from __future__ import annotations

import gzip
import unicodedata
from typing import Any

import pytest
from sqlalchemy import update

from server.api.schemas import clean_name
from server.db.models import Lobby
from server.db.session import Database


@pytest.fixture
def srv(db_url: str, make_server: Any) -> Any:
    return make_server(db_url)


BAD_NAMES = [
    "\ud800",  # a lone surrogate
    "Ao\x00i",  # NUL
    "Ao\u200bi",  # zero-width space
    "\u202eiaO",  # right-to-left override
    "\ufeffAoi",  # byte-order mark
    "\u200d\u200d",  # only joiners
    " \u3000 ",  # only spaces (ideographic included)
    "\u0301\u0301",  # only combining marks
    "Bot (efficient)",  # a bot's
    "bot (me)",
    "x" * 33,
    "",
]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_bad_names_get_422_on_create_and_rename(srv: Any, name: str) -> None:
    import json

    import httpx

    # As JSON text (a lone surrogate is a \u escape there, as any client would send it).
    body = json.dumps({"name": name})
    json_type = {"content-type": "application/json"}
    with httpx.Client(base_url=srv.http) as bare:
        r = bare.post("/api/guest", content=body, headers=json_type)
        assert r.status_code == 422, r.text
        assert r.json()["detail"]["code"] == "bad_input"
    client, _ = srv.guest("Fine")
    r = client.patch("/api/me", content=body, headers=json_type)
    assert r.status_code == 422, r.text
    assert client.get("/api/me").json()["name"] == "Fine"


def test_names_are_stored_in_nfc_and_trimmed(srv: Any) -> None:
    decomposed = "  Ryo\u0304ko  "  # o + combining macron
    client, g = srv.guest(decomposed)
    assert g["player"]["name"] == unicodedata.normalize("NFC", "Ryo\u0304ko") == "Ryōko"
    assert client.get("/api/me").json()["name"] == "Ryōko"
    assert clean_name("麻雀 ☆") == "麻雀 ☆"


def test_deep_json_and_big_numbers_are_4xx(srv: Any) -> None:
    client, _ = srv.guest("Edge")
    deep = "[" * 100_000 + "]" * 100_000
    r = client.post(
        "/api/score", content=deep[:16000], headers={"content-type": "application/json"}
    )
    assert r.status_code in (400, 413)
    nested = '{"tiles": ' + "[" * 5000 + "]" * 5000 + "}"
    r = client.post("/api/score", content=nested, headers={"content-type": "application/json"})
    assert r.status_code == 400
    r = client.post(
        "/api/lobbies",
        content='{"rules": ' + "[" * 5000 + "]" * 5000 + "}",
        headers={"content-type": "application/json"},
    )
    assert 400 <= r.status_code < 500
    huge = 2**63
    for path in (
        f"/api/games/{huge}",
        f"/api/games/{2**31}",
        f"/api/games/{huge}/export?format=mjai",
        f"/api/games?player={huge}",
        f"/api/games?offset={huge}",
        f"/api/history/imports?ids=1,{huge}",
        "/api/history/imports?ids=" + "9" * 40,
    ):
        r = client.get(path)
        assert 400 <= r.status_code < 500, (path, r.status_code, r.text)
    r = client.get(f"/api/history/imports?ids=1,{2**31}")
    assert r.status_code == 200 and r.json() == {"imports": {}}


def test_a_rules_name_override_is_refused_and_start_is_all_or_nothing(
    srv: Any, db_url: str
) -> None:
    host, _ = srv.guest("Host")
    r = host.post("/api/lobbies", json={"rules": {"preset": "standard", "name": "mine"}})
    assert r.status_code == 422 and r.json()["detail"]["code"] == "bad_rules"
    code = host.post("/api/lobbies", json={}).json()["code"]
    r = host.patch(f"/api/lobbies/{code}", json={"rules": {"preset": "tenhou", "name": "x"}})
    assert r.status_code == 422
    for _ in range(3):
        host.post(f"/api/lobbies/{code}/bots", json={"level": "tsumogiri"})
    # Rules stored by an older server that do not start: refused, the lobby stays open.
    db = Database(db_url)
    try:
        with db.session() as s:
            s.execute(
                update(Lobby)
                .where(Lobby.code == code)
                .values(rules={"name": "nope", "red_fives": 3})
            )
    finally:
        db.dispose()
    r = host.post(f"/api/lobbies/{code}/start")
    assert r.status_code == 422 and r.json()["detail"]["code"] == "bad_rules"
    lobby = host.get(f"/api/lobbies/{code}").json()
    assert lobby["status"] == "open" and lobby["game"] is None
    # ... and can be fixed and started, and left: nothing was stuck.
    assert host.patch(f"/api/lobbies/{code}", json={"rules": "standard"}).status_code == 200
    assert host.post(f"/api/lobbies/{code}/start").json()["status"] == "playing"


def test_a_gzip_bomb_is_refused_without_inflating_it(srv: Any) -> None:
    client, _ = srv.guest("Importer")
    bomb = gzip.compress(b'<mjloggm ver="2.3">' + b" " * (64 * 1024 * 1024), 9)
    assert len(bomb) < 100 * 1024
    r = client.post("/api/games/import", content=bomb)
    assert r.status_code == 422 and "decompresses to more than" in r.json()["detail"]["message"]
    broken = bomb[: len(bomb) // 2]
    r = client.post("/api/games/import", content=broken)
    assert r.status_code == 422


def test_the_gzip_cap_holds_memory_down() -> None:
    import tracemalloc

    from server.records.mjlog import gunzip_capped
    from server.records.model import RecordError

    bomb = gzip.compress(b"\0" * (200 * 1024 * 1024), 9)
    tracemalloc.start()
    with pytest.raises(RecordError):
        gunzip_capped(bomb, "bomb", cap=1024 * 1024)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 8 * 1024 * 1024
    assert gunzip_capped(gzip.compress(b"ab") + gzip.compress(b"cd"), "two") == b"abcd"
