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

from server.engine import Action, AnyVariant, IllegalAction
from server.engine.replay import steps
from server.wire.actions import parse_action

# Events that older versions recorded and this one no longer emits (the public
# part of a draw is now the masked draw itself).
_RETIRED = frozenset({"tsumo_turn"})


class ResumeError(Exception):
    """The record cannot be replayed into the game it describes."""


@dataclass(slots=True)
class Rebuilt:
    state: Any
    version: int  # events recorded so far = the table's version

    @property
    def fresh(self) -> bool:
        """Nothing was recorded yet (the process stopped as the game was created):
        the game starts as new, its opening events still to be recorded and sent."""
        return self.version == 0


def rebuild(
    variant: AnyVariant,
    rules: Any,
    seed: bytes,
    first_dealer: int,
    rows: Sequence[tuple[str, str, dict[str, Any]]],
) -> Rebuilt:
    """The state after the recorded ``rows`` ((kind, type, data) in record order)."""
    if not rows:
        return Rebuilt(variant.new_game(rules, seed, first_dealer), 0)
    actions: list[Action | None] = []
    for i, (kind, _type, data) in enumerate(rows):
        if kind == "action":
            try:
                actions.append(parse_action(data, seats=variant.seats))
            except ValueError as exc:
                raise ResumeError(f"record row {i}: {exc}") from None
    recorded_all = [t for kind, t, _ in rows if kind == "event"]
    recorded = [t for t in recorded_all if t not in _RETIRED]
    produced: list[str] = []
    replayed = steps(variant, rules, seed, actions, first_dealer, auto_next=True)
    try:
        state, step = next(replayed)  # the deal: the state object is the same throughout
        produced += [ev.type for ev in step.events]
        for _, step in replayed:
            produced += [ev.type for ev in step.events]
    except (ValueError, IllegalAction) as exc:
        raise ResumeError(f"recorded action {len(produced)}: {exc}") from None
    # The next round may have been dealt after the last recorded action.
    if variant.phase(state) == "round_end" and len(recorded) > len(produced):
        produced += [ev.type for ev in variant.next_round(state)]
    if produced != recorded:
        at = next(
            (j for j, (a, b) in enumerate(zip(produced, recorded, strict=False)) if a != b),
            min(len(produced), len(recorded)),
        )
        raise ResumeError(
            f"replay gives {len(produced)} events, the record has {len(recorded)}; "
            f"first difference at event {at + 1}"
        )
    return Rebuilt(state, len(recorded_all))
