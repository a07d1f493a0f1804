"""What a table is made of and what it is sent: seats, configuration, inbox messages.

The actor (``table.py``) handles these one at a time; the gateway and the manager
build them. Kept apart so that the actor's module is about what it does.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from server.engine import Action, ActionType, Event
from server.tables.clock import Handle
from server.tables.outbox import Conn


class Bot(Protocol):
    def choose(self, obs: Any) -> Action: ...  # the seat's observation


# (level, seed, variant key) -> a bot of that level for that game
BotFactory = Callable[[str, int, str], Bot]


@dataclass(frozen=True, slots=True)
class SeatSpec:
    name: str
    player_id: int | None = None
    bot: str | None = None  # bot level for a bot seat


@dataclass(frozen=True, slots=True)
class TableConfig:
    disconnect_grace: float = 10.0
    round_end_pause: float = 6.0
    bot_delay: float = 0.5
    takeover_bot: str | None = None  # None: the game's own (bots.TAKEOVER)
    replay_buffer: int = 500
    # The uniform call window (window.py) at tables where humans sit; 0 = none.
    call_window: float = 0.0
    # How long spectators' frames are gathered before they are sent (spectators.py).
    spectator_interval: float = 0.2
    # Told of every action applied: its source ("player", "bot", "timeout") and, for a
    # player's, the seconds from the gateway receiving it to the step's frames being
    # handed to the connections, after its commit (the app's metrics, server/api/metrics.py).
    on_action: Callable[[str, float | None], None] | None = None


# Inbox messages -------------------------------------------------------------


@dataclass(slots=True)
class Connect:
    conn: Conn
    last_version: int | None
    # A spectator's display name (None: anonymous), shown to the seats (docs/protocol.md).
    name: str | None = None


@dataclass(slots=True)
class Disconnect:
    conn: Conn


@dataclass(slots=True)
class ClientAction:
    conn: Conn
    action: dict[str, Any]
    version: int | None = None
    ref: Any = None
    received: float = field(default_factory=time.perf_counter)


@dataclass(slots=True)
class Resync:
    conn: Conn


@dataclass(slots=True)
class Continue:
    conn: Conn


@dataclass(slots=True)
class _Timeout:
    seat: int
    token: int


@dataclass(slots=True)
class _BotTurn:
    seat: int
    token: int


@dataclass(slots=True)
class _BotAnswer:
    """An external bot's answer (None: it failed) to the decision ``token``."""

    seat: int
    token: int
    action: Action | None


@dataclass(slots=True)
class _Grace:
    seat: int
    token: int


@dataclass(slots=True)
class _NextRound:
    token: int


@dataclass(slots=True)
class _Release:
    token: int


@dataclass(slots=True)
class _Begin:
    """The first message of a table: publish the game's opening events, or go on after
    a restart (``events`` None)."""

    events: list[Event] | None


@dataclass(slots=True)
class _Stop:
    pass


Message = (
    (Connect | Disconnect | ClientAction | Resync | Continue | _Timeout | _BotTurn | _Grace)
    | (_NextRound | _Release | _Begin | _Stop)
    | _BotAnswer
)

# What waits while a call window is held (window.py): everything a client sends.
_CLIENT_MESSAGES = (Connect, Disconnect, ClientAction, Resync, Continue)


@dataclass(slots=True)
class _Decision:
    """A seat the state waits on: since when, and the handle of its timer or bot turn."""

    token: int
    started: float
    handle: Handle | None = None


@dataclass(slots=True)
class _SeatState:
    spec: SeatSpec
    conn: Conn | None = None
    auto: bool = False  # a bot plays for this (disconnected) human
    bank: float = 0.0
    grace_token: int = 0
    grace_handle: Handle | None = None
    continued: bool = False
    bot: Bot | None = None

    @property
    def bot_controlled(self) -> bool:
        return self.spec.bot is not None or self.auto


def default_action(legal: list[Action], drawn: int | None = None) -> Action:
    """The action played for a seat whose time ran out: pass, else discard the drawn tile."""
    for a in legal:
        if a.type is ActionType.PASS:
            return a
    discards = [a for a in legal if a.type is ActionType.DISCARD]
    for a in discards:
        if drawn is not None and a.tile == drawn:
            return a
    # After a call there is no drawn tile: the last listed discard.
    if discards:
        return discards[-1]
    return legal[0]
