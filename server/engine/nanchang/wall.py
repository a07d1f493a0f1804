"""The Nanchang wall (N1-N5): dice, the two-roll break, the deal, draws from both ends.

``NanchangWall.tiles`` lists the 136 tile ids (``id // 4`` is the kind) in
drawing order from the break: the deal takes positions 0..52 (the riichi
engine's deal positions, plus 52 for the dealer's 14th tile: the seed's 跳牌),
live draws go on from 53, and kan replacements come from the other end (the
top, then the bottom tile of the last stack left). The joker indicator is the
top tile of the stack the third roll counts from that end; it stays in the wall,
face up, and is drawn like any other tile.

All randomness comes from a SHA-256 counter stream over the game seed (R6), so
a game replays exactly from its seed and actions.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Sequence
from dataclasses import dataclass

from server.engine.dealing import deal_positions
from server.engine.tiles import Kind, TileId, parse_tiles

NUM_TILES = 136
NUM_STACKS = 68
STACKS_PER_WALL = 17
DEALER_EXTRA = 52  # the dealer's 14th tile (跳牌: the top of the third stack after the deal)
FIRST_DRAW = 53

Dice = tuple[int, int]


class Stream:
    """SHA-256 in counter mode: uniform integers from a seed and a label (R6).

    Block ``i`` is ``sha256(key || i as 8 bytes big-endian)`` with
    ``key = sha256(b"jantaku-nanchang" || label || seed)``; each block gives eight
    big-endian 32-bit words. ``below(n)`` rejects words at or above the largest
    multiple of ``n`` so that no value is favoured.
    """

    __slots__ = ("_block", "_key", "_words")

    def __init__(self, seed: bytes, label: bytes) -> None:
        self._key = hashlib.sha256(b"jantaku-nanchang" + label + seed).digest()
        self._words: list[int] = []
        self._block = 0

    def below(self, n: int) -> int:
        limit = 4294967296 - 4294967296 % n
        while True:
            if not self._words:
                digest = hashlib.sha256(self._key + self._block.to_bytes(8, "big")).digest()
                self._block += 1
                self._words = list(struct.unpack(">8I", digest))[::-1]
            v = self._words.pop()
            if v < limit:
                return v % n

    def dice(self) -> Dice:
        return (self.below(6) + 1, self.below(6) + 1)


def roll_for_dealer(seed: bytes, roller: int) -> tuple[Dice, int]:
    """N3: a seat rolls; the sum counted counter-clockwise from the roller (= 1) is the dealer."""
    dice = Stream(seed, b"dealer").dice()
    return dice, (roller + dice[0] + dice[1] - 1) % 4


def stack_order(wall: int, skip: int) -> list[int]:
    """Physical stacks in drawing order: ``skip`` stacks from the right end of ``wall`` are passed.

    Stack ``17 * w + i`` is the ``i``-th stack from the right end of the wall in front
    of seat ``w``; counting right to left runs clockwise, onto the wall of the seat
    before. A count past a wall's 17 stacks goes on along the next wall (N4).
    """
    w, i = wall, skip
    while i >= STACKS_PER_WALL:
        w, i = (w - 1) % 4, i - STACKS_PER_WALL
    out = []
    for _ in range(NUM_STACKS):
        if i == STACKS_PER_WALL:
            w, i = (w - 1) % 4, 0
        out.append(STACKS_PER_WALL * w + i)
        i += 1
    return out


def tail_order(n: int = NUM_TILES) -> list[int]:
    """Positions that kan replacements take in order, in a wall untouched at its end (N11)."""
    out: list[int] = []
    for top in range(n - 2, -1, -2):
        out += [top, top + 1]
    return out


def indicator_position(joker_dice: Dice) -> int:
    """N5: the top tile of the stack counted ``sum`` stacks back from the wall's end (end = 1)."""
    return 2 * (NUM_STACKS - (joker_dice[0] + joker_dice[1]))


def hand_positions(seat: int, dealer: int) -> list[int]:
    """N4: where a seat's starting tiles lie (the dealer's 14 include position 52)."""
    rel = (seat - dealer) % 4
    pos = deal_positions(rel)
    if rel == 0:
        pos.append(DEALER_EXTRA)
    return pos


