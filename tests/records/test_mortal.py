"""Every export read by Mortal's PlayerState and mjai-reviewer's converter, with no refusal.

The PyPI ``mjai`` package (Mortal's ``libriichi`` player state, as mjai.app's
bots use it) pins an old ``mahjong``, so it lives in its own virtual
environment, ``.venv-mjai`` at the top of the checkout, made here on first use
together with ``convlog-rs`` (mjai-reviewer's tenhou.net/6 -> mjai converter).
``mortal_check.py`` runs there in one subprocess over every log.

Logs: every fixture (real Tenhou games) and self-play games on the three
presets, hanchan and tonpuu. Each is exported to mjai and tenhou.net/6; the
mjai events go through four player states, the tenhou.net/6 document through
convlog, whose events must pass the same checks and equal ours but for the
documented differences.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from server.bots import make_bot
from server.bots.selfplay import Checks, game_seed, play_game
from server.engine.riichi.rules import preset
from server.engine.riichi.variant import RIICHI
from server.records.export_tenhou6 import export_tenhou6
from server.records.importer import record_events
from server.records.mjai import export_mjai
from server.records.record import GameRecord
from tests.records.test_import import ALL_LOGS, FIXTURES, imported

ROOT = Path(__file__).parents[2]
VENV = ROOT / ".venv-mjai"
# Pinned: the checks read these packages' behaviour.
REQUIREMENTS = ("mjai==0.2.1", "convlog-rs==0.3.0")
CHECKER = Path(__file__).with_name("mortal_check.py")

# (name, preset, length, bots, first dealer): kans, calls and riichi come from the
# random and efficient bots; the majsoul preset has triple ron.
SELFPLAY = [
    ("tenhou-efficient", "tenhou", "hanchan", "efficient,efficient,efficient,efficient", 0),
    ("tenhou-mixed", "tenhou", "hanchan", "random,efficient,defensive,random", 1),
    ("tenhou-tonpuu", "tenhou", "tonpuu", "efficient,random,efficient,random", 0),
    ("standard-mixed", "standard", "hanchan", "defensive,random,efficient,random", 2),
    ("standard-random", "standard", "tonpuu", "random,random,random,random", 3),
    ("majsoul-mixed", "majsoul", "hanchan", "efficient,defensive,random,efficient", 0),
]


def _python() -> Path:
    return VENV / "bin" / "python"


def ensure_mortal_env() -> Path:
    """``.venv-mjai`` with the pinned packages; made (once) when missing or outdated."""
    stamp = VENV / ".installed"
    wanted = "\n".join(REQUIREMENTS)
    if stamp.is_file() and stamp.read_text() == wanted and _python().exists():
        return _python()
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(VENV)], check=True)
    subprocess.run(
        [str(_python()), "-m", "pip", "install", "--quiet", *REQUIREMENTS],
        check=True,
        capture_output=True,
        text=True,
    )
    stamp.write_text(wanted)
    return _python()


@functools.cache
def selfplay_game(name: str) -> tuple[list[dict[str, Any]], tuple[str, ...]]:
    _, rules_name, length, bots, first_dealer = next(g for g in SELFPLAY if g[0] == name)
    rules = preset(rules_name).with_overrides(length=length)
    seats = [make_bot(b, 70 + i) for i, b in enumerate(bots.split(","))]
    seed = game_seed(f"mortal-{name}", 0)
    state, stats = play_game(rules, seed, seats, Checks.none(), first_dealer=first_dealer)
    assert not stats.failures
    players = ("ann", "bob", "cy", "dee")
    record = GameRecord.from_state(RIICHI, state, list(players))
    return record_events(record), players


def _log(name: str, events: list[dict[str, Any]], players: tuple[str, ...]) -> dict[str, Any]:
    return {
        "name": name,
        "mjai": export_mjai(events, players),
        "tenhou6": export_tenhou6(events, players, ("Jantaku", name), game_id=1),
    }


def run_checker(logs: list[dict[str, Any]]) -> dict[str, Any]:
    """Run ``mortal_check.py`` in ``.venv-mjai`` over ``logs``; its JSON answer."""
    try:
        python = ensure_mortal_env()
    except (OSError, subprocess.CalledProcessError) as exc:
        detail = getattr(exc, "stderr", "") or exc
        if os.environ.get("CI") == "true":
            pytest.fail(f"cannot make {VENV.name} with {', '.join(REQUIREMENTS)}: {detail}")
        pytest.skip(f"cannot make {VENV.name} (no package index?): {detail}")
    proc = subprocess.run(
        [str(python), str(CHECKER)],
        input=json.dumps({"logs": logs}, ensure_ascii=False),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    out: dict[str, Any] = json.loads(proc.stdout)
    return out


@pytest.fixture(scope="module")
def verdicts() -> dict[str, Any]:
    logs = []
    for param in ALL_LOGS:
        path: Path = param.values[0]  # type: ignore[attr-defined]
        game = imported(path)
        logs.append(_log(path.name, game.events, game.players))
    for name, *_ in SELFPLAY:
        events, players = selfplay_game(name)
        logs.append(_log(f"selfplay-{name}", events, players))
    return run_checker(logs)


@pytest.mark.parametrize(
    "name",
    [p.values[0].name for p in ALL_LOGS] + [f"selfplay-{g[0]}" for g in SELFPLAY],  # type: ignore[attr-defined]
)
def test_mortal_and_convlog_accept_every_export(verdicts: dict[str, Any], name: str) -> None:
    assert verdicts["versions"]["convlog-rs"] is not None
    result = verdicts["results"][name]
    assert result["events"] > 5  # every event was read (a nine-terminal draw has 6)
    assert result["problems"] == []


def test_the_checks_refuse_what_mortal_refuses() -> None:
    """The checker is not a rubber stamp: the old kan dora order, a bad discard, stray ura."""
    game = imported(FIXTURES / "mjai-reviewer" / "confusing_nakis_6.json")
    good = export_mjai(game.events, game.players)
    # The kan dora back after the kanner's discard (the order before this fix): the call
    # that answers that discard is no longer offered.
    old = list(good)
    i = next(
        n for n in range(len(old) - 2) if (old[n]["type"], old[n + 1]["type"]) == ("dora", "dahai")
    )
    assert old[i + 2]["type"] == "pon"
    old[i], old[i + 1] = old[i + 1], old[i]
    # A discard of a tile the hand does not hold.
    bad_tile = [dict(e) for e in good]
    k = next(n for n, e in enumerate(bad_tile) if e["type"] == "dahai" and not e["tsumogiri"])
    held = bad_tile[k]["pai"]
    bad_tile[k]["pai"] = "9s" if held != "9s" else "1m"
    # Ura markers for a winner without riichi (double ron: the second winner).
    ron = imported(FIXTURES / "mjai-reviewer" / "double_ron.json")
    ura = [dict(e) for e in export_mjai(ron.events, ron.players)]
    second = [e for e in ura if e["type"] == "hora"][1]
    second["ura_markers"] = ["S"]
    logs = [
        {"name": "good", "mjai": good},
        {"name": "old-dora", "mjai": old},
        {"name": "bad-tile", "mjai": bad_tile},
        {"name": "ura", "mjai": ura},
    ]
    results = run_checker(logs)["results"]
    assert results["good"]["problems"] == []
    assert "not offered this pon" in results["old-dora"]["problems"][0]
    assert "not in the hand" in results["bad-tile"]["problems"][0]
    assert results["ura"]["problems"] == [
        f"line {ura.index(second) + 1} "
        + json.dumps(second, ensure_ascii=False, separators=(",", ":"))
        + ": ura markers for a winner without riichi"
    ]
