"""Each variant's wire codec, found by the variant's key."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from server.engine import AnyVariant, Event
from server.wire import riichi


@dataclass(frozen=True, slots=True)
class Codec:
    """How one game's values become JSON."""

    event_json: Callable[[Event], dict[str, Any]]
    # The views a table sends to the given seats (None: a spectator) of a state.
    views: Callable[[Any, Sequence[int | None]], list[dict[str, Any]]]
    options_json: Callable[[Any], dict[str, Any]]


_RIICHI = Codec(riichi.event_json, riichi.seat_views, riichi.rules_json)
# sanma is the riichi engine with three seats: the same codec
CODECS: dict[str, Codec] = {"riichi": _RIICHI, "sanma": _RIICHI}


def codec_for(variant: AnyVariant) -> Codec:
    return CODECS[variant.key]
