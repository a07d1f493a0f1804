"""What a seat can do, and the events a transition produces.

These two types are the contract between the engine and everything above it
(bots, records, tables, the wire protocol). Both round-trip through plain
JSON-able dicts with ``to_json`` / ``from_json``; tiles are notation strings
("5p", "0p" for the red five) on the wire and ``Tile`` ints in Python.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from server.engine.tiles import Tile, TileError, parse_tile, tile_str


class ActionType(StrEnum):
    # On one's own turn, after a draw (or after a call, DISCARD only):
    DISCARD = "discard"  # tile
    RIICHI = "riichi"  # tile = the discard that declares riichi
    TSUMO = "tsumo"
    ANKAN = "ankan"  # tile = the kind to kan (any of the four)
    KAKAN = "kakan"  # tile = the tile added to the pon
    KYUUSHU = "kyuushu"  # kyuushu kyuuhai
    # Answering another seat's discard (or kakan / ankan for chankan):
    RON = "ron"
    PON = "pon"  # tiles = the two own tiles used
    CHI = "chi"  # tiles = the two own tiles used
    DAIMINKAN = "daiminkan"  # tiles = the three own tiles used
    PASS = "pass"


# Each member as a module constant: reading ``ActionType.X`` goes through the
# enum's class attribute machinery, measurably slower in per-action paths
# (the engine's and the bots'), so those read these instead.
A_ANKAN = ActionType.ANKAN
A_CHI = ActionType.CHI
A_DAIMINKAN = ActionType.DAIMINKAN
A_DISCARD = ActionType.DISCARD
A_KAKAN = ActionType.KAKAN
A_KYUUSHU = ActionType.KYUUSHU
A_PASS = ActionType.PASS
A_PON = ActionType.PON
A_RIICHI = ActionType.RIICHI
A_RON = ActionType.RON
A_TSUMO = ActionType.TSUMO

CALL_TYPES = frozenset({ActionType.PON, ActionType.CHI, ActionType.DAIMINKAN})


_setattr = object.__setattr__  # how a frozen dataclass sets its own fields


class IllegalAction(ValueError):
    """An action that is not in ``legal_actions`` now; the state is unchanged."""


@dataclass(frozen=True, slots=True)
class Action:
    type: ActionType
    seat: int
    tile: Tile | None = None
    tiles: tuple[Tile, ...] = ()

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.type.value, "seat": self.seat}
        if self.tile is not None:
            d["tile"] = tile_str(self.tile)
        if self.tiles:
            d["tiles"] = [tile_str(t) for t in self.tiles]
        return d

    @classmethod
    def from_json(cls, data: Mapping[str, Any], seat: int | None = None) -> Action:
        """Parse a wire action; ``seat`` (when given) overrides the message's seat.

        Raises ValueError with a message naming the bad field.
        """
        if not isinstance(data, Mapping):
            raise ValueError("action must be an object")
        try:
            at = ActionType(str(data.get("type")))
        except ValueError:
            raise ValueError(f"unknown action type {data.get('type')!r}") from None
        s = seat if seat is not None else data.get("seat")
        if type(s) is not int or not 0 <= s <= 3:
            raise ValueError("action seat must be 0..3")
        tile: Tile | None = None
        raw = data.get("tile")
        if raw is not None:
            if not isinstance(raw, str):
                raise ValueError("action tile must be a tile string like '5p'")
            try:
                tile = parse_tile(raw)
            except TileError as exc:
                raise ValueError(f"action tile: {exc}") from None
        raw_tiles = data.get("tiles", [])
        if not isinstance(raw_tiles, list) or not all(isinstance(x, str) for x in raw_tiles):
            raise ValueError("action tiles must be a list of tile strings")
        if len(raw_tiles) > 4:
            raise ValueError("action tiles: at most 4")
        try:
            tiles = tuple(parse_tile(x) for x in raw_tiles)
        except TileError as exc:
            raise ValueError(f"action tiles: {exc}") from None
        return cls(at, s, tile, tiles)

    def __repr__(self) -> str:
        parts = [f"ActionType.{self.type.name}", str(self.seat)]
        if self.tile is not None:
            parts.append(f"tile={tile_str(self.tile)!r}")
        if self.tiles:
            parts.append(f"tiles={tuple(tile_str(t) for t in self.tiles)!r}")
        return f"Action({', '.join(parts)})"


@dataclass(frozen=True, slots=True, init=False)
class Event:
    """Something that happened, and who may see it.

    ``seats`` is None for a public event, else the seats allowed to see
    ``data`` (spectators never see a private event). A seat outside ``seats``
    learns only that an event happened (its version number). Where others
    should learn a part of it (a draw happened, but not which tile), the
    engine emits a separate public event with that part.
    """

    type: str
    data: Mapping[str, Any] = field(default_factory=dict)
    seats: frozenset[int] | None = None

    # Written by hand (not generated with a __post_init__): the engine builds a few
    # events per action, and the generated one was a visible part of self-play time.
    def __init__(
        self,
        type: str,
        data: Mapping[str, Any] | None = None,
        seats: frozenset[int] | None = None,
    ) -> None:
        if data is None:
            data = {}
        elif "type" in data:
            # to_json() puts the event type beside the data; a "type" key in the data
            # would silently replace it on the wire.
            raise ValueError(f"event {type!r}: data may not have a 'type' key")
        _setattr(self, "type", type)
        _setattr(self, "data", data)
        _setattr(self, "seats", seats)

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (None = spectator) may see this event's data."""
        return self.seats is None or (seat is not None and seat in self.seats)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, **self.data}
