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

from server.engine import AnyVariant, Event, IllegalAction
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


def rebuild(
    variant: AnyVariant,
    rules: Any,
    seed: bytes,
    first_dealer: int,
    rows: Sequence[tuple[str, str, dict[str, Any]]],
) -> Rebuilt:
    """The state after the recorded ``rows`` ((kind, type, data) in record order)."""
    state = variant.new_game(rules, seed, first_dealer)
    produced: list[Event] = list(variant.start_events(state))
    recorded_all = [t for kind, t, _ in rows if kind == "event"]
    recorded = [t for t in recorded_all if t not in _RETIRED]
    for i, (kind, _type, data) in enumerate(rows):
        if kind != "action":
            continue
        if variant.phase(state) == "round_end":
            produced.extend(variant.next_round(state))
        try:
            action = parse_action(data, seats=variant.seats)
            produced.extend(variant.apply(state, action))
        except (ValueError, IllegalAction) as exc:
            raise ResumeError(f"record row {i}: {exc}") from None
    # The next round may have been dealt after the last recorded action.
    if variant.phase(state) == "round_end" and len(recorded) > len(produced):
        produced.extend(variant.next_round(state))
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
    return Rebuilt(state, len(recorded_all))
