"""Bots: players that see only their seat's observation and legal actions.

``make_bot(name, seed, variant)`` builds one by level name for a game; the same
name and seed always play the same way. ``LEVELS`` is the one list of levels per
game that the API, the lobby schemas and the client read; ``TAKEOVER`` names the
level that plays for a disconnected player.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from server.bots.base import Bot, Hand, read_hand
from server.bots.defensive import DefensiveBot
from server.bots.efficient import EfficientBot
from server.bots.nanchang import NanchangBot, NanchangRandomBot
from server.bots.simple import RandomBot, TsumogiriBot
from server.bots.strong import StrongBot

# Strongest first: the order the lobby's level picker shows.
RIICHI_BOTS: dict[str, Callable[[int], Any]] = {
    "strong": StrongBot,
    "efficient": EfficientBot,
    "defensive": DefensiveBot,
    "random": RandomBot,
    "tsumogiri": TsumogiriBot,
}
LEVELS: dict[str, dict[str, Callable[[int], Any]]] = {
    "riichi": RIICHI_BOTS,
    "sanma": RIICHI_BOTS,
    "nanchang": {"random": NanchangRandomBot, "efficient": NanchangBot},
}
TAKEOVER = {"riichi": "defensive", "sanma": "defensive", "nanchang": "efficient"}
# The four-player levels (the default game).
BOTS = RIICHI_BOTS


def make_bot(name: str, seed: int = 0, variant: str = "riichi") -> Any:
    """A bot by level name for a game (``riichi``: random, tsumogiri, efficient,
    defensive, strong; ``nanchang``: random, efficient), seeded."""
    levels = LEVELS.get(variant)
    if levels is None:
        raise ValueError(f"no bots for the game {variant!r}")
    try:
        factory = levels[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; choose one of {', '.join(levels)}") from None
    return factory(seed)


__all__ = [
    "BOTS",
    "LEVELS",
    "TAKEOVER",
    "Bot",
    "DefensiveBot",
    "EfficientBot",
    "Hand",
    "RandomBot",
    "StrongBot",
    "TsumogiriBot",
    "make_bot",
    "read_hand",
]
