"""Turn actions (R7), last discard (R10), kans, chankan and kan dora (R12), four kans (R13)."""

import pytest

from server.engine.actions import IllegalAction
from server.engine.riichi import apply, legal_actions, waiting_on
from server.engine.riichi.rules import preset
from server.engine.tiles import parse_tile
from tests.engine.scenario import PLAIN, act, action, ev, game, pass_all, tsumogiri, types

# seat 0 discards 5p: seat 1 pons it (and later adds the 4th 5p), seat 2 waits on 5p.
KAKAN_HANDS = [
    "147m589p369s1234z",
    "155p258m1479s567z",
    "46p234s678s22m345m",
    "2369m17p58s11234z",
]


def kakan_state(riichi: bool = False):
    st = game(KAKAN_HANDS, draws="9m9m9m8m5p", rinshan="1z")
    act(st, 0, "discard", "5p")
    assert "ron" in types(st, 2) and "pon" in types(st, 1)
    act(st, 2, "pass")
    act(st, 1, "pon", tiles="55p")
    act(st, 1, "discard", "9s")
    pass_all(st)
    if riichi:
        act(st, 2, "riichi", "9m")
        pass_all(st)
        tsumogiri(st, 2)
    else:
        tsumogiri(st, 3)
    assert st.turn == 1 and "kakan" in types(st, 1)
    return st


def test_r12_chankan_on_kakan() -> None:
    st = kakan_state()
    evs = act(st, 1, "kakan", "5p")
    assert ev(evs, "kan")[0].data["meld"] == "kakan"
    assert waiting_on(st) == frozenset({2})
    assert types(st, 2) == {"ron", "pass"}
    evs = act(st, 2, "ron")
    (w,) = ev(evs, "agari")[0].data["winners"]
    assert w["from_seat"] == 1 and w["win_tile"] == "5p"
    assert {"chankan", "tanyao"} <= {y["id"] for y in w["yaku"]}


def test_r12_r15_chankan_keeps_ippatsu() -> None:
    st = kakan_state(riichi=True)
    act(st, 1, "kakan", "5p")
    evs = act(st, 2, "ron")
    (w,) = ev(evs, "agari")[0].data["winners"]
    assert {"riichi", "ippatsu", "chankan", "tanyao"} <= {y["id"] for y in w["yaku"]}


def test_r12_kakan_dora_revealed_after_the_kan_players_discard() -> None:
    st = kakan_state()
    act(st, 1, "kakan", "5p")
    evs = act(st, 2, "pass")
    assert not ev(evs, "new_dora") and st.dora_count == 1
    assert st.rinshan and st.drawn[1] is not None  # rinshan draw
    assert st.furiten_temp[2]  # passing the kakan tile is furiten too (R16)
    evs = act(st, 1, "discard", "1z")
    kinds = [e.type for e in evs]
    assert kinds.index("discard") < kinds.index("new_dora")
    assert st.dora_count == 2


def test_r12_daiminkan_dora_after_discard() -> None:
    hands = list(KAKAN_HANDS)
    hands[1] = "555p258m1479s67z"
    hands[2] = "46s234s678s22m345m"
    st = game(hands, draws="9m", rinshan="2p")
    act(st, 0, "discard", "5p")
    assert "daiminkan" in types(st, 1)
    pass_all_but = [s for s in (2, 3) if types(st, s)]
    for s in pass_all_but:
        act(st, s, "pass")
    evs = act(st, 1, "daiminkan", tiles="555p")
    assert ev(evs, "call")[0].data["meld"] == "daiminkan"
    assert not ev(evs, "new_dora")
    assert st.live_left() == 70 - 1 - 1  # one draw, and the haitei tile moved to the dead wall
    evs = act(st, 1, "discard", "2p")
    assert ev(evs, "new_dora")


# seat 0 has four 1m; seat 1 is kokushi tenpai on 1m; seat 2 waits on 1m/4m with a normal hand.
ANKAN_HANDS = [
    "1111m2468p2468s5m",
    "99m19p19s1234567z",
    "23m456p789p11s666z",
    "3579m357p357s234z",
]


def test_r12_ankan_can_be_robbed_only_for_kokushi() -> None:
    st = game(ANKAN_HANDS, draws="8m", rinshan="3s")
    evs = act(st, 0, "ankan", "1m")
    # a kan that may be robbed does not stand yet: its dora waits for the window
    assert not ev(evs, "new_dora") and st.dora_count == 1
    assert waiting_on(st) == frozenset({1})  # seat 2's normal hand may not rob it
    evs = act(st, 1, "ron")
    assert not ev(evs, "new_dora") and st.dora_count == 1  # robbed: it never stood
    (w,) = ev(evs, "agari")[0].data["winners"]
    assert w["yakuman"] == [{"id": "kokushi", "multiplier": 1}]
    assert ev(evs, "agari")[0].data["deltas"] == [-32000, 32000, 0, 0]


