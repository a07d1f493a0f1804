"""Rules checked on real Tenhou rounds: the log shows the situation, the engine agrees.

Each test names the rule (RULES.md) and the round; the verifier replays the round
and the next round's header (dealer, honba, sticks, scores), or the game's end.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from server.records.load import load_log
from server.records.model import DrawType, LoggedGame
from server.records.verify import verify_game

MJLOG = Path(__file__).parents[1] / "fixtures" / "mjx" / "mjlog"


def rounds_from(name: str, label: str) -> tuple[LoggedGame, int]:
    """The game with only the labelled round and its successor (or the game's end) kept."""
    game = load_log(MJLOG / name)
    i = next(i for i, r in enumerate(game.rounds) if r.label == label)
    last = i + 1 >= len(game.rounds)
    game.rounds = game.rounds[i : i + 2]
    if not last:
        game.final_scores = None
    return game, 0


def assert_verifies(game: LoggedGame) -> None:
    report = verify_game(game)
    assert {r.label: r.diffs for r in report.rounds if not r.ok} == {}


def test_r9_r20_double_ron_sticks_and_honba_go_to_the_first_winner() -> None:
    game, i = rounds_from("2020052700gm-00a9-0000-75a4695c.mjlog", "E2-2")
    r = game.rounds[i]
    assert (r.honba, r.riichi_sticks) == (2, 1)  # one more stick is put down this round
    first, second = r.wins
    assert (first.who, second.who, first.from_who) == (2, 3, 1)
    assert first.deltas == (0, -8600, 10600, 0)  # 8000 + 600 honba + 2000 sticks
    assert second.deltas == (0, -1300, 0, 1300)  # no honba for the second winner
    assert_verifies(game)


def test_r24_pao_pays_the_whole_daisangen_tsumo() -> None:
    game, i = rounds_from("pao-tsumo.mjlog", "E4-0")
    (w,) = game.rounds[i].wins
    assert w.tsumo and w.pao == 0 and w.yakuman == (("daisangen", 1),)
    assert w.deltas[0] == -32000 and w.deltas[w.who] == 32000
    assert_verifies(game)


def test_r17_nagashi_mangan_pays_as_a_mangan_tsumo() -> None:
    game, i = rounds_from("2019082700gm-00a9-0000-63d1f136.mjlog", "E4-0")
    d = game.rounds[i].draw
    assert d is not None and d.type is DrawType.NAGASHI_MANGAN
    assert d.deltas == (-2000, -2000, 8000, -4000)
    assert_verifies(game)


@pytest.mark.parametrize(
    ("name", "label", "kind"),
    [
        ("2010112714gm-00a9-0000-d497e395.mjlog", "S1-0", DrawType.KYUUSHU),
        ("2020052221gm-00a9-0000-6f0524c7.mjlog", "S3-0", DrawType.SUUFON_RENDA),
        ("2018040923gm-00a9-0000-1833afca.mjlog", "E3-0", DrawType.SUUCHA_RIICHI),
        ("2016052515gm-00a9-0000-c4d72066.mjlog", "E1-2", DrawType.SUUKAN_SANRA),
    ],
)
def test_r18_abortive_draws(name: str, label: str, kind: DrawType) -> None:
    game, i = rounds_from(name, label)
    d = game.rounds[i].draw
    assert d is not None and d.type is kind
    # R19: every abortive draw keeps the dealer and adds a honba
    nxt = game.rounds[i + 1]
    assert (nxt.dealer, nxt.honba) == (game.rounds[i].dealer, game.rounds[i].honba + 1)
    assert_verifies(game)


def test_r25_tobi_ends_the_game_early() -> None:
    assert [r.label for r in load_log(MJLOG / "2017040900gm-00a9-0000-af5434e3.mjlog").rounds] == [
        "E1-0",
        "E1-1",
    ]
    game, _ = rounds_from("2017040900gm-00a9-0000-af5434e3.mjlog", "E1-1")
    assert game.final_scores is not None and min(game.final_scores) < 0
    assert_verifies(game)  # includes: the engine ends the game here with these points


@pytest.mark.parametrize(
    ("name", "last", "final"),
    [
        # seat 3 reaches exactly the 30000 return points in West 1: the game ends there
        ("2011020416gm-00a9-0000-025480d4.mjlog", "W1-0", (27900, 24600, 17500, 30000)),
        # nobody reaches 30000: the extension stops after West 4
        ("2020060723gm-00a9-0000-58807e27.mjlog", "W4-0", (27700, 24600, 21100, 26600)),
    ],
)
def test_r25_west_round_extension(name: str, last: str, final: tuple[int, ...]) -> None:
    game, _ = rounds_from(name, last)
    assert len(game.rounds) == 1 and game.final_scores == final
    assert_verifies(game)  # the engine ends the game after this round with these points
