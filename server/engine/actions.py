"""What a seat can do: the actions of every game.

An ``Action`` is a typed value (``Tile`` ints); ``server/wire/actions.py``
reads and writes its JSON form. Each game lists the actions legal now and
refuses any other with ``IllegalAction``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from server.engine.tiles import Tile, tile_str


class ActionType(StrEnum):
    # On one's own turn, after a draw (or after a call, DISCARD only):
    DISCARD = "discard"  # tile
    RIICHI = "riichi"  # tile = the discard that declares riichi
    TSUMO = "tsumo"
    ANKAN = "ankan"  # tile = the kind to kan (any of the four)
    KAKAN = "kakan"  # tile = the tile added to the pon
    KYUUSHU = "kyuushu"  # kyuushu kyuuhai
    NUKI = "nuki"  # sanma: set a north aside (nukidora) and draw a replacement tile
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
A_NUKI = ActionType.NUKI
A_PASS = ActionType.PASS
A_PON = ActionType.PON
A_RIICHI = ActionType.RIICHI
A_RON = ActionType.RON
A_TSUMO = ActionType.TSUMO

CALL_TYPES = frozenset({ActionType.PON, ActionType.CHI, ActionType.DAIMINKAN})


class IllegalAction(ValueError):
    """An action that is not in ``legal_actions`` now; the state is unchanged."""


@dataclass(frozen=True, slots=True)
class Action:
    type: ActionType
    seat: int
    tile: Tile | None = None
    tiles: tuple[Tile, ...] = ()

    def __repr__(self) -> str:
        parts = [f"ActionType.{self.type.name}", str(self.seat)]
        if self.tile is not None:
            parts.append(f"tile={tile_str(self.tile)!r}")
        if self.tiles:
            parts.append(f"tiles={tuple(tile_str(t) for t in self.tiles)!r}")
        return f"Action({', '.join(parts)})"
