"""Jantaku's own game record: rules, seed, players and every action.

The engine is deterministic (R6): the seed fixes every wall, so the rules, the
seed, the first dealer and the ordered actions (with a marker where
``next_round`` was called) rebuild the whole game. JSON shape::

    {"format": "jantaku-record", "version": 1,
     "rules": {...RuleSet.to_dict()}, "seed": "<hex>", "first_dealer": 0,
     "players": ["a", "b", "c", "d"],
     "actions": [{"type": "discard", "seat": 0, "tile": "9m"}, ..., {"type": "next_round"}, ...]}
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from server.engine import game as engine
from server.engine.actions import Action, IllegalAction
from server.engine.riichi.rules import RulesError, RuleSet
from server.records.model import RecordError

FORMAT = "jantaku-record"
VERSION = 1
NEXT_ROUND = "next_round"


@dataclass(frozen=True, slots=True)
class GameRecord:
    rules: RuleSet
    seed: bytes
    first_dealer: int
    players: tuple[str, str, str, str]
    actions: tuple[Action | None, ...]  # None: next_round was called here

    @classmethod
    def from_state(
        cls, state: engine.GameState, players: Sequence[str] = ("", "", "", "")
    ) -> GameRecord:
        """The record of a game so far (``state.log`` is the engine's action list)."""
        if len(players) != 4:
            raise ValueError("players must name 4 seats")
        p = tuple(str(x) for x in players)
        return cls(
            state.rules, state.seed, state.first_dealer, (p[0], p[1], p[2], p[3]), tuple(state.log)
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "rules": self.rules.to_dict(),
            "seed": self.seed.hex(),
            "first_dealer": self.first_dealer,
            "players": list(self.players),
            "actions": [{"type": NEXT_ROUND} if a is None else a.to_json() for a in self.actions],
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Parse ``to_json`` output; RecordError names the bad field."""
        if not isinstance(data, Mapping):
            raise RecordError("record must be a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(f"format must be {FORMAT!r}, got {data.get('format')!r}")
        if data.get("version") != VERSION:
            raise RecordError(
                f"version {data.get('version')!r} is not supported (expected {VERSION})"
            )
        raw_rules = data.get("rules")
        if not isinstance(raw_rules, dict):
            raise RecordError("rules must be an object (RuleSet.to_dict())")
        try:
            rules = RuleSet.from_dict(raw_rules)
        except (RulesError, TypeError) as exc:
            raise RecordError(f"rules: {exc}") from None
        seed_hex = data.get("seed")
        if not isinstance(seed_hex, str):
            raise RecordError("seed must be a hex string")
        try:
            seed = bytes.fromhex(seed_hex)
        except ValueError:
            raise RecordError("seed must be a hex string") from None
        first = data.get("first_dealer", 0)
        if type(first) is not int or not 0 <= first <= 3:
            raise RecordError("first_dealer must be 0..3")
        players = data.get("players", ["", "", "", ""])
        if (
            not isinstance(players, list)
            or len(players) != 4
            or not all(isinstance(p, str) for p in players)
        ):
            raise RecordError("players must be a list of 4 names")
        raw_actions = data.get("actions")
        if not isinstance(raw_actions, list):
            raise RecordError("actions must be a list")
        actions: list[Action | None] = []
        for i, raw in enumerate(raw_actions):
            if isinstance(raw, Mapping) and raw.get("type") == NEXT_ROUND and len(raw) == 1:
                actions.append(None)
                continue
            try:
                actions.append(Action.from_json(raw))
            except ValueError as exc:
                raise RecordError(f"actions[{i}]: {exc}") from None
        return cls(
            rules, seed, first, (players[0], players[1], players[2], players[3]), tuple(actions)
        )

    @classmethod
    def loads(cls, text: str | bytes) -> GameRecord:
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise RecordError(f"record is not JSON: {exc}") from None
        return cls.from_json(data)


def replay(record: GameRecord) -> engine.GameState:
    """Rebuild the game with the engine's replay; RecordError names the first bad action."""
    try:
        return engine.replay(record.rules, record.seed, list(record.actions), record.first_dealer)
    except (IllegalAction, ValueError):
        pass
    # Replay again step by step only to say which action the engine refused.
    st = engine.new_game(record.rules, record.seed, record.first_dealer)
    for i, a in enumerate(record.actions):
        try:
            if a is None:
                engine.next_round(st)
            else:
                engine.apply(st, a)
        except (IllegalAction, ValueError) as exc:
            what = NEXT_ROUND if a is None else repr(a)
            raise RecordError(f"actions[{i}] ({what}): {exc}") from None
    raise RecordError("replay failed but no single action was refused")  # pragma: no cover
