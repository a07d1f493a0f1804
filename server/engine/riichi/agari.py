"""Readings of a complete hand: how 14 (plus kan) tiles split into sets and a pair."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from server.engine.tiles import NUM_KINDS, YAOCHU, Kind


class BlockType(StrEnum):
    SHUNTSU = "shuntsu"  # run
    KOUTSU = "koutsu"  # triplet
    KANTSU = "kantsu"  # quad
    PAIR = "pair"


@dataclass(frozen=True, slots=True)
class Block:
    type: BlockType
    first: Kind
    open: bool = False

    def __repr__(self) -> str:
        return f"Block({self.type.value}, {self.first}, open={self.open})"


class Form(StrEnum):
    REGULAR = "regular"
    CHIITOITSU = "chiitoitsu"
    KOKUSHI = "kokushi"


_KOKUSHI = sorted(YAOCHU)


def _sets(c: list[int], start: int, acc: list[Block], out: list[list[Block]]) -> None:
    i = start
    while i < NUM_KINDS and c[i] == 0:
        i += 1
    if i == NUM_KINDS:
        out.append(list(acc))
        return
    if c[i] >= 3:
        c[i] -= 3
        acc.append(Block(BlockType.KOUTSU, i))
        _sets(c, i, acc, out)
        acc.pop()
        c[i] += 3
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        acc.append(Block(BlockType.SHUNTSU, i))
        _sets(c, i, acc, out)
        acc.pop()
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1


def regular_readings(c: list[int]) -> list[list[Block]]:
    """Every split of a concealed count array (3n+2 tiles) into one pair and n sets.

    The pair comes first in each returned list. The array is restored on return.
    """
    total = sum(c)
    if total % 3 != 2:
        return []
    out: list[list[Block]] = []
    for p in range(NUM_KINDS):
        if c[p] >= 2:
            c[p] -= 2
            found: list[list[Block]] = []
            _sets(c, 0, [], found)
            c[p] += 2
            for sets in found:
                out.append([Block(BlockType.PAIR, p), *sets])
    return out


def is_chiitoitsu(c: list[int]) -> bool:
    """Seven distinct pairs (four of a kind is not two pairs)."""
    return sum(c) == 14 and sum(1 for x in c if x == 2) == 7


def is_kokushi(c: list[int]) -> bool:
    return sum(c) == 14 and all(c[k] >= 1 for k in _KOKUSHI) and sum(c[k] for k in _KOKUSHI) == 14


def is_complete(c: list[int]) -> bool:
    """Whether a concealed count array (with melds removed) is a winning shape."""
    if sum(c) == 14 and (is_chiitoitsu(c) or is_kokushi(c)):
        return True
    return bool(regular_readings(c))


class WaitShape(StrEnum):
    RYANMEN = "ryanmen"
    KANCHAN = "kanchan"
    PENCHAN = "penchan"
    SHANPON = "shanpon"
    TANKI = "tanki"


def block_wait(block: Block, win: Kind) -> WaitShape | None:
    """The wait the winning tile completed if it is the last tile of this concealed block.

    None when the block does not contain the winning kind.
    """
    if block.type is BlockType.PAIR:
        return WaitShape.TANKI if block.first == win else None
    if block.type is BlockType.KOUTSU:
        return WaitShape.SHANPON if block.first == win else None
    if block.type is BlockType.SHUNTSU:
        pos = win - block.first
        if pos == 1:
            return WaitShape.KANCHAN
        if pos == 0:
            # 7 of 789 waited on from 89: penchan; otherwise a two-sided wait
            return WaitShape.PENCHAN if block.first % 9 == 6 else WaitShape.RYANMEN
        if pos == 2:
            return WaitShape.PENCHAN if block.first % 9 == 0 else WaitShape.RYANMEN
    return None
