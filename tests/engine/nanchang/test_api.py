"""The variant seam: options, refusals, observations, masks, replay, the hand scorer."""

from __future__ import annotations

import copy

import pytest

from server.engine.actions import Action, ActionType, IllegalAction
from server.engine.nanchang import (
    PRESETS,
    Dealt,
    Drew,
    NanchangHandError,
    NanchangOptions,
    NanchangOptionsError,
    apply,
    legal_actions,
    mask,
    new_game,
    next_round,
    observe,
    preset,
    replay,
    score_hand,
    visible_to,
    why_illegal,
)
from server.engine.tiles import parse_tile, tile_str
from tests.engine.nanchang.helpers import X1, X2, X3, D, act, game, meld

T = parse_tile


def test_options_round_trip_and_presets() -> None:
    for name, opts in PRESETS.items():
        assert opts.name == name
        assert NanchangOptions.from_dict(opts.to_dict()) == opts
    assert preset("nanchang").rounds == 4 and preset("nanchang-east").rounds == 1
    assert NanchangOptions.from_dict({"rounds": 2}).rounds == 2


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"rounds": 5}, "rounds must be 1..4"),
        ({"rounds": "4"}, "rounds must be an integer"),
        ({"rounds": True}, "rounds must be an integer"),
        ({"bawang": 1}, "bawang must be true or false"),
        ({"riichi": True}, "unknown Nanchang option(s): riichi"),
        ({"deguo_bonus": -1}, "deguo_bonus must be 0..1000"),
        ({"name": ""}, "name must be a non-empty string"),
    ],
)
def test_bad_options_are_clear_value_errors(data: dict[str, object], message: str) -> None:
    with pytest.raises(NanchangOptionsError, match=message.replace("(", r"\(").replace(")", r"\)")):
        NanchangOptions.from_dict(data)
    assert issubclass(NanchangOptionsError, ValueError)


def test_unknown_preset_and_override() -> None:
    with pytest.raises(NanchangOptionsError, match="unknown Nanchang preset 'tenhou'"):
        preset("tenhou")
    with pytest.raises(NanchangOptionsError, match="unknown Nanchang option"):
        PRESETS["nanchang"].with_overrides(red_fives=3)


def test_illegal_actions_are_refused_with_a_reason_and_change_nothing() -> None:
    g = game([D, X1, X2, X3])
    before = copy.deepcopy(g)
    cases = [
        (Action(ActionType.DISCARD, 1, T("1m")), "seat 0's turn"),
        (Action(ActionType.DISCARD, 0, T("1z")), "holds no 1z"),
        (Action(ActionType.TSUMO, 0), "tsumo is not allowed now"),
        (Action(ActionType.RIICHI, 0, T("9m")), "riichi is not allowed now"),
        (Action(ActionType.DISCARD, 7, T("9m")), "no seat 7"),
    ]
    for a, reason in cases:
        assert a not in legal_actions(g, a.seat)
        with pytest.raises(IllegalAction, match=reason):
            apply(g, a)
        assert g == before
    act(g, 0, "discard", "9m")
    with pytest.raises(IllegalAction, match="round is not over"):
        next_round(g)


def test_a_seat_answers_a_window_once() -> None:
    g = game([D, "4m6m 2p5p8p 2s5s8s 2z2z 6z6z 9p", "1m5m5m 2p5p8p 2s5s8s 1z1z 5z5z", X3])
    act(g, 0, "discard", "5m")
    act(g, 1, "pass")
    assert why_illegal(g, Action(ActionType.PASS, 1)) == "seat 1 has already answered"
    assert why_illegal(g, Action(ActionType.PASS, 3)) == "seat 3 has nothing to answer"


def test_observation_shows_only_what_the_seat_may_see() -> None:
    g = new_game(PRESETS["nanchang"], b"obs")
    me = g.dealer
    o = observe(g, me)
    assert o.hand == tuple(g.hand_kinds(me)) and len(o.hand) == 14
    assert o.hand_sizes[me] == 14 and sum(o.hand_sizes) == 53
    assert o.jokers == g.jokers and o.indicator == g.wall.indicator
    assert o.wall_left == 83 and o.turn == me and o.waiting_on == {me}
    other = observe(g, (me + 1) % 4)
    assert other.drawn is None and other.hand == tuple(g.hand_kinds((me + 1) % 4))
    spectator = observe(g, None)
    assert spectator.hand == () and spectator.drawn is None
    with pytest.raises(ValueError, match="no seat 4"):
        observe(g, 4)


