"""Three-player (sanma) records: every real sanma log replays, imports, exports and comes back.

The fixtures are real games (tests/fixtures/tenhou-sanma, tests/fixtures/majsoul-sanma;
docs/sanma-research.md lists what each shows). The rule ids (S1 ...) are docs/rules.md's.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest

from server.bots import make_bot
from server.bots.selfplay import Checks, play_game
from server.engine import find_variant
from server.engine.riichi import GameState
from server.engine.riichi.rules import preset
from server.engine.tiles import parse_tile
from server.records.export_tenhou6 import export_tenhou6, rule_json, tenhou_score
from server.records.importer import ImportedGame, import_log, record_events
from server.records.load import parse_log
from server.records.mjai import export_mjai
from server.records.model import RecordError, StepType
from server.records.record import GameRecord
from server.records.verify import verify_game
from tests.records.test_mjai import MjaiReplay
from tests.records.test_mjlog import INIT
from tests.records.test_mjlog import xml as four_player_mjlog

FIXTURES = Path(__file__).parents[1] / "fixtures"
TENHOU_MJLOG = FIXTURES / "tenhou-sanma" / "2014091101gm-00b9-0000-5ca6b487.mjlog"
TENHOU_JSON = FIXTURES / "tenhou-sanma" / "2021010217gm-00b9-0000-3eb2e915.json"
MAJSOUL = FIXTURES / "majsoul-sanma"

# every real sanma log and its rounds (all of them finished)
ROUNDS = {
    TENHOU_MJLOG.name: 11,
    TENHOU_JSON.name: 12,
    "chankan.json": 3,
    "kan3_nuki_rinshan.json": 9,
    "kokushi13_withnuki.json": 6,
    "kokushi_ankan.json": 1,
    "kokushi_peinuki.json": 4,
    "nukidora_doubleron.json": 5,
}
LOGS = [TENHOU_MJLOG, TENHOU_JSON, *sorted(MAJSOUL.glob("*.json"))]
PARAMS = [pytest.param(p, id=p.name) for p in LOGS]


@functools.cache
def imported(path: Path) -> ImportedGame:
    return import_log(path.read_bytes(), str(path))


def test_the_fixture_list_is_complete() -> None:
    assert sorted(p.name for p in LOGS) == sorted(ROUNDS)
    assert sum(ROUNDS.values()) == 51


@pytest.mark.parametrize("path", PARAMS)
def test_every_round_of_every_sanma_log_replays_with_the_logged_results(path: Path) -> None:
    game = parse_log(path.read_bytes(), str(path))
    assert game.seats == 3 and len(game.players) == 3
    assert game.preset == (None if "tenhou" in str(path) else "majsoul-sanma")
    report = verify_game(game)
    assert [(r.label, r.diffs) for r in report.rounds if not r.ok] == []
    assert report.matched == len(report.rounds) == ROUNDS[path.name]


@pytest.mark.parametrize("path", PARAMS)
def test_every_sanma_log_imports_with_its_final_standings(path: Path) -> None:
    game = imported(path)
    logged = parse_log(path.read_bytes(), str(path))
    assert game.rules.seats == 3
    assert game.rules.name == ("tenhou-sanma" if "tenhou" in str(path) else "majsoul-sanma")
    assert len(game.results) == ROUNDS[path.name]
    assert game.final is not None and logged.final_scores is not None
    assert tuple(f["points"] for f in game.final) == logged.final_scores
    if path.suffix == ".json":
        sc = json.loads(path.read_text("utf-8"))["sc"]
        results = [f["score"] for f in game.final]
        if game.rules.name == "majsoul-sanma":
            # S21a/b: (points - 35000) / 1000 + 15/0/-15, one decimal, no oka
            assert results == [sc[1], sc[3], sc[5]]
        else:
            # S21a/b/d: +20/0/-20 and the oka, rounded as Tenhou writes sc
            ranks = [f["rank"] for f in game.final]
            assert tenhou_score(results, ranks) == [sc[1], sc[3], sc[5]]


def test_tenhou_final_points_of_the_mjlog() -> None:
    """S21a/b/d: owari="592,54.0,228,-37.0,230,-17.0" (Tenhou rounded to thousands)."""
    game = imported(TENHOU_MJLOG)
    assert game.final is not None
    assert [f["points"] for f in game.final] == [59200, 22800, 23000]
    assert [f["score"] for f in game.final] == [54.2, -37.2, -17.0]  # R26: one decimal
    assert tenhou_score([54.2, -37.2, -17.0], [1, 3, 2]) == [54, -37, -17]


@pytest.mark.parametrize("path", PARAMS)
def test_tenhou6_export_imports_back_to_the_same_game(path: Path) -> None:
    game = imported(path)
    doc = export_tenhou6(game.events, game.players)
    assert doc["rule"]["disp"].startswith("三") and doc["name"][3] == ""
    assert len(doc["sc"]) == 8 and doc["sc"][6:] == [0, 0]
    for rd in doc["log"]:
        assert rd[1][3] == 0 and rd[13:16] == [[], [], []]
    back = import_log(json.dumps(doc, ensure_ascii=False).encode(), "back.json")
    assert back.rules == game.rules
    assert back.events == game.events
    assert back.digest == game.digest
    assert back.final == game.final


def test_tenhou6_export_of_a_real_tenhou_log_is_the_log_itself() -> None:
    """Tenhou's own file comes back field for field: hands, calls by four-seat geometry,
    "f44" with its replacement draw, pulled norths inside ドラ, results and sc."""
    orig = json.loads(TENHOU_JSON.read_text("utf-8"))
    game = imported(TENHOU_JSON)
    doc = export_tenhou6(game.events, game.players)
    assert doc["log"] == orig["log"]
    assert doc["name"] == orig["name"]
    assert doc["sc"] == orig["sc"]
    assert doc["rule"] == {"disp": "三般南喰赤", "aka": 1, "aka51": 1, "aka52": 1, "aka53": 1}


@pytest.mark.parametrize("path", PARAMS)
def test_mjai_export_is_the_mortal_family_sanma_dialect(path: Path) -> None:
    game = imported(path)
    lines = export_mjai(game.events, game.players)
    MjaiReplay(lines).run()
    assert lines[0]["names"][3] == ""
    starts = [e for e in lines if e["type"] == "start_kyoku"]
    assert len(starts) == ROUNDS[path.name]
    for e in starts:
        assert len(e["scores"]) == 4 and e["scores"][3] == 0
        assert e["tehais"][3] == ["?"] * 13 and e["kyoku"] in (1, 2, 3)
    for e in lines:
        if e["type"] in ("hora", "ryukyoku"):
            assert len(e["deltas"]) == 4 and e["deltas"][3] == 0
        assert e.get("actor", 0) < 3
    nukis = [e for e in lines if e["type"] == "nukidora"]
    assert len(nukis) == sum(e["type"] == "nuki" for e in game.events) > 0
    assert all(e["pai"] == "N" for e in nukis)
    for i, e in enumerate(lines):
        if e["type"] == "nukidora":
            nxt = lines[i + 1]
            # the replacement draw, or a ron on the north (S12e)
            assert (nxt["type"], nxt["actor"]) == ("tsumo", e["actor"]) or nxt["type"] == "hora"


def test_mjlog_sanma_header_north_pulls_and_four_seat_call_offsets() -> None:
    g = parse_log(TENHOU_MJLOG.read_bytes(), "t.mjlog")
    assert (g.seats, g.players, g.red_fives) == (3, ("Emurated", "あさぴん＠ｍｊ", "神速★.com"), 2)
    assert g.rounds[0].scores == (35000, 35000, 35000)
    steps = [s for r in g.rounds for s in r.steps]
    pulls = [i for i, s in enumerate(steps) if s.type is StepType.NUKI]
    assert len(pulls) == 24  # 24 <N m=...|0x20> elements (4 more codes only in AGARI m=)
    for i in pulls:  # each pull is followed by the same seat's replacement draw (or another pull)
        nxt = steps[i + 1]
        assert nxt.seat == steps[i].seat and nxt.tile is not None
        assert nxt.type is StepType.NUKI or (nxt.type is StepType.DRAW and nxt.rinshan)
    assert all(steps[i].tile == parse_tile("4z") for i in pulls)
    calls = [(s.type, s.seat, s.from_seat) for s in steps if s.from_seat is not None]
    # who=2 m=26883 (m & 3 = 3: kamicha across the empty seat 3 is seat 1), who=0 m=47657
    # (m & 3 = 1: seat 1), who=1 m=50219 (m & 3 = 3: seat 0)
    assert (StepType.DAIMINKAN, 2, 1) in calls
    assert (StepType.PON, 0, 1) in calls and (StepType.PON, 1, 0) in calls
    assert all(s.type is not StepType.CHI for s in steps)


def test_tenhou6_f44_is_a_north_pull_with_its_replacement_draw() -> None:
    g = parse_log(TENHOU_JSON.read_bytes(), "t.json")
    first = g.rounds[0].steps
    # the dealer draws 5z, pulls a north, draws 1m as the replacement, discards 9m
    assert [(s.type.value, s.seat, s.rinshan) for s in first[:4]] == [
        ("draw", 0, False),
        ("nuki", 0, False),
        ("draw", 0, True),
        ("discard", 0, False),
    ]
    assert sum(s.type is StepType.NUKI for r in g.rounds for s in r.steps) == 30


def _mjlog(body: str) -> bytes:
    init = (
        '<INIT seed="0,0,0,3,4,0" ten="350,350,350,0" oya="0" '
        'hai0="0,1,2,3,32,33,34,35,36,37,38,39,40" hai1="41,42,43,44,45,46,47,48,49,50,51,52,53" '
        'hai2="54,55,56,57,58,59,60,61,62,63,64,65,66" hai3=""/>'
    )
    return (
        '<mjloggm ver="2.3"><GO type="185" lobby="0"/><UN n0="a" n1="b" n2="c" n3=""/>'
        + init
        + body
        + "</mjloggm>"
    ).encode()


def _t6(**change: Any) -> bytes:
    rd: list[Any] = [
        [0, 0, 0],
        [35000, 35000, 35000, 0],
        [11],
        [],
        [19, 19, 19, 21, 22, 23, 24, 25, 26, 27, 28, 29, 41],
        [41],
        [],
        [31, 32, 33, 34, 35, 36, 37, 38, 39, 31, 32, 33, 34],
        [],
        [],
        [21, 22, 23, 24, 25, 26, 27, 28, 29, 42, 42, 42, 43],
        [],
        [],
        [],
        [],
        [],
        ["和了", [32000, -16000, -16000, 0], [0, 0, 0, "役満16000点∀", "天和(役満)"]],
    ]
    for k, v in change.items():
        rd[int(k[1:])] = v
    d = {"name": ["a", "b", "c", ""], "rule": {"disp": "三鳳南喰赤", "aka": 1}, "log": [rd]}
    return json.dumps(d, ensure_ascii=False).encode()


def test_the_small_documents_used_below_parse() -> None:
    assert parse_log(_mjlog("<T67/><D67/>")).seats == 3
    g = parse_log(_t6())
    assert (g.seats, g.rounds[0].wins[0].points) == (3, 32000)  # a dealer tsumo: 2 payers


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (four_player_mjlog(INIT + '<T16/><N who="0" m="30752"/>'), "three-player only"),
        (_mjlog('<T67/><N who="0" m="29728"/>'), "not a north"),  # (116 << 8) | 0x20: a west
        (_mjlog("<T10/>"), "2m-8m, not in three-player"),
        (_mjlog("<W67/>"), "a draw by seat 3"),
        # seat 0 pons from "kamicha" (m & 3 = 3): the empty seat 3
        (_mjlog('<T67/><D67/><N who="0" m="47659"/>'), "a call from the empty seat 3"),
        (
            _mjlog('<T67/><D67/><RYUUKYOKU ba="0,0" sc="350,0,350,0,350,0,0,10"/>'),
            "empty fourth seat",
        ),
        (_t6(f6=[21], f8=["c212223"]), "no chi in three-player"),
        (_t6(f13=[11] * 13), "points or tiles for a fourth seat"),
        (_t6(f4=[12] * 13), "2m-8m, not in three-player"),
        (
            _t6(f16=["和了", [32000, -16000, -16000, 10], [0, 0, 0, "役満16000点∀", "天和(役満)"]]),
            "pay the empty fourth seat",
        ),
    ],
)
def test_bad_sanma_logs_say_what_is_wrong(data: bytes, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        parse_log(data, "x")


def test_our_export_with_four_player_rules_on_a_sanma_log_is_refused() -> None:
    game = imported(TENHOU_JSON)
    doc = export_tenhou6(game.events, game.players)
    doc["jantaku"]["rules"] = preset("tenhou").to_dict()
    with pytest.raises(RecordError, match="for 4 players, the log has 3"):
        import_log(json.dumps(doc, ensure_ascii=False).encode(), "x.json")


def test_majsoul_dealer_chooses_to_play_on_after_an_all_last_win() -> None:
    """S21c: Mahjong Soul's all-last dealer in first place chooses whether the game ends:
    MS-chankan stops after East 3, MS-kokushi13 plays East 3-1 and 3-2. The engine's
    ``agari_yame`` ends it; the verifier accepts a Mahjong Soul log that plays on."""
    for name in ("chankan.json", "kokushi13_withnuki.json"):
        game = parse_log((MAJSOUL / name).read_bytes(), name)
        assert verify_game(game).matched == ROUNDS[name]
    game = parse_log((MAJSOUL / "kokushi13_withnuki.json").read_bytes(), "k.json")
    strict = preset("majsoul-sanma").with_overrides(name="strict", length="tonpuu")
    diffs = {r.label: r.diffs for r in verify_game(game, strict).rounds if not r.ok}
    assert diffs == {
        "E3-0": ["next round: log E3-1, engine game end"],
        "E3-1": ["next round: log E3-2, engine game end"],
    }


def test_majsoul_game_ending_win_without_its_sticks_is_accepted_only_there() -> None:
    """MS-kokushi's last win: deltas [-48000, 0, 48000] while the engine's are [.., 49000]
    (the riichi stick); the final 94000 holds it. Accepted in a Mahjong Soul log's last
    round only; the imported events keep the engine's deltas."""
    path = MAJSOUL / "kokushi_peinuki.json"
    game = imported(path)
    last = game.results[-1]
    assert last.wins[0].deltas == (-48000, 0, 49000)
    assert game.final is not None and game.final[2]["points"] == 94000
    logged = parse_log(path.read_bytes(), "k.json")
    strict = preset("majsoul-sanma").with_overrides(name="strict", length="tonpuu")
    bad = [r for r in verify_game(logged, strict).rounds if not r.ok]
    assert [(r.label, r.diffs) for r in bad] == [
        ("E3-0", ["seat 2 deltas: log [-48000, 0, 48000], engine [-48000, 0, 49000]"])
    ]


