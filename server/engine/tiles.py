"""Tiles (R1) and tile notation.

Three integer encodings are used throughout the engine:

* ``Kind`` (0..33): the tile face without colour, Tenhou order
  (0-8 = 1-9m, 9-17 = 1-9p, 18-26 = 1-9s, 27-33 = E S W N haku hatsu chun).
  Hand analysis works on 34-slot count arrays indexed by kind.
* ``Tile`` (0..36): a kind, or 34/35/36 for the red 5m/5p/5s. This is what
  notation strings and the wire protocol carry ("0m" = red 5m).
* ``TileId`` (0..135): one physical tile, Tenhou's numbering
  (``id // 4`` is the kind; with red fives on, ids 16, 52 and 88 are the red
  fives). The wall and the game records use these.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

Kind = int
Tile = int
TileId = int

NUM_KINDS = 34
RED_5M: Tile = 34
RED_5P: Tile = 35
RED_5S: Tile = 36
RED_TILES: tuple[Tile, ...] = (RED_5M, RED_5P, RED_5S)
RED_IDS: tuple[TileId, ...] = (16, 52, 88)

EAST, SOUTH, WEST, NORTH, HAKU, HATSU, CHUN = 27, 28, 29, 30, 31, 32, 33
WINDS: tuple[Kind, ...] = (EAST, SOUTH, WEST, NORTH)
DRAGONS: tuple[Kind, ...] = (HAKU, HATSU, CHUN)
TERMINALS: frozenset[Kind] = frozenset({0, 8, 9, 17, 18, 26})
HONORS: frozenset[Kind] = frozenset(range(27, 34))
YAOCHU: frozenset[Kind] = TERMINALS | HONORS
GREEN: frozenset[Kind] = frozenset({19, 20, 21, 23, 25, HATSU})  # 2 3 4 6 8 sou, hatsu

SUITS = "mpsz"
WIND_LETTERS = "ESWN"


class TileError(ValueError):
    """A tile or tile string that cannot be parsed."""


def kind(t: Tile) -> Kind:
    """The face of a tile, red fives mapped to their plain five."""
    if t >= NUM_KINDS:
        return 4 + 9 * (t - RED_5M)
    return t


def is_red(t: Tile) -> bool:
    return t >= NUM_KINDS


def red_of(k: Kind) -> Tile:
    """The red tile of a five's kind (4, 13 or 22)."""
    return RED_5M + k // 9


def suit(k: Kind) -> int:
    """0 man, 1 pin, 2 sou, 3 honors."""
    return k // 9


def number(k: Kind) -> int:
    """1..9 for suited kinds, 1..7 for honors."""
    return k % 9 + 1


def is_honor(k: Kind) -> bool:
    return k >= 27


def is_terminal(k: Kind) -> bool:
    return k in TERMINALS


def is_yaochu(k: Kind) -> bool:
    return k in YAOCHU


def dora_of(indicator: Kind) -> Kind:
    """R5: the dora that an indicator points to."""
    if indicator < 27:
        return indicator - 8 if indicator % 9 == 8 else indicator + 1
    if indicator <= NORTH:
        return EAST if indicator == NORTH else indicator + 1
    return HAKU if indicator == CHUN else indicator + 1


def tile_of_id(tid: TileId, red_fives: bool = True) -> Tile:
    """The tile a physical tile id shows; ids 16, 52, 88 are red when red fives are on."""
    k = tid // 4
    if red_fives and tid in RED_IDS:
        return red_of(k)
    return k


def kind_of_id(tid: TileId) -> Kind:
    return tid // 4


_GROUP = re.compile(r"([0-9]+)([mpsz])")


def parse_tiles(text: str) -> list[Tile]:
    """Parse ``"123m406p789s11z"`` (R1 notation) into tiles, in order.

    ``0`` is the red five of a suit; honors are ``1z``..``7z``. Spaces are ignored.
    """
    s = text.replace(" ", "")
    out: list[Tile] = []
    pos = 0
    for m in _GROUP.finditer(s):
        if m.start() != pos:
            raise TileError(f"cannot parse tiles {text!r} at {s[pos:]!r}")
        digits, su = m.group(1), m.group(2)
        si = SUITS.index(su)
        for d in digits:
            n = int(d)
            if si == 3:
                if not 1 <= n <= 7:
                    raise TileError(f"no honor tile {n}z in {text!r}")
                out.append(27 + n - 1)
            elif n == 0:
                out.append(RED_5M + si)
            else:
                out.append(si * 9 + n - 1)
        pos = m.end()
    if pos != len(s):
        raise TileError(f"cannot parse tiles {text!r} at {s[pos:]!r}")
    return out


def parse_tile(text: str) -> Tile:
    """Parse exactly one tile, e.g. ``"5p"`` or ``"0s"``."""
    ts = parse_tiles(text)
    if len(ts) != 1:
        raise TileError(f"expected one tile, got {text!r}")
    return ts[0]


def tile_str(t: Tile) -> str:
    if t >= NUM_KINDS:
        return "0" + SUITS[t - RED_5M]
    return f"{number(t)}{SUITS[suit(t)]}"


def tiles_str(tiles: Iterable[Tile], sort: bool = False) -> str:
    """Print tiles in compact notation; consecutive tiles of a suit share the letter."""
    seq = list(tiles)
    if sort:
        seq.sort(key=sort_key)
    out: list[str] = []
    cur: str | None = None
    for t in seq:
        s = tile_str(t)
        if cur is not None and cur != s[1]:
            out.append(cur)
        out.append(s[0])
        cur = s[1]
    if cur is not None:
        out.append(cur)
    return "".join(out)


def sort_key(t: Tile) -> float:
    """Red fives sort just after their plain five's place (as 5.5 would)."""
    return kind(t) + (0.5 if is_red(t) else 0.0)


def counts(tiles: Iterable[Tile]) -> list[int]:
    """34-slot count array of tiles (red fives counted as fives)."""
    c = [0] * NUM_KINDS
    for t in tiles:
        c[kind(t)] += 1
    return c


def counts_str(c: Sequence[int]) -> str:
    return tiles_str([k for k in range(NUM_KINDS) for _ in range(c[k])])
