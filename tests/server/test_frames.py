"""Protocol 2 at the actor: events and decision frames after each step, whole views only
on connecting, on a reconnect past the buffer and on resync (docs/protocol.md, "Frames")."""

from __future__ import annotations

from server.engine.riichi import new_game
from server.engine.riichi.rules import preset
from server.engine.riichi.variant import RIICHI
from server.tables.clock import FakeClock
from server.tables.table import ClientAction, Connect, Resync, SeatSpec, Table
from tests.server.tablekit import FakeConn, HeldSink, advance, make_table, settle

STANDARD = preset("standard")
HUMAN = SeatSpec("Aoi", player_id=1)
BOTS = [SeatSpec(f"Bot {i}", bot="tsumogiri") for i in (1, 2, 3)]


async def _table(seed: bytes, *, replay_buffer: int = 500) -> tuple[Table, FakeClock, FakeConn]:
    clock = FakeClock()
    st = new_game(STANDARD, seed, 0)
    table = make_table(
        st, [HUMAN, *BOTS], clock=clock, sink=HeldSink(auto=True), replay_buffer=replay_buffer
    )
    me = FakeConn(clock, 0, protocol=2)
    table.start(list(RIICHI.start_events(st)))
    table.post(Connect(me, None))
    await settle()
    return table, clock, me


async def test_after_connecting_only_events_and_decisions() -> None:
    table, clock, me = await _table(b"frames")
    assert me.types() == ["welcome", "view"]
    assert me.frames[0][1]["protocol"] == 2
    discard = next(a for a in me.last_view()["legal_actions"] if a["type"] == "discard")
    table.post(ClientAction(me, discard))
    await settle()
    # The discard and the next draw, then the end of this seat's decision.
    got = [f for _, f in me.frames[2:]]
    assert [f["type"] for f in got] == ["event", "event", "decision"]
    # a turn's events leave out what is false or null: the next seat's draw, masked
    draw = got[1]["event"]
    assert draw == {"type": "draw", "seat": 1, "wall_left": draw["wall_left"]}
    assert set(got[0]["event"]) <= {"type", "seat", "tile", "tsumogiri", "riichi"}
    assert got[0]["event"].get("riichi", True) is True
    # Only what changed: no legal actions now, new hints (its hand is 13 tiles); no timer
    # runs at this table, before or after.
    assert got[-1] == {
        "type": "decision",
        "version": got[1]["version"],
        "seat": 0,
        "legal": [],
        "help": got[-1]["help"],
    }
    assert got[-1]["help"]["shanten"] >= 0
    # The bots play on: events only, until this seat is asked again.
    await advance(clock, 2.5)
    later = [f for _, f in me.frames[5:]]
    assert "view" not in {f["type"] for f in later}
    assert later[-1]["type"] == "decision" and later[-1]["legal"]
    # (here: a chi on seat 3's discard)
    assert [run[0] for run in later[-1]["legal"]] == ["chi", "pass"]
    assert later[-2]["event"]["type"] == "discard" and later[-2]["event"]["seat"] == 3


async def test_a_step_s_events_and_decision_go_as_one_step_frame() -> None:
    """As sent, the discard, the next draw and the decision are one step frame, which
    reads as the three frames it stands for (server/tables/steps.py)."""
    table, clock, me = await _table(b"frames")
    discard = next(a for a in me.last_view()["legal_actions"] if a["type"] == "discard")
    table.post(ClientAction(me, discard))
    await settle()
    (step,) = me.sent[2:]
    expanded = [f for _, f in me.frames[2:]]
    assert step["type"] == "step" and step["version"] == table.version
    assert step["events"] == [f["event"] for f in expanded[:2]]
    assert [f["version"] for f in expanded[:2]] == [table.version - 1, table.version]
    assert {k: v for k, v in step.items() if k not in ("type", "version", "events")} == {
        "legal": [],
        "help": expanded[2]["help"],
    }
    # the bots play on: a lone draw is an event frame, and a step frame of events only
    # (no decision changed) has nothing else
    await advance(clock, 2.5)
    for f in me.sent[3:]:
        assert f["type"] in ("event", "decision", "step")
        if f["type"] == "step":
            assert len(f["events"]) >= 1
            assert len(f["events"]) >= 2 or "legal" in f or "help" in f or "timer" in f
    spectator = FakeConn(clock, None, protocol=2)
    table.post(Connect(spectator, table.version - 3))
    await settle()
    # a reconnect's missed events come as one step frame (a spectator has no decision)
    assert [f["type"] for f in spectator.sent] == ["welcome", "step"]
    assert set(spectator.sent[1]) == {"type", "version", "events"}
    assert len(spectator.sent[1]["events"]) == 3


async def test_a_reconnect_within_the_buffer_gets_the_events_and_a_decision() -> None:
    table, clock, me = await _table(b"again")
    discard = next(a for a in me.last_view()["legal_actions"] if a["type"] == "discard")
    table.post(ClientAction(me, discard))
    await advance(clock, 2.5)
    last = me.frames[3][1]["version"]  # it saw up to the next seat's draw
    again = FakeConn(clock, 0, protocol=2)
    table.post(Connect(again, last))
    await settle()
    types = again.types()
    assert types[0] == "welcome" and again.frames[0][1]["mode"] == "replay"
    assert "view" not in types and types[-1] == "decision"
    versions = [f["version"] for _, f in again.frames if f["type"] == "event"]
    assert versions == list(range(last + 1, table.version + 1))


async def test_past_the_buffer_or_on_resync_a_whole_view() -> None:
    table, clock, me = await _table(b"resync", replay_buffer=2)
    discard = next(a for a in me.last_view()["legal_actions"] if a["type"] == "discard")
    table.post(ClientAction(me, discard))
    await advance(clock, 2.5)
    again = FakeConn(clock, 0, protocol=2)
    table.post(Connect(again, 7))
    await settle()
    assert again.types() == ["welcome", "view"] and again.frames[0][1]["mode"] == "resync"
    table.post(Resync(again))
    await settle()
    assert again.types()[-1] == "view"


async def test_a_north_set_aside_behind_a_call_window_gets_its_next_decision() -> None:
    """Sanma: the nuki opens a call window (a hand waiting on a north may rob it), its
    replacement draw is held until the window closes; the seat that set the north aside
    is then told its next decision, whatever the window held."""
    from server.engine.riichi.variant import SANMA

    rules = preset("tenhou-sanma")
    seats = [HUMAN, SeatSpec("Bot 1", bot="tsumogiri"), SeatSpec("Bot 2", bot="tsumogiri")]
    for n in range(200):
        clock = FakeClock()
        st = new_game(rules, f"nuki{n}".encode(), 0)
        table = make_table(
            st, seats, clock=clock, sink=HeldSink(auto=True), variant=SANMA, call_window=0.05
        )
        me = FakeConn(clock, 0, protocol=2)
        table.start(list(SANMA.start_events(st)))
        table.post(Connect(me, None))
        await settle()
        nuki = [a for a in me.last_view()["legal_actions"] if a["type"] == "nuki"]
        if nuki:
            break
    else:
        raise AssertionError("no seed gave the dealer a north to set aside")
    table.post(ClientAction(me, nuki[0]))
    await settle()
    await advance(clock, 0.1)  # the window closes
    got = [f for _, f in me.frames[2:]]
    types = [f.get("event", {}).get("type") if f["type"] == "event" else f["type"] for f in got]
    assert types[:2] == ["nuki", "draw"]
    decision = next(f for f in got if f["type"] == "decision")
    assert any(a for a in decision["legal"]), decision
