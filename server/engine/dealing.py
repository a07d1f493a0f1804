"""Dealing from a wall read from the break, as every game of the seeds deals (R3, N4)."""

from __future__ import annotations


def deal_positions(rel: int, seats: int = 4) -> list[int]:
    """Wall positions of the 13 starting tiles of the seat ``rel`` places after the dealer:
    two stacks (4 tiles) to each seat in turn, three times, then one tile each."""
    out = [4 * seats * r + 4 * rel + i for r in range(3) for i in range(4)]
    out.append(12 * seats + rel)
    return out
