"""Importing Tenhou logs: every fixture replays through the engine, bad files get clear errors."""

from __future__ import annotations

import functools
import gzip
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from server.bots import make_bot
from server.bots.selfplay import Checks, play_game
from server.engine import riichi as engine
from server.engine.riichi.rules import preset
from server.engine.riichi.variant import RIICHI
from server.records.importer import (
    ImportedGame,
    LogImportError,
    import_log,
    record_events,
    tenhou_log_id,
)
from server.records.load import MAX_LOG_BYTES, parse_log
from server.records.model import RecordError
from server.records.record import GameRecord
from server.wire.riichi import standing_json

FIXTURES = Path(__file__).parents[1] / "fixtures"
MJLOGS = sorted((FIXTURES / "mjx" / "mjlog").glob("*.mjlog"))
TENHOU6 = sorted((FIXTURES / "mjai-reviewer").glob("*.json"))
# The same games as tenhou.net/6 JSON lines (one round per line, no game result).
MJSCORE = sorted((FIXTURES / "mjx" / "mjscore").glob("*.json"))

# Hand-made mjai-reviewer cases (written to test call parsing) whose results are not
# Tenhou's: a winner the deltas do not pay, and a win that leaves out a riichi stick.
INVALID = {"confusing_nakis_1.json", "confusing_nakis_2.json"}


def log_params(paths: list[Path]) -> list[object]:
    return [pytest.param(p, id=p.name) for p in paths if p.name not in INVALID]


ALL_LOGS = log_params(MJLOGS + TENHOU6)


@functools.cache
def imported(path: Path) -> ImportedGame:
    """One import per file for the whole session (the round-trip tests reuse them)."""
    return import_log(path.read_bytes(), str(path))


@functools.cache
def bot_game(first_dealer: int = 2) -> tuple[GameRecord, engine.GameState]:
    """A hanchan of four efficient bots on the standard rules (seat 2 deals first)."""
    rules = preset("standard")
    bots = [make_bot("efficient", 40 + s) for s in range(4)]
    state, stats = play_game(rules, b"history-test", bots, Checks.none(), first_dealer=first_dealer)
    assert not stats.failures
    assert state.phase == "game_end"
    return GameRecord.from_state(RIICHI, state, ["ann", "bob", "cy", "dee"]), state


def _types(game: ImportedGame) -> list[str]:
    return [e["type"] for e in game.events]


@pytest.mark.parametrize("path", ALL_LOGS)
def test_every_fixture_log_imports(path: Path) -> None:
    game = imported(path)
    logged = parse_log(path.read_bytes(), str(path))
    finished = [r for r in logged.rounds if r.wins or r.draw is not None]
    assert len(game.results) == len(finished)
    assert game.players == logged.players
    # One round_start per logged round; every finished one ends in the engine's own result.
    types = _types(game)
    assert types[0] == "game_start"
    assert types.count("round_start") == len(logged.rounds)
    assert types.count("agari") + types.count("ryuukyoku") == len(finished)
    for rr, lr in zip(game.results, finished, strict=True):
        assert rr.kind == ("agari" if lr.wins else "ryuukyoku")
        assert [w.seat for w in rr.wins] == [w.who for w in lr.wins]
        assert [list(w.deltas) for w in rr.wins] == [list(w.deltas) for w in lr.wins]
    if logged.final_scores is not None and game.final is not None:
        points = [f["points"] for f in sorted(game.final, key=lambda f: f["seat"])]
        assert tuple(points) == logged.final_scores
        assert types[-1] == "game_end"


@pytest.mark.parametrize("path", log_params(MJSCORE))
def test_tenhou6_copy_of_a_game_imports_to_the_same_events_as_its_mjlog(path: Path) -> None:
    mjlog = FIXTURES / "mjx" / "mjlog" / (path.stem + ".mjlog")
    a = import_log(path.read_bytes(), path.name)
    b = imported(mjlog)
    assert a.format == "tenhou6" and b.format == "mjlog"

    def play(g: ImportedGame) -> list[object]:
        return [e for e in g.events if e["type"] not in ("game_start", "game_end")]

    assert play(a) == play(b)
    assert a.digest == b.digest  # the same game, whatever the format
    assert [r.deltas for r in a.results] == [r.deltas for r in b.results]


def test_digests_tell_games_apart() -> None:
    digests = {imported(p).digest for p in MJLOGS[:6]}
    assert len(digests) == 6


