"""Nanchang mahjong (南昌麻将, seed 003): a pure rules engine, rule ids N1.. in docs/rules.md.

The public interface, for the variant registry::

    new_game(options, seed, first_dealer=0) -> NanchangGame   # .start_events
    legal_actions(state, seat) -> list[Action]
    apply(state, action) -> list[Event]          # IllegalAction, state unchanged
    next_round(state) -> list[Event]
    waiting_on(state) -> frozenset[int]
    observe(state, seat | None) -> NanchangObservation
    mask(event, seat | None) -> Event
    final(state) -> tuple[Standing, ...] | None
    replay(options, seed, log, first_dealer=0) -> NanchangGame
    check_invariants(state)
    score_hand(hand, win_tile, *, indicator, ...) -> HandScore | None
"""

from __future__ import annotations

from server.engine.events import Event, Standing
from server.engine.nanchang.calc import HandScore, NanchangHandError, score_hand
from server.engine.nanchang.events import (
    Called,
    Dealt,
    Discarded,
    Drew,
    GameEnded,
    GameStarted,
    JokerRevealed,
    Kanned,
    RoundEnded,
    RoundStarted,
    WallExhausted,
    Won,
    mask,
    visible_to,
)
from server.engine.nanchang.game import (
    apply,
    at_round,
    final,
    new_game,
    next_round,
    replay,
    waiting_on,
)
from server.engine.nanchang.invariants import check_invariants
from server.engine.nanchang.jokers import Jokers, chongguan_value, successor
from server.engine.nanchang.legal import legal_actions, why_illegal
from server.engine.nanchang.melds import Meld, RiverTile
from server.engine.nanchang.observation import NanchangObservation, observe
from server.engine.nanchang.options import (
    PRESETS,
    NanchangOptions,
    NanchangOptionsError,
    preset,
)
from server.engine.nanchang.scoring import Element, WinContext, WinScore, score_win
from server.engine.nanchang.settlement import (
    JokerBonus,
    KanPoints,
    RoundResult,
    WinRecord,
)
from server.engine.nanchang.state import NanchangGame
from server.engine.nanchang.wall import NanchangWall

KEY = "nanchang"
SEATS = 4
NUM_TILES = 136

__all__ = [
    "KEY",
    "NUM_TILES",
    "PRESETS",
    "SEATS",
    "Called",
    "Dealt",
    "Discarded",
    "Drew",
    "Element",
    "Event",
    "GameEnded",
    "GameStarted",
    "HandScore",
    "JokerBonus",
    "JokerRevealed",
    "Jokers",
    "KanPoints",
    "Kanned",
    "Meld",
    "NanchangGame",
    "NanchangHandError",
    "NanchangObservation",
    "NanchangOptions",
    "NanchangOptionsError",
    "NanchangWall",
    "RiverTile",
    "RoundEnded",
    "RoundResult",
    "RoundStarted",
    "Standing",
    "WallExhausted",
    "WinContext",
    "WinRecord",
    "WinScore",
    "Won",
    "apply",
    "at_round",
    "check_invariants",
    "chongguan_value",
    "final",
    "legal_actions",
    "mask",
    "new_game",
    "next_round",
    "observe",
    "preset",
    "replay",
    "score_hand",
    "score_win",
    "successor",
    "visible_to",
    "waiting_on",
    "why_illegal",
]
