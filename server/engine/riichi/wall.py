"""The physical wall (R2-R4) and its deterministic shuffle (R6).

``Wall.tiles`` lists the 136 tile ids in drawing order starting at the break;
the last 14 are the dead wall (see docs/engine.md for every position).
"""

from __future__ import annotations

import functools
import hashlib
import secrets
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from operator import ge, mod

from server.engine.dealing import deal_positions
from server.engine.tiles import Tile, TileId, is_red, parse_tiles, tile_of_id, tile_str

NUM_TILES = 136


@dataclass(frozen=True, slots=True)
class Layout:
    """Where everything lies in the wall of one seat count (R2-R4; S3-S6 for sanma).

    Positions are indexes in drawing order from the break. The last 14 are the
    dead wall: 7 stacks, stack ``j`` (0..6) with its top tile at
    ``dead_start + 2j``, stack 6 next to the break. Each kan (and each pulled
    north in sanma) moves the last live tile into the dead wall.
    """

    seats: int
    ids: tuple[TileId, ...]  # the tile ids in play
    walls: int  # physical walls, one in front of each seat...
    stacks_per_wall: int  # ...of this many stacks of two
    rinshan_pos: tuple[int, ...]  # replacement draws, in order
    dora_pos: tuple[int, ...]  # the indicator, then the kan dora indicators
    ura_pos: tuple[int, ...]  # the tile under each

    @property
    def size(self) -> int:
        return len(self.ids)

    @property
    def dead_start(self) -> int:
        """The first dead-wall position before any replacement draw."""
        return len(self.ids) - 14

    @property
    def first_draw(self) -> int:
        """The dealer's first draw, after 13 tiles to each seat."""
        return 13 * self.seats

    def deal_positions(self, rel: int) -> list[int]:
        """Positions of the 13 starting tiles of the seat ``rel`` places after the dealer (R3)."""
        return deal_positions(rel, self.seats)


FOUR = Layout(
    seats=4,
    ids=tuple(range(NUM_TILES)),
    walls=4,
    stacks_per_wall=17,
    rinshan_pos=(134, 135, 132, 133),
    dora_pos=(130, 128, 126, 124, 122),
    ura_pos=(131, 129, 127, 125, 123),
)
# Sanma (S1-S5): no 2m-8m (ids 4..31); 3 walls of 18 stacks; the dead wall serves 8
# replacement draws (4 kans, 4 pulled norths) from the 4 stacks next to the break.
SANMA = Layout(
    seats=3,
    ids=tuple(t for t in range(NUM_TILES) if not 4 <= t < 32),
    walls=3,
    stacks_per_wall=18,
    rinshan_pos=(106, 107, 104, 105, 102, 103, 100, 101),
    dora_pos=(98, 96, 94, 92, 90),
    ura_pos=(99, 97, 95, 93, 91),
)
LAYOUTS = {4: FOUR, 3: SANMA}

# The four-player positions by name (R2-R4), as docs/engine.md gives them.
DEAD_START = FOUR.dead_start
RINSHAN_POS = FOUR.rinshan_pos
DORA_POS = FOUR.dora_pos
URA_POS = FOUR.ura_pos
FIRST_DRAW = FOUR.first_draw
STACKS_PER_WALL = 17


def new_seed() -> bytes:
    """A fresh game seed from the operating system's secure source (R6)."""
    return secrets.token_bytes(32)


def stack_order(dealer: int, dice_sum: int, layout: Layout = FOUR) -> list[int]:
    """Physical stacks in drawing order from the break (R2; S3 for sanma).

    Stack ``S * w + i`` (``S`` stacks a wall) is the ``i``-th stack (0-based) from
    the right end of the wall in front of seat ``w``. Going from a wall's right end
    to its left end runs clockwise, and the next wall clockwise stands in front of
    the previous seat. The dice sum counted counter-clockwise from the dealer
    (dealer = 1) picks the wall; ``dice_sum`` stacks from its right end are skipped.
    """
    walls, per = layout.walls, layout.stacks_per_wall
    w = (dealer + dice_sum - 1) % walls
    i = dice_sum
    out = []
    for _ in range(walls * per):
        if i == per:
            w, i = (w - 1) % walls, 0
        out.append(per * w + i)
        i += 1
    return out


