"""The uniform call window (window.py), on a fake clock: whether a discard gave anyone a call
option cannot be told from the frames (their content, order or timing) of any other seat."""

from __future__ import annotations

from typing import Any

from server.engine.melds import Meld, MeldType
from server.engine.riichi.events import Discard, Draw, Kan, NewDora, Nuki
from server.engine.tiles import parse_tile
from server.tables.clock import FakeClock
from server.tables.options import TableOptions
from server.tables.table import ClientAction, Connect, SeatSpec
from server.tables.window import window_split
from tests.engine.scenario import PLAIN, game
from tests.server.tablekit import FakeConn, HeldSink, advance, make_table, settle

# Seat 0 (the dealer, a human) draws 9m and discards 5p. Seat 1 (a human) can do nothing
# with it. Seat 2 can pon it in one game (CALL) and not in the other (NO_CALL).
HANDS = ["19m59p19s1234567z", "19m19p19s1234567z", None, "2468m2468p23467s"]
CALL = "55p8p369m258s2345z"
NO_CALL = "58p8p369m258s2345z"
RULES = PLAIN
TIMED = TableOptions(think_seconds=5, bank_seconds=10)
WINDOW = 1.0


def _state(seat2: str) -> Any:
    hands = list(HANDS)
    hands[2] = seat2
    # Seat 1's next draw and the dora are fixed: the rest of the wall may differ.
    return game(hands, draws="9m1z", dora="1m", rules=RULES)


async def _play(
    seat2: str, *, seat2_human: bool = False, script: Any = None, protocol: int = 1
) -> tuple[dict[str, FakeConn], Any]:
    """Seat 0 discards 5p at t=0; run the fake clock to t=3; every seat's frames from then on."""
    clock = FakeClock()
    sink = HeldSink(auto=True)
    st = _state(seat2)
    seats = [
        SeatSpec("A", player_id=1),
        SeatSpec("B", player_id=2),
        SeatSpec("C", player_id=3) if seat2_human else SeatSpec("Bot", bot="pass"),
        SeatSpec("Bot", bot="pass"),
    ]
    table = make_table(
        st, seats, clock=clock, sink=sink, call_window=WINDOW, bot_delay=0.5, options=TIMED
    )
    conns = {"A": FakeConn(clock, 0, protocol=protocol), "B": FakeConn(clock, 1, protocol=protocol)}
    if seat2_human:
        conns["C"] = FakeConn(clock, 2, protocol=protocol)
    table.start([])
    for c in conns.values():
        table.post(Connect(c, None))
    await settle()
    for c in conns.values():
        c.frames.clear()
    table.post(ClientAction(conns["A"], {"type": "discard", "tile": "5p"}))
    await settle()
    if script is not None:
        await script(table, clock, conns)
    await advance(clock, 3.0 - clock.now())
    return conns, sink


def _until(conn: FakeConn, t: float) -> list[tuple[float, dict[str, Any]]]:
    return [(at, f) for at, f in conn.frames if at <= t]


async def test_nobody_else_can_tell_whether_anyone_could_call() -> None:
    with_call, sink = await _play(CALL)
    without, _ = await _play(NO_CALL)
    # Seat 2's bot had the pon and passed at 0.5 s: the game went on then, unseen.
    passes = [r for s in sink.committed for r in s.rows if r.kind == "action" and r.seats == [2]]
    assert [r.type for r in passes] == ["pass"]
    for who in ("A", "B"):
        # The same frames at the same moments, up to and past the window's close.
        assert _until(with_call[who], 1.5) == _until(without[who], 1.5), who
        frames = _until(with_call[who], 1.5)
        at_once = [f for at, f in frames if at == 0.0]
        assert [f["type"] for f in at_once] == ["event"]
        assert at_once[0]["event"]["type"] == "discard"
        # Everything else (the next draw and the views) comes when the window closes.
        assert {at for at, _ in frames[1:]} == {WINDOW}
        assert frames[-1][1]["type"] == "view"
    # Seat 1 was shown its draw and its turn at the window's close; its timer started then.
    view = with_call["B"].last_view()
    timer = next(f for _, f in with_call["B"].frames if f["type"] == "view")["timer"]
    assert view["players"][1]["drawn"] == "1z" and view["waiting_on"] == [1]
    assert timer == {"seat": 1, "think_ms": 5000, "bank_ms": 10000}


async def test_a_human_who_may_call_is_asked_at_once_and_told_nothing_else_early() -> None:
    async def pass_at_0_3(table: Any, clock: FakeClock, conns: dict[str, FakeConn]) -> None:
        c = conns["C"]
        ((at, view),) = ((at, f) for at, f in c.frames if f["type"] == "view")
        assert at == 0.0 and view["view"]["waiting_on"] == [2]
        assert {a["type"] for a in view["view"]["legal_actions"]} == {"pon", "pass"}
        await advance(clock, 0.3)
        table.post(ClientAction(c, {"type": "pass"}))
        await settle()

    with_call, _ = await _play(CALL, seat2_human=True, script=pass_at_0_3)
    without, _ = await _play(NO_CALL, seat2_human=True)
    for who in ("A", "B"):
        assert _until(with_call[who], 1.5) == _until(without[who], 1.5), who
    # The decider learns the outcome of its pass with everyone else, not before.
    later = [at for at, f in with_call["C"].frames if at > 0.0]
    assert later and min(later) == WINDOW


