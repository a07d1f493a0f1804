"""Property tests over sanma bot self-play, as ``test_selfplay_properties`` for four seats.

With ``CI=true``: 100 hanchan of both sanma presets, every first dealer, random bots
and efficient bots mixed (so wins, riichi, pons, kans and norths set aside all come
up); locally a few. Every game: ``check_invariants`` after every transition (108
tiles each in one place, points constant, replacement draws = kans + norths aside),
replay of seed + log at the end; sampled per decision: every listed action applied
to a clone, illegal actions refused with the state unchanged, all four views (three
seats and a spectator) free of other seats' concealed tiles.
"""

from __future__ import annotations

import os
import random

from server.bots import make_bot
from server.bots.selfplay import Checks, Stats, bot_seed, game_seed, play_game
from server.engine.riichi.rules import preset

GAMES = 100 if os.environ.get("CI") == "true" else 12
CHECKS = Checks(
    invariants=True,
    legal_rate=0.02,
    illegal_rate=0.05,
    illegal_tries=3,
    view_rate=0.05,
    replay=True,
)
SEATS = (("random", "random", "random"), ("efficient", "random", "efficient"))


def test_sanma_self_play_keeps_every_invariant() -> None:
    total = Stats()
    for g in range(GAMES):
        rules = preset(("tenhou-sanma", "majsoul-sanma")[g % 2])
        names = SEATS[(g // 2) % 2]
        bots = [make_bot(n, bot_seed("sanma", g, s)) for s, n in enumerate(names)]
        _, st = play_game(
            rules,
            game_seed("sanma", g),
            bots,
            CHECKS,
            first_dealer=g % 3,
            check_rng=random.Random(bot_seed("sanma", g, 9)),
        )
        total.add(st)
    assert total.games == GAMES
    assert not total.failures, "\n".join(total.failures[:20])
    assert total.checks["invariants"] == GAMES + total.decisions + total.rounds
    assert total.checks["replays"] == GAMES
    assert total.checks["illegal_refused"] > 0 and total.checks["views"] > 0
    assert total.checks["legal_accepted"] > 0
    for kind in ("nuki", "pon", "riichi", "tsumo", "ron"):
        assert total.actions[kind] > 0, kind
    assert "chi" not in total.actions
