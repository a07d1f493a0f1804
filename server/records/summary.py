"""One game's figures per seat, from its recorded events (the stats pages add these up).

What counts, the way Tenhou's and Mahjong Soul's stat pages count it
(docs/players.md gives the definitions and where they differ):

- a round is one deal (``round_start``), abortive draws included;
- a win is one winner of a round (each winner of a double ron wins once);
  ``tsumo`` counts the self-drawn ones;
- a deal-in is a round in which the seat's discard (or the kan robbed by
  chankan) was won on: one per round even when two players win on it;
- a riichi is a declaration the table accepted (``riichi_accepted``);
- a call round is a round in which the seat made at least one open call (chi,
  pon, open kan); a concealed kan is not a call, an added kan follows a pon;
- win points are the value of the hand as won, before honba and riichi sticks
  (riichi: the ron amount or the tsumo total; Nanchang: what the others pay for
  the hand); deal-in points are the same value of the hands dealt into (Nanchang,
  where every seat pays: what the discarder paid);
- the yakuman list names every yakuman of every win.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class SeatFigures:
    rounds: int = 0
    wins: int = 0
    tsumo: int = 0
    deal_ins: int = 0
    riichi: int = 0
    calls: int = 0
    win_points: int = 0
    deal_in_points: int = 0
    yakuman: list[list[str]] = field(default_factory=list)  # one list of ids per win


OPEN_CALLS = frozenset({"chi", "pon", "daiminkan", "minkan"})


def game_kind(rules: dict[str, Any]) -> str:
    """ "riichi", "sanma" or "nanchang" for a game's stored rules."""
    variant = rules.get("variant")
    if variant in ("riichi", "sanma", "nanchang"):
        return str(variant)
    return "sanma" if rules.get("seats") == 3 else "riichi"


def summarise(
    kind: str, seats: int, events: Iterable[tuple[str, dict[str, Any]]]
) -> list[SeatFigures]:
    """Figures per seat from the game's engine events, ``(type, data)`` in record order."""
    out = [SeatFigures() for _ in range(seats)]
    called: set[int] = set()

    def end_round() -> None:
        for seat in called:
            out[seat].calls += 1
        called.clear()

    for etype, data in events:
        if etype == "round_start":
            end_round()
            for f in out:
                f.rounds += 1
        elif etype == "call":
            if data.get("meld") in OPEN_CALLS:
                called.add(int(data["seat"]))
        elif etype == "riichi_accepted":
            out[int(data["seat"])].riichi += 1
        elif etype == "agari":  # riichi and sanma
            dealt_in: set[int] = set()
            for w in data["winners"]:
                points = int(w["points"])
                _win(out, int(w["seat"]), w.get("from_seat"), points, points, dealt_in)
                ids = [y["id"] for y in w.get("yakuman") or ()]
                if ids:
                    out[int(w["seat"])].yakuman.append(ids)
            for seat in dealt_in:
                out[seat].deal_ins += 1
        elif etype == "win":  # Nanchang
            w = data["win"]
            payments = w["score"]["payments"]
            seat, src = int(w["seat"]), w.get("from_seat")
            paid = int(payments[int(src)]) if src is not None else 0
            dealt_in = set()
            _win(out, seat, src, int(payments[seat]), paid, dealt_in)
            for s in dealt_in:
                out[s].deal_ins += 1
    end_round()
    return out


def _win(
    out: list[SeatFigures],
    seat: int,
    src: int | None,
    points: int,
    paid: int,
    dealt_in: set[int],
) -> None:
    """One winner: ``points`` the hand's value to them, ``paid`` what ``src`` paid for it."""
    f = out[seat]
    f.wins += 1
    f.win_points += points
    if src is None or int(src) == seat:
        f.tsumo += 1
    else:
        out[int(src)].deal_in_points += paid
        dealt_in.add(int(src))
