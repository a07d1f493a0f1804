"""Nanchang rule options (docs/rules.md "Nanchang (seed 003)"): one frozen, validated object.

Every number the seed gives is a default here; every choice the seed leaves
open is an option with the common Nanchang rule as its default. A game record
stores ``to_dict()``, so a record replays under the options it was played with.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any


class NanchangOptionsError(ValueError):
    """An unknown preset, unknown option or invalid option value."""


@dataclass(frozen=True, slots=True)
class NanchangOptions:
    name: str = "nanchang"
    # N27: 圈 (one turn of the deal round the table) per game; the seed's 局 is four.
    rounds: int = 4
    # N26: the ledger starts here for every seat (points, not riichi sticks).
    start_points: int = 0
    # N3: the first dealer is found by a roll of the seat given to new_game.
    dealer_by_dice: bool = True
    # N21: the dealer pays and receives double on the win payments.
    dealer_double: bool = True
    # N21: the discarder pays double; with ron_all_pay the two others pay once each.
    discarder_double: bool = True
    ron_all_pay: bool = True
    # N19: the 德国 flat bonus per payer, on top of its doubling.
    deguo_bonus: int = 5
    # N18: 天糊 / 地糊, points from each other seat (精吊 doubles them).
    tianhu_points: int = 20
    dihu_points: int = 20
    # N24: kan points from each other seat; a kan of a joker adds the bonus (seed: 10 + 2 = 12).
    open_kan_points: int = 2
    concealed_kan_points: int = 4
    joker_kan_bonus: int = 10
    # N22/N23: 霸王精 doubling and 冲关 multiplying of the joker bonus.
    bawang: bool = True
    chongguan: bool = True
    # N25: whether an exhaustive draw still settles the joker bonus and kan points.
    joker_bonus_on_draw: bool = True
    kan_points_on_draw: bool = True
    # N27: whether the dealer keeps the deal after an exhaustive draw.
    dealer_keeps_on_draw: bool = False
    # N14: four identical tiles count as two of the seven pairs.
    seven_pairs_quads: bool = True

    def __post_init__(self) -> None:
        _validate(self)

    def with_overrides(self, **overrides: Any) -> NanchangOptions:
        """A copy with options changed; unknown names and bad values raise NanchangOptionsError."""
        unknown = sorted(set(overrides) - _NAMES)
        if unknown:
            raise NanchangOptionsError(f"unknown Nanchang option(s): {', '.join(unknown)}")
        return dataclasses.replace(self, **overrides)

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> NanchangOptions:
        """Options from a dict (a record's or a request's); missing names take the defaults."""
        if not isinstance(data, dict):
            raise NanchangOptionsError("Nanchang options must be an object")
        unknown = sorted(str(k) for k in set(data) - _NAMES)
        if unknown:
            raise NanchangOptionsError(f"unknown Nanchang option(s): {', '.join(unknown)}")
        return cls(**data)


_NAMES = frozenset(f.name for f in dataclasses.fields(NanchangOptions))

# (lowest, highest) for every int option
_INT_RANGES: dict[str, tuple[int, int]] = {
    "rounds": (1, 4),
    "start_points": (-1_000_000, 1_000_000),
    "deguo_bonus": (0, 1000),
    "tianhu_points": (0, 1000),
    "dihu_points": (0, 1000),
    "open_kan_points": (0, 1000),
    "concealed_kan_points": (0, 1000),
    "joker_kan_bonus": (0, 1000),
}


def _validate(o: NanchangOptions) -> None:
    if not isinstance(o.name, str) or not o.name:
        raise NanchangOptionsError("option name must be a non-empty string")
    for f in dataclasses.fields(o):
        v = getattr(o, f.name)
        if f.name in _INT_RANGES:
            lo, hi = _INT_RANGES[f.name]
            if type(v) is not int:
                raise NanchangOptionsError(f"option {f.name} must be an integer, got {v!r}")
            if not lo <= v <= hi:
                raise NanchangOptionsError(f"option {f.name} must be {lo}..{hi}, got {v}")
        elif f.name != "name" and type(v) is not bool:
            raise NanchangOptionsError(f"option {f.name} must be true or false, got {v!r}")


PRESETS: dict[str, NanchangOptions] = {
    "nanchang": NanchangOptions(),
    "nanchang-east": NanchangOptions(name="nanchang-east", rounds=1),
}


def preset(name: str) -> NanchangOptions:
    """A preset by name; an unknown name raises NanchangOptionsError naming the known ones."""
    try:
        return PRESETS[name]
    except KeyError:
        known = ", ".join(sorted(PRESETS))
        raise NanchangOptionsError(f"unknown Nanchang preset {name!r} (known: {known})") from None