@functools.cache
def bot_sanma_game(name: str = "tenhou-sanma") -> tuple[GameRecord, GameState]:
    bots = [make_bot("efficient", 70 + s) for s in range(3)]
    state, stats = play_game(preset(name), b"sanma-records", bots, Checks.none(), first_dealer=1)
    assert not stats.failures and state.phase == "game_end"
    return GameRecord.from_state(find_variant("sanma"), state, ["ann", "bob", "cy"]), state


@pytest.mark.parametrize("name", ["tenhou-sanma", "majsoul-sanma"])
def test_a_bot_sanma_game_exports_to_both_formats_and_imports_back(name: str) -> None:
    record, state = bot_sanma_game(name)
    # our own record format stores the variant (version 2) and replays to the same game
    again = GameRecord.loads(record.dumps())
    assert again.variant.key == "sanma" and again.rules == state.rules
    events = record_events(again)
    assert sum(e["type"] == "nuki" for e in events) > 0
    doc = export_tenhou6(events, record.players)
    # seat 1 dealt first: Tenhou's seat 0 is our seat 1
    assert doc["name"] == ["bob", "cy", "ann", ""]
    assert doc["rule"] == rule_json(state.rules.to_dict())
    back = import_log(json.dumps(doc, ensure_ascii=False).encode(), "bot.json")
    assert back.rules == state.rules
    assert len(back.results) == len(state.round_results)
    assert [r.deltas for r in back.results] == [
        tuple(r.deltas[(p + 1) % 3] for p in range(3)) for r in state.round_results
    ]
    assert back.final is not None and state.final is not None
    assert [f["points"] for f in back.final] == [state.final[(p + 1) % 3].points for p in range(3)]
    lines = export_mjai(events, record.players)
    MjaiReplay(lines).run()
    assert lines[-1]["scores"] == [*(state.scores[(p + 1) % 3] for p in range(3)), 0]


