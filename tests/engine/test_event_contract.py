"""Event keeps its guarantees with the hand-written constructor (a speed change)."""

import dataclasses

import pytest

from server.engine.actions import Event


def test_event_refuses_type_key_in_data() -> None:
    # to_json() would let data["type"] replace the event type on the wire
    with pytest.raises(ValueError, match="may not have a 'type' key"):
        Event("call", {"type": "pon", "seat": 1})
    with pytest.raises(ValueError, match="'type' key"):
        Event("kan", {"type": "ankan"}, frozenset({0}))


def test_event_replace_checks_again() -> None:
    e = Event("discard", {"seat": 0, "tile": "1m"})
    with pytest.raises(ValueError):
        dataclasses.replace(e, data={"type": "x"})
    seen = dataclasses.replace(e, seats=frozenset({0}))
    assert seen.seats == frozenset({0}) and seen.data == e.data and seen.type == "discard"


def test_event_defaults_frozen_and_equality() -> None:
    a, b = Event("round_end"), Event("round_end")
    assert a.data == {} and a.seats is None and a.to_json() == {"type": "round_end"}
    assert a.data is not b.data  # no shared default dict
    assert a == b
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.type = "other"  # type: ignore[misc]
    assert Event("d", {"seat": 1}, frozenset({1})) != Event("d", {"seat": 1})
