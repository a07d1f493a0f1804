import pytest

from server.engine.riichi.rules import PRESETS, RulesError, RuleSet, preset, resolve


def test_presets_by_name_match_rules_table() -> None:
    std, ten, mjs = preset("standard"), preset("tenhou"), preset("majsoul")
    assert std.uma == (10, 5, -5, -10)
    assert ten.uma == (20, 10, -10, -20)
    assert mjs.uma == (15, 5, -5, -15)
    assert (std.multiple_ron, ten.multiple_ron, mjs.multiple_ron) == ("double", "double", "triple")
    assert (std.double_yakuman, ten.double_yakuman, mjs.double_yakuman) == (True, False, True)
    for r in (std, ten, mjs):
        assert r.length == "hanchan" and r.seats == 4
        assert r.red_fives == 3
        assert r.kuitan and r.kazoe_yakuman and not r.kiriage_mangan
        assert (r.start_points, r.return_points) == (25000, 30000)
        assert r.double_wind_pair_fu == 4
        assert r.nagashi_mangan and r.pao and r.tobi and r.west_extension and r.agari_yame
        assert not r.sanrenkou and not r.isshoku_sanjun
    assert (std.pao_whole_hand, ten.pao_whole_hand, mjs.pao_whole_hand) == (True, True, False)
    assert (std.tenpai_yame, ten.tenpai_yame, mjs.tenpai_yame) == (True, False, True)
    assert (std.kokushi_ankan_chankan, ten.kokushi_ankan_chankan) == (True, False)
    assert mjs.kokushi_ankan_chankan


def test_thinking_time_is_not_a_rule_option() -> None:
    assert "think_seconds" not in preset("standard").to_dict()
    with pytest.raises(RulesError, match="think_seconds"):
        preset("standard").with_overrides(think_seconds=5)
    # a stored rules object carries it beside the options (the table's): ignored here
    stored = {**preset("tenhou").to_dict(), "think_seconds": 9, "variant": "riichi"}
    assert RuleSet.from_dict(stored) == preset("tenhou")


def test_records_stored_before_the_issue_11_options_keep_their_rules() -> None:
    old = preset("tenhou").to_dict()
    for name in ("tenpai_yame", "pao_whole_hand", "kokushi_ankan_chankan"):
        del old[name]
    r = RuleSet.from_dict(old)
    assert r.tenpai_yame is r.agari_yame is True
    assert r.pao_whole_hand is False and r.kokushi_ankan_chankan is True
    # a preset with overrides is not an old record: the preset's values hold
    assert RuleSet.from_dict({"preset": "tenhou", "agari_yame": True}).tenpai_yame is False


def test_s_sanma_presets_match_the_research_table() -> None:
    ten, mjs = preset("tenhou-sanma"), preset("majsoul-sanma")
    for r in (ten, mjs):
        assert r.seats == 3 and r.red_fives == 2 and r.start_points == 35000
        assert r.target == 40000 and r.tsumo_son and r.length == "hanchan"
    assert ten.return_points == 40000 and ten.uma == (20, 0, -20)  # oka 15000 to first
    assert mjs.return_points == 35000 and mjs.uma == (15, 0, -15)  # no oka (S21)
    assert not ten.double_yakuman and mjs.double_yakuman
    assert not ten.tenpai_yame and mjs.tenpai_yame
    assert PRESETS["standard"].target == 30000  # 0: the return points
    with pytest.raises(RulesError, match="red_fives must be 0 or 2"):
        ten.with_overrides(red_fives=3)
    with pytest.raises(RulesError, match="uma must be 3 integers"):
        ten.with_overrides(uma=(10, 5, -5, -10))


def test_unknown_preset_is_refused() -> None:
    with pytest.raises(RulesError, match="unknown rules preset 'mleague'"):
        preset("mleague")


def test_overrides_make_a_new_frozen_object() -> None:
    base = preset("tenhou")
    r = base.with_overrides(length="tonpuu", red_fives=0)
    assert (r.length, r.red_fives, r.name) == ("tonpuu", 0, "tenhou")
    assert base.length == "hanchan"
    with pytest.raises(AttributeError):
        r.length = "hanchan"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"lenght": "tonpuu"}, "unknown rule option"),
        ({"length": "west"}, "length must be"),
        ({"red_fives": 2}, "red_fives"),
        ({"uma": [10, 10, 10, 10]}, "sum to 0"),
        ({"kuitan": "yes"}, "kuitan"),
        ({"start_points": 30000, "return_points": 25000}, "return_points"),
        ({"double_wind_pair_fu": 3}, "double_wind_pair_fu"),
        ({"multiple_ron": "quadruple"}, "multiple_ron"),
        ({"uma": [20, 0, -20]}, "uma must be 4 integers"),
    ],
)
def test_bad_overrides_are_refused(overrides: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        preset("standard").with_overrides(**overrides)


def test_dict_round_trip_and_resolve() -> None:
    r = preset("majsoul").with_overrides(uma=[30, 10, -10, -30])
    d = r.to_dict()
    assert d["uma"] == [30, 10, -10, -30]
    assert RuleSet.from_dict(d) == r
    assert resolve({"preset": "tenhou", "length": "tonpuu"}).length == "tonpuu"
    assert resolve("tenhou") is PRESETS["tenhou"]
    assert resolve(None) is PRESETS["standard"]
    with pytest.raises(RulesError):
        resolve({"preset": 3})
