"""Account queries: credentials by token hash, a session's last-seen time (issue 18)."""

from __future__ import annotations

from datetime import timedelta

from server.db import accounts
from server.db.models import AccountSession, Player, utcnow
from server.db.session import Database


def test_a_session_is_seen_now_and_then(db_url: str) -> None:
    db = Database(db_url)
    try:
        with db.session() as s:
            p = Player(name="Aoi", token_hash="g" * 64, username="aoi", password_hash="h")
            s.add(p)
            s.flush()
            old = utcnow() - timedelta(hours=3)
            s.add(
                AccountSession(player_id=p.id, token_hash="a" * 64, last_seen=old, created_at=old)
            )
            s.commit()
            pid = p.id
        cred = db.run(lambda s: accounts.by_token_hash(s, "a" * 64))
        assert cred is not None and cred.player.id == pid and cred.session_id is not None
        with db.session() as s:
            row = s.get(AccountSession, cred.session_id)
            assert row is not None
            seen = row.last_seen.replace(tzinfo=None) if row.last_seen.tzinfo else row.last_seen
            assert utcnow().replace(tzinfo=None) - seen < timedelta(minutes=1)
        assert db.run(lambda s: accounts.by_token_hash(s, "b" * 64)) is None
        # A deleted account's sessions and token name nobody.
        db.run(lambda s: accounts.delete_account(s, pid, "d" * 64))
        assert db.run(lambda s: accounts.by_token_hash(s, "a" * 64)) is None
        assert db.run(lambda s: accounts.by_token_hash(s, "g" * 64)) is None
    finally:
        db.dispose()