def test_r12_ankan_passed_by_kokushi_goes_on_with_rinshan() -> None:
    st = game(ANKAN_HANDS, draws="8m", rinshan="3s")
    act(st, 0, "ankan", "1m")
    evs = act(st, 1, "pass")
    (d,) = ev(evs, "draw")
    assert d.data["rinshan"] and d.data["tile"] == "3s"
    # it stands: its dora turns at once, before the rinshan draw
    kinds = [e.type for e in evs]
    assert kinds.index("new_dora") < kinds.index("draw") and st.dora_count == 2


def test_r7_rinshan_kaihou_after_ankan() -> None:
    hands = ["1111m234p567p88s9s", None, None, None]
    st = game(hands, draws="9s", rinshan="8s")
    assert {"ankan", "discard"} <= types(st, 0)
    act(st, 0, "ankan", "1m")
    assert "tsumo" in types(st, 0)
    evs = act(st, 0, "tsumo")
    ids = {y["id"] for y in ev(evs, "agari")[0].data["winners"][0]["yaku"]}
    assert "rinshan_kaihou" in ids and "haitei" not in ids


def test_r13_four_kans_by_two_players_abort_after_the_discard() -> None:
    hands = ["1111m2222m3333m4m", "5555p147s258s69m9p", None, None]
    st = game(hands, draws="5m" + "9p", rinshan="6z6z6z1z")
    for k in ("1m", "2m", "3m"):
        act(st, 0, "ankan", k)
    act(st, 0, "discard", "5m")
    pass_all(st)
    act(st, 1, "ankan", "5p")
    assert st.kans == 4
    evs = act(st, 1, "discard", "9p")
    evs += pass_all(st)
    (r,) = ev(evs, "ryuukyoku")
    assert r.data["reason"] == "suukan_sanra"


def test_r13_four_kans_by_one_player_go_on_and_a_fifth_is_refused() -> None:
    hands = ["1111m2222m3333m4m", "9999s147p258p69m9p", None, None]
    st = game(hands, draws="5m" + "6z", rinshan="4m4m4m7z")
    for k in ("1m", "2m", "3m", "4m"):
        act(st, 0, "ankan", k)
    assert st.dora_count == 5
    act(st, 0, "discard", "5m")
    pass_all(st)
    assert st.phase == "play" and st.turn == 1
    assert "ankan" not in types(st, 1)
    with pytest.raises(IllegalAction, match="fifth kan"):
        apply(st, action(1, "ankan", "9s"))


def test_r10_no_calls_on_the_last_discard_but_houtei_ron() -> None:
    draws: list[str | None] = [None] * 70
    draws[69] = "5p"  # seat 1 draws the last tile
    hands = [
        "5p3p147m258s369s12z",
        "147p258m369s4567z",
        "55p33p234m678m456s",  # shanpon 3p/5p
        "3p9p147m258s9m1234z",
    ]
    st = game(hands, draws=draws)
    tsumogiri(st, 69)
    assert st.turn == 1 and st.live_left() == 0
    act(st, 1, "discard", "5p")
    assert types(st, 2) == {"ron", "pass"}  # no pon on the last discard
    evs = act(st, 2, "ron")
    ids = {y["id"] for y in ev(evs, "agari")[0].data["winners"][0]["yaku"]}
    assert {"houtei", "tanyao"} <= ids


def test_r7_haitei_tsumo_and_turn_listing() -> None:
    draws: list[str | None] = [None] * 70
    draws[69] = "5p"
    hands = [
        "5p3p147m258s369s12z",
        "234m345m456678s5p",  # tanki 5p
        "13369p258s9m2345z",
        "3p9p258m258s9m1234z",
    ]
    st = game(hands, draws=draws)
    assert legal_actions(st, 1) == []
    tsumogiri(st, 69)
    assert st.turn == 1 and types(st, 1) == {"tsumo", "discard"}
    assert all(a.tile is not None for a in legal_actions(st, 1) if a.type.value == "discard")
    evs = act(st, 1, "tsumo")
    ids = {y["id"] for y in ev(evs, "agari")[0].data["winners"][0]["yaku"]}
    assert {"haitei", "menzen_tsumo", "tanyao"} <= ids
    assert parse_tile("5p") == st.tile(st.drawn[1] or 0)


