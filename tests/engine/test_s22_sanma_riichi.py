"""Sanma: riichi needs three tiles in the live wall (S22)."""

from __future__ import annotations

from server.engine.riichi import why_illegal
from server.engine.riichi.rules import preset
from tests.engine.scenario import act, action, game, tsumogiri, types

TENHOU = preset("tenhou-sanma")


def test_s22_riichi_with_three_live_tiles_left_but_not_with_two() -> None:
    """R14's rule (one more draw of one's own) with three seats; riichienv's 3p mode
    offers riichi with 3 tiles left (found by the differential test)."""
    draws: list[str | None] = [None] * 55
    draws[51] = "9m"  # the dealer's draw with 3 tiles left after it
    st = game(["123p456p789p11s23s", None, None], draws=draws, dora="4z", rules=TENHOU)
    while st.live_left() > 3:
        tsumogiri(st)
    assert st.turn == 0 and st.live_left() == 3
    assert "riichi" in types(st, 0)
    act(st, 0, "riichi", "9m")
    # with 2 left after the draw, no riichi
    draws[51], draws[52] = None, "9m"
    st = game([None, "123p456p789p11s23s", None], draws=draws, dora="4z", rules=TENHOU)
    while st.live_left() > 2:
        tsumogiri(st)
    assert st.turn == 1 and "riichi" not in types(st, 1)
    assert why_illegal(st, action(1, "riichi", "9m")) == (
        "riichi needs at least 3 tiles left in the live wall"
    )
