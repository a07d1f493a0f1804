"""``jantaku score``: JSON lines in, JSON lines out, going on after bad lines."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from typing import Any

from server.cli import main
from server.cli.score import MAX_LINE

GOOD = {"tiles": "123m456p789s23455s", "win": "4s", "riichi": True, "seat_wind": "S"}


def run_lines(lines: list[str], *argv: str) -> tuple[int, list[dict[str, Any]]]:
    stdin = io.StringIO("".join(line + "\n" for line in lines))
    stdout = io.StringIO()
    old_in, old_out = sys.stdin, sys.stdout
    sys.stdin, sys.stdout = stdin, stdout
    try:
        rc = main(["score", *argv])
    finally:
        sys.stdin, sys.stdout = old_in, old_out
    return rc, [json.loads(x) for x in stdout.getvalue().splitlines()]


def test_one_answer_per_line_and_it_goes_on_after_bad_lines() -> None:
    rc, out = run_lines(
        [
            json.dumps(GOOD),
            "this is not json",
            "",
            json.dumps({"tiles": "123m456p789s23456s", "win": "6s"}),
            json.dumps({**GOOD, "honba": "two"}),
            "x" * (MAX_LINE + 1),
            json.dumps({**GOOD, "tsumo": True}),
        ]
    )
    assert rc == 1  # some lines were bad input
    assert len(out) == 6  # the blank line is skipped
    assert out[0]["yaku"] == [{"id": "riichi", "han": 1}, {"id": "pinfu", "han": 1}]
    assert out[0]["payments"] == {"ron": 2000}
    assert out[1]["error"]["code"] == "bad_input"
    assert out[2]["error"]["code"] == "not_agari"
    assert out[3]["error"]["field"] == "honba"
    assert out[4]["error"]["code"] == "bad_input"
    assert out[5]["payments"] == {"tsumo_dealer": 1300, "tsumo_nondealer": 700}


def test_exit_status_zero_when_no_line_is_bad_input() -> None:
    rc, out = run_lines([json.dumps(GOOD), json.dumps({"tiles": "123m456p789s234s55s"})])
    assert rc == 0
    assert out[1]["error"]["code"] == "no_yaku"


def test_rules_option_sets_the_default_preset() -> None:
    kokushi = json.dumps({"tiles": "119m19p19s1234567z", "win": "1m", "seat_wind": "S"})
    _, std = run_lines([kokushi])
    _, ten = run_lines([kokushi], "--rules", "tenhou")
    assert std[0]["payments"] == {"ron": 64000}
    assert ten[0]["payments"] == {"ron": 32000}


def test_the_installed_command_streams_over_a_pipe() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "server", "score"],
        input=json.dumps(GOOD) + "\n{bad\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    lines = [json.loads(x) for x in proc.stdout.splitlines()]
    assert proc.returncode == 1
    assert lines[0]["total"] == 2000
    assert lines[1]["error"]["code"] == "bad_input"
