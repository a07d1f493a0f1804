"""Property tests over bot self-play (issue 3), checked after every transition.

With ``CI=true``: 2,000 full random-bot hanchan (with the West extension
where a preset has it), spread over the three presets and all four first
dealers, plus 60 short games of efficient against random bots so that wins,
riichi, calls and kans are exercised too. Locally the same tests run with a
few games each.

Every game: ``check_invariants`` after every transition, replay of seed + log
at the end. Sampled per decision (seeded, so a failure reproduces): every
listed legal action applied to a clone, near-miss and random illegal actions
refused with the state unchanged, all five views free of other seats'
concealed tiles. See ``server/bots/selfplay.py``.
"""

from __future__ import annotations

import os
import random

import pytest

from server.bots import make_bot
from server.bots.selfplay import Checks, Stats, bot_seed, game_seed, play_game
from server.engine.riichi.rules import preset

CI = os.environ.get("CI") == "true"

HANCHAN_GAMES = 2000 if CI else 6
MIXED_GAMES = 60 if CI else 4
PRESETS = ("standard", "tenhou", "majsoul")

# Rates chosen so the CI run of this file stays under 8 minutes on an idle 2-core machine.
CHECKS = Checks(
    invariants=True,
    legal_rate=0.01,
    illegal_rate=0.03,
    illegal_tries=3,
    view_rate=0.03,
    replay=True,
)


def _run(label: str, games: int, names: list[str], short: bool) -> Stats:
    total = Stats()
    for g in range(games):
        rules = preset(PRESETS[g % 3])
        if short:
            rules = rules.with_overrides(length="tonpuu", west_extension=False)
        bots = [make_bot(n, bot_seed(label, g, s)) for s, n in enumerate(names)]
        _, st = play_game(
            rules,
            game_seed(label, g),
            bots,
            CHECKS,
            first_dealer=g % 4,
            check_rng=random.Random(bot_seed(label, g, 9)),
        )
        total.add(st)
    return total


def _assert_clean(stats: Stats, games: int) -> None:
    assert stats.games == games
    assert not stats.failures, "\n".join(stats.failures[:20])
    # after every transition: the start, each decision and each next_round
    assert stats.checks["invariants"] == games + stats.decisions + stats.rounds
    assert stats.checks["replays"] == games
    assert stats.checks["illegal_refused"] > 0 and stats.checks["views"] > 0
    assert stats.checks["legal_accepted"] > 0


@pytest.mark.slow
def test_random_bots_full_hanchan() -> None:
    stats = _run("hanchan", HANCHAN_GAMES, ["random"] * 4, short=False)
    _assert_clean(stats, HANCHAN_GAMES)
    assert stats.rounds >= 8 * HANCHAN_GAMES


@pytest.mark.slow
def test_efficient_and_random_bots() -> None:
    names = ["efficient", "random", "efficient", "random"]
    stats = _run("mixed", MIXED_GAMES, names, short=True)
    _assert_clean(stats, MIXED_GAMES)
    # The point of these games: wins, riichi and calls happen and are checked.
    assert stats.tsumo > 0 and stats.ron > 0
    assert stats.actions["riichi"] > 0
    assert stats.actions["pon"] + stats.actions["chi"] > 0
