"""The one replay of a game's actions, for every variant: records, resume and self-play.

A log is the variant's actions in order, with None where ``next_round`` was
called (``state.log``). A table's stored rows carry no such markers: with
``auto_next`` an action that arrives while a round is over starts the next one
first, as the table did.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from server.engine.actions import Action
from server.engine.events import Event
from server.engine.variant import Variant


@dataclass(frozen=True, slots=True)
class Step:
    """One replayed step: its index in the log (-1: the opening deal, or a round
    started by ``auto_next``), the action (None: next_round) and its events."""

    index: int
    action: Action | None
    events: Sequence[Event]


def steps(
    variant: Variant[Any, Any, Any],
    options: Any,
    seed: bytes,
    log: Sequence[Action | None],
    first_dealer: int = 0,
    *,
    auto_next: bool = False,
) -> Iterator[tuple[Any, Step]]:
    """Replay ``log``: the state (the same object throughout) after each step.

    The variant's errors (IllegalAction, ValueError) propagate from the step that
    raised them; the caller knows its index from the last step it saw.
    """
    state = variant.new_game(options, seed, first_dealer)
    yield state, Step(-1, None, tuple(variant.start_events(state)))
    for i, action in enumerate(log):
        if action is None:
            yield state, Step(i, None, tuple(variant.next_round(state)))
            continue
        if auto_next and variant.phase(state) == "round_end":
            yield state, Step(-1, None, tuple(variant.next_round(state)))
        yield state, Step(i, action, tuple(variant.apply(state, action)))


def replay(
    variant: Variant[Any, Any, Any],
    options: Any,
    seed: bytes,
    log: Sequence[Action | None],
    first_dealer: int = 0,
) -> Any:
    """The state after ``log``."""
    return deque(steps(variant, options, seed, log, first_dealer), maxlen=1)[0][0]
