from server.engine.riichi.agari import (
    Block,
    BlockType,
    WaitShape,
    block_wait,
    is_chiitoitsu,
    is_complete,
    is_kokushi,
    regular_readings,
)
from server.engine.tiles import counts, parse_tiles


def c(s: str) -> list[int]:
    return counts(parse_tiles(s))


def test_every_reading_of_an_ambiguous_hand() -> None:
    # 111222333m: three triplets or three runs
    readings = regular_readings(c("111222333m456p99s"))
    shapes = sorted(
        tuple(sorted((b.type.value, b.first) for b in r if b.type is not BlockType.PAIR))
        for r in readings
    )
    assert shapes == [
        (("koutsu", 0), ("koutsu", 1), ("koutsu", 2), ("shuntsu", 12)),
        (("shuntsu", 0), ("shuntsu", 0), ("shuntsu", 0), ("shuntsu", 12)),
    ]


def test_readings_restore_the_counts_and_refuse_wrong_sizes() -> None:
    arr = c("123m456p789s11122z")
    before = list(arr)
    assert len(regular_readings(arr)) == 1
    assert arr == before
    assert regular_readings(c("123m456p789s1112z")) == []


def test_chiitoitsu_needs_seven_distinct_pairs() -> None:
    assert is_chiitoitsu(c("1133m5577p99s1122z"))
    assert not is_chiitoitsu(c("1111m5577p99s1122z"))
    assert is_complete(c("1133m5577p99s1122z"))


def test_kokushi() -> None:
    assert is_kokushi(c("19m19p19s12345677z"))
    assert not is_kokushi(c("19m19p19s1234567z5m"))
    assert is_complete(c("119m19p19s1234567z"))


def test_honors_never_form_runs() -> None:
    assert not is_complete(c("123z456z77z123m456m"))


def test_block_wait_shapes() -> None:
    run = Block(BlockType.SHUNTSU, 0)  # 123m
    assert block_wait(run, 0) is WaitShape.RYANMEN  # 23m waiting 1m-4m
    assert block_wait(run, 1) is WaitShape.KANCHAN
    assert block_wait(run, 2) is WaitShape.PENCHAN  # 12m waiting 3m
    assert block_wait(Block(BlockType.SHUNTSU, 6), 6) is WaitShape.PENCHAN  # 89m waiting 7m
    assert block_wait(Block(BlockType.SHUNTSU, 6), 8) is WaitShape.RYANMEN  # 78m waiting 9m
    assert block_wait(Block(BlockType.KOUTSU, 5), 5) is WaitShape.SHANPON
    assert block_wait(Block(BlockType.PAIR, 5), 5) is WaitShape.TANKI
    assert block_wait(Block(BlockType.PAIR, 5), 4) is None
