"""Step frames (protocol 2): a connection's events of one delivery and the decision
frame that follows them, sent as one frame (docs/protocol.md, "Frames").

Most steps give a seat two or three frames (a discard, the next draw, its decision);
each repeats an envelope (``{"type":"event","version":…,"event":…}``) longer than a
draw's event. Merged, a step costs one envelope:

    {"type":"step","version":58,"events":[{discard},{draw}],"legal":[…],"timer":{…}}

``version`` is its last event's; the events are numbered up to it (``null``: an event
the seat may see nothing of, its version alone). The decision's fields, if any, are
those of the decision frame it replaces (its ``seat`` is the connection's own).

Merging happens once a delivery's frames are known (after the call window let them
through), per connection, in order: a run of consecutive event frames, closed by a
decision frame or anything else. A run of one event alone stays an ``event`` frame, a
decision alone a ``decision`` frame. Only protocol 2's frames carry the pieces
(``Out.part``); protocol 1's, views, presence and errors pass as they are.
"""

from __future__ import annotations

from typing import Any

from server.tables.outbox import Kind, Out


def merge(items: list[Out]) -> list[Out]:
    """``items`` with each connection's runs of event frames (and the decision frame
    closing one) merged into step frames, each in its run's first place."""
    if not any(item.part is not None for item in items):
        return items
    out: list[Out | None] = []
    runs: dict[int, tuple[int, list[Out]]] = {}  # id(conn) -> (place in out, run)

    def close(key: int) -> None:
        place, run = runs.pop(key)
        out[place] = run[0] if len(run) == 1 else _step(run)

    for item in items:
        key = id(item.conn)
        if item.part is None:
            if key in runs:
                close(key)
            out.append(item)
            continue
        open_ = runs.get(key)
        if item.kind is Kind.EVENT:
            if open_ is not None and open_[1][-1].part[0] + 1 != item.part[0]:  # type: ignore[index]
                close(key)
                open_ = None
            if open_ is None:
                runs[key] = (len(out), [item])
                out.append(None)
            else:
                open_[1].append(item)
        elif open_ is not None:  # a decision closes its connection's run of events
            open_[1].append(item)
            close(key)
        else:
            out.append(item)
    for key in list(runs):
        close(key)
    return [item for item in out if item is not None]


def _step(run: list[Out]) -> Out:
    events = [item for item in run if item.kind is Kind.EVENT]
    decision = run[-1] if run[-1].kind is not Kind.EVENT else None
    last = events[-1].part[0]  # type: ignore[index]
    frame = (
        f'{{"type":"step","version":{last},"events":['
        + ",".join(item.part[1] for item in events)  # type: ignore[index]
        + "]"
        + ("," + decision.part[1] if decision is not None else "")  # type: ignore[index]
        + "}"
    )
    return Out(run[0].conn, frame, Kind.EVENT)


def expand(frame: dict[str, Any], seat: int | None) -> list[dict[str, Any]]:
    """A step frame as the event frames (and decision frame) it stands for; any other
    frame as itself. For clients written in Python (tests, bench); web/js/fold.js has
    its own."""
    if frame.get("type") != "step":
        return [frame]
    events = frame["events"]
    first = frame["version"] - len(events) + 1
    out: list[dict[str, Any]] = []
    for i, ev in enumerate(events):
        f: dict[str, Any] = {"type": "event", "version": first + i}
        if ev is not None:
            f["event"] = ev
        out.append(f)
    fields = {k: v for k, v in frame.items() if k not in ("type", "version", "events")}
    if fields:
        out.append({"type": "decision", "version": frame["version"], "seat": seat, **fields})
    return out
