"""Game persistence: the record written as the game goes, results, and history queries."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Select, func, select
from sqlalchemy.orm import Session, selectinload

from server.db import ratings, stats
from server.db.models import Game, GameEvent, GameSeat, Hand, Lobby, LobbySeat, utcnow
from server.db.session import json_dumps
from server.records.summary import game_kind
from server.tables.sink import HandRow, RecordRow, SeatResult

# One record row's values: game_id, version, kind, type, data and seats (JSON text).
RecordParams = tuple[int, int, str, str, str, str]


# The record's columns, in the order ``record_params`` gives them.
_RECORD_COLUMNS = "game_id, version, kind, type, data, seats"
# Rows per INSERT statement: 6 parameters a row stays far below SQLite's (32,766) and
# PostgreSQL's (65,535) limits on the parameters of one statement.
_ROWS_PER_STATEMENT = 500


def record_params(game_id: int, rows: Sequence[RecordRow]) -> list[RecordParams]:
    """``rows`` of one game as the parameters of ``insert_record_rows``."""
    return [
        (game_id, r.version, r.kind, r.type, json_dumps(r.data), json_dumps(r.seats)) for r in rows
    ]


def insert_record_rows(conn: Connection, params: Sequence[RecordParams]) -> None:
    """Insert record rows of any number of games, a few hundred per statement.

    This runs for every action of every live table, from the recorder's worker
    thread: one multi-row INSERT costs one round trip and lets go of the GIL once,
    where an executemany (let alone the ORM) does both once per row, and each time
    the thread waits for the busy event loop to hand the GIL back.
    """
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    one = "(" + ", ".join([mark] * 6) + ")"
    for i in range(0, len(params), _ROWS_PER_STATEMENT):
        chunk = params[i : i + _ROWS_PER_STATEMENT]
        sql = f"INSERT INTO {GameEvent.__tablename__} ({_RECORD_COLUMNS}) VALUES " + ", ".join(
            [one] * len(chunk)
        )
        conn.exec_driver_sql(sql, tuple(v for row in chunk for v in row))


def add_hand(s: Session, game_id: int, h: HandRow) -> None:
    s.merge(
        Hand(
            game_id=game_id,
            number=h.number,
            round_wind=h.round_wind,
            kyoku=h.kyoku,
            honba=h.honba,
            kind=h.kind,
            result=h.result,
            deltas=h.deltas,
            scores=h.scores,
        )
    )


def finish_game(s: Session, game_id: int, results: Sequence[SeatResult], status: str) -> None:
    game = s.get(Game, game_id)
    if game is None:
        return
    game.status = status
    game.ended_at = utcnow()
    by_seat = {r.seat: r for r in results}
    for gs in game.seats:
        r = by_seat.get(gs.seat)
        if r is not None:
            gs.final_points, gs.rank, gs.score = r.points, r.rank, r.score
    if status == "finished":
        # The stats and ratings move with the game's end, in the same transaction.
        stats.write_summaries(s, game)
        ratings.rate_game(
            s,
            game_kind(game.rules),
            [(gs.player_id, gs.rank) for gs in game.seats if gs.player_id and gs.rank],
        )
    if game.lobby_id is not None:
        lobby = s.get(Lobby, game.lobby_id)
        if lobby is not None and lobby.game_id == game_id and lobby.status == "playing":
            # The same group can play again: the lobby reopens, everyone un-readied.
            lobby.status = "open"
            for ls in s.scalars(select(LobbySeat).where(LobbySeat.lobby_id == lobby.id)):
                ls.ready = ls.bot is not None


@dataclass(frozen=True, slots=True)
class LiveGame:
    """A game a previous server process left running: what its table is rebuilt from."""

    game_id: int
    rules: dict[str, Any]
    seed: bytes
    first_dealer: int
    seats: tuple[tuple[str, int | None, str | None], ...]  # (name, player id, bot level)
    rows: tuple[tuple[str, str, dict[str, Any]], ...]  # (kind, type, data) in record order
    hands_saved: int


def live_games(s: Session) -> list[LiveGame]:
    """Every game still marked "live", with its record, oldest first."""
    return [
        _live_game(s, g)
        for g in s.scalars(select(Game).where(Game.status == "live").order_by(Game.id))
    ]


def live_game(s: Session, game_id: int) -> LiveGame | None:
    """One game, if it is still "live", with its record."""
    g = s.get(Game, game_id)
    return _live_game(s, g) if g is not None and g.status == "live" else None


def live_game_ids(s: Session) -> list[int]:
    """The ids of every game still marked "live"."""
    return list(s.scalars(select(Game.id).where(Game.status == "live").order_by(Game.id)))


def seat_players(s: Session, game_id: int) -> list[int | None] | None:
    """The player id at each seat of a live game (None for a bot); None if not live."""
    g = s.get(Game, game_id)
    if g is None or g.status != "live":
        return None
    return [gs.player_id for gs in sorted(g.seats, key=lambda gs: gs.seat)]


def _live_game(s: Session, g: Game) -> LiveGame:
    rows = s.execute(
        select(GameEvent.kind, GameEvent.type, GameEvent.data)
        .where(GameEvent.game_id == g.id)
        .order_by(GameEvent.id)
    ).all()
    hands = s.scalar(select(func.count()).select_from(Hand).where(Hand.game_id == g.id))
    return LiveGame(
        game_id=g.id,
        rules=dict(g.rules),
        seed=bytes.fromhex(g.seed),
        first_dealer=g.first_dealer,
        seats=tuple((gs.name, gs.player_id, gs.bot) for gs in g.seats),
        rows=tuple((r.kind, r.type, r.data) for r in rows),
        hands_saved=int(hands or 0),
    )


def is_participant(s: Session, game_id: int, player_id: int) -> bool:
    """Whether the player sits at the game or in the lobby it was started from."""
    seated = s.scalar(
        select(GameSeat.seat).where(GameSeat.game_id == game_id, GameSeat.player_id == player_id)
    )
    if seated is not None:
        return True
    in_lobby = s.scalar(
        select(LobbySeat.slot)
        .join(Lobby, Lobby.id == LobbySeat.lobby_id)
        .join(Game, Game.lobby_id == Lobby.id)
        .where(Game.id == game_id, LobbySeat.player_id == player_id)
    )
    return in_lobby is not None


def abort_game(s: Session, game_id: int) -> None:
    """Mark one game aborted (it cannot go on) and reopen its lobby."""
    g = s.get(Game, game_id)
    if g is None or g.status != "live":
        return
    g.status = "aborted"
    g.ended_at = utcnow()
    if g.lobby_id is not None:
        lobby = s.get(Lobby, g.lobby_id)
        if lobby is not None and lobby.game_id == game_id and lobby.status == "playing":
            lobby.status = "open"


def seed_commitment(seed_hex: str) -> str | None:
    """SHA-256 of the seed's bytes, hex (docs/players.md, "Provably fair walls")."""
    if not seed_hex:  # an imported log: no seed of ours
        return None
    try:
        return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()
    except ValueError:
        return None


