"""Wait shapes: every reading of a tenpai hand by which each waiting kind wins.

Takes a 34-slot count array of concealed tiles, as ``shanten.py`` does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from server.engine.riichi.agari import (
    Block,
    BlockType,
    Form,
    WaitShape,
    block_wait,
    is_chiitoitsu,
    is_kokushi,
    regular_readings,
)
from server.engine.riichi.shanten import _KOKUSHI_KINDS, _check_counts
from server.engine.riichi.ukeire import waits
from server.engine.tiles import Kind


@dataclass(frozen=True, slots=True)
class WaitReading:
    """One way a winning tile completes a hand.

    For the regular form, ``blocks`` is the whole reading (pair first) and
    ``win_block`` the index of the block the winning tile completed; for
    chiitoitsu and kokushi ``blocks`` is empty and ``win_block`` is -1.
    """

    form: Form
    shape: WaitShape
    blocks: tuple[Block, ...] = ()
    win_block: int = -1


def wait_readings(c: Sequence[int]) -> dict[Kind, list[WaitReading]]:
    """For each waiting kind of a 3n+1 hand, every reading with its wait shape.

    Chiitoitsu and kokushi waits are tanki (a kokushi 13-sided wait shows as a
    kokushi tanki on each of the 13 kinds).
    """
    out: dict[Kind, list[WaitReading]] = {}
    h = list(c)
    total = sum(h)
    for w in waits(h):
        h[w] += 1
        rs: list[WaitReading] = []
        seen: set[tuple[tuple[Block, ...], int]] = set()
        for reading in regular_readings(h):
            blocks = tuple(reading)
            for blk in blocks:
                shape = block_wait(blk, w)
                if shape is None:
                    continue
                # Two identical blocks in one reading are the same interpretation.
                sig = (blocks, blocks.index(blk))
                if sig in seen:
                    continue
                seen.add(sig)
                rs.append(WaitReading(Form.REGULAR, shape, blocks, sig[1]))
        if total == 13 and is_chiitoitsu(h):
            rs.append(WaitReading(Form.CHIITOITSU, WaitShape.TANKI))
        if total == 13 and is_kokushi(h):
            rs.append(WaitReading(Form.KOKUSHI, WaitShape.TANKI))
        h[w] -= 1
        out[w] = rs
    return out


def is_kokushi_13_wait(c: Sequence[int]) -> bool:
    """Whether a 13-tile hand is the 13-sided kokushi wait (one of each terminal/honor)."""
    _check_counts(c)
    return sum(c) == 13 and all(c[k] == 1 for k in _KOKUSHI_KINDS)


# Block types are re-exported for callers reading wait readings.
__all__ = [
    "Block",
    "BlockType",
    "WaitReading",
    "is_kokushi_13_wait",
    "wait_readings",
]