def test_a_call_window_shows_each_seat_only_its_own_question() -> None:
    g = game([D, "4m6m 2p5p8p 2s5s8s 2z2z 6z6z 9p", "1m5m5m 2p5p8p 2s5s8s 1z1z 5z5z", X3])
    act(g, 0, "discard", "5m")
    assert observe(g, 1).waiting_on == {1} and observe(g, 2).waiting_on == {2}
    assert observe(g, 3).waiting_on == frozenset() and observe(g, None).waiting_on == frozenset()
    assert observe(g, 3).last_discard == (0, T("5m"))


def test_masks_hide_other_seats_tiles() -> None:
    g = new_game(PRESETS["nanchang"], b"mask")
    for e in g.start_events:
        if isinstance(e, Dealt):
            assert mask(e, e.seat) == e and e.tiles is not None
            for other in (None, *(s for s in range(4) if s != e.seat)):
                assert not visible_to(e, other)
                assert mask(e, other) == Dealt(e.seat, None, e.count)
        else:
            assert all(mask(e, s) == e for s in (None, 0, 1, 2, 3))
    d = Drew(2, T("3p"), replacement=True)
    assert mask(d, 1) == Drew(2, None, replacement=True) and mask(d, 2) == d


def test_replay_rebuilds_the_game_from_seed_and_log() -> None:
    from server.bots.nanchang import NanchangBot
    from server.bots.selfplay import Checks, play_game

    opts = PRESETS["nanchang-east"]
    g, _ = play_game(
        opts, b"replay", [NanchangBot(s) for s in range(4)], Checks.none(), first_dealer=2
    )
    assert g.log.count(None) == len(g.round_results) - 1
    again = replay(opts, b"replay", g.log, 2)
    assert again == g and again.final == g.final
    assert replay(opts, b"replay", g.log[:10], 2) != g


def test_score_hand_refuses_bad_input() -> None:
    with pytest.raises(NanchangHandError, match="want 13"):
        score_hand("1m2m3m", "4m", indicator="1z")
    with pytest.raises(NanchangHandError, match="more than four"):
        score_hand("1m1m1m1m 2m3m4m 5m6m7m 8m8m8m", "1m", indicator="1z")
    with pytest.raises(NanchangHandError, match="no red fives"):
        score_hand("0m1m2m 3p4p5p 6s7s8s 1z1z1z 2z", "2z", indicator="1z")
    with pytest.raises(NanchangHandError, match="self-draws"):
        score_hand("1m2m3m 4p5p6p 7s8s9s 1z1z1z 2z", "2z", indicator="5z", gangkai=True)
    with pytest.raises(NanchangHandError, match="cannot parse"):
        score_hand("1x", "2z", indicator="5z")
    kan = [meld("ankan", "3z3z3z3z")]
    r = score_hand(
        "1m2m3m 4p5p6p 7s8s9s 2z", "2z", indicator="5z", melds=kan, tsumo=True, gangkai=True
    )
    assert r is not None and r.joker_points == 0
    assert score_hand("1m2m3m 4p5p6p 7s8s9s 1z1z1z 2z", "6m", indicator="5z") is None
    # 1z1z + 1z2z3z: a wind sequence wins where riichi would not
    assert score_hand("1m2m3m 4p5p6p 7s8s9s 1z1z1z 2z", "3z", indicator="5z") is not None


def test_score_hand_reports_the_hands_joker_points() -> None:
    r = score_hand("1m2m3m 4p5p6p 7m8m 9s 2z2z2z 5z", "5z", indicator="9s")
    assert r is not None and (r.joker_points, r.joker_value) == (2, 2)
    r = score_hand(
        "1m2m3m 4p5p6p 7m8m 9s 2z2z2z 5z", "5z", indicator="9s", others_hold_jokers=False
    )
    assert r is not None and r.joker_value == 4  # 霸王精


def test_clone_is_independent() -> None:
    g = new_game(PRESETS["nanchang"], b"clone")
    c = g.clone()
    assert c == g
    act(c, c.dealer, "discard", tile_str(c.hand_kinds(c.dealer)[0]))
    assert c != g and len(g.log) == 0 and len(g.hands[g.dealer]) == 14
    c.wall.tiles[0], c.wall.tiles[1] = c.wall.tiles[1], c.wall.tiles[0]
    assert g.wall.tiles != c.wall.tiles
