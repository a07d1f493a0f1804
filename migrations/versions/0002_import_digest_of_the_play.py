"""import digests of the play alone

The digest that recognises a log imported twice was taken over every field of
every engine event; the event format changed (the public ``tsumo_turn`` beside
each draw is gone, results carry ``nuki``), so stored digests would no longer
match a new import of the same log. They are taken again, from the stored
events, over the play alone: the same projection as
``server.records.importer.play_digest`` (kept here as it is today, so that the
migration does not change when the code does).

Revision ID: 0002
Revises: 0001
"""

import hashlib
import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_PLAY_FIELDS = {
    "round_start": ("round_wind", "kyoku", "honba", "dealer", "dora_indicators"),
    "haipai": ("seat", "tiles"),
    "draw": ("seat", "tile", "rinshan"),
    "discard": ("seat", "tile"),
    "call": ("seat", "meld", "tiles", "from_seat"),
    "kan": ("seat", "meld", "tiles"),
    "nuki": ("seat",),
}

events = sa.table(
    "game_events",
    sa.column("id", sa.Integer),
    sa.column("game_id", sa.Integer),
    sa.column("version", sa.Integer),
    sa.column("kind", sa.String),
    sa.column("type", sa.String),
    sa.column("data", sa.JSON),
)


def _digest(rows: list[tuple[str, dict]]) -> str:
    play = [
        [t, *(d.get(f) for f in _PLAY_FIELDS[t])] for t, d in rows if t in _PLAY_FIELDS
    ]
    text = json.dumps(play, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def upgrade() -> None:
    conn = op.get_bind()
    imports = conn.execute(
        sa.select(events.c.id, events.c.game_id, events.c.data).where(events.c.kind == "import")
    ).all()
    for row_id, game_id, data in imports:
        rows = conn.execute(
            sa.select(events.c.type, events.c.data)
            .where(events.c.game_id == game_id, events.c.kind == "event")
            .order_by(events.c.version, events.c.id)
        ).all()
        new = dict(data or {})
        new["digest"] = _digest([(t, d or {}) for t, d in rows])
        conn.execute(sa.update(events).where(events.c.id == row_id).values(data=new))


def downgrade() -> None:
    # The older digest cannot be taken again from here; imports stay recognised by
    # the new one until they are imported again.
    pass
