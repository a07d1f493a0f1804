"""Bots at a table: a bot seat, or a human's seat taken over after the grace period.

A bot plays when its decision's ``_BotTurn`` comes (``bot_delay`` after the
decision started, timers.py). It is made on its first turn by the table's bot
factory and sees only the seat's observation. A bot that fails or answers an
illegal action must not stall the table: the seat plays the timeout default.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from server.bots import TAKEOVER
from server.tables.messages import _BotTurn, default_action

if TYPE_CHECKING:
    from server.tables.table import Table

log = logging.getLogger(__name__)


def on_bot_turn(t: Table, msg: _BotTurn) -> None:
    d = t.timers.decisions.get(msg.seat)
    st = t.seats[msg.seat]
    if d is None or d.token != msg.token or not st.bot_controlled:
        return
    level = st.spec.bot or t.config.takeover_bot or TAKEOVER[t.variant.key]
    legal = t.variant.legal(t.state, msg.seat)
    try:
        if st.bot is None:
            st.bot = t.bot_factory(level, t.bot_seed * 4 + msg.seat, t.variant.key)
        action = st.bot.choose(t.variant.observe(t.state, msg.seat))
    except Exception:
        log.exception("table %s: bot %s failed", t.game_id, level)
        action = default_action(legal)
    if action not in legal:
        log.error("table %s: bot %s chose illegal %r", t.game_id, level, action)
        action = default_action(legal)
    t.apply(action, "bot")
