"""``jantaku score`` / ``POST /api/score`` with ``"rules": "nanchang"``: a Nanchang hand."""

from __future__ import annotations

import pytest

from server.wire.calc import score_request

# 123m 456p 789s + 南西北 (a wind sequence) + 东东 pair; 白 turned up: 白 and 中 are jokers
HAND = {"rules": "nanchang", "tiles": "123m456p789s11z234z", "indicator": "5z"}


def test_a_self_drawn_win_lists_each_element() -> None:
    r = score_request({**HAND, "tsumo": True})
    assert r["shape"] == "pinghu"
    assert [e["id"] for e in r["elements"]] == ["pinghu", "zimo", "deguo"]
    assert r["jokers"] == {"zheng": "5z", "fu": "7z"} and r["joker_points"] == 0
    assert sum(r["payments"]) == 0 and r["total"] == r["payments"][0] > 0


def test_jokers_in_the_hand_stand_for_missing_tiles_and_score() -> None:
    # 中 (副精) stands for the missing 3m; no 德国 any more, and 1 joker point
    r = score_request({**HAND, "tiles": "12m7z456p789s11z234z", "tsumo": True})
    ids = [e["id"] for e in r["elements"]]
    assert "deguo" not in ids and r["joker_points"] == 1


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"tiles": "123m"}, None),
        ({"indicator": 5}, "indicator"),
        ({"tsumo": "yes"}, "tsumo"),
        ({"melds": [{"type": "kong", "tiles": "1111m"}]}, "melds[0]"),
        ({"bogus": 1}, "bogus"),
        ({"tiles": "123m406p789s11z234z"}, "tiles"),
    ],
)
def test_bad_input_names_the_field(change: dict[str, object], field: str | None) -> None:
    r = score_request({**HAND, **change})
    assert r["error"]["code"] == "bad_input" and r["error"]["field"] == field


def test_tiles_that_do_not_win() -> None:
    r = score_request({**HAND, "tiles": "135m456p789s11z234z"})
    assert r["error"]["code"] == "not_agari"