@dataclass(slots=True)
class NanchangWall:
    """136 tile ids in drawing order, and the three rolls that placed the break and the joker."""

    tiles: list[TileId]
    dealer: int
    break_dice: Dice  # the dealer's roll
    second_dice: Dice  # the roll of the seat the first one counted to
    joker_dice: Dice  # the dealer's roll that finds the joker indicator

    def __post_init__(self) -> None:
        if sorted(self.tiles) != list(range(NUM_TILES)):
            raise ValueError("a wall must hold each of the 136 tile ids exactly once")
        for d in (self.break_dice, self.second_dice, self.joker_dice):
            if len(d) != 2 or not all(1 <= x <= 6 for x in d):
                raise ValueError("dice must be two values 1..6")
        if not 0 <= self.dealer <= 3:
            raise ValueError("dealer must be 0..3")

    @property
    def second_roller(self) -> int:
        """N4: the seat the dealer's roll counts to, counter-clockwise from the dealer (= 1)."""
        return (self.dealer + sum(self.break_dice) - 1) % 4

    @property
    def break_count(self) -> int:
        """N4: stacks counted on the second roller's wall: the two rolls added."""
        return sum(self.break_dice) + sum(self.second_dice)

    @property
    def indicator_pos(self) -> int:
        return indicator_position(self.joker_dice)

    @property
    def indicator(self) -> Kind:
        return self.tiles[self.indicator_pos] // 4

    def kind(self, pos: int) -> Kind:
        return self.tiles[pos] // 4

    def hand(self, seat: int) -> list[TileId]:
        return [self.tiles[p] for p in hand_positions(seat, self.dealer)]

    @classmethod
    def from_seed(cls, seed: bytes, round_index: int, dealer: int) -> NanchangWall:
        """Roll the three dice and shuffle the 136 tiles into 4 walls of 17 stacks (N4, R6)."""
        rng = Stream(seed, b"round" + round_index.to_bytes(8, "big"))
        break_dice, second_dice, joker_dice = rng.dice(), rng.dice(), rng.dice()
        ids = list(range(NUM_TILES))
        for i in range(NUM_TILES - 1, 0, -1):  # Fisher-Yates over physical slots
            j = rng.below(i + 1)
            ids[i], ids[j] = ids[j], ids[i]
        second = (dealer + sum(break_dice) - 1) % 4
        order = stack_order(second, sum(break_dice) + sum(second_dice))
        tiles = [ids[p] for k in order for p in (2 * k, 2 * k + 1)]
        return cls(tiles, dealer, break_dice, second_dice, joker_dice)

    @classmethod
    def build(
        cls,
        hands: Sequence[Sequence[Kind] | str | None] = (),
        draws: Sequence[Kind | None] | str = (),
        replacements: Sequence[Kind] | str = (),
        indicator: Kind | str | None = None,
        *,
        dealer: int = 0,
        break_dice: Dice = (3, 4),
        second_dice: Dice = (2, 3),
        joker_dice: Dice = (3, 3),
    ) -> NanchangWall:
        """A wall with known tiles in place; every other position gets the unused ids in order.

        ``hands`` are seat-indexed (the dealer's may have 14 tiles); ``draws`` are the
        live draws from the first one after the deal (None = any tile); ``replacements``
        the kan replacement draws in order; ``indicator`` the turned-up joker tile.
        """
        pool: dict[Kind, list[TileId]] = {}
        for tid in range(NUM_TILES - 1, -1, -1):  # reversed so that pop() gives the lowest id
            pool.setdefault(tid // 4, []).append(tid)
        placed: dict[int, TileId] = {}

        def take(pos: int, k: Kind) -> None:
            if not 0 <= k < 34:
                raise ValueError(f"no tile kind {k}")
            if not pool.get(k):
                raise ValueError(f"no copy of tile kind {k} left for position {pos}")
            if pos in placed:
                raise ValueError(f"wall position {pos} given twice")
            placed[pos] = pool[k].pop()

        if len(hands) > 4:
            raise ValueError("at most 4 hands")
        for seat, h in enumerate(hands):
            if h is None:
                continue
            ks = parse_tiles(h) if isinstance(h, str) else list(h)
            positions = hand_positions(seat, dealer)
            if len(ks) > len(positions):
                raise ValueError(f"hand of seat {seat} has more than {len(positions)} tiles")
            for pos, k in zip(positions, ks, strict=False):
                take(pos, k)
        if indicator is not None:
            k = parse_tiles(indicator)[0] if isinstance(indicator, str) else indicator
            take(indicator_position(joker_dice), k)
        ds = parse_tiles(draws) if isinstance(draws, str) else list(draws)
        for i, d in enumerate(ds):
            if d is not None:
                take(FIRST_DRAW + i, d)
        rs = parse_tiles(replacements) if isinstance(replacements, str) else list(replacements)
        for pos, k in zip(tail_order(), rs, strict=False):
            take(pos, k)
        it = iter(sorted(tid for ids in pool.values() for tid in ids))
        tiles = [placed[p] if p in placed else next(it) for p in range(NUM_TILES)]
        return cls(tiles, dealer, break_dice, second_dice, joker_dice)

    def __repr__(self) -> str:
        return (
            f"NanchangWall(<136 tiles>, dealer={self.dealer}, dice={self.break_dice}"
            f"/{self.second_dice}/{self.joker_dice})"
        )
