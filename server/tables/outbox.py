"""Frames on their way to connections: collected while a step is handled, sent once it
is committed (``Table._process``), or held back by an open call window (``window.py``)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Protocol


class Conn(Protocol):
    """A client connection as the table sees it (the gateway implements it)."""

    seat: int | None
    # What the client asked for in its hello: 1 a view after every step, 2 events and
    # decision frames (docs/protocol.md, "Frames").
    protocol: int

    def send(self, text: str) -> None:
        """Queue one frame; must not block."""

    def close(self, code: int) -> None:
        """Close the connection (asynchronously)."""


class Kind(Enum):
    EVENT = "event"  # an event (or its version alone): part of the game's story
    VIEW = "view"  # a view: only the latest one of a connection matters
    END = "end"  # game_over, after the last view
    OTHER = "other"  # errors, presence, welcome: says nothing about the game's progress


@dataclass(slots=True)
class Out:
    conn: Conn
    frame: str | None  # None: close the connection with ``code``
    kind: Kind
    code: int = 1000
    # Protocol 2's event and decision frames: (version, the event's JSON, ``null`` for
    # its version alone; or the decision's fields) for merging into a step frame
    # (steps.py). None for every other frame.
    part: tuple[int, str] | None = None

    def deliver(self) -> None:
        if self.frame is None:
            self.conn.close(self.code)
        else:
            self.conn.send(self.frame)
