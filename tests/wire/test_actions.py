import pytest

from server.engine.actions import Action, ActionType
from server.engine.tiles import RED_5P, parse_tiles
from server.wire.actions import action_json, expand_runs, legal_runs, parse_action


def test_action_json_round_trip() -> None:
    a = Action(ActionType.CHI, 2, tiles=tuple(parse_tiles("46p")))
    assert action_json(a) == {"type": "chi", "seat": 2, "tiles": ["4p", "6p"]}
    assert parse_action(action_json(a)) == a
    d = Action(ActionType.DISCARD, 1, tile=RED_5P)
    assert action_json(d)["tile"] == "0p"
    assert parse_action({"type": "discard", "tile": "0p"}, seat=1) == d


def test_action_json_is_a_fresh_dict() -> None:
    a = Action(ActionType.DISCARD, 0, tile=3)
    action_json(a)["tile"] = "9z"
    assert action_json(a)["tile"] == "4m"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"type": "dance", "seat": 0}, "unknown action type"),
        ({"type": "discard", "seat": 5, "tile": "1m"}, "seat"),
        ({"type": "discard", "seat": 0, "tile": "8z"}, "action tile"),
        ({"type": "discard", "seat": 0, "tile": 3}, "action tile"),
        ({"type": "chi", "seat": 0, "tiles": "46p"}, "action tiles"),
        ({"type": "chi", "seat": 0, "tiles": ["1m"] * 5}, "at most 4"),
        (["discard"], "must be an object"),
    ],
)
def test_malformed_actions_name_the_field(data: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_action(data)


def test_the_seat_count_bounds_the_seat() -> None:
    assert parse_action({"type": "pass", "seat": 3}).seat == 3
    with pytest.raises(ValueError, match=r"0\.\.2"):
        parse_action({"type": "pass", "seat": 3}, seats=3)


def test_legal_runs_keep_the_order_and_every_field() -> None:
    m1, m9, p5, s3, s4 = parse_tiles("1m9m5p3s4s")
    legal = [
        Action(ActionType.DISCARD, 2, m1),
        Action(ActionType.DISCARD, 2, m9),
        Action(ActionType.CHI, 2, None, (s3, s4)),
        Action(ActionType.DISCARD, 2, RED_5P),
        Action(ActionType.RIICHI, 2, p5, (s3,)),
        Action(ActionType.PASS, 2),
    ]
    assert legal_runs(legal) == [
        ["discard", "1m9m"],
        ["chi", ["3s", "4s"]],
        ["discard", "0p"],
        ["riichi", {"tile": "5p", "tiles": ["3s"]}],
        ["pass", 0],
    ]
    assert legal_runs([]) == []
    assert expand_runs(legal_runs(legal), 2) == [action_json(a) for a in legal]