def test_cli_verifies_imports_and_exports_sanma_logs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from sqlalchemy import create_engine, text

    from server.cli import main
    from server.settings import get_settings

    files = [str(p) for p in LOGS]
    assert main(["log", "verify", *files]) == 0
    assert capsys.readouterr().out == "51 rounds, 51 match\n"
    db = tmp_path / "serve.db"
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{db}")
    monkeypatch.chdir(tmp_path)
    get_settings.cache_clear()
    try:
        assert main(["log", "import", str(TENHOU_MJLOG), str(TENHOU_JSON)]) == 0
        out = capsys.readouterr().out
        assert "imported as game 1 (11 rounds)" in out and "imported as game 2 (12 rounds)" in out
        with create_engine(f"sqlite:///{db}").connect() as c:
            seats = c.execute(
                text("SELECT seat, name, final_points FROM game_seats WHERE game_id = 2")
            ).all()
        assert [tuple(r) for r in seats] == [
            (0, "しめじん", 31900),
            (1, "TiccyWu", 47200),
            (2, "長光麻夜", 25900),
        ]
        target = tmp_path / "game2.json"
        assert main(["log", "export", "2", "--format", "tenhou6", "-o", str(target)]) == 0
        doc = json.loads(target.read_text(encoding="utf-8"))
        assert doc["log"] == json.loads(TENHOU_JSON.read_text("utf-8"))["log"]
        assert doc["ref"] == "2021010217gm-00b9-0000-3eb2e915"
    finally:
        get_settings.cache_clear()
