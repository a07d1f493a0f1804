"""Baseline bots: uniformly random, and tsumogiri (never changes its hand)."""

from __future__ import annotations

import random

from server.bots.base import legal_of
from server.engine.actions import A_DISCARD, A_PASS, A_RON, A_TSUMO, Action
from server.engine.riichi.observe import Observation


class RandomBot:
    """Picks uniformly among the legal actions (wins, calls and kyuushu included)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, obs: Observation) -> Action:
        # choice is the same draw as randrange(len(acts)), one frame fewer
        return self.rng.choice(legal_of(obs))


class TsumogiriBot:
    """Discards every drawn tile and never calls; takes a win when one is offered."""

    name = "tsumogiri"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, obs: Observation) -> Action:
        acts = legal_of(obs)
        for a in acts:
            if a.type is A_TSUMO or a.type is A_RON:
                return a
        discards = [a for a in acts if a.type is A_DISCARD]
        if discards:
            for a in discards:
                if a.tile == obs.drawn:
                    return a
            # No drawn tile (after a call): the last discard option.
            return discards[-1]
        for a in acts:
            if a.type is A_PASS:
                return a
        return acts[0]
