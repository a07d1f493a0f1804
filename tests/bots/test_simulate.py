"""``jantaku simulate``: output shape, exit codes, argument errors."""

from __future__ import annotations

import json

import pytest

from server.cli import main


def test_simulate_json_summary(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--games", "2", "--seed", "7", "--bots", "efficient,random", "--json"]
    code = main([*args, "--length", "tonpuu"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["ok"] is True
    assert out["bots"] == ["efficient", "random", "efficient", "random"]
    assert out["games"] == 2 and out["length"] == "tonpuu"
    wins = out["wins"]
    assert wins["total"] == wins["tsumo"] + wins["ron"]
    assert out["rounds"] == wins["total"] + sum(out["draws"].values()) - _double_rons(out)
    assert out["checks"]["invariants"] > 0 and out["checks"]["replays"] == 2
    assert out["games_per_second"] > 0


def _double_rons(out: dict[str, object]) -> int:
    # A round with a double ron counts two wins; rounds >= wins + draws - that.
    wins = out["wins"]
    assert isinstance(wins, dict)
    rounds = out["rounds"]
    draws = out["draws"]
    assert isinstance(rounds, int) and isinstance(draws, dict)
    extra = wins["total"] + sum(draws.values()) - rounds
    assert 0 <= extra <= wins["ron"]
    return extra


@pytest.mark.parametrize(("rules", "bots"), [("tenhou-sanma", 3), ("nanchang-east", 4)])
def test_simulate_other_games(rules: str, bots: int, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "--rules", rules, "--games", "2", "--seed", "o", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["ok"] is True and len(out["bots"]) == bots
    assert out["checks"]["views"] > 0 and out["checks"]["replays"] == 2
    if rules.startswith("nanchang"):
        assert any(t.startswith("shape:") for t in out["tags"])
    else:
        assert out["actions"].get("chi", 0) == 0  # no chi in sanma


def test_simulate_same_seed_same_result(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--games", "1", "--seed", "s", "--bots", "efficient", "--json"]
    args += ["--length", "tonpuu", "--checks", "none"]
    main(args)
    a = json.loads(capsys.readouterr().out)
    main(args)
    b = json.loads(capsys.readouterr().out)
    for key in ("rounds", "wins", "draws", "decisions"):
        assert a[key] == b[key]


def test_simulate_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--games", "1", "--bots", "tsumogiri", "--length", "tonpuu", "--checks", "invariants"]
    code = main(["simulate", *args])
    text = capsys.readouterr().out
    assert code == 0
    assert "games      1" in text and "all checks passed" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "efficient,mortal,random,random"], "unknown bot 'mortal'"),
        (["--bots", "random,random,random"], "1, 2 or 4"),
        (["--games", "0"], "at least 1"),
        (["--rules", "tenhou-sanma", "--bots", "random,random"], "1 or 3"),
    ],
)
def test_simulate_bad_arguments(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["simulate", *args]) == 2
    assert message in capsys.readouterr().err
