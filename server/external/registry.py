"""External mjai bots made by name (``names.py``): for games in-process and live tables."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from server.bots import make_bot
from server.external.channel import AsyncChannel, SyncChannel
from server.external.names import ExternalBot, parse_registry, parse_spec
from server.external.seat import AsyncMjaiBot, MjaiBot


def make_seat_bot(name: str, seed: int, variant: str, seat: int, *, timeout: float = 5.0) -> Any:
    """A bot for a seat of an in-process game: one of ours by level, or ``mjai:CMD``."""
    spec = parse_spec(name)
    if spec is None:
        return make_bot(name, seed, variant)
    if variant != "riichi":
        raise ValueError("external mjai bots play the four-player game only")
    command, form = spec
    return MjaiBot(SyncChannel(command, form, timeout), seat, name=name)


def table_bot_factory(
    registered: dict[str, ExternalBot], timeout: float = 5.0
) -> Callable[[str, int, str], Any]:
    """A live table's bot factory: registered external levels, else our own levels."""

    def make(level: str, seed: int, variant: str) -> Any:
        ext = registered.get(level)
        if ext is None:
            return make_bot(level, seed, variant)
        if variant != "riichi":
            raise ValueError(f"{level} plays the four-player game only")
        return AsyncMjaiBot(AsyncChannel(ext.command, ext.form, timeout), name=level)

    return make


__all__ = ["ExternalBot", "make_seat_bot", "parse_registry", "parse_spec", "table_bot_factory"]
