"""A game's figures per seat from its events (server/records/summary.py), by hand."""

from __future__ import annotations

from typing import Any

from server.records.summary import game_kind, summarise


def win(seat: int, src: int | None, points: int, yakuman: tuple[str, ...] = ()) -> dict[str, Any]:
    return {
        "seat": seat,
        "from_seat": src,
        "points": points,
        "yakuman": [{"id": y, "multiplier": 1} for y in yakuman],
    }


RIICHI: list[tuple[str, dict[str, Any]]] = [
    # Round 1: seat 1 pons then adds to it (one call round), seat 2's concealed kan is
    # no call, seat 0 riichi and tsumo for 8000.
    ("round_start", {}),
    ("call", {"seat": 1, "meld": "pon"}),
    ("kan", {"seat": 1, "meld": "kakan"}),
    ("kan", {"seat": 2, "meld": "ankan"}),
    ("riichi_accepted", {"seat": 0}),
    ("agari", {"winners": [win(0, None, 8000)]}),
    # Round 2: seat 3 chi and pon (one call round); double ron off seat 2 (one deal-in,
    # 12000 + 3900), seat 1's a yakuman.
    ("round_start", {}),
    ("call", {"seat": 3, "meld": "chi"}),
    ("call", {"seat": 3, "meld": "pon"}),
    ("agari", {"winners": [win(1, 2, 12000, ("kokushi",)), win(3, 2, 3900)]}),
    # Round 3: a draw. Round 4: seat 2 robs seat 1's kan (chankan) for 2000.
    ("round_start", {}),
    ("ryuukyoku", {"reason": "exhaustive"}),
    ("round_start", {}),
    ("agari", {"winners": [win(2, 1, 2000)]}),
]


def figures(kind: str, n: int, events: list[tuple[str, dict[str, Any]]]) -> list[tuple[int, ...]]:
    return [
        (f.rounds, f.wins, f.tsumo, f.deal_ins, f.riichi, f.calls, f.win_points, f.deal_in_points)
        for f in summarise(kind, n, events)
    ]


def test_riichi_by_hand() -> None:
    assert figures("riichi", 4, RIICHI) == [
        (4, 1, 1, 0, 1, 0, 8000, 0),
        (4, 1, 0, 1, 0, 1, 12000, 2000),
        (4, 1, 0, 1, 0, 0, 2000, 15900),
        (4, 1, 0, 0, 0, 1, 3900, 0),
    ]
    yakuman = [f.yakuman for f in summarise("riichi", 4, RIICHI)]
    assert yakuman == [[], [["kokushi"]], [], []]


def test_nanchang_by_hand() -> None:
    events: list[tuple[str, dict[str, Any]]] = [
        ("round_start", {}),
        ("call", {"seat": 0, "meld": "chi"}),
        ("kan", {"seat": 3, "meld": "ankan"}),
        # seat 1 wins on seat 0's discard: seat 1 gets 60 for the hand, seat 0 pays 30
        ("win", {"win": {"seat": 1, "from_seat": 0, "score": {"payments": [30, 60, 15, 15]}}}),
        ("round_end", {}),
        ("round_start", {}),
        ("call", {"seat": 3, "meld": "minkan"}),
        ("win", {"win": {"seat": 2, "from_seat": None, "score": {"payments": [20, 20, 60, 20]}}}),
    ]
    assert figures("nanchang", 4, events) == [
        (2, 0, 0, 1, 0, 1, 0, 30),
        (2, 1, 0, 0, 0, 0, 60, 0),
        (2, 1, 1, 0, 0, 0, 60, 0),
        (2, 0, 0, 0, 0, 1, 0, 0),
    ]


def test_game_kind() -> None:
    assert game_kind({"variant": "nanchang"}) == "nanchang"
    assert game_kind({"variant": "sanma"}) == "sanma"
    assert game_kind({"name": "tenhou", "seats": 3}) == "sanma"  # an imported log's rules
    assert game_kind({"name": "tenhou", "seats": 4}) == "riichi"
