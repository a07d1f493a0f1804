"""The PyPI ``mjai`` package's RulebaseBot (Mortal's player state inside) plays a full
game against ours through the live feed, in its own environment (``.venv-mjai``, made
by ``tests/records/test_mortal.py``: the package pins an old ``mahjong``)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from server.bots import make_bot
from server.bots.selfplay import Checks, game_seed, play_game
from server.engine.riichi.rules import preset
from server.external.channel import SyncChannel
from server.external.seat import MjaiBot
from tests.records.test_mortal import REQUIREMENTS, VENV, ensure_mortal_env

RUNNER = Path(__file__).resolve().parents[2] / "bench" / "mjai" / "rulebase.py"


def test_rulebase_bots_play_a_full_game_against_strong() -> None:
    try:
        python = ensure_mortal_env()
    except (OSError, subprocess.CalledProcessError) as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"cannot make {VENV.name} with {', '.join(REQUIREMENTS)}: {exc}")
        pytest.skip(f"cannot make {VENV.name} (no package index?): {exc}")
    theirs = [MjaiBot(SyncChannel(f"{python} {RUNNER}", "array", 30.0), s) for s in (1, 3)]
    bots = [make_bot("strong", 0), theirs[0], make_bot("strong", 2), theirs[1]]
    rules = preset("tenhou").with_overrides(length="tonpuu")
    try:
        state, stats = play_game(rules, game_seed("rulebase", 0), bots, Checks())
    finally:
        for b in theirs:
            b.close()
    assert not stats.failures, stats.failures[:3]
    assert state.phase == "game_end"
    for b in theirs:
        # Mortal's player state took every event of the feed: a refused event would
        # have made RulebaseBot answer "none" where it must act, and be replaced
        assert b.decisions > 30
        assert b.replaced <= b.decisions // 100
