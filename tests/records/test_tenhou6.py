"""tenhou.net/6 JSON parsing: tile codes, call strings, order of play, results, errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from server.engine.tiles import parse_tile, parse_tiles
from server.records.load import load_log, parse_log
from server.records.model import DrawType, RecordError, Step, StepType
from server.records.tenhou6 import parse_tenhou6, round_codes, tile_of_code

FIXTURES = Path(__file__).parents[1] / "fixtures"
PAIRED = sorted((FIXTURES / "mjx" / "mjscore").glob("*.json"))  # 31 games also in mjlog


def tiles(s: str) -> tuple[int, ...]:
    return tuple(parse_tiles(s))


def test_tile_codes_round_trip() -> None:
    assert tile_of_code(11, "x") == parse_tile("1m")
    assert tile_of_code(29, "x") == parse_tile("9p")
    assert tile_of_code(47, "x") == parse_tile("7z")
    assert tile_of_code(52, "x") == parse_tile("0p")
    every = list(range(37))
    assert [tile_of_code(c, "x") for c in round_codes(every)] == every
    for bad in (10, 20, 48, 54, 60, "11", None):
        with pytest.raises(RecordError):
            tile_of_code(bad, "x")


def base_round(**override: Any) -> list[Any]:
    """A short legal round: the dealer draws and declares tsumo at once (tenhou)."""
    rd: list[Any] = [
        [0, 0, 0],
        [25000, 25000, 25000, 25000],
        [11],
        [],
        [12, 12, 12, 13, 13, 13, 14, 14, 14, 15, 16, 17, 18],
        [18],
        [],
        [21, 22, 23, 24, 25, 26, 27, 28, 29, 21, 22, 23, 24],
        [],
        [],
        [31, 32, 33, 34, 35, 36, 37, 38, 39, 31, 32, 33, 34],
        [],
        [],
        [41, 42, 43, 44, 45, 46, 47, 41, 42, 43, 44, 45, 46],
        [],
        [],
        ["和了", [48000, -16000, -16000, -16000], [0, 0, 0, "役満16000点∀", "天和(役満)"]],
    ]
    for k, v in override.items():
        rd[int(k[1:])] = v
    return rd


def doc(*rounds: list[Any], **extra: Any) -> bytes:
    d = {"title": ["", ""], "name": ["a", "b", "c", "d"], "rule": {"disp": "般南喰赤", "aka": 1}}
    d.update(extra)
    d["log"] = list(rounds)
    return json.dumps(d, ensure_ascii=False).encode()


def test_yakuman_tsumo_result() -> None:
    g = parse_tenhou6(doc(base_round()))
    r = g.rounds[0]
    assert r.steps == [Step(StepType.DRAW, 0, parse_tile("8m"))]
    (w,) = r.wins
    assert w.tsumo and w.yakuman == (("tenhou", 1),) and w.han is None
    assert w.points == 48000 and w.limit == "yakuman" and w.pao is None


def test_calls_daiminkan_riichi_and_tsumogiri_in_play_order() -> None:
    rd = base_round(
        f5=[18, 19],
        f6=[45, "r60"],  # discard 5z; later riichi with the drawn 9m (60 = tsumogiri)
        f8=["p454545", 33],  # seat 1 pons the dealer's 5z (p first: from kamicha)
        f9=[21, 60],
        f11=[34],
        f12=[60],
        f14=["m34343434", 41],  # seat 3 daiminkans seat 2's 4s, then the rinshan draw
        f15=[0, 41],  # 0: the daiminkan took this turn's discard slot
        f16=["流局", [0, 0, 0, 0]],
    )
    steps = parse_tenhou6(doc(rd)).rounds[0].steps
    t = parse_tile
    assert steps == [
        Step(StepType.DRAW, 0, t("8m")),
        Step(StepType.DISCARD, 0, t("5z")),
        Step(StepType.PON, 1, t("5z"), tiles("55z"), from_seat=0),
        Step(StepType.DISCARD, 1, t("1p")),
        Step(StepType.DRAW, 2, t("4s")),
        Step(StepType.DISCARD, 2, t("4s")),
        Step(StepType.DAIMINKAN, 3, t("4s"), tiles("444s"), from_seat=2),
        Step(StepType.DRAW, 3, t("1z"), rinshan=True),
        Step(StepType.DISCARD, 3, t("1z")),
        Step(StepType.DRAW, 0, t("9m")),
        Step(StepType.DISCARD, 0, t("9m"), riichi=True),
        Step(StepType.DRAW, 1, t("3s")),
        Step(StepType.DISCARD, 1, t("3s")),
    ]


@pytest.mark.parametrize(
    ("s", "want"),
    [
        ("c131214", Step(StepType.CHI, 1, parse_tile("3m"), tiles("24m"), from_seat=0)),
        ("p454545", Step(StepType.PON, 1, parse_tile("5z"), tiles("55z"), from_seat=0)),
        ("4545p45", Step(StepType.PON, 1, parse_tile("5z"), tiles("55z"), from_seat=2)),
        ("45p4545", Step(StepType.PON, 1, parse_tile("5z"), tiles("55z"), from_seat=3)),
        ("m39393939", Step(StepType.DAIMINKAN, 1, parse_tile("9s"), tiles("999s"), from_seat=0)),
        ("39m393939", Step(StepType.DAIMINKAN, 1, parse_tile("9s"), tiles("999s"), from_seat=3)),
        ("393939m39", Step(StepType.DAIMINKAN, 1, parse_tile("9s"), tiles("999s"), from_seat=2)),
        ("p151551", Step(StepType.PON, 1, parse_tile("5m"), tiles("50m"), from_seat=0)),
    ],
)
def test_call_strings(s: str, want: Step) -> None:
    from server.records.tenhou6 import _call_step

    step, called = _call_step(s, 1, "x")
    assert step == want
    assert tile_of_code(called, "x") == want.tile


@pytest.mark.parametrize(
    ("s", "want"),
    [
        ("161616a16", Step(StepType.ANKAN, 2, tiles=tiles("6666m"))),
        ("151551a15", Step(StepType.ANKAN, 2, tiles=tiles("5550m"))),
        ("k51151515", Step(StepType.KAKAN, 2, parse_tile("0m"))),
        ("3939k3939", Step(StepType.KAKAN, 2, parse_tile("9s"))),
    ],
)
def test_kan_strings(s: str, want: Step) -> None:
    from server.records.tenhou6 import _kan_step

    assert _kan_step(s, 2, "x") == want


@pytest.mark.parametrize("path", PAIRED, ids=lambda p: p.stem)
def test_json_and_mjlog_of_the_same_game_agree(path: Path) -> None:
    """mjx stores each game both ways: the rebuilt order of play must equal the XML's."""
    gj = load_log(path)
    gx = load_log(path.parent.parent / "mjlog" / (path.stem + ".mjlog"))
    assert len(gj.rounds) == len(gx.rounds)
    for rj, rx in zip(gj.rounds, gx.rounds, strict=True):
        assert rj.label == rx.label
        assert rj.hands == rx.hands
        assert rj.steps == [s for s in rx.steps if s.type is not StepType.DORA]
        assert rj.dora_indicators == rx.dora_indicators
        assert (rj.scores, rj.riichi_sticks) == (rx.scores, rx.riichi_sticks)
        assert rj.draw == rx.draw or (
            rj.draw is not None and rx.draw is not None and rj.draw.type is rx.draw.type
        )
        assert len(rj.wins) == len(rx.wins)
        for wj, wx in zip(rj.wins, rx.wins, strict=True):
            assert (wj.who, wj.from_who, wj.pao, wj.deltas) == (
                wx.who,
                wx.from_who,
                wx.pao,
                wx.deltas,
            )
            assert sorted(wj.yaku or ()) == sorted(wx.yaku or ())
            assert (wj.han, wj.points, wj.limit, wj.dora, wj.aka, wj.ura) == (
                wx.han,
                wx.points,
                wx.limit,
                wx.dora,
                wx.aka,
                wx.ura,
            )
            assert wj.fu is None or wj.fu == wx.fu


