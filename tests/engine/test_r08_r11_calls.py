"""Call window after a discard (R8), kuikae (R11), chi options."""

import pytest

from server.engine.actions import IllegalAction
from server.engine.riichi import apply, legal_actions, waiting_on
from server.engine.tiles import parse_tiles
from tests.engine.scenario import act, action, ev, game, types

# seat 0 (dealer) discards 5p on its first turn.
# seat 1 can chi it three ways, seat 2 can pon it, seat 3 waits on it (tanki, tanyao).
HANDS = [
    "19m59p19s1234567z",
    "234p67p258m147s11z",
    "55p8p369m258s2345z",
    "234m345m456678s5p",
]


def start():
    st = game(HANDS, draws="9m")
    act(st, 0, "discard", "5p")
    return st


def test_r8_every_eligible_seat_is_asked() -> None:
    st = start()
    assert waiting_on(st) == frozenset({1, 2, 3})
    chis = sorted(a.tiles for a in legal_actions(st, 1) if a.type.value == "chi")
    assert chis == sorted(tuple(parse_tiles(x)) for x in ("34p", "46p", "67p"))
    assert types(st, 1) == {"chi", "pass"}
    assert types(st, 2) == {"pon", "pass"}
    assert types(st, 3) == {"ron", "pass"}
    assert legal_actions(st, 0) == []


def test_r8_ron_beats_pon_and_chi() -> None:
    st = start()
    act(st, 1, "chi", tiles="34p")
    act(st, 2, "pon", tiles="55p")
    assert waiting_on(st) == frozenset({3})
    evs = act(st, 3, "ron")
    (agari,) = ev(evs, "agari")
    (w,) = agari.data["winners"]
    assert w["seat"] == 3 and w["from_seat"] == 0
    assert {"id": "tanyao", "han": 1} in w["yaku"]
    assert not ev(evs, "call")


def test_r8_pon_beats_chi_and_does_not_wait_for_chi() -> None:
    st = start()
    act(st, 3, "pass")
    evs = act(st, 2, "pon", tiles="55p")  # seat 1 has not answered: pon is certain anyway
    (call,) = ev(evs, "call")
    assert call.data["meld"] == "pon" and call.data["seat"] == 2 and call.data["from_seat"] == 0
    assert st.turn == 2 and waiting_on(st) == frozenset({2})
    assert st.rivers[0][-1].called


def test_r8_chi_resolves_once_higher_claims_are_declined() -> None:
    st = start()
    act(st, 1, "chi", tiles="34p")
    act(st, 3, "pass")
    assert waiting_on(st) == frozenset({2})
    evs = act(st, 2, "pass")
    (call,) = ev(evs, "call")
    assert call.data["meld"] == "chi" and call.data["tiles"] == ["3p", "4p", "5p"]
    assert st.turn == 1


def test_r8_all_pass_next_seat_draws() -> None:
    st = start()
    for s in (1, 2, 3):
        evs = act(st, s, "pass")
    assert ev(evs, "draw")[0].data["seat"] == 1
    assert st.turn == 1 and len(st.hands[1]) == 14


def test_r8_answer_twice_or_out_of_turn_is_refused() -> None:
    st = start()
    act(st, 1, "pass")
    before = st.clone()
    with pytest.raises(IllegalAction, match="already answered"):
        apply(st, action(1, "chi", tiles="34p"))
    with pytest.raises(IllegalAction, match="not to act"):
        apply(st, action(0, "discard", "1m"))
    with pytest.raises(IllegalAction):
        apply(st, action(2, "chi", tiles="46p"))  # only the next seat may chi
    assert st.log == before.log and st.claim_answers == before.claim_answers


def test_r11_kuikae_after_chi_forbids_called_tile_and_other_end() -> None:
    st = start()
    act(st, 3, "pass")
    act(st, 2, "pass")
    act(st, 1, "chi", tiles="34p")  # 345p with 5p called: 2p and 5p forbidden
    discards = {a.tile for a in legal_actions(st, 1)}
    assert parse_tiles("2p")[0] not in discards
    assert parse_tiles("6p")[0] in discards
    with pytest.raises(IllegalAction, match="kuikae"):
        apply(st, action(1, "discard", "2p"))
    act(st, 1, "discard", "6p")


def test_r11_kuikae_after_pon_forbids_the_called_kind() -> None:
    hands = list(HANDS)
    hands[2] = "555p369m258s2345z"  # a third 5p in hand
    hands[3] = "234m345m456678s1p"
    hands[0] = "19m59p19s1234567z"
    st = game(hands, draws="9m")
    act(st, 0, "discard", "5p")
    assert "daiminkan" in types(st, 2)
    act(st, 1, "pass")
    act(st, 2, "pon", tiles="55p")
    assert all(a.tile != parse_tiles("5p")[0] for a in legal_actions(st, 2))
    with pytest.raises(IllegalAction, match="kuikae"):
        apply(st, action(2, "discard", "5p"))


def test_r8_only_listed_actions_are_accepted_with_a_reason() -> None:
    st = start()
    act(st, 3, "pass")
    act(st, 2, "pass")
    with pytest.raises(IllegalAction, match="order legal_actions gives"):
        apply(st, action(1, "chi", tiles="76p"))
    evs = act(st, 1, "chi", tiles="67p")
    assert ev(evs, "call")[0].data["tiles"] == ["5p", "6p", "7p"]