def test_import_detects_the_format() -> None:
    assert imported(MJLOGS[0]).format == "mjlog"
    assert imported(FIXTURES / "mjai-reviewer" / "double_ron.json").format == "tenhou6"
    gz = gzip.compress(MJLOGS[0].read_bytes())
    g = import_log(gz, "x.mjlog.gz")
    assert g.format == "mjlog"
    assert g.events == imported(MJLOGS[0]).events


def test_tenhou_log_id_dates_the_game_in_japan_time() -> None:
    # 2010-08-17 09:00 JST is 00:00 UTC; the document's ref comes before the file name.
    got = tenhou_log_id(None, "logs/2010081709gm-00a9-0000-fe3371ad.mjlog")
    assert got == ("2010081709gm-00a9-0000-fe3371ad", datetime(2010, 8, 17, 0, tzinfo=UTC))
    got = tenhou_log_id("2019123100gm-00a9-0000-0123abcd", "2010081709gm-00a9-0000-fe3371ad.json")
    assert got == ("2019123100gm-00a9-0000-0123abcd", datetime(2019, 12, 30, 15, tzinfo=UTC))
    # Not a log id, no such hour, a time still to come: the next candidate or nothing.
    assert tenhou_log_id("double_ron.json", "upload") is None
    assert tenhou_log_id("2010133109gm-00a9-0000-fe3371ad") is None
    assert tenhou_log_id("2999010100gm-00a9-0000-fe3371ad") is None
    assert tenhou_log_id("2010023109gm-00a9-0000-aaaaaaaa x 2011010100gm-00a9-0000-bbbbbbbb") == (
        "2011010100gm-00a9-0000-bbbbbbbb",
        datetime(2010, 12, 31, 15, tzinfo=UTC),
    )


def test_import_takes_the_log_id_from_the_file_name_or_the_ref() -> None:
    g = imported(MJLOGS[0])
    assert MJLOGS[0].name.startswith("2010081709gm-")
    assert g.log_id == MJLOGS[0].stem
    assert g.played_at == datetime(2010, 8, 17, 0, tzinfo=UTC)
    doc = json.loads((FIXTURES / "mjai-reviewer" / "double_ron.json").read_bytes())
    assert imported(FIXTURES / "mjai-reviewer" / "double_ron.json").played_at is None
    doc["ref"] = "2021070112gm-00a9-0000-76543210"
    g = import_log(json.dumps(doc).encode(), "upload")
    assert (g.log_id, g.played_at) == (doc["ref"], datetime(2021, 7, 1, 3, tzinfo=UTC))


def test_import_keeps_double_ron_whole() -> None:
    g = imported(FIXTURES / "mjai-reviewer" / "double_ron.json")
    agari = [e["data"] for e in g.events if e["type"] == "agari"]
    assert len(agari) == 1
    winners = agari[0]["winners"]
    assert [(w["seat"], w["from_seat"]) for w in winners] == [(0, 3), (2, 3)]
    assert winners[0]["deltas"] == [13000, 0, 0, -12000]
    assert winners[1]["deltas"] == [0, 0, 2000, -2000]


def test_import_keeps_private_events_of_every_seat() -> None:
    g = imported(FIXTURES / "mjai-reviewer" / "rinshan.json")
    haipai = [e["data"]["seat"] for e in g.events if e["type"] == "haipai"]
    assert sorted(haipai) == [0, 1, 2, 3]
    draws = [e for e in g.events if e["type"] == "draw"]
    assert any(d["data"]["rinshan"] for d in draws)
    assert all(isinstance(d["data"]["tile"], str) for d in draws)


def test_truncated_round_is_imported_as_incomplete() -> None:
    g = imported(
        MJLOGS[[p.name for p in MJLOGS].index("2011020401gm-00a9-0000-f6eff225-no-round-end.mjlog")]
    )
    assert g.incomplete_rounds == 1
    assert g.final is None
    assert _types(g)[-1] not in ("agari", "ryuukyoku", "game_end")


def test_invalid_result_names_round_and_problem() -> None:
    path = FIXTURES / "mjai-reviewer" / "confusing_nakis_2.json"
    with pytest.raises(RecordError, match=r"round E1-0 win 1: details say seat 1 won from seat 0"):
        import_log(path.read_bytes(), path.name)


def test_log_missing_a_riichi_stick_is_refused() -> None:
    # Seat 2's riichi (r11) passed, so seat 0's ron collects its stick: Tenhou pays 2600.
    path = FIXTURES / "mjai-reviewer" / "confusing_nakis_1.json"
    with pytest.raises(
        LogImportError, match=r"round E2-2: seat 0 deltas: log \[1600, 0, -1600, 0\], engine \[2600"
    ):
        import_log(path.read_bytes(), path.name)


