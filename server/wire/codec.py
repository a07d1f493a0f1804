"""Each variant's wire codec, found by the variant's key."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from server.engine import AnyVariant, Event
from server.wire import nanchang, riichi


@dataclass(frozen=True, slots=True)
class Codec:
    """How one game's values become JSON."""

    event_json: Callable[[Event], dict[str, Any]]
    # The views a table sends to the given seats (None: a spectator) of a state.
    views: Callable[[Any, Sequence[int | None]], list[dict[str, Any]]]
    options_json: Callable[[Any], dict[str, Any]]
    # A seat's own decision now: its legal actions (and hints), for a decision frame.
    decision: Callable[[Any, int], dict[str, Any]]


_RIICHI = Codec(riichi.event_json, riichi.seat_views, riichi.rules_json, riichi.seat_decision)
CODECS: dict[str, Codec] = {
    "riichi": _RIICHI,
    "sanma": _RIICHI,
    "nanchang": Codec(
        nanchang.event_json, nanchang.seat_views, nanchang.options_json, nanchang.seat_decision
    ),
}


def codec_for(variant: AnyVariant) -> Codec:
    return CODECS[variant.key]
