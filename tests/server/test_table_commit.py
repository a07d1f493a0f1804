"""The record is the source of truth: no frame reflects a step before it is committed."""

from __future__ import annotations

from server.engine.riichi import new_game
from server.engine.riichi.rules import preset
from server.engine.riichi.variant import RIICHI
from server.tables.clock import FakeClock
from server.tables.table import ClientAction, Connect, SeatSpec
from tests.server.tablekit import FakeConn, HeldSink, advance, make_table, settle

STANDARD = preset("standard")
HUMAN = SeatSpec("Aoi", player_id=1)
BOTS = [SeatSpec(f"Bot {i}", bot="tsumogiri") for i in (1, 2, 3)]


async def test_no_frame_before_the_step_is_committed() -> None:
    clock = FakeClock()
    sink = HeldSink()
    st = new_game(STANDARD, b"commit", 0)
    table = make_table(st, [HUMAN, *BOTS], clock=clock, sink=sink)
    me = FakeConn(clock, 0)
    table.start(list(RIICHI.start_events(st)))
    table.post(Connect(me, None))
    await settle()
    # The opening events are waiting for their commit: nobody has heard of the game.
    assert len(sink.pending) == 1 and me.frames == []
    ((opening, _),) = sink.pending
    assert [r.type for r in opening.rows] == [e.type for e in RIICHI.start_events(st)]
    sink.commit()
    await settle()
    assert me.types() == ["welcome", "view"]
    assert me.frames[0][1]["version"] == len(RIICHI.start_events(st))

    discard = next(a for a in me.last_view()["legal_actions"] if a["type"] == "discard")
    table.post(ClientAction(me, discard))
    await settle()
    ((step, _),) = sink.pending
    assert [r.kind for r in step.rows][:2] == ["action", "event"]
    assert step.rows[1].type == "discard"
    assert me.types() == ["welcome", "view"]  # the discard is not acknowledged yet
    sink.commit()
    await settle()
    got = [f for _, f in me.frames[2:]]
    assert got[0]["type"] == "event" and got[0]["event"]["type"] == "discard"
    assert [f["version"] for f in got if f["type"] == "event"] == [
        r.version for r in step.rows if r.kind == "event"
    ]


async def test_a_step_that_cannot_be_committed_is_never_shown() -> None:
    clock = FakeClock()
    sink = HeldSink()
    st = new_game(STANDARD, b"broken", 0)
    table = make_table(st, [HUMAN, *BOTS], clock=clock, sink=sink)
    broken: list[int] = []
    table.on_broken = lambda t: broken.append(t.game_id)
    me = FakeConn(clock, 0)
    table.start(list(RIICHI.start_events(st)))
    table.post(Connect(me, None))
    await settle()
    sink.commit()
    await settle()
    seen = len(me.frames)
    discard = next(a for a in me.last_view()["legal_actions"] if a["type"] == "discard")
    table.post(ClientAction(me, discard))
    await settle()
    sink.fail()
    await settle()
    assert len(me.frames) == seen and me.closed == 1011
    assert broken == [1] and table.broken
    assert table.task is not None and table.task.done()


async def test_the_game_end_is_committed_before_game_over() -> None:
    clock = FakeClock()
    sink = HeldSink(auto=True)
    rules = preset("standard").with_overrides(length="tonpuu")
    st = new_game(rules, b"the end", 0)
    bots = [SeatSpec(f"Bot {i}", bot="tsumogiri") for i in range(4)]
    table = make_table(st, bots, clock=clock, sink=sink, bot_delay=0.0, round_end_pause=0.0)
    watcher = FakeConn(clock, None)
    table.start(list(RIICHI.start_events(st)))
    table.post(Connect(watcher, None))
    await settle()
    for _ in range(20000):
        if st.phase == "game_end":
            break
        # Stop auto-committing once the last round is under way: hold the last steps.
        if st.round_wind == 0 and st.dealer == 3 and st.phase == "play":
            sink.auto = False
        if sink.pending:
            sink.commit()
        await advance(clock, 0.01, step=0.01)
    assert st.phase == "game_end"
    # The final step is written with its standings, and game_over waits for it.
    ((last, _),) = sink.pending
    assert last.finish is not None
    assert [r.points for r in last.finish[0]] == [f.points for f in st.final or ()]
    assert table.finished and "game_over" not in watcher.types()
    sink.commit()
    await advance(clock, 1.0)
    assert watcher.types()[-1] == "game_over"


async def test_a_client_ahead_of_the_record_is_told_its_timeline_was_lost() -> None:
    clock = FakeClock()
    sink = HeldSink(auto=True)
    st = new_game(STANDARD, b"lost", 0)
    table = make_table(st, [HUMAN, *BOTS], clock=clock, sink=sink)
    table.start(list(RIICHI.start_events(st)))
    await settle()
    me = FakeConn(clock, 0)
    table.post(Connect(me, table.version + 5))
    await settle()
    lost, welcome, view = (f for _, f in me.frames)
    assert lost == {
        "type": "timeline_lost",
        "game_id": 1,
        "last_version": table.version + 5,
        "version": table.version,
    }
    assert welcome["type"] == "welcome" and welcome["mode"] == "resync"
    assert view["type"] == "view" and view["version"] == table.version
