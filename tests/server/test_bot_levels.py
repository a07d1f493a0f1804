"""Bot levels in the lobby: strong, and the operator's external mjai bots
(JANTAKU_MJAI_BOTS), which a game then seats through the table's bot factory."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from server.settings import Settings, SettingsError

BOT = Path(__file__).resolve().parents[1] / "external" / "tsumogiri_mjai.py"


def test_levels_are_listed_and_external_bots_seat_in_riichi_lobbies(
    sqlite_url: str, make_server: Any
) -> None:
    srv = make_server(sqlite_url, bot_delay_seconds=600.0, mjai_bots=f"tiny={sys.executable} {BOT}")
    host, _ = srv.guest("Host")
    levels = host.get("/api/bots").json()
    assert levels["external"] == ["mjai-tiny"]
    assert levels["levels"][0] == "strong" and "defensive" in levels["levels"]
    code = host.post("/api/lobbies", json={"rules": {"preset": "tenhou"}}).json()["code"]
    u = f"/api/lobbies/{code}/bots"
    assert host.post(u, json={"level": "strong"}).status_code == 200
    lobby = host.post(u, json={"level": "mjai-tiny"}).json()
    assert sorted(s["bot"] for s in lobby["slots"] if s.get("bot")) == ["mjai-tiny", "strong"]
    for bad in ("mjai-nope", "mortal", "", "x" * 40):
        r = host.post(u, json={"level": bad})
        assert r.status_code in (400, 422), (bad, r.text)
    nan = host.post("/api/lobbies", json={"rules": {"preset": "nanchang"}}).json()["code"]
    r = host.post(f"/api/lobbies/{nan}/bots", json={"level": "mjai-tiny"})
    assert r.status_code == 422 and "four-player riichi" in r.json()["detail"]["message"]


def test_the_registry_is_checked_with_the_settings() -> None:
    assert Settings(mjai_bots="a=python x.py; b=lines:mortal").mjai_bots
    for bad in ("nocommand", "a b=cmd", "x=1;x=2"):
        with pytest.raises((SettingsError, ValueError), match="JANTAKU_MJAI_BOTS"):
            Settings(mjai_bots=bad)
    with pytest.raises((SettingsError, ValueError), match="TIMEOUT"):
        Settings(mjai_timeout_seconds=0)
