"""How likely a discard deals into one threat's hand: a level and the reasons for it.

A threat is an opponent in riichi, or one with three melds declared (the defensive
bot's ``read_threats``). The estimate reads only what the deciding seat sees:

* ``genbutsu``: the threat discarded this kind itself (furiten on it): safe, level 0;
* ``passed``: discarded by anyone after the threat declared riichi and let go (a
  riichi seat passing a winning tile is furiten for good): safe, level 0;
* honours by how many copies are in sight (``honor``, with that number);
* number tiles: each two-sided wait that could hold the tile (45 waits on 3 and 6:
  a 3 has one side, 4-6 two) is ruled out by ``suji`` (the other tile of that wait
  is genbutsu) or ``kabe`` (all four of a tile the wait needs are in sight), and
  counts for less under ``one_chance`` (three in sight); ``no_suji`` when a side stays
  open, ``half_suji`` for a 4-6 with one side ruled out by suji;
* ``seen3``: three or four in sight, so a pair or triplet wait is unlikely;
* ``dora`` (the tile is dora: a deal-in costs more) and ``dora_near`` (within two
  of a dora number tile: likely in the hand around it).

Levels run from 0 (genbutsu) to about 12; ``band`` groups them for people.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from server.engine.tiles import Kind

SAFE, LOW, MEDIUM, HIGH = "safe", "low", "medium", "high"


@dataclass(frozen=True, slots=True)
class TileDanger:
    """The danger of one kind against one threat."""

    threat: int  # the threatening seat
    level: int
    reasons: tuple[tuple[str, int | None], ...]  # (key, number or None) for words


def band(level: int) -> str:
    if level <= 0:
        return SAFE
    if level <= 3:
        return LOW
    if level <= 6:
        return MEDIUM
    return HIGH


def _side(k: Kind, step: int, genbutsu: Collection[Kind], seen: Sequence[int]) -> str:
    """How one two-sided wait on ``k`` stands: the wait needs ``k+step`` and
    ``k+2*step`` (its other winning tile is ``k+3*step``)."""
    if k + 3 * step in genbutsu:
        return "suji"
    if seen[k + step] >= 4 or seen[k + 2 * step] >= 4:
        return "kabe"
    if seen[k + step] >= 3 or seen[k + 2 * step] >= 3:
        return "one_chance"
    return "open"


# by the distance from the nearer end: terminals, 2/8, 3/7, 4-6
_SCALE = ((3, 6), (4, 8), (5, 9), (5, 10), (5, 10))


def _near_dora(k: Kind, dora: Collection[Kind]) -> bool:
    return any(d < 27 and d // 9 == k // 9 and 0 < abs(d - k) <= 2 for d in dora)


def tile_danger(
    k: Kind,
    threat: int,
    genbutsu: Collection[Kind],
    seen: Sequence[int],
    dora: Collection[Kind],
    passed: Collection[Kind] = frozenset(),
) -> TileDanger:
    """Danger of discarding kind ``k`` against ``threat``.

    ``genbutsu``: kinds in the threat's river; ``seen``: copies of each kind the
    deciding seat sees (its own hand, melds, rivers, dora indicators); ``dora``:
    the dora kinds now; ``passed``: kinds the threat, in riichi, let go since.
    """
    if k in genbutsu:
        return TileDanger(threat, 0, (("genbutsu", None),))
    if k in passed:
        return TileDanger(threat, 0, (("passed", None),))
    reasons: list[tuple[str, int | None]] = []
    if k >= 27:
        n_seen = seen[k]
        level = 1 if n_seen >= 3 else 2 if n_seen == 2 else 3 if n_seen == 1 else 4
        reasons.append(("honor", n_seen))
    else:
        n = k % 9
        sides: list[str] = []
        if n >= 3:
            sides.append(_side(k, -1, genbutsu, seen))
        if n <= 5:
            sides.append(_side(k, 1, genbutsu, seen))
        open_sides = sum(s == "open" for s in sides) + 0.5 * sum(s == "one_chance" for s in sides)
        # (no side open, every side open): the defensive bot's scale
        low, high = _SCALE[min(n, 8 - n)]
        level = low + round((high - low) * open_sides / len(sides))
        if n in (0, 8):
            reasons.append(("terminal", None))
        suji = sum(s == "suji" for s in sides)
        if suji and suji == len(sides):
            reasons.append(("suji", None))
        elif suji:
            reasons.append(("half_suji", None))
        if "kabe" in sides:
            reasons.append(("kabe", None))
        if "one_chance" in sides:
            reasons.append(("one_chance", None))
        if "open" in sides:
            reasons.append(("no_suji", None))
        if seen[k] >= 3:
            level -= 2
            reasons.append(("seen3", seen[k]))
    if k in dora:
        level += 2
        reasons.append(("dora", None))
    elif k < 27 and _near_dora(k, dora):
        level += 1
        reasons.append(("dora_near", None))
    return TileDanger(threat, max(1, level), tuple(reasons))
