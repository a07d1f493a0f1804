"""Self-play property tests: many seeded games with random play and with the bot.

The generic self-play (``server/bots/selfplay.py``) checks after every transition
``check_invariants`` (every tile in one place, the ledger's total, sizes, who is
waited on); sampled: each seat's observation unchanged when the tiles it may not
see are shuffled and masked events hiding other seats' tiles (``check_view``),
listed actions accepted on a clone, illegal actions refused with the state
unchanged. At the end: ``replay`` rebuilds the same game. With ``CI=true`` more
games run.
"""

from __future__ import annotations

import os

import pytest

from server.bots import make_bot
from server.bots.selfplay import Checks, Stats, play_game
from server.engine.nanchang import PRESETS

CI = os.environ.get("CI") == "true"
CHECKS = Checks(legal_rate=0.02, illegal_rate=0.02, view_rate=0.02)


def _run(names: list[str], games: int, preset: str, label: str) -> Stats:
    total = Stats()
    for i in range(games):
        bots = [make_bot(names[s], 1000 * i + s, "nanchang") for s in range(4)]
        g, st = play_game(
            PRESETS[preset], f"{label}-{i}".encode(), bots, CHECKS, first_dealer=i % 4
        )
        assert not st.failures, st.failures[:3]
        assert g.phase == "game_end" and g.final is not None
        assert sum(g.scores) == 4 * g.options.start_points
        assert sorted(s.rank for s in g.final) == [1, 2, 3, 4]
        total.add(st)
    return total


def test_random_play_keeps_every_property() -> None:
    st = _run(["random"] * 4, 40 if CI else 8, "nanchang-east", "random")
    assert st.rounds >= st.games * 4 and st.checks["views"] > 0
    wins = st.tsumo + st.ron
    assert st.draws and wins > 0  # random play wins only by chance


def test_bot_play_keeps_every_property() -> None:
    st = _run(["efficient"] * 4, 8 if CI else 2, "nanchang-east", "bots")
    assert st.tsumo + st.ron > sum(st.draws.values())


def test_bots_against_random_and_a_whole_game() -> None:
    st = _run(["efficient", "random"] * 2, 1, "nanchang", "mixed")
    assert st.rounds >= 16


@pytest.mark.parametrize("preset", ["nanchang", "nanchang-east"])
def test_presets_play_to_the_end(preset: str) -> None:
    bots = [make_bot("random", s, "nanchang") for s in range(4)]
    g, _ = play_game(PRESETS[preset], preset.encode(), bots, Checks.none())
    winds = {r.round_wind for r in g.round_results}
    assert winds == set(range(PRESETS[preset].rounds))
