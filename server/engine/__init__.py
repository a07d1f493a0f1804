"""The game engine's public interface: pure rules, typed values, no I/O, no JSON.

Every game is a ``Variant`` found by name (``find_variant``); each lives in a
folder of its own (``riichi/``: four-player riichi, and sanma). See
docs/engine.md.
"""

from server.engine.actions import Action, ActionType, IllegalAction
from server.engine.events import Event, Standing
from server.engine.registry import (
    DEFAULT_VARIANT,
    VARIANTS,
    AnyVariant,
    find_variant,
    resolve_rules,
    variant_of_options,
    variant_of_preset,
)
from server.engine.variant import Variant, VariantError

__all__ = [
    "DEFAULT_VARIANT",
    "VARIANTS",
    "Action",
    "ActionType",
    "AnyVariant",
    "Event",
    "IllegalAction",
    "Standing",
    "Variant",
    "VariantError",
    "find_variant",
    "resolve_rules",
    "variant_of_options",
    "variant_of_preset",
]
