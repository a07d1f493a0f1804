"""Open and closed melds (furo) declared by a player."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from server.engine.tiles import Kind, Tile, kind, parse_tiles, tiles_str


class MeldType(StrEnum):
    CHI = "chi"
    PON = "pon"
    DAIMINKAN = "daiminkan"
    KAKAN = "kakan"
    ANKAN = "ankan"


KAN_TYPES = frozenset({MeldType.DAIMINKAN, MeldType.KAKAN, MeldType.ANKAN})


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared set.

    ``tiles`` holds every tile of the set (3 or 4) with red fives kept.
    ``called`` is the tile taken from another seat (None for ankan), and
    ``from_seat`` the seat it was taken from, relative to nothing: an absolute
    seat index 0..3 (None for ankan). For kakan, ``called`` and ``from_seat``
    are those of the original pon.
    """

    type: MeldType
    tiles: tuple[Tile, ...]
    called: Tile | None = None
    from_seat: int | None = None

    @property
    def is_kan(self) -> bool:
        return self.type in KAN_TYPES

    @property
    def is_open(self) -> bool:
        return self.type is not MeldType.ANKAN

    @property
    def first(self) -> Kind:
        """The lowest kind of the set."""
        return min(kind(t) for t in self.tiles)

    @property
    def kinds(self) -> list[Kind]:
        return sorted(kind(t) for t in self.tiles)

    @classmethod
    def parse(cls, type_: str, text: str) -> Meld:
        """Build a meld from a type name and a tile string, validating its shape."""
        try:
            mt = MeldType(type_)
        except ValueError as exc:
            raise ValueError(f"unknown meld type {type_!r}") from exc
        tiles = tuple(parse_tiles(text))
        ks = sorted(kind(t) for t in tiles)
        if mt is MeldType.CHI:
            ok = (
                len(ks) == 3
                and ks[0] < 27
                and ks[1] == ks[0] + 1
                and ks[2] == ks[0] + 2
                and ks[0] // 9 == ks[2] // 9
            )
        elif mt is MeldType.PON:
            ok = len(ks) == 3 and ks[0] == ks[2]
        else:
            ok = len(ks) == 4 and ks[0] == ks[3]
        if not ok:
            raise ValueError(f"{text!r} is not a valid {mt.value}")
        called = None if mt is MeldType.ANKAN else tiles[0]
        return cls(mt, tiles, called, None)

    def __repr__(self) -> str:
        return f"Meld.parse({self.type.value!r}, {tiles_str(self.tiles)!r})"
