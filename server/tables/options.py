"""What a table decides apart from the game's rules: the thinking time.

A lobby's rules object may carry ``think_seconds`` and ``bank_seconds`` beside
the game's options (they are stored with the game's rules); they belong to
the table, not to the ruleset, and ``split`` takes them out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from server.engine import AnyVariant, resolve_rules

TIMER_KEYS = ("think_seconds", "bank_seconds")
# The thinking time of each preset's rooms (RULES.md): seconds per action + bank.
PRESET_TIMERS: dict[str, tuple[int, int]] = {"tenhou": (5, 10)}
DEFAULT_TIMER = (5, 20)


class TableOptionsError(ValueError):
    pass


@dataclass(frozen=True, slots=True)
class TableOptions:
    think_seconds: int = DEFAULT_TIMER[0]  # per action; 0 = no timer
    bank_seconds: int = DEFAULT_TIMER[1]  # a bank per round, spent once a decision is over

    def __post_init__(self) -> None:
        for name, hi in (("think_seconds", 600), ("bank_seconds", 3600)):
            v = getattr(self, name)
            if type(v) is not int or not 0 <= v <= hi:
                raise TableOptionsError(f"{name} must be an integer 0..{hi}")

    @property
    def timed(self) -> bool:
        return self.think_seconds > 0

    def to_dict(self) -> dict[str, int]:
        return {"think_seconds": self.think_seconds, "bank_seconds": self.bank_seconds}


def split(spec: str | Mapping[str, Any] | None) -> tuple[TableOptions, str | dict[str, Any] | None]:
    """The table's options and the rest of a rules spec (a preset name or an object).

    Timers not given come from the preset's rooms (``PRESET_TIMERS``).
    """
    if spec is None or isinstance(spec, str):
        think, bank = PRESET_TIMERS.get(spec or "", DEFAULT_TIMER)
        return TableOptions(think, bank), spec
    rest = {k: v for k, v in spec.items() if k not in TIMER_KEYS}
    name = spec.get("preset", spec.get("name"))
    think, bank = PRESET_TIMERS.get(name if isinstance(name, str) else "", DEFAULT_TIMER)
    return (
        TableOptions(spec.get("think_seconds", think), spec.get("bank_seconds", bank)),
        rest,
    )


def game_setup(spec: str | Mapping[str, Any] | None) -> tuple[AnyVariant, Any, TableOptions]:
    """The variant, its options and the table's options from a lobby's rules spec
    or a stored rules object. ValueError (with a message) for anything invalid."""
    options, rest = split(spec)
    variant, rules = resolve_rules(rest)
    return variant, rules, options


def stored_rules(variant: AnyVariant, rules: Any, options: TableOptions) -> dict[str, Any]:
    """What a lobby and a game store: the variant, every option, the thinking time."""
    return {"variant": variant.key, **variant.options_dict(rules), **options.to_dict()}
