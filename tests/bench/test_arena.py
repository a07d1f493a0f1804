"""bench/arena.py's plumbing on a few hanchan (its strength figure needs 400: see
docs/benchmarks.md): seats rotated over one wall, placements and sums consistent,
split runs merged."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from server.external.channel import SyncChannel
from server.external.seat import MjaiBot
from tests.bench.modules import bench_module

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "tests" / "external" / "tsumogiri_mjai.py"
TSUMOGIRI = f"{sys.executable} {BOT}"


arena = bench_module("arena")


def _theirs(seat: int) -> MjaiBot:
    return MjaiBot(SyncChannel(TSUMOGIRI, "array", 10.0), seat, "tsumogiri-mjai")


def test_seats_rotate_over_one_wall_and_placements_add_up() -> None:
    res = arena.run_arena("efficient", _theirs, 2, seed="plumbing", theirs_name="tsumogiri-mjai")
    assert res.games == 2
    assert res.seats == [[0, 2], [1, 3]]  # the same wall, the sides swapped
    for ranks in res.placements:
        assert sorted(ranks) == [1, 2, 3, 4]
    ours, theirs = res.side_means(True), res.side_means(False)
    for g in range(2):
        mine = [res.placements[g][s] for s in res.seats[g]]
        assert ours[g] == sum(mine) / 2
        assert ours[g] + theirs[g] == 5  # ranks 1..4 sum to 10 over two seats each
    s = res.summary()
    assert s["ours_placement"] == pytest.approx(sum(ours) / 2, abs=1e-3)
    assert s["ours_placement"] + s["theirs_placement"] == pytest.approx(5)
    assert s["ours_ci95"] >= 0 and s["ours_ci95"] == s["theirs_ci95"]
    assert s["ours_ms_per_decision"]["decisions"] == len(res.decision_times) > 100
    assert res.their_decisions > 100 and s["theirs_replaced"] == 0


def test_split_runs_merge_into_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    common = ["--ours", "efficient", "--theirs", TSUMOGIRI, "--seed", "split", "--every", "0"]
    assert arena.main([*common, "--games", "1", "--out", str(a), "--json"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert arena.main([*common, "--games", "1", "--start", "1", "--out", str(b)]) == 0
    assert "average placement" in capsys.readouterr().out
    assert arena.main(["--merge", str(a), str(b), "--ours", "efficient", "--json"]) == 0
    merged = json.loads(capsys.readouterr().out)
    assert merged["games"] == 2 and one["games"] == 1
    games = [json.loads(x) for x in a.read_text().splitlines() + b.read_text().splitlines()]
    assert [g["ours_at"] for g in games] == [[0, 2], [1, 3]]
    mean = sum(sum(g["ranks"][s] for s in g["ours_at"]) / 2 for g in games) / 2
    assert merged["ours_placement"] == pytest.approx(mean, abs=1e-3)
    with pytest.raises(SystemExit, match="twice"):
        arena.main(["--merge", str(a), str(a)])
