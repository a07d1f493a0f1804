"""A stored game as a download: one title, file name and media type for the CLI and HTTP.

``jantaku log export`` and ``GET /api/games/{id}/export`` both call ``render``,
so a game exported either way is the same file. Formats: ``tenhou6`` and
``mjai`` (riichi only: there is no Tenhou or mjai format for Nanchang mahjong),
and ``jantaku``, our own record (rules, seed and actions: every game played here
replays from it; an imported log has no seed).
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass
from typing import Any

from server.engine import find_variant, resolve_rules
from server.engine.replay import steps
from server.records.export_tenhou6 import export_tenhou6
from server.records.mjai import dumps_mjai, export_mjai
from server.records.model import RecordError
from server.records.record import GameRecord
from server.wire.actions import parse_action

FORMATS = ("tenhou6", "mjai", "jantaku")
TENHOU_VARIANTS = ("riichi", "sanma")


@dataclass(frozen=True, slots=True)
class ExportSource:
    """What the database holds of a game, for an export."""

    status: str
    players: tuple[str, ...]
    events: list[dict[str, Any]]  # {"type", "data"} per engine event, in order
    started_at: str
    log_id: str | None = None  # the Tenhou log id of an imported game
    variant: str = "riichi"
    rules: dict[str, Any] | None = None  # as stored (the variant's options, the timer)
    seed: str = ""  # hex; "" for an imported log
    first_dealer: int = 0
    actions: list[dict[str, Any]] | None = None  # the action rows, in order


@dataclass(frozen=True, slots=True)
class Rendered:
    text: str
    media_type: str
    filename: str


def game_title(game_id: int, started_at: str) -> tuple[str, str]:
    """tenhou.net/6 ``title``: ``["Jantaku", "game 12 2026-11-29"]`` (the day it began)."""
    return ("Jantaku", f"game {game_id} {started_at[:10]}".rstrip())


def render(fmt: str, game_id: int, src: ExportSource) -> Rendered:
    """The export of a finished game (RecordError if it cannot be exported so)."""
    if fmt in ("tenhou6", "mjai") and src.variant not in TENHOU_VARIANTS:
        raise RecordError(
            f"there is no {fmt} format for {find_variant(src.variant).title}: "
            "export it as our own record (format=jantaku)"
        )
    if fmt == "tenhou6":
        doc = export_tenhou6(
            src.events,
            src.players,
            game_title(game_id, src.started_at),
            ref=src.log_id,
            game_id=game_id,
        )
        text = json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n"
        return Rendered(text, "application/json", f"jantaku-{game_id}.tenhou6.json")
    if fmt == "mjai":
        text = dumps_mjai(export_mjai(src.events, src.players))
        return Rendered(text, "application/x-ndjson", f"jantaku-{game_id}.mjai.jsonl")
    if fmt == "jantaku":
        text = own_record(src).dumps() + "\n"
        return Rendered(text, "application/json", f"jantaku-{game_id}.record.json")
    raise ValueError(f"unknown export format {fmt!r}; choose one of {', '.join(FORMATS)}")


def own_record(src: ExportSource) -> GameRecord:
    """Our record of a game played here: its rules, seed and actions (R6)."""
    if not src.seed or src.rules is None or src.actions is None:
        raise RecordError("an imported log has no seed: export it as tenhou6 or mjai")
    # the stored rules carry the table's thinking time beside the game's options
    spec = {k: v for k, v in src.rules.items() if k not in ("think_seconds", "bank_seconds")}
    variant, rules = resolve_rules(spec)
    actions = [parse_action(a, seats=variant.seats) for a in src.actions]
    # the stored rows carry no next_round markers: the replay puts them in (state.log)
    state = deque(
        steps(variant, rules, bytes.fromhex(src.seed), actions, src.first_dealer, auto_next=True),
        maxlen=1,
    )[0][0]
    return GameRecord.from_state(variant, state, src.players[: variant.seats])
