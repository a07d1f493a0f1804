import pytest

from server.engine.actions import Action, ActionType, Event
from server.engine.tiles import RED_5P, parse_tiles


def test_action_json_round_trip() -> None:
    a = Action(ActionType.CHI, 2, tiles=tuple(parse_tiles("46p")))
    assert a.to_json() == {"type": "chi", "seat": 2, "tiles": ["4p", "6p"]}
    assert Action.from_json(a.to_json()) == a
    d = Action(ActionType.DISCARD, 1, tile=RED_5P)
    assert d.to_json()["tile"] == "0p"
    assert Action.from_json({"type": "discard", "tile": "0p"}, seat=1) == d


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
        Action.from_json(data)  # type: ignore[arg-type]


def test_event_visibility() -> None:
    public = Event("discard", {"seat": 0, "tile": "1m"})
    private = Event("draw", {"seat": 2, "tile": "5s"}, seats=frozenset({2}))
    assert public.visible_to(None) and public.visible_to(3)
    assert private.visible_to(2)
    assert not private.visible_to(1)
    assert not private.visible_to(None)
    assert private.to_json() == {"type": "draw", "seat": 2, "tile": "5s"}