# seat 1 pons 5p and 6s, adds 5p (kakan), draws the 4th 6s from the dead wall and adds it too
DOUBLE_KAKAN = [
    "147m589p379s1234z",
    "155p66s258m19s567z",
    "16s369m147p23477z",
    "45s234m678m22p678p",  # ryanmen 3s/6s
]


def double_kakan_state():
    st = game(DOUBLE_KAKAN, draws="9m9m9m1z2z5p", rinshan="6s7z")
    act(st, 0, "discard", "5p")
    act(st, 1, "pon", tiles="55p")
    act(st, 1, "discard", "1p")
    pass_all(st)
    act(st, 2, "discard", "6s")
    act(st, 3, "pass")
    act(st, 1, "pon", tiles="66s")
    act(st, 1, "discard", "1s")
    pass_all(st)
    tsumogiri(st, 3)
    act(st, 1, "kakan", "5p")
    assert st.dora_count == 1 and st.pending_dora == 1
    act(st, 1, "kakan", "6s")
    assert waiting_on(st) == frozenset({3})
    return st


def test_r12_second_kakan_robbed_the_first_kans_dora_stays_hidden() -> None:
    st = double_kakan_state()
    evs = act(st, 3, "ron")
    agari = ev(evs, "agari")[0].data
    assert agari["dora_indicators"] == [agari["dora_indicators"][0]] and st.dora_count == 1
    assert "chankan" in {y["id"] for y in agari["winners"][0]["yaku"]}


def test_r12_second_kakan_stands_the_first_kans_dora_shows() -> None:
    st = double_kakan_state()
    evs = act(st, 3, "pass")
    assert len(ev(evs, "new_dora")) == 1 and st.dora_count == 2
    assert ev(evs, "draw")[0].data["rinshan"]


def test_r12_ankan_with_a_red_five_is_named_by_its_kind() -> None:
    from server.engine.riichi.rules import preset

    hands = ["0555p123m456s789s", None, None, None]
    st = game(hands, draws="2z", rinshan="3z", rules=preset("standard"))
    ankans = [a for a in legal_actions(st, 0) if a.type.value == "ankan"]
    assert [a.tile for a in ankans] == [parse_tile("5p")]
    with pytest.raises(IllegalAction, match="by its kind"):
        apply(st, action(0, "ankan", "0p"))
    evs = act(st, 0, "ankan", "5p")
    assert ev(evs, "kan")[0].data["tiles"] == ["5p", "5p", "5p", "0p"]


# seat 0 makes three ankans, seat 1 the fourth; seat 2 holds 99p, seat 3 waits on 6p/9p (haku)
FOUR_KANS = [
    "1111m2222m3333m4m",
    "5555p147s258s69m9p",
    "99p123s456s789s12z",
    "78p567m678m555z33z",
]


@pytest.mark.parametrize("ron", [False, True])
def test_r13_the_discard_after_the_fourth_kan_offers_only_ron(ron: bool) -> None:
    st = game(FOUR_KANS, draws="5m" + "9p", rinshan="6z6z6z1z")
    for k in ("1m", "2m", "3m"):
        act(st, 0, "ankan", k)
    act(st, 0, "discard", "5m")
    pass_all(st)
    act(st, 1, "ankan", "5p")
    act(st, 1, "discard", "9p")
    assert types(st, 2) == set()  # no pon of 9p: the round ends unless it is ronned
    assert types(st, 3) == {"ron", "pass"}
    evs = act(st, 3, "ron" if ron else "pass")
    if ron:
        assert ev(evs, "agari")[0].data["winners"][0]["seat"] == 3
    else:
        assert ev(evs, "ryuukyoku")[0].data["reason"] == "suukan_sanra"


def test_r13_pon_after_the_fourth_kan_without_abortive_draws() -> None:
    rules = PLAIN.with_overrides(abortive_draws=False)
    st = game(FOUR_KANS, draws="5m" + "9p", rinshan="6z6z6z1z", rules=rules)
    for k in ("1m", "2m", "3m"):
        act(st, 0, "ankan", k)
    act(st, 0, "discard", "5m")
    pass_all(st)
    act(st, 1, "ankan", "5p")
    act(st, 1, "discard", "9p")
    assert "pon" in types(st, 2)  # the round goes on: calls stay (no fifth kan)


def test_r12_no_chankan_on_an_ankan_for_kokushi_under_tenhou() -> None:
    rules = preset("tenhou").with_overrides(red_fives=0)
    assert not rules.kokushi_ankan_chankan
    st = game(ANKAN_HANDS, draws="8m", rinshan="3s", rules=rules)
    evs = act(st, 0, "ankan", "1m")
    assert waiting_on(st) == frozenset({0})
    (d,) = ev(evs, "draw")
    assert d.data["rinshan"] and d.data["tile"] == "3s"
