"""remote bots; longer bot levels

``remote_bots``: a bot an account plays over the ``/ws/bot`` WebSocket, its token
kept only as an HMAC. A seat's ``bot`` grows from 16 to 32 characters: the levels
``remote-<name>`` and ``mjai-<name>`` outgrow 16 (PostgreSQL refused them).

Revision ID: 0005
Revises: 0004
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "remote_bots",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=16), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("name"),
    )
    op.create_index("ix_remote_bots_player_id", "remote_bots", ["player_id"], unique=False)
    op.create_index("ix_remote_bots_token_hash", "remote_bots", ["token_hash"], unique=True)
    for table in ("lobby_seats", "game_seats"):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.alter_column(
                "bot",
                existing_type=sa.String(length=16),
                type_=sa.String(length=32),
                existing_nullable=True,
            )


def downgrade() -> None:
    for table in ("lobby_seats", "game_seats"):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.alter_column(
                "bot",
                existing_type=sa.String(length=32),
                type_=sa.String(length=16),
                existing_nullable=True,
            )
    op.drop_index("ix_remote_bots_token_hash", table_name="remote_bots")
    op.drop_index("ix_remote_bots_player_id", table_name="remote_bots")
    op.drop_table("remote_bots")
