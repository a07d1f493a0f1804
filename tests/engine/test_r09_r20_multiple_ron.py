"""Multiple ron per preset (R9), honba and riichi sticks to the first winner (R19, R20)."""

from server.engine.riichi import next_round, waiting_on
from server.engine.riichi.rules import preset
from tests.engine.scenario import act, ev, game

# seat 0 discards 5p; seats 1, 2 and 3 all win on it with tanyao (1 han 40 fu = 1300 each).
HANDS = [
    "19m9p19s1234567z5p",
    "234m345m456678s5p",  # tanki 5p
    "55p33p234m678m456s",  # shanpon 3p/5p
    "234s567s678m22s46p",  # kanchan 5p
]


def start(rules=None, honba=2, sticks=1):
    kw = {} if rules is None else {"rules": rules}
    st = game(HANDS, draws="1m", honba=honba, sticks=sticks, **kw)
    act(st, 0, "discard", "5p")
    assert waiting_on(st) == frozenset({1, 2, 3})
    return st


def test_r9_double_ron_sticks_and_honba_to_first_in_turn_order() -> None:
    st = start()
    act(st, 3, "ron")
    act(st, 2, "pass")
    evs = act(st, 1, "ron")
    (agari,) = ev(evs, "agari")
    assert [w["seat"] for w in agari.data["winners"]] == [1, 3]
    # seat 1 (first after the discarder) takes 600 honba and the 1000 stick; seat 3 neither,
    # as Tenhou pays it (checked on the double-ron log with honba in /work/shared/data)
    assert agari.data["winners"][0]["deltas"] == [-1900, 2900, 0, 0]
    assert agari.data["winners"][1]["deltas"] == [-1300, 0, 0, 1300]
    assert agari.data["deltas"] == [-3200, 2900, 0, 1300]
    assert st.scores == [21800, 27900, 25000, 26300]
    assert st.riichi_sticks == 0
    next_round(st)
    assert st.dealer == 1 and st.honba == 0  # non-dealer wins: the deal passes


def test_r9_triple_ron_is_sanchahou_under_standard_and_tenhou() -> None:
    for name in ("standard", "tenhou"):
        st = start(rules=preset(name).with_overrides(red_fives=0))
        for s in (1, 2, 3):
            evs = act(st, s, "ron")
        (r,) = ev(evs, "ryuukyoku")
        assert r.data["reason"] == "sanchahou"
        assert r.data["deltas"] == [0, 0, 0, 0]
        next_round(st)
        assert st.dealer == 0 and st.honba == 3 and st.riichi_sticks == 1  # R19: abortive


def test_r9_triple_ron_all_win_under_majsoul() -> None:
    st = start(rules=preset("majsoul").with_overrides(red_fives=0), honba=0, sticks=0)
    for s in (2, 1, 3):
        evs = act(st, s, "ron")
    (agari,) = ev(evs, "agari")
    assert [w["seat"] for w in agari.data["winners"]] == [1, 2, 3]
    assert agari.data["deltas"] == [-3900, 1300, 1300, 1300]


def test_r9_atamahane_first_in_turn_order_wins_without_waiting() -> None:
    rules = preset("standard").with_overrides(red_fives=0, multiple_ron="atamahane")
    st = start(rules=rules, honba=0, sticks=0)
    act(st, 3, "ron")
    assert st.phase == "play"  # seats 1 and 2 come first and may still ron
    act(st, 1, "pass")
    evs = act(st, 2, "ron")  # decided: seat 2 is first among the rons
    (agari,) = ev(evs, "agari")
    assert [w["seat"] for w in agari.data["winners"]] == [2]

    st = start(rules=rules, honba=0, sticks=0)
    evs = act(st, 1, "ron")  # first in order: wins at once
    assert [w["seat"] for w in ev(evs, "agari")[0].data["winners"]] == [1]
