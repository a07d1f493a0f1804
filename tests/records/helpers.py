"""Self-play helpers shared by the records tests."""

from __future__ import annotations

import random
from typing import Any

from server.engine import riichi as engine
from server.engine.actions import ActionType
from server.engine.riichi.rules import preset
from server.wire.riichi import seat_views


def self_play(seed: bytes, rng_seed: int, rules_name: str = "tenhou") -> engine.GameState:
    """A whole game where every decision is a seeded random legal action."""
    rng = random.Random(rng_seed)
    st = engine.new_game(preset(rules_name), seed, first_dealer=rng_seed % 4)
    while st.phase != "game_end":
        if st.phase == "round_end":
            engine.next_round(st)
            continue
        for seat in sorted(engine.waiting_on(st)):
            acts = engine.legal_actions(st, seat)
            if not acts:
                continue  # resolved by an earlier answer in this window
            # Prefer wins and plain play so games end in reasonable time.
            wins = [a for a in acts if a.type in (ActionType.TSUMO, ActionType.RON)]
            engine.apply(st, wins[0] if wins else rng.choice(acts))
    return st


def fingerprint(st: engine.GameState) -> Any:
    return (
        st.phase,
        st.scores,
        st.final,
        [
            (
                r.kind,
                r.reason,
                r.deltas,
                r.scores,
                [(w.seat, w.from_seat, w.result) for w in r.wins],
            )
            for r in st.round_results
        ],
        seat_views(st, [None, 0, 1, 2, 3]),
    )
