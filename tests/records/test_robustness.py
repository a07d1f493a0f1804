"""Damaged logs: every parse either succeeds or raises RecordError, and the verifier
reports instead of crashing on whatever parses."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.records.load import parse_log
from server.records.model import RecordError
from server.records.verify import verify_game

FIXTURES = Path(__file__).parents[1] / "fixtures"
SOURCES = [
    (FIXTURES / "mjx" / "mjlog" / "double-ron.mjlog").read_bytes(),
    (FIXTURES / "mjai-reviewer" / "double_ron.json").read_bytes(),
    (FIXTURES / "mjai-reviewer" / "chankan.json").read_bytes(),
]
_CHARS = b'0123456789,"[]{}<>/= '

edit = st.tuples(
    st.sampled_from(["digit", "delete", "insert", "truncate"]),
    st.floats(0, 1, exclude_max=True),
    st.integers(0, len(_CHARS) - 1),
)


def damage(data: bytes, edits: list[tuple[str, float, int]]) -> bytes:
    b = bytearray(data)
    for op, where, pick in edits:
        if not b:
            break
        i = int(where * len(b))
        if op == "digit" and chr(b[i]).isdigit():
            b[i] = ord("0") + pick % 10
        elif op == "delete":
            del b[i : i + 1 + pick % 5]
        elif op == "insert":
            b.insert(i, _CHARS[pick])
        elif op == "truncate":
            del b[i:]
    return bytes(b)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(src=st.sampled_from(range(len(SOURCES))), edits=st.lists(edit, min_size=1, max_size=3))
def test_damaged_logs_raise_record_error_or_verify_without_crashing(
    src: int, edits: list[tuple[str, float, int]]
) -> None:
    data = damage(SOURCES[src], edits)
    try:
        game = parse_log(data, "damaged")
    except RecordError as exc:
        assert str(exc).startswith("damaged")
        return
    report = verify_game(game)
    assert len(report.rounds) == len(game.rounds)
