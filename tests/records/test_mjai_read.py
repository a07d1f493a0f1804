"""mjai reader: every export of ours reads back and replays; draw types; clear errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from server.engine.riichi.rules import preset
from server.records.importer import record_events
from server.records.mjai import dumps_mjai, export_mjai
from server.records.mjai_read import looks_like_mjai, mjai_tile, read_mjai
from server.records.model import DrawType, RecordError, StepType
from server.records.verify import rules_for, verify_game
from tests.records.test_import import MJLOGS, TENHOU6, bot_game, imported, log_params


def _roundtrip(lines: list[dict[str, Any]], source: str) -> None:
    game = read_mjai(dumps_mjai(lines), source)
    report = verify_game(game, rules_for(game))
    bad = [(r.label, r.diffs) for r in report.rounds if not r.ok]
    assert not bad, bad
    assert report.matched == len(game.rounds) == sum(e["type"] == "end_kyoku" for e in lines)


# The hand-picked special cases (chankan, double ron, suukantsu, kyuushu, four riichi,
# rinshan, confusing calls) and two whole mjlog hanchan; every mjlog would add seconds.
ROUNDTRIP = log_params(TENHOU6 + MJLOGS[:2])


@pytest.mark.parametrize("path", ROUNDTRIP)
def test_fixture_logs_read_back_from_their_mjai_export(path: Path) -> None:
    """Tenhou logs -> engine -> mjai -> reader -> verifier: every round matches again."""
    g = imported(path)
    _roundtrip(export_mjai(g.events, g.players), path.name)


def test_a_bot_game_reads_back_with_final_scores() -> None:
    record, state = bot_game()
    lines = export_mjai(record_events(record), record.players)
    game = read_mjai(lines)
    assert game.players == tuple(lines[0]["names"])
    # seats are rotated so that the first dealer is seat 0
    assert game.final_scores == tuple(state.scores[(p + 2) % 4] for p in range(4))
    report = verify_game(game, preset("standard"))  # the rules the bots played
    assert all(r.ok for r in report.rounds), [r.diffs for r in report.rounds if not r.ok]


def test_steps_rinshan_riichi_and_indicators() -> None:
    lines = [
        {"type": "start_game", "names": ["a", "b", "c", "d"]},
        {
            "type": "start_kyoku",
            "bakaze": "S",
            "kyoku": 2,
            "honba": 1,
            "kyotaku": 2,
            "oya": 1,
            "scores": [25000, 24000, 26000, 23000],
            "dora_marker": "5sr",
            "tehais": [["1m"] * 4 + ["2m"] * 4 + ["3m"] * 4 + ["E"]] * 4,
        },
        {"type": "tsumo", "actor": 1, "pai": "P"},
        {"type": "ankan", "actor": 1, "consumed": ["1m", "1m", "1m", "1m"]},
        {"type": "dora", "dora_marker": "9p"},
        {"type": "tsumo", "actor": 1, "pai": "F"},
        {"type": "reach", "actor": 1},
        {"type": "dahai", "actor": 1, "pai": "F", "tsumogiri": True},
        {"type": "reach_accepted", "actor": 1},
        {"type": "pon", "actor": 3, "target": 1, "pai": "F", "consumed": ["F", "F"]},
        {"type": "dahai", "actor": 3, "pai": "C", "tsumogiri": False},
        {"type": "hora", "actor": 1, "target": 3, "deltas": [0, 9000, 0, -8000],
         "ura_markers": ["N", "7s"]},
        {"type": "end_kyoku"},
        {"type": "end_game", "scores": [25000, 33000, 26000, 15000]},
    ]  # fmt: skip
    g = read_mjai(lines, "t")
    r = g.rounds[0]
    assert (r.round_wind, r.dealer, r.honba, r.riichi_sticks, r.label) == (1, 1, 1, 2, "S2-1")
    assert g.red_fives == 3 and g.players == ("a", "b", "c", "d")
    assert [s.type for s in r.steps] == [
        StepType.DRAW,
        StepType.ANKAN,
        StepType.DORA,
        StepType.DRAW,
        StepType.DISCARD,
        StepType.PON,
        StepType.DISCARD,
    ]
    assert [s.rinshan for s in r.steps if s.type is StepType.DRAW] == [False, True]
    assert [s.riichi for s in r.steps if s.type is StepType.DISCARD] == [True, False]
    pon = r.steps[5]
    assert (pon.seat, pon.from_seat, pon.tile, pon.tiles) == (3, 1, 32, (32, 32))
    assert r.dora_indicators == [mjai_tile("5sr", ""), mjai_tile("9p", "")]
    assert r.ura_indicators == [30, 24]  # the log's order
    assert [(w.who, w.from_who, w.deltas) for w in r.wins] == [(1, 3, (0, 9000, 0, -8000))]
    assert g.final_scores == (25000, 33000, 26000, 15000)


def _draw_round(steps: list[dict[str, Any]], ryukyoku: dict[str, Any]) -> DrawType:
    hand = ["1m", "9m", "1p", "9p", "1s", "9s", "E", "S", "W", "N", "P", "F", "C"]
    lines = [
        {"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0,
         "scores": [25000] * 4, "dora_marker": "1m", "tehais": [hand] * 4},
        *steps,
        {"type": "ryukyoku", **ryukyoku},
    ]  # fmt: skip
    draw = read_mjai(lines).rounds[0].draw
    assert draw is not None
    return draw.type


def _go_around(n: int, tile: str = "E") -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for i in range(n):
        out += [
            {"type": "tsumo", "actor": i % 4, "pai": "2m"},
            {"type": "dahai", "actor": i % 4, "pai": tile, "tsumogiri": False},
        ]
    return out


def test_draw_reasons_are_read_or_inferred() -> None:
    zero = {"deltas": [0, 0, 0, 0]}
    assert _draw_round([], {"reason": "exhaustive_draw", **zero}) is DrawType.EXHAUSTIVE
    mangan = {"deltas": [12000, -4000, -4000, -4000]}
    assert _draw_round([], {"reason": "exhaustive_draw", **mangan}) is DrawType.NAGASHI_MANGAN
    assert _draw_round([], {"reason": "sufuurenta", **zero}) is DrawType.SUUFON_RENDA
    assert _draw_round([], {"reason": "suukansansen", **zero}) is DrawType.SUUKAN_SANRA
    assert _draw_round([], {"reason": "sanchaho", **zero}) is DrawType.SANCHAHOU
    # no reason: read from the round
    kyuushu = [{"type": "tsumo", "actor": 0, "pai": "2m"}]
    assert _draw_round(kyuushu, zero) is DrawType.KYUUSHU
    assert _draw_round(_go_around(4), zero) is DrawType.SUUFON_RENDA
    assert _draw_round(_go_around(3) + _go_around(1, "S"), zero) is DrawType.SANCHAHOU
    riichi = []
    for i in range(4):
        riichi += [
            {"type": "tsumo", "actor": i, "pai": "2m"},
            {"type": "reach", "actor": i},
            {"type": "dahai", "actor": i, "pai": "3m", "tsumogiri": False},
            {"type": "reach_accepted", "actor": i},
        ]
    assert _draw_round(riichi, zero) is DrawType.SUUCHA_RIICHI
    exhausted = _go_around(70, "2m")
    assert _draw_round(exhausted, {"deltas": [3000, -1000, -1000, -1000]}) is DrawType.EXHAUSTIVE
    assert _draw_round(exhausted, mangan) is DrawType.NAGASHI_MANGAN
    with pytest.raises(RecordError, match="unknown draw reason 'nine_gates'"):
        _draw_round([], {"reason": "nine_gates"})


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"{not json", "line 1 is not JSON"),
        (b'{"type": "tsumo", "actor": 0, "pai": "1m"}', "outside a round"),
        (b"[1, 2]", "event 1 is not an object with a type"),
        (b'{"type": "start_game"}', "no round in the log"),
        (
            b'{"type":"start_kyoku","bakaze":"E","kyoku":1,"honba":0,"kyotaku":0,"oya":0,'
            b'"scores":[25000,25000,25000,25000],"dora_marker":"0m","tehais":[]}',
            "'0m' is not an mjai tile",
        ),
        (
            b'{"type":"start_kyoku","bakaze":"E","kyoku":1,"honba":0,"kyotaku":0,"oya":0,'
            b'"scores":[25000,25000,25000,25000],"dora_marker":"1m",'
            b'"tehais":[["?","?","?","?","?","?","?","?","?","?","?","?","?"],[],[],[]]}',
            "hidden tile; a full log is needed",
        ),
        (
            b'{"type":"start_kyoku","bakaze":"X","kyoku":1,"honba":0,"kyotaku":0,"oya":0}',
            "bakaze must be one of E S W N",
        ),
    ],
)
def test_bad_logs_are_refused_with_the_event_named(data: bytes, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        read_mjai(data, "upload.jsonl")


def test_looks_like_mjai() -> None:
    record, _ = bot_game()
    text = dumps_mjai(export_mjai(record_events(record), record.players))
    assert looks_like_mjai(text.encode())
    assert not looks_like_mjai(b"<mjloggm ver=")
    assert not looks_like_mjai(json.dumps({"title": [], "log": []}).encode())
