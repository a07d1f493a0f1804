import pytest

from server.engine.tiles import (
    CHUN,
    EAST,
    HAKU,
    NORTH,
    RED_5M,
    RED_5P,
    RED_5S,
    TileError,
    counts,
    dora_of,
    kind,
    parse_tile,
    parse_tiles,
    tile_of_id,
    tiles_str,
)


def test_r1_notation_round_trip() -> None:
    s = "123m406p789s1234567z"
    ts = parse_tiles(s)
    assert len(ts) == 16
    assert ts[3] == 9 + 3  # 4p
    assert ts[4] == RED_5P
    assert tiles_str(ts) == s


def test_r1_red_fives_are_fives() -> None:
    assert [kind(t) for t in (RED_5M, RED_5P, RED_5S)] == [4, 13, 22]
    assert counts(parse_tiles("055m"))[4] == 3


def test_r1_physical_ids() -> None:
    assert tile_of_id(16) == RED_5M
    assert tile_of_id(17) == 4
    assert tile_of_id(52) == RED_5P
    assert tile_of_id(88) == RED_5S
    assert tile_of_id(16, red_fives=False) == 4
    assert tile_of_id(135) == CHUN
    assert sum(counts(tile_of_id(i) for i in range(136))) == 136
    assert all(c == 4 for c in counts(tile_of_id(i) for i in range(136)))


@pytest.mark.parametrize(
    ("indicator", "dora"),
    [
        ("1m", "2m"),
        ("9m", "1m"),
        ("9p", "1p"),
        ("9s", "1s"),
        ("0s", "6s"),
        ("1z", "2z"),
        ("4z", "1z"),
        ("5z", "6z"),
        ("7z", "5z"),
    ],
)
def test_r5_dora_successor(indicator: str, dora: str) -> None:
    assert dora_of(kind(parse_tile(indicator))) == parse_tile(dora)


def test_r5_winds_and_dragons_cycle() -> None:
    assert dora_of(NORTH) == EAST
    assert dora_of(CHUN) == HAKU


@pytest.mark.parametrize("bad", ["8z", "12", "m", "1x", "12m3", "0z"])
def test_r1_bad_notation_is_refused(bad: str) -> None:
    with pytest.raises(TileError):
        parse_tiles(bad)


def test_parse_tile_needs_exactly_one() -> None:
    with pytest.raises(TileError):
        parse_tile("12m")
