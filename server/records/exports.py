"""A stored game as a download: one title, file name and media type for the CLI and HTTP.

``jantaku log export`` and ``GET /api/games/{id}/export`` both call ``render``,
so a game exported either way is the same file.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from server.records.export_tenhou6 import export_tenhou6
from server.records.mjai import dumps_mjai, export_mjai

FORMATS = ("tenhou6", "mjai")


@dataclass(frozen=True, slots=True)
class Rendered:
    text: str
    media_type: str
    filename: str


def game_title(game_id: int, started_at: str) -> tuple[str, str]:
    """tenhou.net/6 ``title``: ``["Jantaku", "game 12 2026-11-29"]`` (the day it began)."""
    return ("Jantaku", f"game {game_id} {started_at[:10]}".rstrip())


def render(
    fmt: str,
    game_id: int,
    events: Sequence[dict[str, Any]],
    players: Sequence[str],
    started_at: str,
    log_id: str | None = None,
) -> Rendered:
    """The export of a finished game (RecordError if its stream cannot be exported)."""
    if fmt == "tenhou6":
        doc = export_tenhou6(
            events, players, game_title(game_id, started_at), ref=log_id, game_id=game_id
        )
        text = json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n"
        return Rendered(text, "application/json", f"jantaku-{game_id}.tenhou6.json")
    if fmt == "mjai":
        text = dumps_mjai(export_mjai(events, players))
        return Rendered(text, "application/x-ndjson", f"jantaku-{game_id}.mjai.jsonl")
    raise ValueError(f"unknown export format {fmt!r}; choose one of {', '.join(FORMATS)}")
