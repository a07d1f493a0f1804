"""The rules object: a frozen, validated set of options, presets found by name.

Every option of RULES.md "Presets" is one field. A game record stores the
whole object (``to_dict``), so a record replays under the rules it was played
with even if a preset changes later.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal

Length = Literal["tonpuu", "hanchan"]
MultipleRon = Literal["double", "triple", "atamahane"]

LENGTHS = ("tonpuu", "hanchan")
MULTIPLE_RON = ("double", "triple", "atamahane")


class RulesError(ValueError):
    """An unknown preset, unknown option or invalid option value."""


@dataclass(frozen=True, slots=True)
class RuleSet:
    name: str = "standard"
    seats: int = 4
    length: Length = "hanchan"
    red_fives: int = 3
    kuitan: bool = True
    start_points: int = 25000
    return_points: int = 30000
    # R25: what first place must reach for the game to end after the last round
    # (0: the return points; majsoul-sanma: 40000 with no oka, S21).
    target_points: int = 0
    uma: tuple[int, ...] = (10, 5, -5, -10)
    # "double": double ron, triple ron aborts; "triple": every ron wins;
    # "atamahane": only the first ron in turn order from the discarder (R9).
    multiple_ron: MultipleRon = "double"
    double_yakuman: bool = True
    kazoe_yakuman: bool = True
    kiriage_mangan: bool = False
    double_wind_pair_fu: int = 4
    nagashi_mangan: bool = True
    pao: bool = True
    # R24: with several yakuman in the hand, the pao seat answers for the whole
    # hand (True: Tenhou) or only for the pao yakuman (False: Mahjong Soul).
    pao_whole_hand: bool = True
    # R12: a kokushi tenpai seat may rob an ankan (not on Tenhou).
    kokushi_ankan_chankan: bool = True
    # R14: an ankan in riichi must keep the waits, and (True, seed 000 #34) its three
    # tiles must read only as a triplet in every winning hand; Tenhou and Mahjong
    # Soul ask only that the waits stay the same (False).
    riichi_ankan_triplet_only: bool = True
    sanrenkou: bool = False
    isshoku_sanjun: bool = False
    tobi: bool = True
    west_extension: bool = True
    # R25: in all-last the game ends when the dealer keeps the deal and is first,
    # by a win (agari-yame) or by tenpai at the exhaustive draw (tenpai-yame).
    agari_yame: bool = True
    tenpai_yame: bool = True
    leftover_sticks_to_first: bool = True
    abortive_draws: bool = True
    # S13, three players only: a tsumo pays what four players would, less the absent
    # north seat's share (True), or that share split between the two payers (False).
    tsumo_son: bool = True

    def __post_init__(self) -> None:
        _validate(self)

    @property
    def target(self) -> int:
        """The points that end the game after the last round (R25)."""
        return self.target_points or self.return_points

    def with_overrides(self, **overrides: Any) -> RuleSet:
        """A copy with options changed; unknown names and bad values raise RulesError."""
        names = {f.name for f in dataclasses.fields(self)}
        unknown = sorted(set(overrides) - names)
        if unknown:
            raise RulesError(f"unknown rule option(s): {', '.join(unknown)}")
        if "uma" in overrides and isinstance(overrides["uma"], list):
            overrides["uma"] = tuple(overrides["uma"])
        try:
            return dataclasses.replace(self, **overrides)
        except TypeError as exc:  # pragma: no cover - names are checked above
            raise RulesError(str(exc)) from exc

    def to_dict(self) -> dict[str, Any]:
        d = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        d["uma"] = list(self.uma)
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        """Rebuild from ``to_dict`` output, or from ``{"preset": name, ...overrides}``."""
        if not isinstance(data, dict):
            raise RulesError("rules must be a preset name or an object")
        d = {k: v for k, v in data.items() if k not in _NOT_RULES}
        if "preset" not in d and "agari_yame" in d:
            # A whole RuleSet stored before these options existed: the rules it was
            # played under (one flag for both yames, pao for the pao yakuman only).
            for name, value in _LEGACY.items():
                d.setdefault(name, d["agari_yame"] if value is None else value)
        base_name = d.pop("preset", None) or d.get("name") or "standard"
        if not isinstance(base_name, str):
            raise RulesError("rules preset must be a string")
        base = preset(base_name)
        return base.with_overrides(**d)


# Keys a stored rules object may carry that are not options of the rules: the
# variant's name, and the thinking time (the table's, stored beside the rules).
_NOT_RULES = frozenset({"variant", "think_seconds", "bank_seconds"})

# Options added after records were first stored, with the value those records
# were played under (None: the stored agari_yame).
_LEGACY: dict[str, bool | None] = {
    "tenpai_yame": None,
    "pao_whole_hand": False,
    "kokushi_ankan_chankan": True,
    "riichi_ankan_triplet_only": True,
}
# (target_points, seats, tsumo_son came with sanma; their defaults are what records
# stored before them were played under.)


def _check(cond: bool, msg: str) -> None:
    if not cond:
        raise RulesError(msg)


def _validate(r: RuleSet) -> None:
    _check(isinstance(r.name, str) and bool(r.name), "name must be a non-empty string")
    _check(r.length in LENGTHS, f"length must be one of {LENGTHS}")
    _check(r.multiple_ron in MULTIPLE_RON, f"multiple_ron must be one of {MULTIPLE_RON}")
    _check(type(r.seats) is int and r.seats in (3, 4), "seats must be 3 or 4")
    reds = 3 if r.seats == 4 else 2  # sanma has no 5m (S2)
    _check(type(r.red_fives) is int and r.red_fives in (0, reds), f"red_fives must be 0 or {reds}")
    for name in (
        "kuitan",
        "double_yakuman",
        "kazoe_yakuman",
        "kiriage_mangan",
        "nagashi_mangan",
        "pao",
        "pao_whole_hand",
        "kokushi_ankan_chankan",
        "riichi_ankan_triplet_only",
        "sanrenkou",
        "isshoku_sanjun",
        "tobi",
        "west_extension",
        "agari_yame",
        "tenpai_yame",
        "leftover_sticks_to_first",
        "abortive_draws",
        "tsumo_son",
    ):
        _check(type(getattr(r, name)) is bool, f"{name} must be true or false")
    for name in ("start_points", "return_points", "target_points"):
        _check(type(getattr(r, name)) is int, f"{name} must be an integer")
    _check(1000 <= r.start_points <= 200000, "start_points must be between 1000 and 200000")
    _check(r.start_points <= r.return_points <= 300000, "return_points must be >= start_points")
    _check(
        r.target_points == 0 or r.start_points <= r.target_points <= 300000,
        "target_points must be 0 (the return points) or >= start_points",
    )
    _check(
        r.start_points % 100 == 0 and r.return_points % 100 == 0 and r.target_points % 100 == 0,
        "points must be in 100s",
    )
    _check(
        isinstance(r.uma, tuple) and len(r.uma) == r.seats and all(type(u) is int for u in r.uma),
        f"uma must be {r.seats} integers",
    )
    _check(sum(r.uma) == 0, "uma must sum to 0")
    _check(r.double_wind_pair_fu in (2, 4), "double_wind_pair_fu must be 2 or 4")


PRESETS: dict[str, RuleSet] = {
    "standard": RuleSet(),
    "tenhou": RuleSet(
        name="tenhou",
        uma=(20, 10, -10, -20),
        double_yakuman=False,
        tenpai_yame=False,  # real Tenhou games play on after the dealer's tenpai
        kokushi_ankan_chankan=False,
        riichi_ankan_triplet_only=False,
    ),
    "majsoul": RuleSet(
        name="majsoul",
        uma=(15, 5, -5, -15),
        multiple_ron="triple",
        pao_whole_hand=False,
        riichi_ankan_triplet_only=False,
    ),
    # Three players (docs/rules.md S1-S21): Tenhou's sanma rooms.
    "tenhou-sanma": RuleSet(
        name="tenhou-sanma",
        seats=3,
        red_fives=2,
        start_points=35000,
        return_points=40000,
        uma=(20, 0, -20),
        double_yakuman=False,
        tenpai_yame=False,
        kokushi_ankan_chankan=False,
        riichi_ankan_triplet_only=False,
    ),
    # Mahjong Soul's: no oka (the records' final points are (points - 35000) / 1000
    # + uma), 40000 to end the game.
    "majsoul-sanma": RuleSet(
        name="majsoul-sanma",
        seats=3,
        red_fives=2,
        start_points=35000,
        return_points=35000,
        target_points=40000,
        uma=(15, 0, -15),
        pao_whole_hand=False,
        riichi_ankan_triplet_only=False,
    ),
}


def preset(name: str) -> RuleSet:
    """The preset of that name (``standard``, ``tenhou``, ``majsoul``)."""
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesError(
            f"unknown rules preset {name!r}; choose one of {', '.join(PRESETS)}"
        ) from None


def resolve(spec: str | dict[str, Any] | RuleSet | None) -> RuleSet:
    """A RuleSet from a preset name, an options object, or None (standard)."""
    if spec is None:
        return PRESETS["standard"]
    if isinstance(spec, RuleSet):
        return spec
    if isinstance(spec, str):
        return preset(spec)
    return RuleSet.from_dict(spec)
