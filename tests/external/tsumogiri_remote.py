"""The tsumogiri policy of the tests' remote bots (over /ws/bot, mjai.app's form): one
request (a JSON array of events) in, one action out."""

from __future__ import annotations

from typing import Any


def answer(events: list[dict[str, Any]], actor: int | None) -> tuple[int | None, dict[str, Any]]:
    """(the bot's seat, as start_game tells it; its action): it discards what it draws
    and passes on everything else."""
    for e in events:
        if e["type"] == "start_game":
            actor = e["id"]
    last = events[-1] if events else {}
    if last.get("type") == "tsumo" and last.get("actor") == actor:
        return actor, {"type": "dahai", "actor": actor, "pai": last["pai"], "tsumogiri": True}
    return actor, {"type": "none"}
