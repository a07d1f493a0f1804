"""A step's frames for sockets of other processes: one item per process, in order."""

from __future__ import annotations

from typing import Any

from server.cluster.fanout import ClusterFanout
from server.cluster.relay import GatewayRelay, RemoteConn, RemoteTable
from server.tables.outbox import Kind, Out

B2_CLOSE = ["b.2", None, 4409]


class FakeBus:
    def __init__(self, node: str) -> None:
        self.node = node
        self.sent: list[tuple[str, list[Any]]] = []

    def to_node(self, node: str, item: list[Any]) -> None:
        self.sent.append((node, item))


class Sock:
    def __init__(self, seat: int | None = None) -> None:
        self.seat = seat
        self.got: list[str] = []
        self.closed: int | None = None

    def send(self, text: str) -> None:
        self.got.append(text)

    def close(self, code: int) -> None:
        self.closed = code


def test_frames_are_grouped_per_process_in_step_order() -> None:
    bus: Any = FakeBus("owner")
    local = Sock(0)
    r1 = RemoteConn(bus, "b", "b.1", 5, 1)
    r2 = RemoteConn(bus, "c", "c.1", 5, 2)
    r3 = RemoteConn(bus, "b", "b.2", 5, None)
    items = [
        Out(r1, "e1", Kind.EVENT),
        Out(local, "e1", Kind.EVENT),
        Out(r2, "e1m", Kind.EVENT),
        Out(r3, "e1m", Kind.EVENT),
        Out(r1, "v1", Kind.VIEW),
        Out(r3, None, Kind.OTHER, 4409),
    ]
    ClusterFanout(bus).deliver(5, items)
    assert local.got == ["e1"]
    assert bus.sent == [
        ("b", ["s", [["b.1", "e1", 1000], ["b.2", "e1m", 1000], ["b.1", "v1", 1000], B2_CLOSE]]),
        ("c", ["s", [["c.1", "e1m", 1000]]]),
    ]


def test_the_gateway_hands_a_step_to_its_sockets() -> None:
    bus: Any = FakeBus("b")
    relay = GatewayRelay(bus)
    table = RemoteTable(relay, 5, "owner", [None, 7, None, None])
    assert table.seat_of(7) == 1 and table.seat_of(8) is None
    one, two = Sock(1), Sock(None)
    c1, c2 = relay.register(one, table), relay.register(two, table)
    relay.frame(["s", [[c1, "e1", 1000], [c2, "e1m", 1000], [c1, "v1", 1000], [c2, None, 4409]]])
    relay.frame(["s", [[c2, "late", 1000], ["b.999", "gone", 1000]]])
    assert one.got == ["e1", "v1"] and one.closed is None
    # A closed socket is forgotten: nothing more reaches it.
    assert two.got == ["e1m"] and two.closed == 4409
    assert set(relay.conns) == {c1}
    # A table that changed hands: its sockets are closed for a reconnect.
    relay.drop_where(lambda t: t.game_id == 5)
    assert one.closed == 1012 and relay.conns == {}
