"""Replaying a finished game into its decisions: each with the deciding seat's
observation before it, the action taken and where in the event stream it shows.

Two sources give the same ``Replayed``:

* a game played here: its rules, seed and action rows (``server.engine.replay``);
* an imported log: its stored event stream, turned back into the logged rounds
  (``export_tenhou6`` then ``parse_tenhou6_doc``) and replayed round by round on
  the logged walls exactly as the import verified it (``server.records.verify``).

A decision's place is ``(hand, event)``: the round's index in the game's event
stream (the n-th ``round_start``) and the index, within that round's events
(``round_start`` is 0), of the first event the action caused; for an answer to a
discard (a call or a pass) the index of the discard answered. The replay viewer
splits the stream the same way, so it finds a decision's step from these two.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from server.engine.actions import A_PASS, Action
from server.engine.events import Event
from server.engine.replay import steps
from server.engine.riichi import (
    Agari,
    Discard,
    GameState,
    Hints,
    Observation,
    RoundStart,
    hints,
    observe,
)
from server.engine.riichi.rules import RuleSet
from server.engine.tiles import Kind, kind
from server.records.export_tenhou6 import export_tenhou6
from server.records.model import LoggedRound, RecordError
from server.records.tenhou6 import parse_tenhou6_doc
from server.records.verify import _RoundReplay


@dataclass(frozen=True, slots=True)
class Moment:
    """One decision: ``obs`` is the seat's observation before it (``obs.legal`` the
    choices), ``after`` the seat's hints right after its own discard (else None).
    ``passed[s]``: the kinds anyone discarded after seat ``s`` declared riichi, which
    ``s`` let go (a riichi seat that passes a winning tile is furiten for good, so
    these are as safe against it as its own discards); the seat sees it all happen."""

    hand: int
    event: int
    obs: Observation
    action: Action
    after: Hints | None
    passed: tuple[frozenset[Kind], ...] = ()


@dataclass(frozen=True, slots=True)
class DealIn:
    """A ron: ``seat`` dealt in to ``winner`` (round ``hand``, the agari at ``event``)."""

    hand: int
    event: int
    seat: int
    winner: int


@dataclass(slots=True)
class Replayed:
    seats: int
    moments: list[Moment] = field(default_factory=list)
    deal_ins: list[DealIn] = field(default_factory=list)
    hands: int = 0


_Pending = tuple[Observation, int, tuple[frozenset[Kind], ...]]


class _Collector:
    """Counts events per round and keeps the decisions worth analysing."""

    def __init__(self, seats: int) -> None:
        self.out = Replayed(seats)
        self.hand = -1
        self.count = 0
        self.riichi = [False] * seats
        self.passed: list[set[Kind]] = [set() for _ in range(seats)]
        # the discard whose call window is open: riichi seats pass it once play goes on
        self.pending: Discard | None = None

    def events(self, evs: Sequence[Event]) -> None:
        for e in evs:
            if isinstance(e, RoundStart):
                self.hand += 1
                self.count = 0
                self.out.hands = self.hand + 1
                self.riichi = [False] * len(self.riichi)
                self.passed = [set() for _ in self.riichi]
                self.pending = None
            elif self.pending is not None and not isinstance(e, Agari):
                p = self.pending
                for s, on in enumerate(self.riichi):
                    if on and s != p.seat:
                        self.passed[s].add(kind(p.tile))
                self.pending = None
            if isinstance(e, Discard):
                if e.riichi:
                    self.riichi[e.seat] = True
                self.pending = e
            if isinstance(e, Agari):
                for w in e.winners:
                    if w.from_seat is not None:
                        self.out.deal_ins.append(DealIn(self.hand, self.count, w.from_seat, w.seat))
            self.count += 1

    def before(self, st: GameState, a: Action) -> _Pending | None:
        """The seat's observation if ``a`` answers a real choice (not a lone pass)."""
        if st.phase != "play":
            return None
        obs = observe(st, a.seat)
        if not obs.in_turn and all(x.type is A_PASS for x in obs.legal):
            return None
        at = self.count if obs.in_turn else self.count - 1
        return obs, at, tuple(frozenset(p) for p in self.passed)

    def after(self, st: GameState, a: Action, pending: _Pending | None) -> None:
        if pending is None:
            return
        obs, at, passed = pending
        h = hints(st, a.seat) if obs.in_turn and a.tile is not None and st.phase == "play" else None
        self.out.moments.append(Moment(self.hand, at, obs, a, h, passed))


def played_moments(
    variant: Any, rules: Any, seed: bytes, actions: Sequence[Action], first_dealer: int
) -> Replayed:
    """The decisions of a game played here (the table's action rows, no next_round
    markers: ``auto_next`` as the table did)."""
    col = _Collector(variant.seats)
    k = 0
    pending: _Pending | None = None
    for state, step in steps(variant, rules, seed, actions, first_dealer, auto_next=True):
        if step.action is not None:
            col.events(step.events)
            col.after(state, step.action, pending)
            k += 1
        else:
            col.events(step.events)
        pending = None
        if k < len(actions) and variant.phase(state) == "play":
            pending = col.before(state, actions[k])
    return col.out


class _Capture(_RoundReplay):
    """The import verifier's replay of one round, noting every decision on the way."""

    def __init__(self, col: _Collector, *args: Any) -> None:
        super().__init__(*args)
        self.col = col

    def note(self, events: list[Event]) -> None:
        self.col.events(events)
        super().note(events)

    def do(self, a: Action, where: str) -> None:
        pending = self.col.before(self.st, a)
        super().do(a, where)
        self.col.after(self.st, a, pending)


def imported_moments(events: Sequence[dict[str, Any]], rules: RuleSet) -> Replayed:
    """The decisions of an imported log from its stored event stream (RecordError if the
    stream does not replay: it did when it was imported)."""
    n = rules.seats
    game = parse_tenhou6_doc(export_tenhou6(events, ("",) * n), "<stored game>")
    col = _Collector(n)
    rounds: list[LoggedRound] = game.rounds
    for r in rounds:
        # no next round nor final scores: how the game went on was checked at import
        report = _Capture(col, r, rules, None, None).run()
        if not report.ok:
            raise RecordError(f"round {report.label}: {'; '.join(report.diffs)}")
    return col.out
