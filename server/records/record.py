"""Jantaku's own game record: rules, seed, players and every action.

The engine is deterministic (R6): the seed fixes every wall, so the rules, the
seed, the first dealer and the ordered actions (with a marker where
``next_round`` was called) rebuild the whole game. JSON shape::

    {"format": "jantaku-record", "version": 2, "variant": "riichi",
     "rules": {...the variant's options}, "seed": "<hex>", "first_dealer": 0,
     "players": ["a", "b", "c", "d"],
     "actions": [{"type": "discard", "seat": 0, "tile": "9m"}, ..., {"type": "next_round"}, ...]}

Version 1 records (before other games) are four-player riichi and load as such.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from server.engine import AnyVariant, IllegalAction, find_variant
from server.engine.actions import Action
from server.engine.replay import Step, steps
from server.records.model import RecordError
from server.wire.actions import action_json, parse_action

FORMAT = "jantaku-record"
VERSION = 2
VERSIONS = (1, 2)
NEXT_ROUND = "next_round"


@dataclass(frozen=True, slots=True)
class GameRecord:
    variant: AnyVariant
    rules: Any  # the variant's options object
    seed: bytes
    first_dealer: int
    players: tuple[str, ...]  # one name per seat
    actions: tuple[Action | None, ...]  # None: next_round was called here

    @classmethod
    def from_state(
        cls, variant: AnyVariant, state: Any, players: Sequence[str] | None = None
    ) -> GameRecord:
        """The record of a game so far (``state.log`` is the engine's action list)."""
        names = tuple(str(x) for x in players) if players is not None else ("",) * variant.seats
        if len(names) != variant.seats:
            raise ValueError(f"players must name {variant.seats} seats")
        return cls(
            variant,
            variant.options_of(state),
            state.seed,
            variant.start_seat(state),
            names,
            tuple(state.log),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "variant": self.variant.key,
            "rules": self.variant.options_dict(self.rules),
            "seed": self.seed.hex(),
            "first_dealer": self.first_dealer,
            "players": list(self.players),
            "actions": [
                {"type": NEXT_ROUND} if a is None else action_json(a) for a in self.actions
            ],
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
        version = data.get("version")
        if version not in VERSIONS:
            raise RecordError(f"version {version!r} is not supported (expected one of {VERSIONS})")
        try:
            variant = find_variant(data.get("variant", "riichi") if version == 2 else "riichi")
        except ValueError as exc:
            raise RecordError(f"variant: {exc}") from None
        raw_rules = data.get("rules")
        if not isinstance(raw_rules, dict):
            raise RecordError("rules must be an object (the variant's options)")
        try:
            rules = variant.options(raw_rules)
        except (ValueError, TypeError) as exc:
            raise RecordError(f"rules: {exc}") from None
        seed_hex = data.get("seed")
        if not isinstance(seed_hex, str):
            raise RecordError("seed must be a hex string")
        try:
            seed = bytes.fromhex(seed_hex)
        except ValueError:
            raise RecordError("seed must be a hex string") from None
        n = variant.seats
        first = data.get("first_dealer", 0)
        if type(first) is not int or not 0 <= first < n:
            raise RecordError(f"first_dealer must be 0..{n - 1}")
        players = data.get("players", [""] * n)
        if (
            not isinstance(players, list)
            or len(players) != n
            or not all(isinstance(p, str) for p in players)
        ):
            raise RecordError(f"players must be a list of {n} names")
        raw_actions = data.get("actions")
        if not isinstance(raw_actions, list):
            raise RecordError("actions must be a list")
        actions: list[Action | None] = []
        for i, raw in enumerate(raw_actions):
            if isinstance(raw, Mapping) and raw.get("type") == NEXT_ROUND and len(raw) == 1:
                actions.append(None)
                continue
            try:
                actions.append(parse_action(raw, seats=n))
            except ValueError as exc:
                raise RecordError(f"actions[{i}]: {exc}") from None
        return cls(variant, rules, seed, first, tuple(players), tuple(actions))

    @classmethod
    def loads(cls, text: str | bytes) -> GameRecord:
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise RecordError(f"record is not JSON: {exc}") from None
        return cls.from_json(data)


def replayed(record: GameRecord) -> Iterator[tuple[Any, Step]]:
    """The record's replay step by step (``server.engine.replay``); RecordError names
    the action the engine refused."""
    it = steps(record.variant, record.rules, record.seed, list(record.actions), record.first_dealer)
    i = 0
    while True:
        try:
            state, step = next(it)
        except StopIteration:
            return
        except (IllegalAction, ValueError) as exc:
            a = record.actions[i] if i < len(record.actions) else None
            what = NEXT_ROUND if a is None else repr(a)
            raise RecordError(f"actions[{i}] ({what}): {exc}") from None
        i = step.index + 1
        yield state, step


def replay(record: GameRecord) -> Any:
    """Rebuild the game; RecordError names the first bad action."""
    return deque(replayed(record), maxlen=1)[0][0]
