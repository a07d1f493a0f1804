"""kill -9 at random moments (and right after a game ends) on both databases: every frame any
client received is in the resumed game, no version is re-used, no shown ending changes.

The fast version of ``bench/faults.py`` (which kills 20 times per database)."""

from __future__ import annotations

import os

import pytest

from bench.faults import run_faults


def _require_pg() -> None:
    from sqlalchemy import create_engine, text

    from bench.faults import PG_BASE
    from server.settings import normalize_db_url

    engine = create_engine(normalize_db_url(PG_BASE))
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL is required under CI=true but unreachable: {exc}")
        pytest.skip(f"PostgreSQL unreachable: {type(exc).__name__}")
    finally:
        engine.dispose()


@pytest.mark.parametrize("db", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_kill_9_loses_nothing_anyone_saw(db: str) -> None:
    if db == "postgres":
        _require_pg()
    out = run_faults(
        db,
        kills=3,
        tables=2,
        gap=(0.1, 0.6),
        settle=0.3,
        quick=True,
        first_at_end=True,
    )
    assert out["kills"] == 3
    assert out["kills_right_after_game_over"] >= 1, out
    assert out["reconnects"] >= 3 and out["events_checked"] > 100, out
    assert out["game_overs"] >= 1, out
    assert out["lost_acknowledged_actions"] == 0, out["problems"]
    assert out["reused_versions"] == 0, out["problems"]
    assert out["views_not_in_record"] == 0, out["problems"]
    assert out["changed_endings"] == 0, out["problems"]
