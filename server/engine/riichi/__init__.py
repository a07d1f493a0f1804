"""Riichi mahjong: the state machine, its events, observations and rules."""

from server.engine.riichi.events import (
    Agari,
    Call,
    Discard,
    Draw,
    GameEnd,
    GameStart,
    Haipai,
    Kan,
    NewDora,
    NextRound,
    RiichiAccepted,
    RoundEnd,
    RoundStart,
    Ryuukyoku,
    Winner,
    mask,
)
from server.engine.riichi.game import (
    apply,
    at_round,
    legal_actions,
    new_game,
    next_round,
    replay,
    waiting_on,
)
from server.engine.riichi.hints import Hints, hints
from server.engine.riichi.invariants import check_invariants
from server.engine.riichi.legal import why_illegal
from server.engine.riichi.observe import Observation, SeatInfo, observations, observe
from server.engine.riichi.rules import PRESETS, RulesError, RuleSet, preset
from server.engine.riichi.state import Furo, GameState, RiverTile, RoundResult
from server.engine.riichi.wall import Wall, new_seed

__all__ = [
    "PRESETS",
    "Agari",
    "Call",
    "Discard",
    "Draw",
    "Furo",
    "GameEnd",
    "GameStart",
    "GameState",
    "Haipai",
    "Hints",
    "Kan",
    "NewDora",
    "NextRound",
    "Observation",
    "RiichiAccepted",
    "RiverTile",
    "RoundEnd",
    "RoundResult",
    "RoundStart",
    "RuleSet",
    "RulesError",
    "Ryuukyoku",
    "SeatInfo",
    "Wall",
    "Winner",
    "apply",
    "at_round",
    "check_invariants",
    "hints",
    "legal_actions",
    "mask",
    "new_game",
    "new_seed",
    "next_round",
    "observations",
    "observe",
    "preset",
    "replay",
    "waiting_on",
    "why_illegal",
]
