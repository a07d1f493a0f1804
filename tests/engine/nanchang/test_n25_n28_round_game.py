"""N25-N28: the exhausted wall (荒牌), the ledger, dealer continuation, game length, standings."""

from __future__ import annotations

import pytest

from server.engine.actions import ActionType
from server.engine.nanchang import (
    PRESETS,
    Event,
    GameEnded,
    NanchangGame,
    NanchangOptions,
    RoundEnded,
    WallExhausted,
    legal_actions,
    new_game,
    next_round,
    waiting_on,
)
from server.engine.nanchang.settlement import standings
from server.engine.tiles import parse_tile, tile_str
from tests.engine.nanchang.helpers import X1, X2, X3, D, act, ended, game

X1J = "1m4m7m 2p5p8p 2s5s8s 1z1z 5z 9s"  # holds one 正精


def _exhaust(options: NanchangOptions = PRESETS["nanchang"]) -> tuple[NanchangGame, list[Event]]:
    draws: list[int | None] = [None] * 82 + [
        parse_tile("2z")
    ]  # the 136th tile, which seat 2 (X2) holds a pair of
    g = game([D, X1J, X2, X3], draws=draws, options=options)
    events: list[Event] = []
    while g.phase == "play":
        if g.step in ("calls", "rob"):
            for s in sorted(waiting_on(g)):
                events += act(g, s, "pass")
            continue
        seat = g.turn
        legal = legal_actions(g, seat)
        if not g.live:
            assert not {a.type for a in legal} & {ActionType.ANKAN, ActionType.KAKAN}
        d = g.drawn[seat]
        tile = d // 4 if d is not None else g.hands[seat][-1] // 4
        events += act(g, seat, "discard", tile_str(tile))
    return g, events


def test_n25_the_last_discard_is_only_won_on_then_the_round_is_drawn() -> None:
    """N25: 黄牌：每盘抓完第136张牌，打出后仍无人糊牌; no call and no kan without a tile left."""
    g, events = _exhaust()
    assert any(isinstance(e, WallExhausted) for e in events)
    result = ended(events).result
    assert result.kind == "draw" and result.win is None
    assert g.rivers[3][-1].tile == 28 and not g.rivers[3][-1].called  # nobody pons the last 2z
    # the joker bonus still settles: seat 1 alone holds a 正精 (霸王: 2 x 2 from each)
    (b,) = result.joker_bonus
    assert (b.seat, b.points, b.value, b.bawang) == (1, 2, 4, True)
    assert result.deltas == (-4, 12, -4, -4)


def test_n25_options_skip_the_joker_bonus_on_a_draw() -> None:
    _g, events = _exhaust(PRESETS["nanchang"].with_overrides(joker_bonus_on_draw=False))
    result = ended(events).result
    assert result.joker_bonus == () and result.deltas == (0, 0, 0, 0)


def test_n26_the_ledger_starts_at_start_points_and_keeps_its_total() -> None:
    """N26: points move between seats only (a ledger instead of sticks and honba)."""
    opts = PRESETS["nanchang"].with_overrides(start_points=100)
    g = new_game(opts, b"ledger")
    assert g.scores == [100] * 4
    g2 = game([D, X1J, X2, X3], scores=[10, 20, 30, 40])
    assert g2.scores == [10, 20, 30, 40]


def _win_by(
    dealer_wins: bool, options: NanchangOptions, hand_number: int = 0, round_wind: int = 0
) -> NanchangGame:
    if dealer_wins:
        g = game(
            ["1m2m3m 4p5p6p 7m8m9m 3z3z3z 6z6z", X1, X2, X3.replace("3z3z", "4z4z")],
            options=options,
            hand_number=hand_number,
            round_wind=round_wind,
        )
        act(g, 0, "tsumo")
    else:
        s3 = "5m6m7m 4p5p6p 7p8p9p 7z7z 2z3z"
        g = game(
            [D.replace("9m", "4z"), X1, X2.replace("2z2z", "3p3p"), s3],
            options=options,
            hand_number=hand_number,
            round_wind=round_wind,
        )
        act(g, 0, "discard", "4z")
        act(g, 3, "ron", "4z")
    return g


