"""SQLAlchemy models: players, lobbies, games, per-hand results and the event record."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class Player(Base):
    """A guest identity, or an account once claimed (``username`` set). Only an HMAC of
    the guest token is stored; an account signs in with sessions (``AccountSession``)."""

    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("username", name="uq_players_username"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(32))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_seen: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # Lower case, unique; None for a guest.
    username: Mapped[str | None] = mapped_column(String(24), nullable=True)
    # Argon2id (the encoded string with its parameters and salt); None for a guest.
    password_hash: Mapped[str | None] = mapped_column(String(256), nullable=True)
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class AccountSession(Base):
    """One signed-in device of an account: only an HMAC of its token is stored."""

    __tablename__ = "account_sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_seen: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # What the device said it was (User-Agent, cut short), to tell sessions apart.
    agent: Mapped[str] = mapped_column(String(120), default="")


class Lobby(Base):
    __tablename__ = "lobbies"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(32), unique=True, index=True)
    host_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    # "choose": players pick seats; "draw": seats are drawn at random on start.
    seat_mode: Mapped[str] = mapped_column(String(8), default="choose")
    # "open" -> "playing" (game_id set) -> "closed"
    status: Mapped[str] = mapped_column(String(8), default="open")
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    seats: Mapped[list[LobbySeat]] = relationship(
        back_populates="lobby", cascade="all, delete-orphan", order_by="LobbySeat.slot"
    )


class LobbySeat(Base):
    """One of the four places of a lobby: a player, a bot, or nobody (no row)."""

    __tablename__ = "lobby_seats"
    __table_args__ = (UniqueConstraint("lobby_id", "player_id"),)

    lobby_id: Mapped[int] = mapped_column(ForeignKey("lobbies.id"), primary_key=True)
    slot: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    ready: Mapped[bool] = mapped_column(Boolean, default=False)

    lobby: Mapped[Lobby] = relationship(back_populates="seats")
    player: Mapped[Player | None] = relationship()


class Game(Base):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    lobby_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[str] = mapped_column(String(128))  # hex
    first_dealer: Mapped[int] = mapped_column(Integer)
    dice: Mapped[list[Any]] = mapped_column(JSON)  # the roll that chose the first dealer
    # "live" -> "finished"; "aborted" when the server stopped mid-game.
    status: Mapped[str] = mapped_column(String(10), default="live")
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    seats: Mapped[list[GameSeat]] = relationship(
        back_populates="game", cascade="all, delete-orphan", order_by="GameSeat.seat"
    )
    hands: Mapped[list[Hand]] = relationship(
        back_populates="game", cascade="all, delete-orphan", order_by="Hand.number"
    )


class GameSeat(Base):
    __tablename__ = "game_seats"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int | None] = mapped_column(
        ForeignKey("players.id"), nullable=True, index=True
    )
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    name: Mapped[str] = mapped_column(String(32))
    final_points: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rank: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # (points - return) / 1000 + uma (+ oka for first), R26.
    score: Mapped[float | None] = mapped_column(Float, nullable=True)

    game: Mapped[Game] = relationship(back_populates="seats")


class Hand(Base):
    """The result of one round (kyoku): wins or a draw, with the score deltas."""

    __tablename__ = "hands"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)  # 0-based, in play order
    round_wind: Mapped[int] = mapped_column(Integer)  # 0 E, 1 S, 2 W
    kyoku: Mapped[int] = mapped_column(Integer)  # dealer index within the wind, 0..3
    honba: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))  # "agari" or "ryuukyoku"
    result: Mapped[dict[str, Any]] = mapped_column(JSON)
    deltas: Mapped[list[Any]] = mapped_column(JSON)
    scores: Mapped[list[Any]] = mapped_column(JSON)  # after the hand

    game: Mapped[Game] = relationship(back_populates="hands")


class GameEvent(Base):
    """The game record, one row per engine event (and per action taken), in order."""

    __tablename__ = "game_events"
    __table_args__ = (
        Index("ix_game_events_game_version", "game_id", "version"),
        # A version, once given to an event, is never given to another of the game
        # (even by a second server process on the same database).
        Index(
            "ux_game_events_event_version",
            "game_id",
            "version",
            unique=True,
            sqlite_where=text("kind = 'event'"),
            postgresql_where=text("kind = 'event'"),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    # Table version after the event; actions carry the version they were applied at.
    version: Mapped[int] = mapped_column(Integer)
    # "event" (engine event) or "action" (an input that produced events).
    kind: Mapped[str] = mapped_column(String(8))
    type: Mapped[str] = mapped_column(String(32))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    seats: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)  # None = public


class PlayerGameStats(Base):
    """One player's figures from one finished game, written at the game's end
    (docs/players.md): the stats pages add these up instead of replaying games."""

    __tablename__ = "player_game_stats"
    __table_args__ = (Index("ix_player_game_stats_player_kind", "player_id", "kind"),)

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    kind: Mapped[str] = mapped_column(String(16))  # "riichi", "sanma", "nanchang"
    seats: Mapped[int] = mapped_column(Integer)  # players at the table
    rank: Mapped[int] = mapped_column(Integer)
    points: Mapped[int] = mapped_column(Integer)
    score: Mapped[float] = mapped_column(Float)
    rounds: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    tsumo: Mapped[int] = mapped_column(Integer)
    deal_ins: Mapped[int] = mapped_column(Integer)
    riichi: Mapped[int] = mapped_column(Integer)
    calls: Mapped[int] = mapped_column(Integer)  # rounds with at least one open call
    win_points: Mapped[int] = mapped_column(Integer)
    deal_in_points: Mapped[int] = mapped_column(Integer)
    yakuman: Mapped[list[Any]] = mapped_column(JSON)
    # len(yakuman): the stats page reads the lists of the few games that have one.
    yakuman_count: Mapped[int] = mapped_column(Integer, default=0)
    ended_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Rating(Base):
    """A player's rating for one game on this server (openskill Plackett-Luce)."""

    __tablename__ = "ratings"

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RemoteBot(Base):
    """A bot an account plays over ``/ws/bot`` (level ``remote-<name>``): only an HMAC of
    its token is stored; deleting the row revokes the token."""

    __tablename__ = "remote_bots"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    name: Mapped[str] = mapped_column(String(16), unique=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
