"""``jantaku log verify``: one line per differing round, a summary, and the exit status."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.cli import main

FIXTURES = Path(__file__).parents[1] / "fixtures"
GOOD = FIXTURES / "mjx" / "mjlog" / "double-ron.mjlog"
BAD = FIXTURES / "mjai-reviewer" / "confusing_nakis_1.json"


def test_all_matching_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["log", "verify", str(GOOD), str(FIXTURES / "mjai-reviewer" / "rinshan.json")]) == 0
    out = capsys.readouterr().out
    assert out == "5 rounds, 5 match\n"


def test_a_differing_round_prints_one_line_and_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["log", "verify", str(GOOD), str(BAD)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        f"{BAD} E2-2: seat 0 deltas: log [1600, 0, -1600, 0], engine [2600, 0, -1600, 0]",
        "5 rounds, 4 match",
    ]


def test_quiet_prints_only_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["log", "verify", "-q", str(BAD)]) == 1
    assert capsys.readouterr().out == "1 rounds, 0 match\n"


def test_unreadable_file_is_named_and_fails(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    junk = tmp_path / "junk.json"
    junk.write_text('{"log": 5}')
    assert main(["log", "verify", str(junk), str(tmp_path / "missing.mjlog")]) == 1
    cap = capsys.readouterr()
    assert f"error: {junk}: field 'log' must be a non-empty list of rounds" in cap.err
    assert "missing.mjlog: cannot read" in cap.err
    assert cap.out == "0 rounds, 0 match; 2 file(s) could not be read\n"


def test_verify_needs_a_file(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["log", "verify"])
    assert exc.value.code == 2
    assert "FILE" in capsys.readouterr().err
