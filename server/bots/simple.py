"""Baseline bots: uniformly random, and tsumogiri (never changes its hand)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from server.bots.base import Inputs, legal_of
from server.engine import game as engine
from server.engine.actions import Action, ActionType
from server.engine.tiles import parse_tile


class RandomBot:
    """Picks uniformly among the legal actions (wins, calls and kyuushu included)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(
        self,
        obs: engine.GameState | Mapping[str, Any],
        seat: int,
        legal: Sequence[Action] | None = None,
    ) -> Action:
        # The list given needs no view and no copy (the common self-play case); choice
        # is the same draw as randrange(len(acts)), one frame fewer.
        return self.rng.choice(legal_of(obs, seat, legal))


class TsumogiriBot:
    """Discards every drawn tile and never calls; takes a win when one is offered."""

    name = "tsumogiri"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(
        self,
        obs: engine.GameState | Mapping[str, Any],
        seat: int,
        legal: Sequence[Action] | None = None,
    ) -> Action:
        acts = legal_of(obs, seat, legal)
        inp = Inputs(obs, seat, acts)
        for a in acts:
            if a.type in (ActionType.TSUMO, ActionType.RON):
                return a
        discards = [a for a in acts if a.type is ActionType.DISCARD]
        if discards:
            drawn = inp.view["players"][seat].get("drawn")
            if drawn is not None:
                t = parse_tile(drawn)
                for a in discards:
                    if a.tile == t:
                        return a
            # No drawn tile (cannot happen without calls): the last discard option.
            return discards[-1]
        for a in acts:
            if a.type is ActionType.PASS:
                return a
        return acts[0]
