"""Scenario helpers: a round dealt from a built wall, actions written as strings."""

from __future__ import annotations

from collections.abc import Sequence

from server.engine.actions import Action, ActionType
from server.engine.nanchang import (
    PRESETS,
    Event,
    Meld,
    NanchangGame,
    NanchangOptions,
    NanchangWall,
    RoundEnded,
    apply,
    at_round,
    check_invariants,
    legal_actions,
    waiting_on,
)
from server.engine.tiles import parse_tile, parse_tiles

OPTS = PRESETS["nanchang"]

# Hands that neither win nor call by chance (jokers 9s and 1s by default): suit tiles three
# apart, one wind and one dragon pair (a honour pair is the only thing another discard may pon).
X1 = "1m4m7m 2p5p8p 2s5s8s 1z1z 5z5z"
X2 = "1m4m7m 2p5p8p 2s5s8s 2z2z 6z6z"
X3 = "1m4m7m 2p5p8p 2s5s8s 3z3z 7z7z"
# a dealer's 14 that does not win (no 天糊), with tiles left for the other seats
D = "2m5m8m 3p6p9p 3s6s 4s7s 1p4p7p 9m"


def game(
    hands: Sequence[str | None],
    draws: str | Sequence[int | None] = "",
    *,
    replacements: str = "",
    indicator: str = "9s",
    dealer: int = 0,
    options: NanchangOptions = OPTS,
    scores: Sequence[int] | None = None,
    round_wind: int = 0,
    hand_number: int = 0,
) -> NanchangGame:
    """A round whose hands (the dealer's 14), live draws, kan replacements and indicator are given.

    The default indicator 9s makes 9s (正精) and 1s (副精) the jokers.
    """
    wall = NanchangWall.build(
        hands=list(hands),
        draws=draws,
        replacements=replacements,
        indicator=indicator,
        dealer=dealer,
    )
    g = at_round(options, wall, scores=scores, round_wind=round_wind, hand_number=hand_number)
    check_invariants(g)
    return g


def action(seat: int, type_: str, tile: str | None = None, tiles: str = "") -> Action:
    return Action(
        ActionType(type_),
        seat,
        parse_tile(tile) if tile is not None else None,
        tuple(parse_tiles(tiles)) if tiles else (),
    )


def act(
    g: NanchangGame, seat: int, type_: str, tile: str | None = None, tiles: str = ""
) -> list[Event]:
    """Apply one action, check invariants, return its events."""
    a = action(seat, type_, tile, tiles)
    assert a in legal_actions(g, seat), f"{a!r} not in {legal_actions(g, seat)}"
    events = apply(g, a)
    check_invariants(g)
    return events


def pass_all(g: NanchangGame) -> list[Event]:
    """Every seat asked in the open window passes."""
    events: list[Event] = []
    for s in sorted(waiting_on(g)):
        events += act(g, s, "pass")
    return events


def discard(g: NanchangGame, seat: int, tile: str) -> list[Event]:
    """Discard, then everybody asked passes."""
    events = act(g, seat, "discard", tile)
    if g.phase == "play" and g.step == "calls":
        events += pass_all(g)
    return events


def types(g: NanchangGame, seat: int) -> set[str]:
    return {a.type.value for a in legal_actions(g, seat)}


def ended(events: Sequence[Event]) -> RoundEnded:
    found = [e for e in events if isinstance(e, RoundEnded)]
    assert found, "the round did not end"
    return found[0]


def kinds(text: str) -> list[int]:
    return parse_tiles(text)


def meld(type_: str, tiles: str, called: str | None = None, from_seat: int | None = None) -> Meld:
    return Meld(
        type_,  # type: ignore[arg-type]
        tuple(parse_tiles(tiles)),
        parse_tile(called) if called else None,
        from_seat,
    )