@functools.lru_cache(maxsize=128)
def _read_order(dealer: int, dice_sum: int, layout: Layout) -> tuple[int, ...]:
    """Shuffled positions in drawing order: the top, then the bottom tile of each stack."""
    return tuple(p for k in stack_order(dealer, dice_sum, layout) for p in (2 * k, 2 * k + 1))


class _Stream:
    """SHA-256 in counter mode: a reproducible source of uniform integers (R6).

    Block ``i`` is ``sha256(key || i as 8 bytes big-endian)`` with ``key =
    sha256(b"jantaku-wall" || seed || round_index as 8 bytes big-endian)``;
    each block gives eight big-endian 32-bit words, used in order.
    ``below(n)`` takes words until one is under the largest multiple of ``n``
    (rejection, so that no value is favoured) and returns it modulo ``n``.
    """

    __slots__ = ("_key", "_pos", "_words")

    def __init__(self, seed: bytes, round_index: int, blocks: int = 1) -> None:
        self._key = hashlib.sha256(b"jantaku-wall" + seed + round_index.to_bytes(8, "big")).digest()
        self._words: list[int] = []
        self._pos = 0
        self._more(blocks)

    def _more(self, blocks: int) -> None:
        sha, key, first = hashlib.sha256, self._key, len(self._words) // 8
        data = b"".join(
            [sha(key + i.to_bytes(8, "big")).digest() for i in range(first, first + blocks)]
        )
        self._words += struct.unpack(f">{8 * blocks}I", data)

    def below(self, n: int) -> int:
        """Uniform in 0..n-1, by rejection so that no value is favoured."""
        limit = _LIMIT[n] if n < len(_LIMIT) else 4294967296 - 4294967296 % n
        while True:
            if self._pos == len(self._words):
                self._more(1)
            v = self._words[self._pos]
            self._pos += 1
            if v < limit:
                return v % n


# the largest multiple of n below 2**32, per n (0 unused)
_LIMIT = [0] + [4294967296 - 4294967296 % n for n in range(1, NUM_TILES + 1)]


