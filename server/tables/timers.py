"""The clock and the time bank: which seats a table waits on, and until when.

Each seat the state waits on has a ``_Decision``: when it started and the handle
of what ends it if the seat does not: a bot's turn after ``bot_delay`` for a
bot-played seat, a timeout after the think time plus the seat's bank for a
human at a timed table. Time a player takes beyond the think time comes out of
their bank (reset every round). Timers only post messages, tagged with the
decision's token, so a late one is ignored.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from server.engine import Action
from server.tables.messages import _BotTurn, _Decision, _Timeout, default_action

if TYPE_CHECKING:
    from server.tables.table import Table


class Timers:
    """The decisions of one table actor and their timers (called only from its actor)."""

    def __init__(self, table: Table) -> None:
        self.t = table
        self.decisions: dict[int, _Decision] = {}
        self.think = float(table.options.think_seconds)
        self.bank_seconds = float(table.options.bank_seconds)
        self.timed = table.options.timed

    def reset_banks(self) -> None:
        for st in self.t.seats:
            st.bank = self.bank_seconds

    def end(self, seat: int, *, charge: bool) -> None:
        """The seat decided (or is not asked any more); ``charge`` its bank for the time."""
        d = self.decisions.pop(seat, None)
        if d is None:
            return
        if d.handle is not None:
            d.handle.cancel()
        if charge and self.timed:
            over = self.t.clock.now() - d.started - self.think
            if over > 0:
                st = self.t.seats[seat]
                st.bank = max(0.0, st.bank - over)

    def restart(self, seat: int) -> None:
        """The seat changed hands (bot takeover, player back): its decision starts anew."""
        if seat in self.decisions:
            self.end(seat, charge=False)
            self.sync()

    def sync(self) -> None:
        """Start a decision for every seat the state waits on; end the others."""
        t = self.t
        waiting = t.variant.waiting_on(t.state)
        w = t.window
        if w is not None:
            # While a call window is held only its deciders decide: nobody else has
            # been shown the state yet.
            waiting = waiting & w.deciders if w.open else frozenset()
        for seat in list(self.decisions):
            if seat not in waiting:
                self.end(seat, charge=False)
        for seat in sorted(waiting):
            if seat in self.decisions:
                continue
            token = t.new_token()
            d = _Decision(token, t.clock.now())
            st = t.seats[seat]
            if st.bot_controlled:
                d.handle = t.later(t.config.bot_delay, _BotTurn(seat, token))
            elif self.timed:
                d.handle = t.later(self.think + st.bank, _Timeout(seat, token))
            self.decisions[seat] = d

    def cancel(self) -> None:
        for seat in list(self.decisions):
            self.end(seat, charge=False)

    def on_timeout(self, msg: _Timeout) -> None:
        t = self.t
        d = self.decisions.get(msg.seat)
        if d is None or d.token != msg.token or t.seats[msg.seat].bot_controlled:
            return
        t.seats[msg.seat].bank = 0.0
        t.apply(self.timeout_action(msg.seat), "timeout")

    def timeout_action(self, seat: int) -> Action:
        t = self.t
        legal = t.variant.legal(t.state, seat)
        return default_action(legal, t.variant.drawn(t.state, seat))

    def timer_json(self, seat: int | None) -> dict[str, Any] | None:
        """What is left of ``seat``'s think time and bank (None: no timer runs for it)."""
        if seat is None or not self.timed:
            return None
        d = self.decisions.get(seat)
        st = self.t.seats[seat]
        if d is None or st.bot_controlled:
            return None
        elapsed = self.t.clock.now() - d.started
        think_left = max(0.0, self.think - elapsed)
        bank_left = st.bank - max(0.0, elapsed - self.think)
        return {
            "seat": seat,
            "think_ms": int(think_left * 1000),
            "bank_ms": int(max(0.0, bank_left) * 1000),
        }
