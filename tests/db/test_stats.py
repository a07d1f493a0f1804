"""Stats summaries, their sums and the ratings, on recorded games (issue 18)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from server.db import accounts, games, stats
from server.db.imported import store_imported
from server.db.models import Game, GameSeat, Player, PlayerGameStats, Rating
from server.db.session import Database
from server.records.importer import import_log
from server.tables.sink import SeatResult

FIXTURES = Path(__file__).parents[1] / "fixtures"
LOGS = [
    "mjai-reviewer/double_ron.json",
    "mjai-reviewer/ranked_game.json",
    "mjai-reviewer/chankan.json",
    "mjai-reviewer/complex_nakis_0.json",
    "mjai-reviewer/rinshan.json",
    "mjai-reviewer/ryukyoku.json",
    "majsoul-sanma/nukidora_doubleron.json",
    "majsoul-sanma/chankan.json",
]


def _players(s: Session, n: int, claimed: bool = False) -> list[int]:
    out = []
    for i in range(n):
        p = Player(name=f"P{i}", token_hash=f"{i}-{id(s)}-{claimed}".ljust(64, "x")[:64])
        if claimed:
            p.username, p.password_hash = f"p{i}-{id(s) % 9999}", "argon2-hash"
        s.add(p)
        s.flush()
        out.append(p.id)
    return out


def _imported(s: Session, name: str) -> tuple[int, list[int]]:
    """The recorded game of a fixture log, its seats held by new players, summarised."""
    game = import_log((FIXTURES / name).read_bytes(), name)
    gid = store_imported(s, game, None)
    g = s.get(Game, gid)
    assert g is not None
    pids = _players(s, len(g.seats))
    for gs, pid in zip(g.seats, pids, strict=True):
        gs.player_id = pid
        if gs.rank is None:  # a log cut short: any order will do for these figures
            gs.rank, gs.final_points, gs.score = gs.seat + 1, 0, 0.0
    s.flush()
    assert stats.write_summaries(s, g) == len(pids)
    assert stats.write_summaries(s, g) == 0  # never twice
    return gid, pids


def _by_hand(name: str) -> list[dict[str, int]]:
    """The figures per seat read off the tenhou.net/6 log itself, without the engine:
    wins, tsumo and deal-ins from the results, the points from the result text,
    riichi from the "r" discards, call rounds from the calls among the draws."""
    log = json.loads((FIXTURES / name).read_bytes())["log"]
    seats = 3 if all(not r[4 + 3 * 3] for r in log) else 4
    out = [
        dict.fromkeys(
            (
                "rounds",
                "wins",
                "tsumo",
                "deal_ins",
                "riichi",
                "calls",
                "win_points",
                "deal_in_points",
            ),
            0,
        )
        for _ in range(seats)
    ]
    for r in log:
        result = r[-1]
        for s in range(seats):
            out[s]["rounds"] += 1
            takes, discards = r[5 + 3 * s], r[6 + 3 * s]
            if any(isinstance(t, str) and re.search("[cpm]", t) for t in takes):
                out[s]["calls"] += 1
            riichi = [d for d in discards if isinstance(d, str) and d.startswith("r")]
            out[s]["riichi"] += len(riichi)
        if result[0] != "和了":
            continue
        dealt_in = set()
        for info in result[2::2]:
            who, src, text = info[0], info[1], info[3]
            m = re.search(r"(\d+)-(\d+)点", text)
            if m:  # non-dealer tsumo: each other non-dealer pays the first, the dealer the second
                points = int(m[1]) * (seats - 2) + int(m[2])
            else:
                value = int(re.search(r"(\d+)点", text)[1])  # type: ignore[index]
                points = value * (seats - 1) if "∀" in text else value
            out[who]["wins"] += 1
            out[who]["win_points"] += points
            if who == src:
                out[who]["tsumo"] += 1
            else:
                out[src]["deal_in_points"] += points
                dealt_in.add(src)
        for s in dealt_in:
            out[s]["deal_ins"] += 1
            last = [d for d in r[6 + 3 * s] if d != 0][-1]
            if isinstance(last, str) and last.startswith("r"):
                out[s]["riichi"] -= 1  # won on the declaration tile: no riichi was made
    return out


def test_double_ron_by_hand(db_url: str) -> None:
    """The mjai-reviewer double ron: seat 0 (riichi) rons 12000, seat 2 rons 2000,
    both off seat 3, whose riichi declaration tile it was (no riichi made); seat 2
    had called."""
    db = Database(db_url)
    try:
        with db.session() as s:
            gid, pids = _imported(s, "mjai-reviewer/double_ron.json")
            rows = {
                r.seat: r
                for r in s.scalars(select(PlayerGameStats).where(PlayerGameStats.game_id == gid))
            }
            got = [
                (r.rounds, r.wins, r.tsumo, r.deal_ins, r.win_points, r.deal_in_points)
                for _, r in sorted(rows.items())
            ]
            assert got == [
                (1, 1, 0, 0, 12000, 0),
                (1, 0, 0, 0, 0, 0),
                (1, 1, 0, 0, 2000, 0),
                (1, 0, 0, 1, 0, 14000),
            ]
            assert rows[0].riichi == 1 and sum(r.riichi for r in rows.values()) == 1
            assert [r.kind for r in rows.values()] == ["riichi"] * 4
            figures = stats.player_stats(s, pids[3])["riichi"]
            assert figures["deal_in_rate"] == 1.0 and figures["average_deal_in"] == 14000
            assert figures["win_rate"] == 0.0 and figures["tsumo_share"] is None
    finally:
        db.dispose()


@pytest.mark.parametrize("name", LOGS)
def test_summaries_match_the_log_read_by_hand(sqlite_url: str, name: str) -> None:
    from server.db import migrate

    migrate.upgrade(sqlite_url)
    db = Database(sqlite_url)
    try:
        with db.session() as s:
            gid, _ = _imported(s, name)
            rows = sorted(
                s.scalars(select(PlayerGameStats).where(PlayerGameStats.game_id == gid)),
                key=lambda r: r.seat,
            )
            want = _by_hand(name)
            got = [{k: getattr(r, k) for k in want[0]} for r in rows]
            assert got == want
            assert {r.kind for r in rows} == {"sanma" if "sanma" in name else "riichi"}
    finally:
        db.dispose()


def _finished(s: Session, pids: list[int], ranks: list[int], kind: str = "riichi") -> int:
    """A finished game of these players (rank per seat), ended through ``finish_game``."""
    g = Game(rules={"variant": kind}, seed="00", first_dealer=0, dice=[1, 1], status="live")
    for seat, pid in enumerate(pids):
        g.seats.append(GameSeat(seat=seat, player_id=pid, name=f"P{seat}"))
    s.add(g)
    s.flush()
    results = [
        SeatResult(seat, 25000 + 10000 * (2 - rank), rank, 10.0 * (2.5 - rank))
        for seat, rank in enumerate(ranks)
    ]
    games.finish_game(s, g.id, results, "finished")
    s.flush()
    return g.id


def test_sums_over_games_and_placements(db_url: str) -> None:
    db = Database(db_url)
    try:
        with db.session() as s:
            _, pids = _imported(s, "mjai-reviewer/double_ron.json")
            # The same four in a second recorded game.
            game = import_log((FIXTURES / "mjai-reviewer/chankan.json").read_bytes(), "c")
            g = s.get(Game, store_imported(s, game, None))
            assert g is not None
            for gs, pid in zip(g.seats, pids, strict=True):
                gs.player_id = pid
                gs.rank, gs.final_points, gs.score = 4 - gs.seat, 0, 0.0
            s.flush()
            stats.write_summaries(s, g)
            one = [
                r
                for r in s.scalars(
                    select(PlayerGameStats).where(PlayerGameStats.player_id == pids[0])
                )
            ]
            assert len(one) == 2
            f = stats.player_stats(s, pids[0])["riichi"]
            rounds = sum(r.rounds for r in one)
            wins = sum(r.wins for r in one)
            assert f["games"] == 2 and f["rounds"] == rounds
            assert f["average_rank"] == pytest.approx(sum(r.rank for r in one) / 2)
            assert sum(f["ranks"]) == 2 and len(f["ranks"]) == 4
            assert f["win_rate"] == round(wins / rounds, 4)
            assert f["average_win"] == round(sum(r.win_points for r in one) / wins)
    finally:
        db.dispose()


def test_ratings_move_the_right_way(db_url: str) -> None:
    db = Database(db_url)
    try:
        with db.session() as s:
            pids = _players(s, 4, claimed=True)
            _finished(s, pids, [1, 2, 3, 4])
            r = {x.player_id: x for x in s.scalars(select(Rating).where(Rating.kind == "riichi"))}
            assert set(r) == set(pids)
            mu = [r[p].mu for p in pids]
            assert mu[0] > mu[1] > 25.0 > mu[2] > mu[3]  # first gains most, last loses most
            assert all(r[p].sigma < 25 / 3 and r[p].games == 1 for p in pids)
            # The last now wins: they go up, the old first goes down.
            before = {p: r[p].mu for p in pids}
            _finished(s, pids, [4, 3, 2, 1])
            s.expire_all()
            after = {x.player_id: x.mu for x in s.scalars(select(Rating))}
            assert after[pids[3]] > before[pids[3]] and after[pids[0]] < before[pids[0]]
            # A game with one account and guests does not rate anyone; sanma has its own.
            guests = _players(s, 2)
            _finished(s, [pids[0], *guests], [1, 2, 3], kind="sanma")
            assert s.scalar(select(Rating).where(Rating.kind == "sanma")) is None
            _finished(s, pids[:3], [3, 1, 2], kind="sanma")
            sanma = {
                x.player_id: x.mu for x in s.scalars(select(Rating).where(Rating.kind == "sanma"))
            }
            assert sanma[pids[1]] > sanma[pids[2]] > sanma[pids[0]]
    finally:
        db.dispose()


def test_backfill_summarises_older_games_once(db_url: str) -> None:
    db = Database(db_url)
    try:
        with db.session() as s:
            gid, _pids = _imported(s, "mjai-reviewer/ranked_game.json")
            want = {r.seat: r.wins for r in s.scalars(select(PlayerGameStats))}
            s.query(PlayerGameStats).delete()
            s.commit()
        assert db.run(stats.backfill) == 4
        assert db.run(stats.backfill) == 0
        with db.session() as s:
            got = {
                r.seat: r.wins
                for r in s.scalars(select(PlayerGameStats).where(PlayerGameStats.game_id == gid))
            }
            assert got == want
    finally:
        db.dispose()


def test_deleted_account_leaves_its_games_anonymised(db_url: str) -> None:
    db = Database(db_url)
    try:
        with db.session() as s:
            pids = _players(s, 4, claimed=True)
            gid = _finished(s, pids, [1, 2, 3, 4])
            accounts.delete_account(s, pids[0], "dead".ljust(64, "0"))
            seat = s.scalar(select(GameSeat).where(GameSeat.game_id == gid, GameSeat.seat == 0))
            assert seat is not None and seat.player_id is None and seat.name == accounts.ANONYMOUS
            assert seat.rank == 1  # the game itself is unchanged
            assert (
                s.scalar(select(PlayerGameStats).where(PlayerGameStats.player_id == pids[0]))
                is None
            )
            assert s.scalar(select(Rating).where(Rating.player_id == pids[0])) is None
            assert stats.player_stats(s, pids[1])["riichi"]["games"] == 1
            p = s.get(Player, pids[0])
            assert p is not None and p.username is None and p.deleted_at is not None
    finally:
        db.dispose()


def test_backfill_command(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from server.cli import main
    from server.db import migrate
    from server.settings import get_settings

    migrate.upgrade(sqlite_url)
    db = Database(sqlite_url)
    try:
        with db.session() as s:
            _imported(s, "mjai-reviewer/double_ron.json")
            s.query(PlayerGameStats).delete()
            s.commit()
    finally:
        db.dispose()
    monkeypatch.setenv("DATABASE_URL", sqlite_url)
    get_settings.cache_clear()
    try:
        assert main(["db", "backfill-stats"]) == 0
        assert capsys.readouterr().out.strip() == "4 stats summaries written"
        assert main(["db", "backfill-stats"]) == 0
        assert capsys.readouterr().out.strip() == "0 stats summaries written"
    finally:
        get_settings.cache_clear()
