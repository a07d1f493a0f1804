"""The uniform call window: a discard's call options stay the business of the seats holding them.

After a discard (or a kan that could be robbed) the engine either waits for the
seats that may call or, when nobody may, goes straight on with the next draw.
Sent as they come, the frames would tell every seat which of the two happened:
the next draw arriving at once means nobody could call; a pause means somebody
holds a pair. So at a table where humans sit, the table opens a window of the
same length after every such event, whoever may call:

* the event itself (and a dora it turns) goes out at once to everyone;
* until the window closes, nothing that follows it goes to anyone but the seats
  deciding in it: their own view (with their call options) at once, nothing else.
  The outcome (the next draw, a call, a ron) is held, and so are the views;
* everything held goes out when the window closes, and then each of those
  connections gets a fresh view (so the frames are the same whether there was
  anything to decide, and the next decision's timer starts as it is shown);
* messages from the other seats (actions, connects, resyncs, continues) wait for
  the window to close, so probing (a blind action, a new connection) learns
  nothing either; and no other seat's decision or timer starts before then.

A seat that takes longer than the window to decide is seen taking it, as at a
real table. Bots decide within ``bot_delay``, shorter than the window.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from server.engine import Event
from server.tables.clock import Handle
from server.tables.outbox import Kind, Out


def window_split(events: Sequence[Event]) -> int | None:
    """How many of ``events`` precede the call window one of them opens (None: no window).

    A discard opens one (after a dora it turns: an earlier kan's, public at once), and
    so do a kan and, in sanma, a north set aside: a kakan may be robbed (chankan), an
    ankan by kokushi where the rules allow it, a north by a hand waiting on it. The
    dora a kan turns belongs to the outcome (a robbed kan turns none). Every game
    names these events alike (``discard``, ``kan``, ``nuki``).
    """
    for i, ev in enumerate(events):
        if ev.type in _SPLIT_AFTER:
            return i + 1
        if ev.type == "discard":
            j = i + 1
            while j < len(events) and events[j].type == "new_dora":
                j += 1
            return j
    return None


_SPLIT_AFTER = frozenset({"kan", "nuki"})


@dataclass(slots=True)
class Window:
    """A call window being held open."""

    token: int
    deciders: frozenset[int]  # the seats that may call (empty: nobody could)
    open: bool  # still undecided (False once the outcome is known)
    mark: int  # frames of the opening step before this index went out at once
    opened_now: bool = True
    held: list[Out] = field(default_factory=list)
    parked: list[Any] = field(default_factory=list)  # table messages, handled on release
    handle: Handle | None = None

    def route(self, items: list[Out]) -> list[Out]:
        """The frames of a committed step that may go out now; the rest is held."""
        now: list[Out] = []
        if self.opened_now:
            self.opened_now = False
            now.extend(items[: self.mark])
            items = items[self.mark :]
        for item in items:
            if item.kind is Kind.OTHER or (
                item.kind is Kind.VIEW and self.open and item.conn.seat in self.deciders
            ):
                now.append(item)
            else:
                self.held.append(item)
        return now

    def release(self) -> tuple[list[Out], list[Any], list[Out]]:
        """What was held, for the window's close: the events in order, the connections
        whose view was held (they get a fresh one, with the timers that start now,
        after the events) and the ``game_over`` frames (after the views)."""
        events = [item for item in self.held if item.kind is Kind.EVENT]
        ends = [item for item in self.held if item.kind is Kind.END]
        conns: dict[int, Any] = {}
        for item in self.held:
            if item.kind is Kind.VIEW:
                conns.setdefault(id(item.conn), item.conn)
        self.held = []
        return events, list(conns.values()), ends
