"""event versions unique per game

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 10:00:00

A version number, once given to an event of a game, is never given to another:
the table commits each step before sending it, and this index refuses a second
writer (a second server process on the same database) that would re-use one.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("game_events", schema=None) as batch_op:
        batch_op.create_index(
            "ux_game_events_event_version",
            ["game_id", "version"],
            unique=True,
            sqlite_where=sa.text("kind = 'event'"),
            postgresql_where=sa.text("kind = 'event'"),
        )


def downgrade() -> None:
    with op.batch_alter_table("game_events", schema=None) as batch_op:
        batch_op.drop_index("ux_game_events_event_version")
