"""A game variant as data: what the lobby, records, tables, bots and client need of it.

Modelled on python-chess's ``variant.py`` and scalachess's ``Variant``: a
variant is found by name (``server.engine.registry.find_variant``) and
carries its seat count, tile count, options type and presets, and the
functions that play it. Everything above the engine drives a game only
through these.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from server.engine.actions import Action
from server.engine.events import Event, Standing

State = TypeVar("State")
Options = TypeVar("Options")
Obs = TypeVar("Obs")


class RoundSummary(Protocol):
    """What every game says of a finished round (for history and records)."""

    @property
    def round_wind(self) -> int: ...
    @property
    def kyoku(self) -> int: ...
    @property
    def honba(self) -> int: ...
    @property
    def kind(self) -> str: ...  # "agari" | "ryuukyoku" (or the game's own words)
    @property
    def deltas(self) -> tuple[int, ...]: ...
    @property
    def scores(self) -> tuple[int, ...]: ...
    @property
    def event(self) -> Event: ...  # the event that ended the round


class VariantError(ValueError):
    """An unknown variant or preset name."""


@dataclass(frozen=True, slots=True)
class Variant(Generic[State, Options, Obs]):
    key: str  # the name records, the API and the client use
    title: str
    seats: int
    tiles: int
    options_type: type[Options]
    presets: Mapping[str, Options]
    default_preset: str
    # Options from a preset name or an object of overrides ({"preset": name, ...}).
    options: Callable[[str | Mapping[str, Any] | None], Options]
    options_dict: Callable[[Options], dict[str, Any]]
    options_of: Callable[[State], Options]  # the options a game is played under
    # The seat given to new_game (riichi: the first dealer; Nanchang: who rolls for it):
    # with the options, the seed and the log, it replays the game.
    start_seat: Callable[[State], int]
    new_game: Callable[[Options, bytes, int], State]
    start_events: Callable[[State], Sequence[Event]]
    legal: Callable[[State, int], list[Action]]
    apply: Callable[[State, Action], list[Event]]
    next_round: Callable[[State], list[Event]]
    waiting_on: Callable[[State], frozenset[int]]
    phase: Callable[[State], str]  # "play" | "round_end" | "game_end"
    observe: Callable[[State, int | None], Obs]
    mask: Callable[[Event, int | None], Event | None]
    final: Callable[[State], Sequence[Standing] | None]
    rounds: Callable[[State], Sequence[RoundSummary]]  # finished rounds, in order
    # Words for a finished round, for self-play statistics: "tsumo" / "ron" per win,
    # "draw:<reason>", and the game's own ("shape:<id>", "element:<id>" ...).
    describe: Callable[[RoundSummary], tuple[str, ...]]
    # The tile a seat has just drawn, if any (the default discard of a timed-out turn).
    drawn: Callable[[State, int], int | None]
    check_invariants: Callable[[State], None]
    clone: Callable[[State], State]  # an independent copy (self-play tries actions on one)
    # What each seat is shown after a transition (the events of it), checked
    # against leaks: AssertionError naming the first (self-play and tests).
    check_view: Callable[[State, Sequence[Event], random.Random], None]
