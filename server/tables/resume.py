"""Rebuilding a live game's state from its recorded rows (after a server restart).

The table records every accepted action beside the events it caused. The
engine is deterministic (R6), so applying the recorded actions to a new game of
the same rules, seed and first dealer gives the state the table had, and the
events it yields must be exactly the recorded ones: a game whose record does not
replay that way (a changed engine, a damaged record) is refused, not guessed at.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from server.engine import game as engine
from server.engine.actions import Action, Event, IllegalAction
from server.engine.rules import RuleSet
from server.tables.table import RESULT_TYPES


class ResumeError(Exception):
    """The record cannot be replayed into the game it describes."""


@dataclass(slots=True)
class Rebuilt:
    state: engine.GameState
    version: int  # events recorded so far = the table's version
    results: dict[str, dict[str, Any]]  # the latest result event data by type

    @property
    def fresh(self) -> bool:
        """Nothing was recorded yet (the process stopped as the game was created):
        the game starts as new, its opening events still to be recorded and sent."""
        return self.version == 0


def rebuild(
    rules: RuleSet,
    seed: bytes,
    first_dealer: int,
    rows: Sequence[tuple[str, str, dict[str, Any]]],
) -> Rebuilt:
    """The state after the recorded ``rows`` ((kind, type, data) in record order)."""
    state = engine.new_game(rules, seed, first_dealer)
    if not rows:
        return Rebuilt(state, 0, {})
    produced: list[Event] = list(state.start_events)
    recorded = [t for kind, t, _ in rows if kind == "event"]
    for i, (kind, _type, data) in enumerate(rows):
        if kind != "action":
            continue
        if state.phase == "round_end":
            produced.extend(engine.next_round(state))
        try:
            action = Action.from_json(data)
            produced.extend(engine.apply(state, action))
        except (ValueError, IllegalAction) as exc:
            raise ResumeError(f"record row {i}: {exc}") from None
    # The next round may have been dealt after the last recorded action.
    if state.phase == "round_end" and len(recorded) > len(produced):
        produced.extend(engine.next_round(state))
    types = [ev.type for ev in produced]
    if types != recorded:
        at = next(
            (j for j, (a, b) in enumerate(zip(types, recorded, strict=False)) if a != b),
            min(len(types), len(recorded)),
        )
        raise ResumeError(
            f"replay gives {len(types)} events, the record has {len(recorded)}; "
            f"first difference at event {at + 1}"
        )
    results = {ev.type: dict(ev.data) for ev in produced if ev.type in RESULT_TYPES}
    return Rebuilt(state, len(recorded), results)
