"""The round and hanchan state machine (R2-R26). Skeleton: see docs/engine.md."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from server.engine.actions import Action, Event, IllegalAction
from server.engine.rules import RuleSet
from server.engine.wall import Wall

__all__ = [
    "Action",
    "Event",
    "GameState",
    "IllegalAction",
    "Wall",
    "apply",
    "check_invariants",
    "legal_actions",
    "new_game",
    "next_round",
    "replay",
    "view",
    "waiting_on",
]


class GameState:
    """The whole hanchan; see docs/engine.md for the readable attributes."""

    @classmethod
    def at_round(
        cls,
        rules: RuleSet,
        *,
        round_wind: int,
        dealer: int,
        honba: int = 0,
        riichi_sticks: int = 0,
        scores: Sequence[int] | None = None,
        wall: Wall | None = None,
        first_dealer: int = 0,
        seed: bytes = b"",
        round_index: int = 0,
    ) -> GameState:
        raise NotImplementedError

    def clone(self) -> GameState:
        raise NotImplementedError


def new_game(rules: RuleSet, seed: bytes, first_dealer: int = 0) -> GameState:
    raise NotImplementedError


def legal_actions(state: GameState, seat: int) -> list[Action]:
    raise NotImplementedError


def waiting_on(state: GameState) -> frozenset[int]:
    raise NotImplementedError


def apply(state: GameState, action: Action) -> list[Event]:
    raise NotImplementedError


def next_round(state: GameState) -> list[Event]:
    raise NotImplementedError


def view(state: GameState, seat: int | None) -> dict[str, Any]:
    raise NotImplementedError


def check_invariants(state: GameState) -> None:
    raise NotImplementedError


def replay(
    rules: RuleSet, seed: bytes, log: Sequence[Action | None], first_dealer: int = 0
) -> GameState:
    raise NotImplementedError