async def test_decision_frames_keep_the_window_s_secret() -> None:
    """Protocol 2: events and decision frames, not views, and the same guarantee."""

    async def pass_at_0_3(table: Any, clock: FakeClock, conns: dict[str, FakeConn]) -> None:
        c = conns["C"]
        ((at, d),) = ((at, f) for at, f in c.frames if f["type"] == "decision")
        assert at == 0.0 and [run[0] for run in d["legal"]] == ["pon", "pass"]
        assert d["timer"] == {"seat": 2, "think_ms": 5000, "bank_ms": 10000}
        await advance(clock, 0.3)
        table.post(ClientAction(c, {"type": "pass"}))
        await settle()

    with_call, _ = await _play(CALL, seat2_human=True, script=pass_at_0_3, protocol=2)
    without, _ = await _play(NO_CALL, seat2_human=True, protocol=2)
    for who in ("A", "B"):
        frames = _until(with_call[who], 1.5)
        assert frames == _until(without[who], 1.5), who
        assert "view" not in {f["type"] for _, f in frames}
        assert [f["event"]["type"] for at, f in frames if at == 0.0] == ["discard"]
        assert {at for at, _ in frames[1:]} == {WINDOW}
    # Seat 1 draws when the window closes: its decision frame, its timer starting then.
    (d,) = (f for _, f in with_call["B"].frames if f["type"] == "decision")
    assert d["timer"] == {"seat": 1, "think_ms": 5000, "bank_ms": 10000}
    assert "discard" in [run[0] for run in d["legal"]]
    # The discarder's decision ended with its discard: told so with everyone's news.
    ((at, done),) = ((at, f) for at, f in with_call["A"].frames if f["type"] == "decision")
    assert at == WINDOW and done["legal"] == [] and done["timer"] is None


async def test_a_probe_during_the_window_learns_nothing() -> None:
    """Seat 1 sends its discard blind, and a spectator connects, before the window
    closes: both are answered after it, the same way whether anyone could call."""

    async def probe(table: Any, clock: FakeClock, conns: dict[str, FakeConn]) -> None:
        await advance(clock, 0.2)
        table.post(ClientAction(conns["B"], {"type": "discard", "tile": "1z"}))
        watcher = conns["W"] = FakeConn(clock, None)
        table.post(Connect(watcher, None))
        await settle()

    with_call, _ = await _play(CALL, script=probe)
    without, _ = await _play(NO_CALL, script=probe)
    for who in ("B", "W"):
        assert all(at in (0.0, WINDOW) for at, _ in _until(with_call[who], 1.2)), who
        assert [f["type"] for _, f in _until(with_call[who], 1.2)] == [
            f["type"] for _, f in _until(without[who], 1.2)
        ], who
    # The blind discard was played once the window closed (B had drawn 1z by then).
    discards = [
        (at, f["event"])
        for at, f in with_call["B"].frames
        if f["type"] == "event" and f.get("event", {}).get("type") == "discard"
    ]
    assert discards[1] == (
        WINDOW,
        {
            "type": "discard",
            "seat": 1,
            "tile": "1z",
            "tsumogiri": True,
            "riichi": False,
        },
    )
    assert not [f for _, f in with_call["B"].frames if f["type"] == "error"]


async def test_a_slow_caller_holds_the_table_and_the_window_then_opens() -> None:
    async def think_2s(table: Any, clock: FakeClock, conns: dict[str, FakeConn]) -> None:
        await advance(clock, 2.0)
        table.post(ClientAction(conns["C"], {"type": "pass"}))
        await settle()

    conns, _ = await _play(CALL, seat2_human=True, script=think_2s)
    b = conns["B"].frames
    # At the window's close: a view of the open window (no draw yet); the draw at 2 s.
    at_close = [f for at, f in b if at == WINDOW]
    assert [f["type"] for f in at_close] == ["view"]
    assert at_close[0]["view"]["last_discard"] == {"seat": 0, "tile": "5p"}
    at_pass = [f for at, f in b if at == 2.0]
    assert [f["type"] for f in at_pass][:2] == ["event", "view"]
    assert at_pass[0]["event"]["type"] == "draw" and at_pass[0]["event"]["tile"] == "1z"


def test_window_split_after_a_discard_and_its_dora_but_before_a_kan_s() -> None:
    p5, m1, e = parse_tile("5p"), parse_tile("1m"), parse_tile("1z")
    discard = Discard(0, p5, False, False)
    dora = NewDora(m1, (m1,))
    draw = Draw(1, None, False, 60)
    assert window_split([discard, dora, draw]) == 2
    assert window_split([discard]) == 1
    # a kan's own dora turns only once it stands (R12): that is the window's outcome
    kakan = Kan(0, Meld(MeldType.KAKAN, (e, e, e, e), e, 1), e)
    assert window_split([kakan, dora, draw]) == 1
    ankan = Kan(0, Meld(MeldType.ANKAN, (e, e, e, e)), None)
    assert window_split([ankan, dora, draw]) == 1
    north = parse_tile("4z")
    assert window_split([Nuki(0, north), draw]) == 1  # a north set aside may be ronned
    assert window_split([draw]) is None
