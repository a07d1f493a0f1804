"""GET /api/games/{id}/analysis: imported and played games, privacy, errors."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.analysis import analyse, imported_moments
from server.db.models import Game
from server.engine.riichi.shanten import shanten
from server.engine.tiles import kind, parse_tile
from server.records.importer import import_log
from tests.server.test_history_api import upload
from tests.server.wsclient import TableClient

FIXTURES = Path(__file__).parents[1] / "fixtures"
MJLOG = FIXTURES / "mjx" / "mjlog" / "double-ron.mjlog"


def test_imported_game_analysis_over_http(db_url: str, make_server: Any) -> None:
    srv = make_server(db_url)
    client, _ = srv.guest("Reviewer")
    gid = upload(client, MJLOG.read_bytes(), "double-ron.mjlog").json()["id"]
    r = client.get(f"/api/games/{gid}/analysis", params={"seat": 2})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["seat"] == 2 and body["seats"] == 4 and len(body["summary"]) == 4
    game = import_log(MJLOG.read_bytes(), MJLOG.name)
    ours = analyse(imported_moments(game.events, game.rules))
    assert len(body["decisions"]) == len(ours.decisions[2])
    turns = [d for d in body["decisions"] if d["turn"]]
    assert turns
    for d in turns:
        assert d["actual"]["seat"] == 2
        for c in d["candidates"]:
            assert c["total"] == sum(x["left"] for x in c["ukeire"])
        if d["candidates"]:
            best = d["candidates"][0]
            assert all(best["shanten"] <= c["shanten"] for c in d["candidates"])
    # someone dealt in: the summary links to that discard, whose danger was rated
    # against the threats then (a riichi or three melds), or not rated without one
    ins = [k for s in body["summary"] for k in s["deal_ins"]]
    assert ins
    for k in ins:
        assert (k["level"] is None) == (not k["threats"])
    # the summary's counts are the analysis's
    for s, mine in zip(body["summary"], ours.summaries, strict=True):
        assert s["discards"] == mine.discards and s["agree_efficient"] == mine.agree_efficient
    # a 14-tile hand's shanten, checked on one decision by hand
    first = turns[0]
    hand_events = [
        e for e in client.get(f"/api/games/{gid}").json()["events"] if e["kind"] == "event"
    ]
    starts = [i for i, e in enumerate(hand_events) if e["type"] == "round_start"]
    evs = hand_events[starts[first["hand"]] : starts[first["hand"]] + first["event"]]
    tiles = next(
        e["data"]["tiles"] for e in evs if e["type"] == "haipai" and e["data"]["seat"] == 2
    )
    c = [0] * 34
    for t in tiles:
        c[kind(parse_tile(t))] += 1
    for e in evs:
        if e["type"] == "draw" and e["data"]["seat"] == 2:
            c[kind(parse_tile(e["data"]["tile"]))] += 1
        if e["type"] == "discard" and e["data"]["seat"] == 2:
            c[kind(parse_tile(e["data"]["tile"]))] -= 1
    if first["junme"] == 0:
        assert first["shanten"] == shanten(c)

    # errors: unknown game, bad seat, no seat lists only the summary
    assert client.get("/api/games/99999/analysis").status_code == 404
    bad = client.get(f"/api/games/{gid}/analysis", params={"seat": 7})
    assert bad.status_code == 422
    only = client.get(f"/api/games/{gid}/analysis").json()
    assert only["decisions"] == [] and len(only["summary"]) == 4


async def test_played_game_analysis_and_live_refusal(db_url: str, make_server: Any) -> None:
    srv = make_server(db_url)
    host, guest = srv.guest("Host")
    r = host.post(
        "/api/lobbies",
        json={"rules": {"preset": "standard", "length": "tonpuu", "think_seconds": 0}},
    )
    code = r.json()["code"]
    for _ in range(3):
        host.post(f"/api/lobbies/{code}/bots", json={"level": "efficient"})
    game_id = host.post(f"/api/lobbies/{code}/start").json()["game"]["id"]
    # live: refused to its players, unknown to anyone else
    live = host.get(f"/api/games/{game_id}/analysis", params={"seat": 0})
    assert live.status_code == 409 and live.json()["detail"]["code"] == "game_live"
    stranger, _ = srv.guest("Stranger")
    assert stranger.get(f"/api/games/{game_id}/analysis").status_code == 404
    player = await TableClient.open(srv.ws, game_id, guest["token"], name="Host")
    await asyncio.wait_for(player.play(timeout=30), 120)
    await player.close()
    deadline = time.monotonic() + 10
    while host.get(f"/api/games/{game_id}").json()["status"] != "finished":
        assert time.monotonic() < deadline
        await asyncio.sleep(0.1)
    detail = host.get(f"/api/games/{game_id}").json()
    bot_seat = next(s["seat"] for s in detail["seats"] if s["bot"] == "efficient")
    r = stranger.get(f"/api/games/{game_id}/analysis", params={"seat": bot_seat})
    assert r.status_code == 200, r.text
    body = r.json()
    # an efficient bot played this seat: every discard is the efficient bot's
    turns = [d for d in body["decisions"] if d["turn"] and d["candidates"]]
    assert turns and all(d["agree_efficient"] for d in turns)
    summary = next(s for s in body["summary"] if s["seat"] == bot_seat)
    assert summary["agree_efficient"] == summary["discards"] > 0
    # places point at the seat's own events in the stored stream
    events = [e for e in detail["events"] if e["kind"] == "event"]
    starts = [i for i, e in enumerate(events) if e["type"] == "round_start"]
    for d in turns:
        ev = events[starts[d["hand"]] + d["event"]]
        if d["actual"]["type"] in ("discard", "riichi"):
            assert ev["type"] == "discard" and ev["data"]["seat"] == bot_seat
            assert ev["data"]["tile"] == d["actual"]["tile"]


def test_nanchang_has_no_analysis(db_url: str, make_server: Any) -> None:
    srv = make_server(db_url)
    client, _ = srv.guest("N")
    r = client.post("/api/lobbies", json={"rules": {"preset": "nanchang"}})
    assert r.status_code == 200, r.text
    code = r.json()["code"]
    for _ in range(3):
        client.post(f"/api/lobbies/{code}/bots", json={"level": "efficient"})
    gid = client.post(f"/api/lobbies/{code}/start").json()["game"]["id"]
    # live first (refused as live), then marked over: refused as not analysable
    assert client.get(f"/api/games/{gid}/analysis").status_code == 409
    srv.ctx.db.run(lambda s: setattr(s.get(Game, gid), "status", "finished"))
    r = client.get(f"/api/games/{gid}/analysis")
    assert r.status_code == 422 and r.json()["detail"]["code"] == "not_analysable"


def test_concurrent_requests_analyse_a_game_once(
    db_url: str, make_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from concurrent.futures import ThreadPoolExecutor

    import server.api.analysis as route

    calls: list[int] = []
    real = route.run_analysis

    def counting(src: Any) -> Any:
        calls.append(1)
        return real(src)

    monkeypatch.setattr(route, "run_analysis", counting)
    srv = make_server(db_url)
    client, _ = srv.guest("Many")
    gid = upload(client, MJLOG.read_bytes(), "double-ron.mjlog").json()["id"]
    with ThreadPoolExecutor(4) as pool:
        codes = list(
            pool.map(
                lambda s: (
                    httpx.get(
                        f"{srv.http}/api/games/{gid}/analysis", params={"seat": s}, timeout=60
                    ).status_code
                ),
                [0, 1, 2, 3],
            )
        )
    assert codes == [200] * 4
    assert len(calls) == 1  # the others waited and found it cached
