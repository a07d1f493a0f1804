"""The games this server plays, found by name."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from server.engine.nanchang.variant import NANCHANG
from server.engine.riichi.variant import RIICHI, SANMA
from server.engine.variant import Variant, VariantError

AnyVariant = Variant[Any, Any, Any]

VARIANTS: dict[str, AnyVariant] = {v.key: v for v in (RIICHI, SANMA, NANCHANG)}
DEFAULT_VARIANT = "riichi"


def find_variant(name: str) -> AnyVariant:
    """The variant called ``name``; VariantError (a ValueError) names the known ones."""
    try:
        return VARIANTS[name]
    except (KeyError, TypeError):
        raise VariantError(
            f"unknown game variant {name!r}; choose one of {', '.join(VARIANTS)}"
        ) from None


def variant_of_options(options: Any) -> AnyVariant:
    """The variant a game's options object belongs to (a RuleSet of 3 seats is sanma)."""
    for v in VARIANTS.values():
        if isinstance(options, v.options_type) and getattr(options, "seats", v.seats) == v.seats:
            return v
    raise VariantError(f"no variant plays with options {options!r}")


def variant_of_preset(preset: str) -> AnyVariant:
    """The variant a rules preset belongs to (preset names are unique across variants)."""
    for v in VARIANTS.values():
        if preset in v.presets:
            return v
    names = [p for v in VARIANTS.values() for p in v.presets]
    raise VariantError(f"unknown rules preset {preset!r}; choose one of {', '.join(names)}")


def resolve_rules(spec: str | Mapping[str, Any] | None) -> tuple[AnyVariant, Any]:
    """The variant and its options from a preset name, an object of overrides
    (``{"preset": "tenhou", "kuitan": false}``, or a stored options object that
    names its preset with ``name``) or None (the default variant's default preset).

    Raises ValueError (VariantError, or the variant's options error) with a message.
    """
    if spec is None:
        v = VARIANTS[DEFAULT_VARIANT]
        return v, v.options(None)
    if isinstance(spec, str):
        v = variant_of_preset(spec)
        return v, v.options(spec)
    if not isinstance(spec, Mapping):
        raise VariantError("rules must be a preset name or an object")
    if "variant" in spec:
        v = find_variant(spec["variant"])
        rest = {k: x for k, x in spec.items() if k != "variant"}
        return v, v.options(rest or None)
    name = spec.get("preset", spec.get("name"))
    if name is None:
        v = VARIANTS[DEFAULT_VARIANT]
    elif isinstance(name, str):
        v = variant_of_preset(name)
    else:
        raise VariantError("rules preset must be a string")
    return v, v.options(spec)
