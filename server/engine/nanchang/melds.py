"""Melds and river tiles as every seat sees them (N10, N11)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from server.engine.tiles import Kind, tiles_str

MeldType = Literal["chi", "pon", "minkan", "kakan", "ankan"]
MELD_TYPES: tuple[MeldType, ...] = ("chi", "pon", "minkan", "kakan", "ankan")


@dataclass(frozen=True, slots=True)
class Meld:
    """A set laid open. Every tile in it is its own tile, jokers included (N7).

    ``called`` is the tile taken from ``from_seat``'s discard (chi, pon, minkan; a
    kakan keeps its pon's); an ankan has neither. A kakan's ``added`` is the tile
    added to the pon.
    """

    type: MeldType
    tiles: tuple[Kind, ...]
    called: Kind | None = None
    from_seat: int | None = None
    added: Kind | None = None

    @property
    def is_kan(self) -> bool:
        return self.type in ("minkan", "kakan", "ankan")

    @property
    def is_triplet(self) -> bool:
        """A pon or a kan: what 碰碰糊 is made of."""
        return self.type != "chi"

    def __repr__(self) -> str:
        return f"Meld({self.type}, {tiles_str(self.tiles)!r}, from={self.from_seat})"


@dataclass(frozen=True, slots=True)
class RiverTile:
    """A discard; ``called`` once another seat took it (it then lies in that seat's meld)."""

    tile: Kind
    tsumogiri: bool = False
    called: bool = False