def test_tampered_result_is_refused_by_replay() -> None:
    doc = json.loads((FIXTURES / "mjai-reviewer" / "double_ron.json").read_bytes())
    res = doc["log"][0][16]
    res[1] = [14000, 0, 0, -13000]  # the first winner's deltas, 1000 too many
    res[2][3] = "跳満13000点"
    with pytest.raises(
        LogImportError, match=r"round S4-0: seat 0 deltas: log \[14000, 0, 0, -13000\]"
    ):
        import_log(json.dumps(doc, ensure_ascii=False).encode(), "tampered.json")


def test_tampered_discard_is_refused_naming_the_step() -> None:
    doc = json.loads((FIXTURES / "mjai-reviewer" / "double_ron.json").read_bytes())
    # seat 0's first discard: a tile it does not hold
    doc["log"][0][6][0] = 47
    with pytest.raises(RecordError, match=r"S4-0"):
        import_log(json.dumps(doc, ensure_ascii=False).encode(), "tampered.json")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "neither mjlog XML nor tenhou.net/6 JSON"),
        (b"hello world", "neither mjlog XML nor tenhou.net/6 JSON"),
        (b'{"log": [}', "not JSON"),
        (b'{"name": ["a","b","c","d"], "log": []}', "field 'log' must be a non-empty list"),
        (b'{"log": [[[0,0,0]]]}', "a round must be a list of 17 fields"),
        (b"<mjloggm ver", "not well-formed"),
        (b"\xff\xfe{", "neither mjlog XML nor tenhou.net/6 JSON"),
    ],
)
def test_not_a_log_gets_a_clear_error(data: bytes, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        import_log(data, "bad-file")


def test_oversized_file_is_refused() -> None:
    with pytest.raises(RecordError, match="larger than"):
        import_log(b" " * (MAX_LOG_BYTES + 1), "huge.json")


def test_record_events_rebuild_the_played_game() -> None:
    record, state = bot_game()
    events = record_events(record)
    types = [e["type"] for e in events]
    assert types[0] == "game_start" and types[-1] == "game_end"
    assert events[-1]["data"]["final"] == [standing_json(f) for f in state.final or ()]
    results = [e["data"] for e in events if e["type"] in ("agari", "ryuukyoku")]
    assert [r["scores"] for r in results] == [list(rr.scores) for rr in state.round_results]
    # A call keeps its meld type in the data while the event type stays "call".
    calls = [e for e in events if e["type"] == "call"]
    assert calls and all(e["data"]["meld"] in ("chi", "pon", "daiminkan") for e in calls)


def test_record_events_name_the_refused_action() -> None:
    record, _ = bot_game()
    actions = list(record.actions)
    actions[5] = actions[0]  # the dealer's first action again, out of turn by now
    bad = GameRecord(
        RIICHI, record.rules, record.seed, record.first_dealer, record.players, tuple(actions)
    )
    with pytest.raises(RecordError, match=r"actions\[5\]"):
        record_events(bad)


def test_cli_import_into_the_serve_database_then_export(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from server.cli import main
    from server.settings import get_settings

    db = tmp_path / "serve.db"
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{db}")
    monkeypatch.chdir(tmp_path)  # no stray .env from the working tree
    get_settings.cache_clear()
    try:
        good = FIXTURES / "mjai-reviewer" / "double_ron.json"
        bad = FIXTURES / "mjai-reviewer" / "confusing_nakis_2.json"
        assert main(["log", "import", str(good), str(bad), str(MJLOGS[0])]) == 1
        out, err = capsys.readouterr()
        assert f"{good}: imported as game 1 (1 rounds)" in out
        assert "imported as game 2" in out
        assert "round E1-0 win 1" in err
        assert main(["log", "import", str(good)]) == 0
        assert f"{good}: already imported as game 1" in capsys.readouterr().out
        target = tmp_path / "game1.json"
        assert main(["log", "export", "1", "--format", "tenhou6", "-o", str(target)]) == 0
        doc = json.loads(target.read_text(encoding="utf-8"))
        assert doc["log"] == json.loads(good.read_bytes())["log"]
        capsys.readouterr()
        assert main(["log", "export", "2", "--format", "mjai"]) == 0
        lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
        assert lines[0]["type"] == "start_game" and lines[-1]["type"] == "end_game"
        assert sum(e["type"] == "start_kyoku" for e in lines) == len(imported(MJLOGS[0]).results)
        assert main(["log", "export", "99"]) == 1
        assert "no game 99" in capsys.readouterr().err
    finally:
        get_settings.cache_clear()
