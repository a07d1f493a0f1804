"""accounts, per-game stats summaries, ratings

Accounts: a claimed guest gets a username and an Argon2 hash; each signed-in
device is a row of ``account_sessions``. Stats: one summary row per player and
finished game (``player_game_stats``, written at the game's end; older games
get theirs from ``jantaku db backfill-stats``, which ``jantaku serve`` runs).
Ratings per player and game.

Revision ID: 0004
Revises: 0003
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

def upgrade() -> None:
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.add_column(sa.Column("username", sa.String(length=24), nullable=True))
        batch_op.add_column(sa.Column("password_hash", sa.String(length=256), nullable=True))
        batch_op.add_column(
            sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True)
        )
        batch_op.create_unique_constraint("uq_players_username", ["username"])
    op.create_table(
        "account_sessions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("agent", sa.String(length=120), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        "ix_account_sessions_player_id", "account_sessions", ["player_id"], unique=False
    )
    op.create_index(
        "ix_account_sessions_token_hash", "account_sessions", ["token_hash"], unique=True
    )
    op.create_table(
        "player_game_stats",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("tsumo", sa.Integer(), nullable=False),
        sa.Column("deal_ins", sa.Integer(), nullable=False),
        sa.Column("riichi", sa.Integer(), nullable=False),
        sa.Column("calls", sa.Integer(), nullable=False),
        sa.Column("win_points", sa.Integer(), nullable=False),
        sa.Column("deal_in_points", sa.Integer(), nullable=False),
        sa.Column("yakuman", sa.JSON(), nullable=False),
        sa.Column("yakuman_count", sa.Integer(), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("game_id", "seat"),
    )
    op.create_index(
        "ix_player_game_stats_player_kind",
        "player_game_stats",
        ["player_id", "kind"],
        unique=False,
    )
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("player_id", "kind"),
    )


def downgrade() -> None:
    op.drop_table("ratings")
    op.drop_index("ix_player_game_stats_player_kind", table_name="player_game_stats")
    op.drop_table("player_game_stats")
    op.drop_index("ix_account_sessions_token_hash", table_name="account_sessions")
    op.drop_index("ix_account_sessions_player_id", table_name="account_sessions")
    op.drop_table("account_sessions")
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_constraint("uq_players_username", type_="unique")
        batch_op.drop_column("deleted_at")
        batch_op.drop_column("password_hash")
        batch_op.drop_column("username")