def game_summary(g: Game) -> dict[str, Any]:
    return {
        "id": g.id,
        "status": g.status,
        "seed_commitment": seed_commitment(g.seed),
        "rules": g.rules,
        "lobby_id": g.lobby_id,
        "first_dealer": g.first_dealer,
        "dice": list(g.dice),
        "started_at": g.started_at.isoformat(),
        "ended_at": g.ended_at.isoformat() if g.ended_at else None,
        "seats": [
            {
                "seat": gs.seat,
                "name": gs.name,
                "player_id": gs.player_id,
                "bot": gs.bot,
                "final_points": gs.final_points,
                "rank": gs.rank,
                "score": gs.score,
            }
            for gs in g.seats
        ],
    }


def list_games(
    s: Session, player_id: int | None, limit: int, offset: int
) -> tuple[list[dict[str, Any]], int]:
    q = select(Game).where(Game.status == "finished")
    if player_id is not None:
        q = q.where(Game.id.in_(select(GameSeat.game_id).where(GameSeat.player_id == player_id)))
    return page_games(s, q, limit, offset)


def page_games(
    s: Session, q: Select[Game], limit: int, offset: int
) -> tuple[list[dict[str, Any]], int]:
    """One page of a games query as summaries, newest first, and the query's total count."""
    total = s.scalar(select(func.count()).select_from(q.subquery())) or 0
    games = s.scalars(
        q.options(selectinload(Game.seats))
        .order_by(Game.ended_at.desc(), Game.id.desc())
        .limit(limit)
        .offset(offset)
    )
    return [game_summary(g) for g in games], total


def game_detail(s: Session, game_id: int) -> dict[str, Any] | None:
    g = s.scalar(
        select(Game)
        .where(Game.id == game_id)
        .options(selectinload(Game.seats), selectinload(Game.hands))
    )
    if g is None:
        return None
    out = game_summary(g)
    if g.status == "live":
        # The record holds every concealed tile: it is published only once the game is over.
        out["hands"] = []
        out["events"] = []
        return out
    out["seed"] = g.seed
    out["hands"] = [
        {
            "number": h.number,
            "round_wind": h.round_wind,
            "kyoku": h.kyoku,
            "honba": h.honba,
            "kind": h.kind,
            "result": h.result,
            "deltas": h.deltas,
            "scores": h.scores,
        }
        for h in g.hands
    ]
    out["events"] = [
        {"version": e.version, "kind": e.kind, "type": e.type, "data": e.data, "seats": e.seats}
        for e in s.scalars(
            select(GameEvent).where(GameEvent.game_id == game_id).order_by(GameEvent.id)
        )
    ]
    return out
