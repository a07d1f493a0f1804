"""mjlog XML parsing: meld bit-decoding, results, and clear errors for bad files."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from server.engine.tiles import parse_tile, parse_tiles
from server.records.mjlog import parse_mjlog
from server.records.model import DrawType, RecordError, Step, StepType

FIXTURES = Path(__file__).parents[1] / "fixtures" / "mjx" / "mjlog"

HEADER = (
    '<mjloggm ver="2.3"><GO type="169" lobby="0"/>'
    '<UN n0="%E3%81%82" n1="b" n2="c" n3="d"/><TAIKYOKU oya="0"/>'
)
INIT = (
    '<INIT seed="0,0,0,3,4,0" ten="250,250,250,250" oya="0" '
    'hai0="4,5,6,7,8,9,10,11,12,13,14,15,17" hai1="20,21,22,23,24,25,26,27,28,29,30,31,32" '
    'hai2="36,37,38,39,40,41,42,43,44,45,46,47,48" hai3="56,57,58,59,60,61,62,63,64,65,66,67,68"/>'
)


def xml(body: str, header: str = HEADER) -> bytes:
    return (header + body + "</mjloggm>").encode()


def one(tiles: str) -> tuple[int, ...]:
    return tuple(parse_tiles(tiles))


@pytest.mark.parametrize(
    ("who", "m", "want"),
    [
        # real calls from the mjx logs, decoded by hand from Tenhou's bit layout
        (3, 50761, Step(StepType.PON, 3, parse_tile("7z"), one("77z"), from_seat=0)),
        (0, 25631, Step(StepType.CHI, 0, parse_tile("3p"), one("24p"), from_seat=3)),
        (3, 54431, Step(StepType.CHI, 3, parse_tile("6s"), one("40s"), from_seat=2)),
        (1, 16947, Step(StepType.KAKAN, 1, parse_tile("3p"))),
        (1, 1024, Step(StepType.ANKAN, 1, tiles=one("2222m"))),
        (3, 27139, Step(StepType.DAIMINKAN, 3, parse_tile("9s"), one("999s"), from_seat=2)),
    ],
)
def test_meld_decoding(who: int, m: int, want: Step) -> None:
    g = parse_mjlog(xml(INIT + f'<T16/><D16/><N who="{who}" m="{m}" />'))
    assert g.rounds[0].steps[-1] == want


def test_red_five_by_tile_id_and_no_red_rule() -> None:
    g = parse_mjlog(xml(INIT + "<T16/><D16/>"))
    assert g.red_fives == 3
    assert g.rounds[0].steps[0].tile == parse_tile("0m")
    plain = HEADER.replace('type="169"', 'type="171"')  # 0x02 set: no red fives
    g = parse_mjlog(xml(INIT + "<T16/><D16/>", plain))
    assert g.red_fives == 0
    assert g.rounds[0].steps[0].tile == parse_tile("5m")


def test_header_fields() -> None:
    g = parse_mjlog(xml(INIT + "<T16/>"))
    assert g.players[0] == "あ"
    assert g.length == "hanchan"
    r = g.rounds[0]
    assert (r.round_wind, r.dealer, r.honba, r.riichi_sticks) == (0, 0, 0, 0)
    assert r.scores == (25000, 25000, 25000, 25000)
    assert r.hands[0] == one("2222333344445m")  # id 17 is a plain 5m, 16 the red one
    assert r.dora_indicators == [parse_tile("1m")]
    tonpuu = HEADER.replace('type="169"', 'type="161"')  # 0x08 clear: East only
    assert parse_mjlog(xml(INIT, tonpuu)).length == "tonpuu"


def test_riichi_marks_the_declaration_discard_and_kan_marks_rinshan() -> None:
    body = (
        INIT
        + '<T16/><REACH who="0" step="1"/><D17/><REACH who="0" ten="240,250,250,250" step="2"/>'
        '<U33/><N who="1" m="1024" /><U100/><E100/>'
    )
    steps = parse_mjlog(xml(body)).rounds[0].steps
    assert steps[1] == Step(StepType.DISCARD, 0, parse_tile("5m"), riichi=True)
    assert steps[-2] == Step(StepType.DRAW, 1, parse_tile("8s"), rinshan=True)
    assert not steps[-1].riichi


def test_double_ron_log_keeps_both_wins_with_details() -> None:
    g = parse_mjlog((FIXTURES / "double-ron.mjlog").read_bytes())
    last = g.rounds[-1]
    assert [(w.who, w.from_who) for w in last.wins] == [(0, 3), (2, 3)]
    w0, w2 = last.wins
    assert w0.deltas == (9700, 0, 0, -7700)  # 7700 ron + 2 riichi sticks
    assert (w0.fu, w0.points, w0.limit) == (30, 7700, None)
    assert dict(w0.yaku) == {"riichi": 1, "pinfu": 1}
    assert (w0.dora, w0.aka, w0.ura) == (1, 0, 1)
    assert w2.limit == "mangan" and w2.deltas == (0, 0, 8000, -8000)
    assert g.final_scores == (33400, 36000, 32000, -1400)


def test_pao_and_yakuman() -> None:
    g = parse_mjlog((FIXTURES / "pao-tsumo.mjlog").read_bytes())
    win = next(w for r in g.rounds for w in r.wins if w.pao is not None)
    assert win.yakuman == (("daisangen", 1),)
    assert win.han is None and win.limit == "yakuman"
    assert win.pao == 0 and win.tsumo


def test_draw_types_and_tenpai() -> None:
    g = parse_mjlog((FIXTURES / "double-ron.mjlog").read_bytes())
    draw = g.rounds[1].draw
    assert draw is not None and draw.type is DrawType.EXHAUSTIVE
    assert draw.tenpai == frozenset({2})
    assert draw.deltas == (-1000, -1000, 3000, -1000)


def test_gzip_compressed_log_parses_like_plain() -> None:
    raw = (FIXTURES / "double-ron.mjlog").read_bytes()
    assert parse_mjlog(gzip.compress(raw)).rounds[-1].wins == parse_mjlog(raw).rounds[-1].wins


def test_truncated_log_keeps_the_unfinished_round() -> None:
    g = parse_mjlog((FIXTURES / "2011020401gm-00a9-0000-f6eff225-no-round-end.mjlog").read_bytes())
    assert not g.rounds[-1].wins and g.rounds[-1].draw is None
    assert g.final_scores is None


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"<mjloggm><INIT", "not well-formed XML"),
        (b"<html></html>", "root element is <html>"),
        (b'<!DOCTYPE x [<!ENTITY a "b">]><mjloggm/>', "DOCTYPE/ENTITY"),
        (xml(""), "no <INIT> element"),
        (xml(INIT.replace('oya="0"', 'oya="2"')), "oya=2 does not match kyoku 0"),
        (xml(INIT.replace(',17"', '"')), "attribute hai0 has 12 values, expected 13"),
        (xml(INIT + "<T999/>"), "tile id 999 is not 0..135"),
        (xml(INIT + "<X1/>"), "<X1> in round 1: unknown element"),
        (xml(INIT + '<REACH who="5" step="1"/>'), "who=5 is not a seat"),
        (xml(INIT + '<N who="0" />'), "missing attribute 'm'"),
        (xml("<T16/>" + INIT), "comes before the first <INIT>"),
        (xml(INIT + INIT), "has no <AGARI> or <RYUUKYOKU>"),
        # a three-player header (0x10) over a four-player deal
        (
            xml(INIT, HEADER.replace('type="169"', 'type="185"')),
            "three-player round with points or tiles for a fourth seat",
        ),
        (
            xml(INIT + '<RYUUKYOKU type="foo" ba="0,0" sc="250,0,250,0,250,0,250,0"/>'),
            "unknown draw type 'foo'",
        ),
        (
            xml(
                INIT + '<AGARI ba="0,0" hai="4" machi="4" ten="30,1000,0" yaku="1,1" '
                'doraHai="0" who="0" fromWho="1" sc="250,-10,250,10,250,0,250,0"/>'
            ),
            "who=0 fromWho=1 but sc deltas",
        ),
        (
            xml(
                INIT + '<AGARI ba="0,0" hai="4" machi="4" ten="30,1000,0" yaku="1,1,99,1" '
                'doraHai="0" who="0" fromWho="1" sc="250,10,250,-10,250,0,250,0"/>'
            ),
            "unknown Tenhou yaku number 99",
        ),
    ],
)
def test_bad_files_name_what_is_wrong(data: bytes, message: str) -> None:
    with pytest.raises(RecordError, match=r"^x\.mjlog: ") as exc:
        parse_mjlog(data, "x.mjlog")
    assert message in str(exc.value)
