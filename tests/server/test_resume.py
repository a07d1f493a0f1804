"""A server restart mid-game: live games are rebuilt from their records and go on."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import select

from server.db.models import Game, GameEvent, Hand, Lobby
from server.db.session import Database
from tests.server.conftest import bot_table
from tests.server.wsclient import TableClient

UNTIMED = {"preset": "standard", "think_seconds": 0}


async def _latest_view(c: TableClient) -> dict[str, Any]:
    """Read until nothing more arrives for a moment; the last view received."""
    while True:
        try:
            await c.recv(timeout=0.5)
        except TimeoutError:
            assert c.view is not None
            return c.view


async def _waiting_view(c: TableClient) -> dict[str, Any]:
    """The latest view once the table waits on this seat's decision.

    The last action played may have ended the round: then the round is continued
    (the bots' seats continue at once) and the next round's views are read; other
    seats still deciding are waited for.
    """
    for _ in range(10):
        view = await _latest_view(c)
        if view["legal_actions"]:
            return view
        if view["phase"] == "round_end":
            await c.send({"type": "continue"})
    raise AssertionError("the table never waited on the human")


async def test_restart_resumes_the_game_where_it_was(db_url: str, make_server: Any) -> None:
    first = make_server(db_url)
    _client, g, game_id = bot_table(first, UNTIMED)
    c = await TableClient.open(first.ws, game_id, g["token"])
    await c.play(max_actions=25)
    before = await _waiting_view(c)
    version = c.version
    first.stop()  # the game stays live; its record is flushed on the way out
    await c.close()

    second = make_server(db_url)
    assert second.ctx.tables.stats() == {"tables": 1, "live": 1}
    back = await TableClient.open(second.ws, game_id, g["token"], last_version=version)
    assert back.welcome is not None
    # Nothing was missed: the version goes on from the record, and the next frame
    # is the view (no events to replay).
    assert back.welcome["mode"] == "replay" and back.welcome["version"] == version
    view = await back.recv()
    assert view["type"] == "view" and view["version"] == version
    assert view["view"] == before
    # ... and the game plays on to its end on the new server (a resync request
    # repeats the view, which play() answers).
    await back.send({"type": "resync"})
    await back.play(timeout=20)
    assert back.game_over is not None
    # "stale": an answer to a view the table had already moved past (the resync's).
    assert {e["code"] for e in back.errors} <= {"stale"}
    await back.close()
    db = Database(db_url)
    try:
        # game_over is sent only once the game's end is committed.
        with db.session() as s:
            game = s.get(Game, game_id)
            assert game is not None and game.status == "finished"
            rows = s.execute(
                select(GameEvent.kind, GameEvent.version)
                .where(GameEvent.game_id == game_id)
                .order_by(GameEvent.id)
            ).all()
            events = [v for k, v in rows if k == "event"]
            assert events == list(range(1, len(events) + 1))  # no version used twice
            hands = s.scalars(select(Hand.number).where(Hand.game_id == game_id)).all()
            assert sorted(hands) == list(range(len(hands))) and hands
    finally:
        db.dispose()
    reader, _ = second.guest("Reader")
    assert reader.get(f"/api/games/{game_id}").json()["status"] == "finished"


async def test_a_record_that_does_not_replay_is_aborted(db_url: str, make_server: Any) -> None:
    first = make_server(db_url)
    _client, g, game_id = bot_table(first, UNTIMED)
    c = await TableClient.open(first.ws, game_id, g["token"])
    await c.play(max_actions=5)
    await asyncio.sleep(0.3)
    first.stop()
    await c.close()
    db = Database(db_url)
    try:
        with db.session() as s:
            row = s.scalars(
                select(GameEvent)
                .where(GameEvent.game_id == game_id, GameEvent.kind == "action")
                .order_by(GameEvent.id)
            ).first()
            assert row is not None
            row.data = {**row.data, "tile": "9z"}  # not a tile
        second = make_server(db_url)
        assert second.ctx.tables.stats() == {"tables": 0, "live": 0}
        with db.session() as s:
            game = s.get(Game, game_id)
            assert game is not None and game.status == "aborted" and game.ended_at is not None
            lobby = s.get(Lobby, game.lobby_id)
            assert lobby is not None and lobby.status == "open"
    finally:
        db.dispose()


def test_rebuild_matches_the_game_at_every_cut_including_between_rounds() -> None:
    """Rows as a table records them (start events; per step the action and its events;
    the next round's events with no action), cut anywhere: the rebuilt state has the
    view of the game at that point, and a tampered record is refused."""
    import random

    from server.engine import riichi as engine
    from server.engine.riichi.rules import preset
    from server.engine.riichi.variant import RIICHI
    from server.tables.resume import ResumeError, rebuild
    from server.wire.actions import action_json
    from server.wire.riichi import event_json, seat_views

    def view0(state: Any) -> str:
        return repr(seat_views(state, [0])[0])

    rules = preset("standard")
    st = engine.new_game(rules, b"resume", 1)
    rows: list[tuple[str, str, dict[str, Any]]] = [
        ("event", e.type, event_json(e)) for e in st.start_events
    ]
    cuts: list[tuple[int, str]] = []  # (rows so far, seat 0's view as JSON)
    rng = random.Random(3)
    while st.phase != "game_end" and len(cuts) < 400:
        if st.phase == "round_end":
            cuts.append((len(rows), view0(st)))
            rows += [("event", e.type, event_json(e)) for e in engine.next_round(st)]
        else:
            seat = min(engine.waiting_on(st))
            action = rng.choice(engine.legal_actions(st, seat))
            rows.append(("action", action.type.value, {**action_json(action), "source": "bot"}))
            rows += [("event", e.type, event_json(e)) for e in engine.apply(st, action)]
        cuts.append((len(rows), view0(st)))
    assert any("round_end" in v for _, v in cuts), "the game should cross a round end"
    for n, expected in cuts[::7] + cuts[-3:]:
        got = rebuild(RIICHI, rules, b"resume", 1, rows[:n])
        assert view0(got.state) == expected
        assert got.version == sum(1 for k, _, _ in rows[:n] if k == "event")
    with pytest.raises(ResumeError):
        rebuild(RIICHI, rules, b"other seed", 1, rows)
    with pytest.raises(ResumeError):
        rebuild(RIICHI, rules, b"resume", 1, [r for r in rows if r[0] == "action"])
