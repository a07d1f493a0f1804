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
from operator import ge, mod

from server.engine.tiles import Tile, TileId, is_red, parse_tiles, tile_of_id

NUM_TILES = 136
DEAD_START = 122  # first dead-wall position before any kan
RINSHAN_POS: tuple[int, ...] = (134, 135, 132, 133)
DORA_POS: tuple[int, ...] = (130, 128, 126, 124, 122)
URA_POS: tuple[int, ...] = (131, 129, 127, 125, 123)
FIRST_DRAW = 52
STACKS_PER_WALL = 17


def deal_positions(rel: int) -> list[int]:
    """Wall positions of the 13 starting tiles of the seat ``rel`` places after the dealer (R3)."""
    out = [16 * r + 4 * rel + i for r in range(3) for i in range(4)]
    out.append(48 + rel)
    return out


def new_seed() -> bytes:
    """A fresh game seed from the operating system's secure source (R6)."""
    return secrets.token_bytes(32)


def stack_order(dealer: int, dice_sum: int) -> list[int]:
    """Physical stacks in drawing order from the break (R2).

    Stack ``17 * w + i`` is the ``i``-th stack (0-based) from the right end of the
    wall in front of seat ``w``. Going from a wall's right end to its left end runs
    clockwise, and the next wall clockwise stands in front of the previous seat.
    The dice sum counted counter-clockwise from the dealer (dealer = 1) picks the
    wall; ``dice_sum`` stacks from its right end are skipped.
    """
    w = (dealer + dice_sum - 1) % 4
    i = dice_sum
    out = []
    for _ in range(68):
        if i == STACKS_PER_WALL:
            w, i = (w - 1) % 4, 0
        out.append(STACKS_PER_WALL * w + i)
        i += 1
    return out


@functools.lru_cache(maxsize=64)
def _read_order(dealer: int, dice_sum: int) -> tuple[int, ...]:
    """Shuffled positions in drawing order: the top, then the bottom tile of each stack."""
    return tuple(p for k in stack_order(dealer, dice_sum) for p in (2 * k, 2 * k + 1))


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
# what a wall's shuffle draws: two dice, then Fisher-Yates from the last position
_BOUNDS = (6, 6, *range(NUM_TILES, 1, -1))
_BOUND_LIMITS = tuple(_LIMIT[n] for n in _BOUNDS)
_BLOCKS = -(-len(_BOUNDS) // 8)  # SHA-256 blocks for one wall without rejections


class Wall:
    """136 tile ids in drawing order, plus how the break was found."""

    __slots__ = ("dice", "red_fives", "tiles")

    def __init__(
        self, tiles: Sequence[TileId], dice: tuple[int, int] = (3, 4), red_fives: bool = True
    ) -> None:
        if sorted(tiles) != list(range(NUM_TILES)):
            raise ValueError("a wall must hold each of the 136 tile ids exactly once")
        if not all(1 <= d <= 6 for d in dice) or len(dice) != 2:
            raise ValueError("dice must be two values 1..6")
        self.tiles: list[TileId] = list(tiles)
        self.dice: tuple[int, int] = (dice[0], dice[1])
        self.red_fives = red_fives

    def tile(self, pos: int) -> Tile:
        """The tile shown at a wall position."""
        return tile_of_id(self.tiles[pos], self.red_fives)

    def hand(self, seat: int, dealer: int) -> list[TileId]:
        return [self.tiles[p] for p in deal_positions((seat - dealer) % 4)]

    @classmethod
    def from_seed(
        cls, seed: bytes, round_index: int, dealer: int = 0, red_fives: bool = True
    ) -> Wall:
        """Shuffle the physical walls and read them from the break (R2, R6)."""
        rng = _Stream(seed, round_index, _BLOCKS)
        if any(map(ge, rng._words, _BOUND_LIMITS)):
            # a rejected word (about one wall in 10**6): draw one value at a time
            below = rng.below
            dice = (below(6) + 1, below(6) + 1)
            js = [below(i + 1) for i in range(NUM_TILES - 1, 0, -1)]
        else:
            # no rejection: every value is its word modulo its bound
            vals = list(map(mod, rng._words, _BOUNDS))
            dice = (vals[0] + 1, vals[1] + 1)
            js = vals[2:]
        ids = list(range(NUM_TILES))
        for i, j in zip(range(NUM_TILES - 1, 0, -1), js, strict=True):  # Fisher-Yates
            ids[i], ids[j] = ids[j], ids[i]
        w = cls.__new__(cls)  # a permutation by construction: skip the check in __init__
        w.tiles = list(map(ids.__getitem__, _read_order(dealer, dice[0] + dice[1])))
        w.dice, w.red_fives = dice, red_fives
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
    ) -> Wall:
        """A wall with known tiles in place; every other position gets the unused ids.

        ``hands`` are seat-indexed; ``draws`` are the live draws in global order from
        the dealer's first draw (None = any tile); ``rinshan`` and ``dora``/``ura`` in reveal order.
        """
        pool: dict[Tile, list[TileId]] = {}
        for tid in range(NUM_TILES - 1, -1, -1):  # reversed so pop() gives the lowest id
            pool.setdefault(tile_of_id(tid, red_fives), []).append(tid)
        placed: dict[int, TileId] = {}

        def take(pos: int, t: Tile | str) -> None:
            tile = _one(t)
            if is_red(tile) and not red_fives:
                raise ValueError("red fives are off in this wall")
            ids = pool.get(tile)
            if not ids:
                raise ValueError(f"no copy of tile {tile} left for position {pos}")
            if pos in placed:
                raise ValueError(f"wall position {pos} given twice")
            placed[pos] = ids.pop()

        if len(hands) > 4:
            raise ValueError("at most 4 hands")
        for seat, h in enumerate(hands):
            if h is None:
                continue
            ts = _tiles(h)
            if len(ts) > 13:
                raise ValueError(f"hand of seat {seat} has more than 13 tiles")
            for pos, t in zip(deal_positions((seat - dealer) % 4), ts, strict=False):
                take(pos, t)
        ds: list[Tile | str | None] = (
            list(parse_tiles(draws)) if isinstance(draws, str) else list(draws)
        )
        if len(ds) > DEAD_START - FIRST_DRAW:
            raise ValueError("more draws than the live wall holds")
        for i, d in enumerate(ds):
            if d is not None:  # None: any unused tile
                take(FIRST_DRAW + i, d)
        for seq, positions, name in (
            (rinshan, RINSHAN_POS, "rinshan"),
            (dora, DORA_POS, "dora"),
            (ura, URA_POS, "ura"),
        ):
            ts = _tiles(seq)
            if len(ts) > len(positions):
                raise ValueError(f"too many {name} tiles")
            for pos, t in zip(positions, ts, strict=False):
                take(pos, t)
        rest = sorted(tid for ids in pool.values() for tid in ids)
        it = iter(rest)
        tiles = [placed[p] if p in placed else next(it) for p in range(NUM_TILES)]
        return cls(tiles, dice, red_fives)

    def __repr__(self) -> str:
        return f"Wall(<136 tiles>, dice={self.dice})"


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