def test_json_lines_file_joins_rounds_into_one_game() -> None:
    g = load_log(PAIRED[0])
    assert len(g.rounds) == len(PAIRED[0].read_text().splitlines())
    assert [r.index for r in g.rounds] == list(range(len(g.rounds)))
    assert g.final_scores is None


def test_results_of_every_kind() -> None:
    d = load_log(FIXTURES / "mjai-reviewer" / "double_ron.json").rounds[0]
    assert [(w.who, w.from_who) for w in d.wins] == [(0, 3), (2, 3)]
    assert d.wins[0].limit == "haneman" and d.wins[0].fu is None
    assert d.wins[1].fu == 30 and d.wins[1].han == 2 and d.wins[1].points == 2000
    assert load_log(FIXTURES / "mjai-reviewer" / "kyushukyuhai.json").rounds[0].draw.type is (  # type: ignore[union-attr]
        DrawType.KYUUSHU
    )
    four = load_log(FIXTURES / "mjai-reviewer" / "four_reach.json")
    assert four.rounds[-1].draw is not None
    assert four.rounds[-1].draw.type is DrawType.SUUCHA_RIICHI
    assert four.length == "tonpuu"
    ranked = load_log(FIXTURES / "mjai-reviewer" / "ranked_game.json")
    assert ranked.final_scores == (21100, 55000, -4900, 28800)


