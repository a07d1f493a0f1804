"""server/tables/steps.py: a connection's event frames of one delivery and the decision
after them merged into one step frame, each connection's order kept."""

from __future__ import annotations

import json
from typing import Any

from server.tables.outbox import Kind, Out
from server.tables.steps import expand, merge


class Conn:
    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.protocol = 2

    def send(self, text: str) -> None: ...

    def close(self, code: int) -> None: ...


def event(conn: Conn, version: int, data: dict[str, Any] | None) -> Out:
    piece = json.dumps(data, separators=(",", ":"))
    body = {"type": "event", "version": version, **({"event": data} if data else {})}
    return Out(conn, json.dumps(body), Kind.EVENT, part=(version, piece))


def decision(conn: Conn, version: int, fields: dict[str, Any]) -> Out:
    body = ",".join(f'"{k}":{json.dumps(v)}' for k, v in fields.items())
    frame = f'{{"type":"decision","version":{version},"seat":{conn.seat},{body}}}'
    return Out(conn, frame, Kind.VIEW, part=(version, body))


def frames(items: list[Out], conn: Conn) -> list[dict[str, Any]]:
    return [json.loads(i.frame) for i in items if i.conn is conn and i.frame is not None]


DISCARD = {"type": "discard", "seat": 1, "tile": "9p"}
DRAW = {"type": "draw", "seat": 2}


def test_each_connection_s_events_and_decision_become_one_step_frame() -> None:
    a, b = Conn(0), Conn(None)
    items = [
        event(a, 7, DISCARD),
        event(b, 7, DISCARD),
        event(a, 8, DRAW),
        event(b, 8, None),  # an event b may see nothing of
        decision(a, 8, {"legal": [], "help": None}),
    ]
    out = merge(items)
    assert frames(out, a) == [
        {"type": "step", "version": 8, "events": [DISCARD, DRAW], "legal": [], "help": None}
    ]
    assert frames(out, b) == [{"type": "step", "version": 8, "events": [DISCARD, None]}]
    # read back, a step frame is exactly the frames it replaced
    for conn in (a, b):
        expanded = [f for s in frames(out, conn) for f in expand(s, conn.seat)]
        assert expanded == [json.loads(i.frame) for i in items if i.conn is conn]


def test_lone_frames_stay_as_they_are_and_other_frames_close_a_run() -> None:
    a = Conn(0)
    players = Out(a, '{"type":"players"}', Kind.OTHER)
    lone = [event(a, 3, DISCARD), players, decision(a, 3, {"legal": []})]
    assert merge(lone) == lone  # nothing to merge: the same items
    # a gap in versions (a held window's events went out before) starts a new run
    gap = [event(a, 3, DISCARD), event(a, 5, DRAW), event(a, 6, DISCARD)]
    assert [f["type"] for f in frames(merge(gap), a)] == ["event", "step"]
    # protocol 1's frames (no part) pass untouched, in place
    plain = Out(a, '{"type":"view"}', Kind.VIEW)
    mixed = [event(a, 3, DISCARD), event(a, 4, DRAW), plain, event(a, 5, DISCARD)]
    out = merge(mixed)
    assert [f["type"] for f in frames(out, a)] == ["step", "view", "event"]
