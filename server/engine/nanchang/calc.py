"""Score one Nanchang hand outside a game (``jantaku score`` / ``POST /api/score``).

Seats in the result: the winner is seat 0; on a win from a discard (or a robbed
kan) the discarder is seat 1; the dealer is seat 0 when ``dealer``, else seat 1
when ``discarder_is_dealer`` or on a self-draw, else seat 2.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from server.engine.nanchang.jokers import Jokers, chongguan_value
from server.engine.nanchang.melds import Meld
from server.engine.nanchang.options import PRESETS, NanchangOptions
from server.engine.nanchang.scoring import WinContext, WinScore, score_win
from server.engine.tiles import Kind, TileError, parse_tile, parse_tiles


class NanchangHandError(ValueError):
    """A hand that cannot be scored as given (wrong size, a fifth tile, a bad flag mix)."""


@dataclass(frozen=True, slots=True)
class HandScore:
    win: WinScore
    jokers: Jokers
    joker_points: int  # N22: the hand's own jokers (concealed, melded, won on)
    joker_value: int  # after 冲关, and 霸王精 when no other seat holds a joker
    dealer_seat: int


def _kinds(x: Sequence[Kind] | str, what: str) -> list[Kind]:
    try:
        ks = parse_tiles(x) if isinstance(x, str) else list(x)
    except TileError as exc:
        raise NanchangHandError(f"{what}: {exc}") from None
    for k in ks:
        if not 0 <= k < 34:
            raise NanchangHandError(f"{what}: no tile {k} in Nanchang (no red fives)")
    return ks


def score_hand(
    hand: Sequence[Kind] | str,
    win_tile: Kind | str,
    *,
    indicator: Kind | str,
    melds: Sequence[Meld] = (),
    tsumo: bool = False,
    dealer: bool = False,
    discarder_is_dealer: bool = False,
    gangkai: bool = False,
    qianggang: bool = False,
    tianhu: bool = False,
    dihu: bool = False,
    others_hold_jokers: bool = True,
    options: NanchangOptions | None = None,
) -> HandScore | None:
    """The score of a winning hand, or None when the tiles do not win.

    ``hand``: the concealed tiles before ``win_tile`` (13 less 3 per meld; for 天糊
    the dealer's other 13). ``indicator``: the turned-up tile (its kind is 正精, the
    next one 副精). Jokers in ``hand`` stand for any tile; ``win_tile`` does too on a
    self-draw and is its own tile otherwise. Raises NanchangHandError on bad input.
    """
    opts = options or PRESETS["nanchang"]
    concealed = _kinds(hand, "hand")
    win = _kinds([win_tile] if isinstance(win_tile, int) else win_tile, "win tile")
    ind = _kinds([indicator] if isinstance(indicator, int) else indicator, "indicator")
    if len(win) != 1 or len(ind) != 1:
        raise NanchangHandError("win tile and indicator: one tile each")
    if len(concealed) + 3 * len(melds) != 13:
        raise NanchangHandError(
            f"hand: {len(concealed)} tiles with {len(melds)} melds; want {13 - 3 * len(melds)}"
        )
    everything = concealed + win + [k for m in melds for k in m.tiles]
    for k in set(everything):
        if everything.count(k) > 4:
            raise NanchangHandError(f"more than four of tile {k}")
    if (tianhu or gangkai) and not tsumo:
        raise NanchangHandError("tianhu and gangkai are self-draws (tsumo)")
    if (dihu or qianggang) and tsumo:
        raise NanchangHandError("dihu and qianggang are wins on another seat's tile")
    if (tianhu or dihu) and melds:
        raise NanchangHandError("tianhu and dihu come before any meld")
    if tianhu and not dealer:
        raise NanchangHandError("tianhu is the dealer's")
    if dihu and (dealer or not discarder_is_dealer):
        raise NanchangHandError("dihu is won on the dealer's first discard")
    if gangkai and not any(m.is_kan for m in melds):
        raise NanchangHandError("gangkai needs a kan")
    jk = Jokers.from_indicator(ind[0])
    ctx = WinContext(
        tsumo=tsumo,
        gangkai=gangkai,
        qianggang=qianggang,
        tianhu=tianhu,
        dihu=dihu,
        others_hold_jokers=others_hold_jokers,
    )
    discarder = None if tsumo else 1
    dealer_seat = 0 if dealer else 1 if (discarder_is_dealer or tsumo) else 2
    if tianhu:
        score = score_win(concealed + win, None, melds, jk, ctx, opts, winner=0, dealer=0)
    else:
        score = score_win(
            concealed,
            win[0],
            melds,
            jk,
            ctx,
            opts,
            winner=0,
            dealer=dealer_seat,
            discarder=discarder,
        )
    if score is None:
        return None
    points = jk.total(everything)
    value = chongguan_value(points) if opts.chongguan else points
    if opts.bawang and points and not others_hold_jokers:
        value *= 2
    return HandScore(score, jk, points, value, dealer_seat)


def parse_kind(x: str) -> Kind:
    """One tile in notation (``"5p"``), as a Nanchang kind."""
    try:
        k = parse_tile(x)
    except TileError as exc:
        raise NanchangHandError(str(exc)) from None
    if not 0 <= k < 34:
        raise NanchangHandError(f"no tile {x!r} in Nanchang (no red fives)")
    return k
