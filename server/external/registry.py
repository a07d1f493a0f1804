"""External mjai bots made by name (``names.py``): for games in-process and live tables."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from server.bots import make_bot
from server.external.channel import AsyncChannel, SyncChannel
from server.external.names import REMOTE_PREFIX, ExternalBot, parse_registry, parse_spec
from server.external.remote import RemoteChannel, RemoteHub
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
    registered: dict[str, ExternalBot], timeout: float = 5.0, remote: RemoteHub | None = None
) -> Callable[[str, int, str], Any]:
    """A live table's bot factory: registered external levels, remote bots (``remote``:
    the hub they connect to), else our own levels."""

    def make(level: str, seed: int, variant: str) -> Any:
        ext = registered.get(level)
        is_remote = remote is not None and level.startswith(REMOTE_PREFIX)
        if ext is None and not is_remote:
            return make_bot(level, seed, variant)
        if variant != "riichi":
            raise ValueError(f"{level} plays the four-player game only")
        if ext is None:
            assert remote is not None
            channel = RemoteChannel(remote, level[len(REMOTE_PREFIX) :], timeout)
            return AsyncMjaiBot(channel, name=level)
        return AsyncMjaiBot(AsyncChannel(ext.command, ext.form, timeout), name=level)

    return make


__all__ = ["ExternalBot", "make_seat_bot", "parse_registry", "parse_spec", "table_bot_factory"]