@functools.cache
def _bounds(size: int) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """What a wall's shuffle draws (two dice, then Fisher-Yates from the last position),
    the rejection limit of each, and the SHA-256 blocks one wall takes without rejections."""
    bounds = (6, 6, *range(size, 1, -1))
    return bounds, tuple(_LIMIT[n] for n in bounds), -(-len(bounds) // 8)


class Wall:
    """The tile ids in drawing order, how the break was found, and the layout."""

    __slots__ = ("dice", "layout", "red_fives", "tiles")

    def __init__(
        self,
        tiles: Sequence[TileId],
        dice: tuple[int, int] = (3, 4),
        red_fives: bool = True,
        layout: Layout = FOUR,
    ) -> None:
        if sorted(tiles) != list(layout.ids):
            raise ValueError(
                f"a wall must hold each of the {layout.size} tile ids of "
                f"{layout.seats} players exactly once"
            )
        if not all(1 <= d <= 6 for d in dice) or len(dice) != 2:
            raise ValueError("dice must be two values 1..6")
        self.tiles: list[TileId] = list(tiles)
        self.dice: tuple[int, int] = (dice[0], dice[1])
        self.red_fives = red_fives
        self.layout = layout

    def tile(self, pos: int) -> Tile:
        """The tile shown at a wall position."""
        return tile_of_id(self.tiles[pos], self.red_fives)

    def hand(self, seat: int, dealer: int) -> list[TileId]:
        layout = self.layout
        return [self.tiles[p] for p in layout.deal_positions((seat - dealer) % layout.seats)]

    @classmethod
    def from_seed(
        cls,
        seed: bytes,
        round_index: int,
        dealer: int = 0,
        red_fives: bool = True,
        layout: Layout = FOUR,
    ) -> Wall:
        """Shuffle the physical walls and read them from the break (R2, R6).

        The physical walls hold the layout's ids in order, shuffled in place.
        """
        size = layout.size
        bounds, limits, blocks = _bounds(size)
        rng = _Stream(seed, round_index, blocks)
        if any(map(ge, rng._words, limits)):
            # a rejected word (about one wall in 10**6): draw one value at a time
            below = rng.below
            dice = (below(6) + 1, below(6) + 1)
            js = [below(i + 1) for i in range(size - 1, 0, -1)]
        else:
            # no rejection: every value is its word modulo its bound
            vals = list(map(mod, rng._words, bounds))
            dice = (vals[0] + 1, vals[1] + 1)
            js = vals[2:]
        ids = list(layout.ids)
        for i, j in zip(range(size - 1, 0, -1), js, strict=True):  # Fisher-Yates
            ids[i], ids[j] = ids[j], ids[i]
        w = cls.__new__(cls)  # a permutation by construction: skip the check in __init__
        w.tiles = list(map(ids.__getitem__, _read_order(dealer, dice[0] + dice[1], layout)))
        w.dice, w.red_fives, w.layout = dice, red_fives, layout
        return w

    @classmethod
    def build(
        cls,
        hands: Sequence[Sequence[Tile | str] | str | None] = (),
        draws: Sequence[Tile | str | None] | str = (),
        rinshan: Sequence[Tile | str] | str = (),
        dora: Sequence[Tile | str] | str = (),
        ura: Sequence[Tile | str] | str = (),
        dealer: int = 0,
        dice: tuple[int, int] = (3, 4),
        red_fives: bool = True,
        layout: Layout = FOUR,
    ) -> Wall:
        """A wall with known tiles in place; every other position gets the unused ids.

        ``hands`` are seat-indexed; ``draws`` are the live draws in global order from
        the dealer's first draw (None = any tile); ``rinshan`` and ``dora``/``ura`` in reveal order.
        """
        n = layout.seats
        pool: dict[Tile, list[TileId]] = {}
        for tid in reversed(layout.ids):  # reversed so pop() gives the lowest id
            pool.setdefault(tile_of_id(tid, red_fives), []).append(tid)
        placed: dict[int, TileId] = {}

        def take(pos: int, t: Tile | str) -> None:
            tile = _one(t)
            if is_red(tile) and not red_fives:
                raise ValueError("red fives are off in this wall")
            ids = pool.get(tile)
            if ids is None:
                raise ValueError(f"{tile_str(tile)} is not one of the {layout.size} tiles")
            if not ids:
                raise ValueError(f"no copy of tile {tile} left for position {pos}")
            if pos in placed:
                raise ValueError(f"wall position {pos} given twice")
            placed[pos] = ids.pop()

        if len(hands) > n:
            raise ValueError(f"at most {n} hands")
        for seat, h in enumerate(hands):
            if h is None:
                continue
            ts = _tiles(h)
            if len(ts) > 13:
                raise ValueError(f"hand of seat {seat} has more than 13 tiles")
            for pos, t in zip(layout.deal_positions((seat - dealer) % n), ts, strict=False):
                take(pos, t)
        ds: list[Tile | str | None] = (
            list(parse_tiles(draws)) if isinstance(draws, str) else list(draws)
        )
        if len(ds) > layout.dead_start - layout.first_draw:
            raise ValueError("more draws than the live wall holds")
        for i, d in enumerate(ds):
            if d is not None:  # None: any unused tile
                take(layout.first_draw + i, d)
        for seq, positions, name in (
            (rinshan, layout.rinshan_pos, "rinshan"),
            (dora, layout.dora_pos, "dora"),
            (ura, layout.ura_pos, "ura"),
        ):
            ts = _tiles(seq)
            if len(ts) > len(positions):
                raise ValueError(f"too many {name} tiles")
            for pos, t in zip(positions, ts, strict=False):
                take(pos, t)
        rest = sorted(tid for ids in pool.values() for tid in ids)
        it = iter(rest)
        tiles = [placed[p] if p in placed else next(it) for p in range(layout.size)]
        return cls(tiles, dice, red_fives, layout)

    def __repr__(self) -> str:
        return f"Wall(<{self.layout.size} tiles>, dice={self.dice})"


def _tiles(x: Sequence[Tile | str] | str) -> list[Tile | str]:
    if isinstance(x, str):
        return list(parse_tiles(x))
    return list(x)


def _one(t: Tile | str) -> Tile:
    if isinstance(t, str):
        ts = parse_tiles(t)
        if len(ts) != 1:
            raise ValueError(f"expected one tile, got {t!r}")
        return ts[0]
    if not 0 <= t <= 36:
        raise ValueError(f"no tile {t}")
    return t
