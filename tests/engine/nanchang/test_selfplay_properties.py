"""Self-play property tests: many seeded games with random play and with the bot.

Checked after every transition: ``check_invariants`` (every tile in one place, the
ledger's total, sizes, who is waited on) and that masked events hide other seats'
tiles. Sampled: each seat's observation unchanged when the tiles it may not see are
shuffled, illegal actions refused with the state unchanged. At the end: ``replay``
rebuilds the same game. With ``CI=true`` more games run.
"""

from __future__ import annotations

import os

import pytest

from server.bots.nanchang import make_nanchang_bot
from server.bots.nanchang_selfplay import Checks, Stats, play_game
from server.engine.nanchang import PRESETS

CI = os.environ.get("CI") == "true"
CHECKS = Checks(invariants=True, replay=True, observation_rate=0.02, illegal_rate=0.02)


def _run(names: list[str], games: int, preset: str, label: str) -> Stats:
    total = Stats()
    for i in range(games):
        bots = [make_nanchang_bot(names[s], 1000 * i + s) for s in range(4)]
        g, st = play_game(PRESETS[preset], f"{label}-{i}".encode(), bots, CHECKS, i % 4, i)
        assert g.phase == "game_end" and g.final is not None
        assert sum(g.scores) == 4 * g.options.start_points
        assert sorted(s.rank for s in g.final) == [1, 2, 3, 4]
        total.add(st)
    return total


def test_random_play_keeps_every_property() -> None:
    st = _run(["nanchang-random"] * 4, 40 if CI else 8, "nanchang-east", "random")
    assert st.rounds >= st.games * 4 and st.checks > 0
    assert st.draws > 0 and st.wins > 0  # random play wins only by chance


def test_bot_play_keeps_every_property() -> None:
    st = _run(["nanchang"] * 4, 8 if CI else 2, "nanchang-east", "bots")
    assert st.wins > st.draws


def test_bots_against_random_and_a_whole_game() -> None:
    st = _run(["nanchang", "nanchang-random"] * 2, 1, "nanchang", "mixed")
    assert st.rounds >= 16


@pytest.mark.parametrize("preset", ["nanchang", "nanchang-east"])
def test_presets_play_to_the_end(preset: str) -> None:
    bots = [make_nanchang_bot("nanchang-random", s) for s in range(4)]
    g, _ = play_game(PRESETS[preset], preset.encode(), bots, Checks.none())
    winds = {r.round_wind for r in g.round_results}
    assert winds == set(range(PRESETS[preset].rounds))
