"""What every game's events share: who may see them, and the final standings."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal, get_args

# Why a game ended (the ``reason`` of every game's ``game_end``, docs/engine.md):
# a score below zero (R25 tobi); the last scheduled round played; the all-last dealer
# kept the deal by a win or by tenpai and is first (agari-yame, tenpai-yame); the
# extension round (West, or South in tonpuu) reached the return points, or was
# played out; Nanchang's rounds all played (N27).
EndReason = Literal[
    "tobi",
    "last_round",
    "agari_yame",
    "tenpai_yame",
    "extension_reached",
    "extension_limit",
    "rounds_done",
]
END_REASONS: tuple[EndReason, ...] = get_args(EndReason)


class Event:
    """Base of every game's events: public unless a subclass says otherwise.

    Each event class names itself (``type``, used by records and the wire), and
    says which seats may see it whole (``seats``); a game's ``mask`` gives the
    part another seat may see.
    """

    __slots__ = ()
    type: ClassVar[str]

    @property
    def seats(self) -> frozenset[int] | None:
        """The seats that may see this event whole; None for everyone."""
        return None

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (None = spectator) may see this event whole."""
        seats = self.seats
        return seats is None or (seat is not None and seat in seats)


@dataclass(frozen=True, slots=True)
class Standing:
    """One seat's place at the end of a game."""

    seat: int
    points: int
    rank: int  # 1..seats
    score: float  # the game's result in its own unit (riichi: (points - return)/1000 + uma)
