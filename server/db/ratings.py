"""Ratings per player and game on this server: openskill's Plackett-Luce model.

Why openskill (docs/players.md): it rates any number of players per game from
their order of finish (four or three seats, with the same code), keeps an
uncertainty per player so that a newcomer moves fast and a regular slowly, and
is a maintained library. Tenhou's R formula needs a table average and assumes
four seats. The number shown is openskill's ordinal, mu - 3 sigma: a
conservative estimate that starts at 0 and rises with games won.
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce
from sqlalchemy import select
from sqlalchemy.orm import Session

from server.db.models import Player, Rating, utcnow

MODEL = PlackettLuce()


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def rate_game(s: Session, kind: str, placed: Sequence[tuple[int, int]]) -> None:
    """Move the ratings of the accounts of one finished game: ``placed`` is
    (player id, rank) per seat held by a player. Guests and bots are left out; a game
    needs two accounts or more to count."""
    ids = [pid for pid, _ in placed]
    accounts = set(
        s.scalars(
            select(Player.id).where(
                Player.id.in_(ids), Player.username.is_not(None), Player.deleted_at.is_(None)
            )
        )
    )
    ranked = [(pid, rank) for pid, rank in placed if pid in accounts]
    if len({pid for pid, _ in ranked}) != len(ranked) or len(ranked) < 2:
        return
    rows = {
        r.player_id: r
        for r in s.scalars(
            select(Rating).where(Rating.kind == kind, Rating.player_id.in_([p for p, _ in ranked]))
        )
    }
    teams = []
    for pid, _ in ranked:
        r = rows.get(pid)
        teams.append(
            [MODEL.rating(name=str(pid))]
            if r is None
            else [MODEL.rating(mu=r.mu, sigma=r.sigma, name=str(pid))]
        )
    new = MODEL.rate(teams, ranks=[rank for _, rank in ranked])
    for (pid, _), team in zip(ranked, new, strict=True):
        r = rows.get(pid)
        if r is None:
            r = Rating(player_id=pid, kind=kind, games=0)
            s.add(r)
        r.mu, r.sigma = float(team[0].mu), float(team[0].sigma)
        r.games = (r.games or 0) + 1
        r.updated_at = utcnow()
