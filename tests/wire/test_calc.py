"""The score calculator JSON contract (issue 2): ``score_request``."""

from __future__ import annotations

import json
from typing import Any

import pytest

from server.wire.calc import score_request


def test_scores_a_riichi_ron_with_dora_and_aka() -> None:
    out = score_request(
        {
            "tiles": "234m406p55s789s11z5s",
            "win": "5s",
            "riichi": True,
            "seat_wind": "S",
            "round_wind": "E",
            "dora_indicators": ["4p"],
        }
    )
    # riichi 1 + dora (5p) 1 + aka 1; 5s completes the 555s minkou: 20+10+2 = 32 -> 40
    assert out == {
        "yaku": [{"id": "riichi", "han": 1}],
        "yakuman": [],
        "han": 3,
        "fu": 40,
        "limit": None,
        "dora": 1,
        "aka": 1,
        "ura": 0,
        "nuki": 0,
        "payments": {"ron": 5200},
        "total": 5200,
    }
    json.dumps(out)  # JSON-able


def test_melds_tsumo_honba_sticks_and_dealer_payments() -> None:
    out = score_request(
        {
            "tiles": "123m456p789s99s",
            "melds": [{"type": "pon", "tiles": "777z"}],
            "win": "9s",
            "tsumo": True,
            "seat_wind": "E",
            "honba": 1,
            "riichi_sticks": 2,
        }
    )
    # chun 1 han; 20 + 2 tsumo + 4 (pon 777z) + 2 tanki = 28 -> 30: 1000 all
    assert out["yaku"] == [{"id": "yakuhai_chun", "han": 1}]
    assert (out["han"], out["fu"]) == (1, 30)
    assert out["payments"] == {"tsumo_nondealer": 500}
    assert out["total"] == 1500 + 300 + 2000


def test_win_defaults_to_the_last_tile_and_winds_to_east() -> None:
    # 4s is the last tile: pinfu tsumo, 20 fu 2 han, the dealer gets 700 all
    out = score_request({"tiles": "123m456p789s2355s4s", "tsumo": True})
    assert [y["id"] for y in out["yaku"]] == ["menzen_tsumo", "pinfu"]
    assert out["payments"] == {"tsumo_nondealer": 700}


def test_yakuman_and_rules_preset() -> None:
    req: dict[str, Any] = {"tiles": "119m19p19s1234567z", "win": "1m", "seat_wind": "S"}
    std = score_request(req)
    assert std["yakuman"] == [{"id": "kokushi", "multiplier": 2}]
    assert std["limit"] == "yakuman" and std["payments"] == {"ron": 64000}
    ten = score_request({**req, "rules": "tenhou"})
    assert ten["yakuman"] == [{"id": "kokushi", "multiplier": 1}]
    custom = score_request({**req, "rules": {"preset": "standard", "double_yakuman": False}})
    assert custom["payments"] == {"ron": 32000}


def test_indicators_as_one_string_or_a_list() -> None:
    base = {"tiles": "123m456p789s23455s", "win": "4s", "riichi": True}
    a = score_request({**base, "dora_indicators": "1m3p", "ura_indicators": ["8s"]})
    assert (a["dora"], a["ura"]) == (2, 1)


@pytest.mark.parametrize(
    ("req", "code", "field"),
    [
        ({"tiles": "123m456p789s23456s", "win": "6s"}, "not_agari", None),
        ({"tiles": "123m456p789s234s55s", "win": "5s"}, "no_yaku", None),
        ([1, 2], "bad_input", None),
        ({}, "bad_input", "tiles"),
        ({"tiles": 5}, "bad_input", "tiles"),
        ({"tiles": "123x"}, "bad_input", "tiles"),
        ({"tiles": "123m456p789s23455s", "win": "4"}, "bad_input", "win"),
        ({"tiles": "123m456p789s23455s", "win": "9m"}, "bad_input", "win"),
        ({"tiles": "123m456p789s23455s", "riichi": "yes"}, "bad_input", "riichi"),
        ({"tiles": "123m456p789s23455s", "seat_wind": "East"}, "bad_input", "seat_wind"),
        ({"tiles": "123m456p789s23455s", "round_wind": 1}, "bad_input", "round_wind"),
        ({"tiles": "123m456p789s23455s", "honba": -1}, "bad_input", "honba"),
        ({"tiles": "123m456p789s23455s", "riichi_sticks": 1.5}, "bad_input", "riichi_sticks"),
        ({"tiles": "123m456p789s23455s", "dora_indicators": 3}, "bad_input", "dora_indicators"),
        ({"tiles": "123m456p789s23455s", "ura_indicators": ["1x"]}, "bad_input", "ura_indicators"),
        ({"tiles": "123m456p789s23455s", "rules": "nope"}, "bad_input", "rules"),
        ({"tiles": "123m456p789s23455s", "rules": {"red_fives": 5}}, "bad_input", "rules"),
        ({"tiles": "123m456p789s23455s", "rules": {"bogus": 1}}, "bad_input", "rules"),
        ({"tiles": "123m456p789s23455s", "melds": "pon"}, "bad_input", "melds"),
        (
            {"tiles": "456p789s23455s", "melds": [{"type": "pon", "tiles": "123m"}]},
            "bad_input",
            "melds[0]",
        ),
        (
            {"tiles": "456p789s23455s", "melds": [{"type": "chii", "tiles": "123m"}]},
            "bad_input",
            "melds[0]",
        ),
        ({"tiles": "456p789s23455s", "melds": [{"tiles": "123m"}]}, "bad_input", "melds[0]"),
        ({"tiles": "123m456p789s23455s", "tsumo": True, "ippatsu": True}, "bad_input", "ippatsu"),
        ({"tiles": "123m456p789s2345s"}, "bad_input", "tiles"),
        ({"tiles": "123m456p789s23455s", "wind": "E"}, "bad_input", "wind"),
    ],
)
def test_errors_name_code_and_field(req: Any, code: str, field: str | None) -> None:
    out = score_request(req)
    assert set(out) == {"error"}
    err = out["error"]
    assert err["code"] == code
    assert err["field"] == field
    assert isinstance(err["message"], str) and err["message"]
    if field is not None:
        assert err["message"].startswith(field)