def test_english_yaku_names_and_zero_han_entries() -> None:
    g = load_log(FIXTURES / "mjai-reviewer" / "confusing_nakis_7.json")
    (w,) = g.rounds[0].wins
    assert w.yaku == (("riichi", 1),) and (w.dora, w.ura) == (1, 0)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"{", "not JSON"),
        (b"[1, 2]", "neither mjlog XML nor tenhou.net/6 JSON"),
        (doc(), "field 'log' must be a non-empty list"),
        (doc(base_round(f0=[0, 0])), "expected 3 integers"),
        (doc(base_round(f4=[11] * 12)), "seat 0 haipai must hold 13 tiles"),
        (doc(base_round(f5=[99])), "99 is not a tile code"),
        (doc(base_round(f5=["p111111"])), "do not form a valid order of play"),
        (doc(base_round(f16=["和了", [0, 0, 0, 0]])), "(deltas, details) pairs"),
        (doc(base_round(f16=["謎", [0, 0, 0, 0]])), "unknown result '謎'"),
        (
            doc(base_round(f16=["和了", [48000, -16000, -16000, -16000], [0, 0, 0, "大量点"]])),
            "is not like '30符2飜2000点'",
        ),
        (
            doc(
                base_round(
                    f16=[
                        "和了",
                        [48000, -16000, -16000, -16000],
                        [0, 0, 0, "役満16000点∀", "謎役(1飜)"],
                    ]
                )
            ),
            "unknown yaku name '謎役'",
        ),
        (
            doc(base_round(f16=["和了", [-3200, 0, 3200, 0], [1, 0, 0]])),
            "details say seat 1 won from seat 0",
        ),
        (
            doc(base_round(), rule={"disp": "三般南喰赤"}),  # three players, four hands dealt
            "three-player round with points or tiles for a fourth seat",
        ),
    ],
)
def test_bad_files_name_what_is_wrong(data: bytes, message: str) -> None:
    with pytest.raises(RecordError) as exc:
        parse_log(data, "game.json")
    assert "game.json" in str(exc.value)
    assert message in str(exc.value)
