"""GET /api/players/{id}/stats, GET /api/leaderboard, the history's stats line (issue 18)."""

from __future__ import annotations

from typing import Any

from server.db import games
from server.db.models import Game, GameSeat
from server.db.session import Database
from server.tables.sink import SeatResult


def _accounts(srv: Any, n: int) -> list[tuple[Any, int]]:
    out = []
    for i in range(n):
        client, g = srv.guest(f"P{i}")
        r = client.post("/api/account/claim", json={"username": f"player{i}", "password": "x" * 10})
        assert r.status_code == 200, r.text
        out.append((client, g["player"]["id"]))
    return out


def _finish(db_url: str, pids: list[int], ranks: list[int]) -> int:
    def work(s: Any) -> int:
        g = Game(rules={"variant": "riichi"}, seed="ab" * 32, first_dealer=0, dice=[1, 2])
        for seat, pid in enumerate(pids):
            g.seats.append(GameSeat(seat=seat, player_id=pid, name=f"P{seat}"))
        s.add(g)
        s.flush()
        results = [SeatResult(i, 30000 - 5000 * r, r, 0.0) for i, r in enumerate(ranks)]
        games.finish_game(s, g.id, results, "finished")
        return int(g.id)

    db = Database(db_url)
    try:
        return db.run(work)
    finally:
        db.dispose()


def test_stats_leaderboard_and_history_line(db_url: str, make_server: Any) -> None:
    srv = make_server(db_url, login_rate_per_minute=100)
    people = _accounts(srv, 5)
    pids = [pid for _, pid in people]
    gid = _finish(db_url, pids[:4], [2, 1, 4, 3])
    client0 = people[0][0]

    stats = client0.get(f"/api/players/{pids[1]}/stats").json()
    assert stats["player"] == {"id": pids[1], "name": "P1", "username": "player1"}
    riichi = stats["games"]["riichi"]
    assert (
        riichi["games"] == 1 and riichi["average_rank"] == 1.0 and riichi["ranks"] == [1, 0, 0, 0]
    )
    assert riichi["rounds"] == 0 and riichi["win_rate"] is None  # no rounds in this record
    assert stats["ratings"]["riichi"]["games"] == 1
    assert (
        stats["ratings"]["riichi"]["rating"]
        > client0.get(f"/api/players/{pids[2]}/stats").json()["ratings"]["riichi"]["rating"]
    )
    assert client0.get("/api/players/999999/stats").status_code == 404
    assert client0.get("/api/players/0/stats").status_code == 422

    board = client0.get("/api/leaderboard").json()
    assert board["game"] == "riichi"
    assert [e["player_id"] for e in board["entries"]] == [pids[1], pids[0], pids[3], pids[2]]
    assert [e["place"] for e in board["entries"]] == [1, 2, 3, 4]
    # Someone who played with nobody sees nobody; a game never played is empty.
    assert people[4][0].get("/api/leaderboard").json()["entries"] == []
    assert client0.get("/api/leaderboard", params={"game": "sanma"}).json()["entries"] == []
    assert client0.get("/api/leaderboard", params={"game": "chess"}).status_code == 422
    assert srv.guest("anon")[0].get("/api/leaderboard").json()["entries"] == []

    listed = client0.get("/api/games", params={"player": pids[0]}).json()["games"]
    assert [g["id"] for g in listed] == [gid]
    assert listed[0]["stats"]["rank"] == 2
    assert listed[0]["seed_commitment"] is not None
    assert "stats" not in client0.get("/api/games").json()["games"][0]
