"""Accounts: claiming a guest identity, sessions per device, anonymising a deleted account.

A guest has one credential, the token in ``players.token_hash``. Claiming moves
that token into ``account_sessions`` (the device that claimed stays signed in)
and leaves ``players.token_hash`` holding the hash of a token nobody has: from
then on every credential of the account is a session row, listed and revocable
one by one. Only HMACs of tokens are stored; passwords only as Argon2 hashes
(``server.api.passwords``), never here in the clear.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, timedelta
from typing import Any

from sqlalchemy import delete, exists, select, update
from sqlalchemy.orm import Session

from server.db.models import (
    AccountSession,
    Game,
    GameSeat,
    LobbySeat,
    Player,
    PlayerGameStats,
    Rating,
    RemoteBot,
    utcnow,
)

# How stale a session's last_seen may get before a request with it writes it again.
SEEN_EVERY = timedelta(minutes=5)
# What a deleted account's seats are called in the games it played.
ANONYMOUS = "Anonymous"


class AccountError(ValueError):
    """A refused account operation; ``code`` is the protocol error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Credential:
    """Who a token belongs to, and which of their credentials it is."""

    player: Player
    session_id: int | None  # None: the guest token of an unclaimed identity


def by_token_hash(s: Session, h: str) -> Credential | None:
    """The live identity a token's hash names (a guest's token, or an account session)."""
    p = s.scalar(select(Player).where(Player.token_hash == h, Player.deleted_at.is_(None)))
    if p is not None:
        return Credential(p, None)
    row = s.execute(
        select(AccountSession, Player)
        .join(Player, Player.id == AccountSession.player_id)
        .where(AccountSession.token_hash == h, Player.deleted_at.is_(None))
    ).first()
    if row is None:
        return None
    session = row[0]
    seen = session.last_seen
    if seen.tzinfo is None:  # SQLite gives back naive UTC
        seen = seen.replace(tzinfo=UTC)
    now = utcnow()
    if now - seen > SEEN_EVERY:  # "last seen" of the device, written now and then
        session.last_seen = now
    return Credential(row[1], session.id)


def by_username(s: Session, username: str) -> Player | None:
    return s.scalar(
        select(Player).where(Player.username == username.lower(), Player.deleted_at.is_(None))
    )


def claim(
    s: Session,
    player_id: int,
    username: str,
    password_hash: str,
    current_hash: str,
    dead_hash: str,
    agent: str,
) -> Player:
    """Give a guest a username and password; the claiming device's token becomes its
    first session. AccountError when already claimed or the name is taken."""
    p = s.get(Player, player_id)
    if p is None or p.deleted_at is not None:
        raise AccountError("not_found", "no such player")
    if p.username is not None:
        raise AccountError("already_claimed", "this identity already has an account")
    name = username.lower()
    if s.scalar(select(exists().where(Player.username == name))):
        raise AccountError("username_taken", "that username is taken")
    p.username = name
    p.password_hash = password_hash
    p.token_hash = dead_hash
    s.add(AccountSession(player_id=p.id, token_hash=current_hash, agent=agent[:120]))
    s.flush()
    return p


def add_session(s: Session, player_id: int, token_hash: str, agent: str) -> AccountSession:
    row = AccountSession(player_id=player_id, token_hash=token_hash, agent=agent[:120])
    s.add(row)
    s.flush()
    return row


def sessions(s: Session, player_id: int) -> list[AccountSession]:
    return list(
        s.scalars(
            select(AccountSession)
            .where(AccountSession.player_id == player_id)
            .order_by(AccountSession.id)
        )
    )


def revoke(s: Session, player_id: int, session_ids: list[int] | None = None) -> list[str]:
    """Delete sessions of a player (all when ``session_ids`` is None); the token hashes
    they had, so that the sockets opened with them can be closed."""
    q = select(AccountSession).where(AccountSession.player_id == player_id)
    if session_ids is not None:
        q = q.where(AccountSession.id.in_(session_ids))
    rows = list(s.scalars(q))
    for r in rows:
        s.delete(r)
    s.flush()
    return [r.token_hash for r in rows]


def set_password(s: Session, player_id: int, password_hash: str) -> None:
    p = s.get(Player, player_id)
    assert p is not None
    p.password_hash = password_hash


def in_live_game(s: Session, player_id: int) -> bool:
    return bool(
        s.scalar(
            select(
                exists()
                .where(GameSeat.player_id == player_id)
                .where(GameSeat.game_id == Game.id)
                .where(Game.status == "live")
            )
        )
    )


def delete_account(s: Session, player_id: int, dead_hash: str) -> list[str]:
    """Anonymise an account: its games stay (seats renamed, no longer linked to anyone),
    its stats and ratings go, every session ends. The token hashes that were live."""
    p = s.get(Player, player_id)
    if p is None or p.deleted_at is not None:
        raise AccountError("not_found", "no such player")
    if in_live_game(s, player_id):
        raise AccountError("game_live", "finish the game you are playing first")
    hashes = [*revoke(s, player_id), p.token_hash]
    s.execute(
        update(GameSeat)
        .where(GameSeat.player_id == player_id)
        .values(player_id=None, name=ANONYMOUS)
    )
    s.execute(delete(LobbySeat).where(LobbySeat.player_id == player_id))
    s.execute(delete(PlayerGameStats).where(PlayerGameStats.player_id == player_id))
    s.execute(delete(Rating).where(Rating.player_id == player_id))
    s.execute(delete(RemoteBot).where(RemoteBot.player_id == player_id))
    p.name = ANONYMOUS
    p.username = None
    p.password_hash = None
    p.token_hash = dead_hash
    p.deleted_at = utcnow()
    return hashes


def session_json(row: AccountSession, current: int | None) -> dict[str, Any]:
    return {
        "id": row.id,
        "created_at": row.created_at.isoformat(),
        "last_seen": row.last_seen.isoformat(),
        "agent": row.agent,
        "current": row.id == current,
    }
