"""The table actor through its ports: a fake clock, a recording fanout, a held sink.

Whole games run here in milliseconds: no server, no sockets, no sleeps.
"""

from __future__ import annotations

from collections.abc import Sequence

from server.engine.riichi import new_game
from server.engine.riichi.rules import preset
from server.engine.riichi.variant import RIICHI
from server.tables.clock import FakeClock
from server.tables.outbox import Kind, Out
from server.tables.table import ClientAction, Connect, Disconnect, SeatSpec
from tests.server.tablekit import FakeConn, HeldSink, advance, make_table, settle

STANDARD = preset("standard")
HUMAN = SeatSpec("Aoi", player_id=1)
BOTS = [SeatSpec(f"Bot {i}", bot="tsumogiri") for i in (1, 2, 3)]


class RecordingFanout:
    """Keeps every delivery (game id, items) and delivers it locally too."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, list[Out]]] = []

    def deliver(self, game_id: int, items: Sequence[Out]) -> None:
        self.calls.append((game_id, list(items)))
        for item in items:
            item.deliver()


async def test_every_committed_step_goes_out_through_the_fanout_once() -> None:
    clock = FakeClock()
    sink = HeldSink()
    fanout = RecordingFanout()
    st = new_game(STANDARD, b"fanout", 0)
    table = make_table(st, [HUMAN, *BOTS], clock=clock, sink=sink, fanout=fanout)
    me = FakeConn(clock, 0)
    table.start(list(RIICHI.start_events(st)))
    table.post(Connect(me, None))
    await settle()
    assert fanout.calls == []  # nothing before the opening step is committed
    sink.commit()
    await settle()
    ((game_id, items),) = fanout.calls
    assert game_id == 1 and [i.conn for i in items] == [me, me]
    assert [i.frame and i.frame[:16] for i in items] == ['{"type":"welcome', '{"type":"view","']
    discard = next(a for a in me.last_view()["legal_actions"] if a["type"] == "discard")
    table.post(ClientAction(me, discard))
    await settle()
    assert len(fanout.calls) == 1  # the discard waits for its commit
    sink.commit()
    await settle()
    assert len(fanout.calls) == 2
    kinds = [i.kind for i in fanout.calls[1][1]]
    assert kinds[0] is Kind.EVENT and kinds[-1] is Kind.VIEW


async def test_a_seat_left_alone_is_played_by_a_bot_after_the_grace_period() -> None:
    clock = FakeClock()
    sink = HeldSink(auto=True)
    st = new_game(STANDARD, b"takeover", 0)
    table = make_table(st, [HUMAN, *BOTS], clock=clock, sink=sink, disconnect_grace=5.0)
    me = FakeConn(clock, 0)
    table.start(list(RIICHI.start_events(st)))
    table.post(Connect(me, None))
    await settle()
    table.post(Disconnect(me))
    await settle()
    applied = table.actions_applied
    await advance(clock, 4.9)
    assert table.actions_applied == applied  # the dealer's seat waits for its player
    await advance(clock, 1.0)  # grace over, then the bot's delay
    assert table.actions_applied > applied
    assert table.seats[0].auto
