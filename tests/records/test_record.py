"""Our own record format: a self-played hanchan round-trips through JSON and replays exactly."""

from __future__ import annotations

import json
from typing import Any

import pytest

from server.engine import riichi as engine
from server.engine.actions import Action, ActionType
from server.engine.riichi.rules import preset
from server.engine.riichi.variant import RIICHI
from server.records.model import RecordError
from server.records.record import GameRecord, replay
from tests.records.helpers import fingerprint, self_play


@pytest.fixture(scope="module")
def played() -> engine.GameState:
    return self_play(b"records-test", 1)


def test_self_played_game_round_trips_and_replays(played: engine.GameState) -> None:
    rec = GameRecord.from_state(RIICHI, played, ["東", "b", "c", "d"])
    assert played.phase == "game_end" and len(played.round_results) >= 4
    assert rec.actions.count(None) == len(played.round_results)  # one marker per next_round
    text = rec.dumps()
    back = GameRecord.loads(text)
    assert back == rec
    assert json.loads(text)["players"][0] == "東"
    again = replay(back)
    assert fingerprint(again) == fingerprint(played)
    engine.check_invariants(again)


@pytest.mark.parametrize(("seed", "rules"), [(b"\x00\x01", "standard"), (b"majsoul!", "majsoul")])
def test_other_presets_replay_identically(seed: bytes, rules: str) -> None:
    st = self_play(seed, 7, rules)
    rec = GameRecord.loads(GameRecord.from_state(RIICHI, st).dumps())
    assert rec.rules == preset(rules)
    assert fingerprint(replay(rec)) == fingerprint(st)


def test_record_of_an_unfinished_game_replays_to_the_same_point() -> None:
    st = engine.new_game(preset("tenhou"), b"half", 0)
    for _ in range(25):
        seat = min(engine.waiting_on(st))
        engine.apply(st, engine.legal_actions(st, seat)[-1])
    rec = GameRecord.from_state(RIICHI, st)
    assert fingerprint(replay(GameRecord.loads(rec.dumps()))) == fingerprint(st)


def good_json(played: engine.GameState) -> dict[str, Any]:
    return GameRecord.from_state(RIICHI, played).to_json()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="x"), "format must be 'jantaku-record'"),
        (lambda d: d.update(version=9), "version 9 is not supported"),
        (lambda d: d.update(rules=5), "rules must be an object"),
        (lambda d: d["rules"].update(red_fives=2), "rules: red_fives must be 0 or 3"),
        (lambda d: d.update(seed="zz"), "seed must be a hex string"),
        (lambda d: d.update(first_dealer=4), "first_dealer must be 0..3"),
        (lambda d: d.update(players=["a"]), "players must be a list of 4 names"),
        (lambda d: d.update(actions={}), "actions must be a list"),
        (
            lambda d: d["actions"].__setitem__(3, {"type": "fly"}),
            "actions[3]: unknown action type 'fly'",
        ),
        (
            lambda d: d["actions"].__setitem__(2, {"type": "discard", "seat": 9}),
            "actions[2]: action seat",
        ),
    ],
)
def test_bad_record_names_the_field(played: engine.GameState, change: Any, message: str) -> None:
    d = good_json(played)
    change(d)
    with pytest.raises(RecordError) as exc:
        GameRecord.from_json(d)
    assert message in str(exc.value)


def test_not_json() -> None:
    with pytest.raises(RecordError, match="record is not JSON"):
        GameRecord.loads("{")


def test_replay_names_the_first_refused_action(played: engine.GameState) -> None:
    rec = GameRecord.from_state(RIICHI, played)
    first = rec.actions[0]
    assert first is not None
    wrong = Action(ActionType.TSUMO, (first.seat + 1) % 4)
    bad = GameRecord(
        RIICHI, rec.rules, rec.seed, rec.first_dealer, rec.players, (first, wrong, *rec.actions[2:])
    )
    with pytest.raises(RecordError, match=r"^actions\[1\] \(Action\(ActionType.TSUMO"):
        replay(bad)
