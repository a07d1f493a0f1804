"""Bots: players that see only their seat's observation and legal actions.

``make_bot(name, seed)`` builds one by name; the same name and seed always
play the same way. ``BOTS`` is the one list of levels the API, the lobby
schemas and the client read.
"""

from __future__ import annotations

from collections.abc import Callable

from server.bots.base import Bot, Hand, read_hand
from server.bots.defensive import DefensiveBot
from server.bots.efficient import EfficientBot
from server.bots.simple import RandomBot, TsumogiriBot

BOTS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "tsumogiri": TsumogiriBot,
    "efficient": EfficientBot,
    "defensive": DefensiveBot,
}


def make_bot(name: str, seed: int = 0) -> Bot:
    """A bot by name (``random``, ``tsumogiri``, ``efficient``, ``defensive``), seeded."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; choose one of {', '.join(BOTS)}") from None
    return factory(seed)


__all__ = [
    "BOTS",
    "Bot",
    "DefensiveBot",
    "EfficientBot",
    "Hand",
    "RandomBot",
    "TsumogiriBot",
    "make_bot",
    "read_hand",
]
