"""Remote bots: an account's bots that play over ``/ws/bot`` with a token.

Only an HMAC of a bot's token is stored (``server.api.auth.token_hash``); deleting
the row revokes it. Names are unique on the server: a bot is the bot level
``remote-<name>`` of every lobby while it is connected.
"""

from __future__ import annotations

import hmac
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from server.db.models import Player, RemoteBot
from server.external.names import REMOTE_PREFIX

# Bots one account may hold: each is a token that can sit at tables.
MAX_PER_ACCOUNT = 10


class RemoteBotError(ValueError):
    """A refused change; ``code`` is the protocol error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def create(s: Session, player_id: int, name: str, token_hash: str) -> RemoteBot:
    """A new bot of ``player_id`` called ``name`` (unique), its token's HMAC stored."""
    n = s.scalar(select(func.count()).where(RemoteBot.player_id == player_id)) or 0
    if n >= MAX_PER_ACCOUNT:
        raise RemoteBotError("too_many", f"an account holds at most {MAX_PER_ACCOUNT} bots")
    if s.scalar(select(RemoteBot.id).where(RemoteBot.name == name)) is not None:
        raise RemoteBotError("name_taken", f"there is a bot called {name!r} already")
    bot = RemoteBot(player_id=player_id, name=name, token_hash=token_hash)
    s.add(bot)
    s.flush()
    return bot


def owned(s: Session, player_id: int) -> list[RemoteBot]:
    return list(
        s.scalars(select(RemoteBot).where(RemoteBot.player_id == player_id).order_by(RemoteBot.id))
    )


def revoke(s: Session, player_id: int, name: str) -> bool:
    """Delete ``player_id``'s bot ``name`` (its token stops working); False: no such bot."""
    gone = s.execute(
        delete(RemoteBot).where(RemoteBot.player_id == player_id, RemoteBot.name == name)
    )
    return bool(getattr(gone, "rowcount", 0))


def by_token_hash(s: Session, h: str) -> tuple[str, int] | None:
    """(name, owner id) of the bot whose token has HMAC ``h``; None for no live bot."""
    row = s.execute(
        select(RemoteBot.name, RemoteBot.player_id, RemoteBot.token_hash)
        .join(Player, Player.id == RemoteBot.player_id)
        .where(RemoteBot.token_hash == h, Player.deleted_at.is_(None))
    ).first()
    # The index found the row; the comparison itself takes the same time for any input.
    if row is None or not hmac.compare_digest(row[2], h):
        return None
    return row[0], row[1]


def bot_json(bot: RemoteBot, connected: int) -> dict[str, Any]:
    return {
        "name": bot.name,
        "level": REMOTE_PREFIX + bot.name,
        "created_at": bot.created_at.isoformat(),
        "connections": connected,
    }
