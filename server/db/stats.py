"""Per-game stats summaries (written at a game's end), their backfill, and the figures
a stats page shows, added up in SQL (docs/players.md)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from server.db.models import Game, GameEvent, GameSeat, PlayerGameStats, utcnow
from server.records.summary import game_kind, summarise

KINDS = ("riichi", "sanma", "nanchang")


def write_summaries(s: Session, game: Game) -> int:
    """The summary rows of a finished game's seats held by players (none twice); how many."""
    held = [gs for gs in game.seats if gs.player_id is not None and gs.rank is not None]
    if not held:
        return 0
    kind = game_kind(game.rules)
    rows = s.execute(
        select(GameEvent.type, GameEvent.data)
        .where(GameEvent.game_id == game.id, GameEvent.kind == "event")
        .order_by(GameEvent.id)
    ).all()
    seats = len(game.seats)
    figures = summarise(kind, seats, ((r.type, r.data) for r in rows))
    done = set(s.scalars(select(PlayerGameStats.seat).where(PlayerGameStats.game_id == game.id)))
    n = 0
    for gs in held:
        if gs.seat in done:
            continue
        f = figures[gs.seat]
        assert gs.player_id is not None and gs.rank is not None
        s.add(
            PlayerGameStats(
                game_id=game.id,
                seat=gs.seat,
                player_id=gs.player_id,
                kind=kind,
                seats=seats,
                rank=gs.rank,
                points=gs.final_points or 0,
                score=gs.score or 0.0,
                rounds=f.rounds,
                wins=f.wins,
                tsumo=f.tsumo,
                deal_ins=f.deal_ins,
                riichi=f.riichi,
                calls=f.calls,
                win_points=f.win_points,
                deal_in_points=f.deal_in_points,
                yakuman=f.yakuman,
                yakuman_count=len(f.yakuman),
                ended_at=game.ended_at or utcnow(),
            )
        )
        n += 1
    return n


def backfill(s: Session, batch: int = 200) -> int:
    """Summaries for finished games that have none yet (games from before summaries
    existed); how many rows were written. Safe to run again."""
    summarised = select(PlayerGameStats.game_id)
    missing = select(Game.id).where(
        Game.status == "finished",
        Game.id.in_(select(GameSeat.game_id).where(GameSeat.player_id.is_not(None))),
        Game.id.not_in(summarised),
    )
    total = 0
    for gid in list(s.scalars(missing.order_by(Game.id))):
        g = s.get(Game, gid)
        assert g is not None
        total += write_summaries(s, g)
        if total and total % batch == 0:
            s.flush()
    return total


def _ratio(a: int | None, b: int | None) -> float | None:
    return None if not b else round((a or 0) / b, 4)


def player_stats(s: Session, player_id: int) -> dict[str, Any]:
    """Every figure of the stats page, per game played (docs/players.md)."""
    t = PlayerGameStats
    sums = s.execute(
        select(
            t.kind,
            t.seats,
            func.count(),
            func.avg(t.rank),
            func.avg(t.score),
            func.sum(t.rounds),
            func.sum(t.wins),
            func.sum(t.tsumo),
            func.sum(t.deal_ins),
            func.sum(t.riichi),
            func.sum(t.calls),
            func.sum(t.win_points),
            func.sum(t.deal_in_points),
        )
        .where(t.player_id == player_id)
        .group_by(t.kind, t.seats)
    ).all()
    places = s.execute(
        select(t.kind, t.rank, func.count())
        .where(t.player_id == player_id)
        .group_by(t.kind, t.rank)
    ).all()
    by_place: dict[str, dict[int, int]] = {}
    for kind, rank, n in places:
        by_place.setdefault(kind, {})[int(rank)] = int(n)
    yakuman: dict[str, list[dict[str, Any]]] = {}
    for kind, gid, hands in s.execute(
        select(t.kind, t.game_id, t.yakuman)
        .where(t.player_id == player_id, t.yakuman_count > 0)
        .order_by(t.game_id)
    ):
        for ids in hands or ():
            yakuman.setdefault(kind, []).append({"game_id": gid, "yakuman": list(ids)})
    out: dict[str, Any] = {}
    for (
        kind,
        seats,
        games,
        avg_rank,
        avg_score,
        rounds,
        wins,
        tsumo,
        deal_ins,
        riichi,
        calls,
        wp,
        dp,
    ) in sums:
        out[kind] = {
            "games": int(games),
            "average_rank": round(float(avg_rank), 3),
            "average_score": round(float(avg_score), 2),
            "ranks": [by_place.get(kind, {}).get(r, 0) for r in range(1, int(seats) + 1)],
            "rounds": int(rounds or 0),
            "wins": int(wins or 0),
            "win_rate": _ratio(wins, rounds),
            "deal_in_rate": _ratio(deal_ins, rounds),
            "riichi_rate": None if kind == "nanchang" else _ratio(riichi, rounds),
            "call_rate": _ratio(calls, rounds),
            "tsumo_share": _ratio(tsumo, wins),
            "average_win": None if not wins else round((wp or 0) / wins),
            "average_deal_in": None if not deal_ins else round((dp or 0) / deal_ins),
            "yakuman": yakuman.get(kind, []),
        }
    return out


def game_lines(s: Session, player_id: int, game_ids: list[int]) -> dict[int, dict[str, Any]]:
    """The short stats line of each of these games for one player (history entries)."""
    t = PlayerGameStats
    rows = s.scalars(select(t).where(t.player_id == player_id, t.game_id.in_(game_ids)))
    return {
        r.game_id: {
            "rank": r.rank,
            "rounds": r.rounds,
            "wins": r.wins,
            "deal_ins": r.deal_ins,
            "riichi": r.riichi,
            "calls": r.calls,
            "yakuman": len(r.yakuman or ()),
        }
        for r in rows
    }
