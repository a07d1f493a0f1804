"""The round-end pause is told to the table (the result card counts it down), and
watchers' names go to the seats only (issue 15)."""

from __future__ import annotations

import json
from typing import Any

from server.engine.riichi import new_game
from server.engine.riichi.rules import preset
from server.engine.riichi.variant import RIICHI
from server.tables.clock import FakeClock
from server.tables.table import ClientAction, Connect, Continue, Disconnect, SeatSpec
from tests.server.tablekit import FakeConn, HeldSink, advance, make_table, settle

HUMAN = SeatSpec("Aoi", player_id=1)
BOTS = [SeatSpec(f"Bot {i}", bot="tsumogiri") for i in (1, 2, 3)]


def _answer(view: dict[str, Any]) -> dict[str, Any] | None:
    """Pass when asked, else discard the drawn tile: the quickest way to a round's end."""
    legal = view["legal_actions"]
    if not legal:
        return None
    for a in legal:
        if a["type"] == "pass":
            return dict(a)
    drawn = view["players"][view["seat"]]["drawn"]
    return dict(next(a for a in legal if a["type"] == "discard" and a["tile"] == drawn))


async def _to_round_end(table: Any, me: FakeConn, clock: FakeClock) -> None:
    st = table.state
    for _ in range(2000):
        if st.phase == "round_end":
            return
        action = _answer(me.last_view())
        if action is not None:
            table.post(ClientAction(me, action))
        await advance(clock, 0.05)
    raise AssertionError("the round did not end")


async def _paused_table() -> tuple[FakeClock, Any, FakeConn]:
    """A person and three bots (a 30 s round-end pause) at the end of the first round."""
    clock = FakeClock()
    st = new_game(preset("standard"), b"pause", 0)
    table = make_table(
        st,
        [HUMAN, *BOTS],
        clock=clock,
        sink=HeldSink(auto=True),
        bot_delay=0.0,
        round_end_pause=30.0,
    )
    me = FakeConn(clock, 0)
    table.start(list(RIICHI.start_events(st)))
    table.post(Connect(me, None))
    await settle()
    await _to_round_end(table, me, clock)
    await settle()
    return clock, table, me


async def test_the_round_end_pause_is_told_with_the_time_left() -> None:
    clock, table, me = await _paused_table()
    st = table.state
    types = me.types()
    assert types.count("round_pause") == 1
    i = types.index("round_pause")
    # after the round's result, with the whole pause still ahead
    assert any(
        f["type"] == "event" and f["event"]["type"] in ("agari", "ryuukyoku")
        for _, f in me.frames[:i]
    )
    told_at, pause = me.frames[i]
    assert pause == {"type": "round_pause", "ms": 30000}
    # A connection that arrives later is told what is left of it.
    await advance(clock, 10.0)
    watcher = FakeConn(clock, None)
    table.post(Connect(watcher, None))
    await settle()
    (left,) = [f for _, f in watcher.frames if f["type"] == "round_pause"]
    assert left["ms"] == 30000 - round((clock.now() - told_at) * 1000)
    assert 19000 <= left["ms"] <= 20000
    assert st.phase == "round_end"
    # When it runs out the next round starts, and nothing more is told of it.
    await advance(clock, 20.5)
    assert st.phase == "play"
    assert "round_start" in [f["event"]["type"] for _, f in me.frames[i:] if f["type"] == "event"]
    assert me.types().count("round_pause") == 1


async def test_no_pause_is_told_when_only_bots_are_at_the_table() -> None:
    clock = FakeClock()
    st = new_game(preset("standard"), b"bots", 0)
    bots = [SeatSpec(f"Bot {i}", bot="tsumogiri") for i in range(4)]
    table = make_table(st, bots, clock=clock, sink=HeldSink(auto=True), bot_delay=0.0)
    watcher = FakeConn(clock, None)
    table.start(list(RIICHI.start_events(st)))
    table.post(Connect(watcher, None))
    await settle()
    for _ in range(400):
        if st.round_index >= 1:
            break
        await advance(clock, 0.05)
    assert st.round_index >= 1
    assert "round_pause" not in watcher.types()


async def test_a_continue_from_everyone_ends_the_pause_early() -> None:
    _clock, table, me = await _paused_table()
    table.post(Continue(me))
    await settle()
    assert table.state.phase == "play"


async def test_seats_learn_the_watchers_names_and_watchers_do_not() -> None:
    clock = FakeClock()
    st = new_game(preset("standard"), b"names", 0)
    table = make_table(
        st, [HUMAN, *BOTS], clock=clock, sink=HeldSink(auto=True), spectator_interval=0.0
    )
    me = FakeConn(clock, 0)
    table.start(list(RIICHI.start_events(st)))
    table.post(Connect(me, None))
    await settle()
    assert me.frames[0][1]["watchers"] == []
    kai = FakeConn(clock, None)
    anon = FakeConn(clock, None)
    table.post(Connect(kai, None, "Kai"))
    table.post(Connect(anon, None))
    await settle()
    players = [f for _, f in me.frames if f["type"] == "players"]
    assert players[-1]["spectators"] == 2 and players[-1]["watchers"] == ["Kai"]
    # A watcher hears how many watch, never who.
    for w in (kai, anon):
        for _, f in w.frames:
            assert "watchers" not in f, f
        assert "Kai" not in json.dumps([f for _, f in w.frames if f["type"] != "welcome"])
    # A seat that comes back is told in its welcome.
    me2 = FakeConn(clock, 0)
    table.post(Connect(me2, None))
    await settle()
    assert me2.frames[0][1]["type"] == "welcome" and me2.frames[0][1]["watchers"] == ["Kai"]
    table.post(Disconnect(kai))
    await settle()
    last = [f for _, f in me2.frames if f["type"] == "players"][-1]
    assert last["spectators"] == 1 and last["watchers"] == []