def test_n27_the_dealer_keeps_the_deal_after_a_win() -> None:
    """N27: 庄家按逆时针方向轮转，糊牌后庄家可以连庄."""
    g = _win_by(True, PRESETS["nanchang"])
    assert g.round_results[-1].dealer_keeps and g.phase == "round_end"
    next_round(g)
    assert (g.dealer, g.repeat, g.hand_number, g.round_wind) == (0, 1, 0, 0)
    assert g.log[-1] is None


def test_n27_otherwise_the_deal_passes_to_the_next_seat() -> None:
    g = _win_by(False, PRESETS["nanchang"])
    assert not g.round_results[-1].dealer_keeps
    next_round(g)
    assert (g.dealer, g.repeat, g.hand_number, g.round_wind) == (1, 0, 1, 0)


def test_n27_a_drawn_round_passes_the_deal_unless_the_option_says() -> None:
    g, _ = _exhaust()
    assert not g.round_results[-1].dealer_keeps
    g, _ = _exhaust(PRESETS["nanchang"].with_overrides(dealer_keeps_on_draw=True))
    assert g.round_results[-1].dealer_keeps


@pytest.mark.parametrize(("preset", "last_wind"), [("nanchang-east", 0), ("nanchang", 3)])
def test_n27_the_game_ends_when_the_deal_leaves_the_last_dealer(
    preset: str, last_wind: int
) -> None:
    """N27: 圈：行牌一周为一圈。从东风开始，到北风结束; 局：每打完四圈为一局."""
    opts = PRESETS[preset]
    g = _win_by(False, opts, hand_number=3, round_wind=last_wind)
    assert g.phase == "game_end" and g.final is not None
    # the game_end event says why on the wire (the final screen shows it)
    from server.wire.nanchang import event_json

    assert event_json(GameEnded(g.final))["reason"] == "rounds_done"
    g = _win_by(True, opts, hand_number=3, round_wind=last_wind)
    assert g.phase == "round_end"  # the last dealer keeps the deal: the game goes on
    if preset == "nanchang":  # the end of the first 圈 is not the end of the game
        g = _win_by(False, opts, hand_number=3, round_wind=0)
        assert g.phase == "round_end"
        next_round(g)
        assert (g.round_wind, g.hand_number, g.dealer) == (1, 0, 1)


def test_n27_a_whole_game_has_every_dealer_in_every_round() -> None:
    from server.bots.nanchang import NanchangBot
    from server.bots.selfplay import Checks, play_game

    g, _ = play_game(
        PRESETS["nanchang-east"], b"whole", [NanchangBot(s) for s in range(4)], Checks.none()
    )
    results = g.round_results
    changes = [r for r in results if not r.dealer_keeps]
    assert len(changes) == 4 and results[-1] is changes[-1]
    assert [r.hand_number for r in changes] == [0, 1, 2, 3]
    assert [r.dealer for r in changes] == [(g.first_dealer + i) % 4 for i in range(4)]


def test_n28_standings_by_points_ties_to_the_earlier_seat_from_the_first_dealer() -> None:
    """N28: final standings: most points first; a tie goes to the seat nearer the first dealer."""
    got = standings([5, 10, 5, -20], first_dealer=3)
    assert [(s.seat, s.rank) for s in got] == [(1, 1), (0, 2), (2, 3), (3, 4)]
    got = standings([5, 10, 5, -20], first_dealer=1)
    assert [s.seat for s in got] == [1, 2, 0, 3]
    g = _win_by(False, PRESETS["nanchang-east"], hand_number=3)
    assert g.final == standings(g.scores, g.first_dealer)


def test_n28_game_end_event() -> None:
    opts = PRESETS["nanchang-east"]
    g = game(["1m2m3m 4p5p6p 7m8m9m 3z3z3z 6z6z", X1, X2, X3.replace("3z3z", "4z4z")], options=opts)
    assert not any(isinstance(e, (GameEnded, RoundEnded)) for e in g.start_events)
