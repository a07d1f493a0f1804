"""Bots at a table: a bot seat, or a human's seat taken over after the grace period.

A bot plays when its decision's ``_BotTurn`` comes (``bot_delay`` after the
decision started, timers.py). It is made on its first turn by the table's bot
factory and sees only the seat's observation. A bot that fails or answers an
illegal action must not stall the table: the seat plays the timeout default.
An external bot (external.py) decides as a task; its answer comes back as a
``_BotAnswer`` for the same decision token, and the table goes on meanwhile.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from server.bots import TAKEOVER
from server.tables import external
from server.tables.messages import _BotAnswer, _BotTurn, default_action

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
            if external.is_external(st.bot):
                external.catch_up(st.bot, t.variant, t.state, msg.seat)
        obs = t.variant.observe(t.state, msg.seat)
        if external.is_external(st.bot):
            # answered later, as a _BotAnswer: the table goes on meanwhile
            external.ask(t, msg.seat, msg.token, st.bot, obs)
            return
        action = st.bot.choose(obs)
    except Exception:
        log.exception("table %s: bot %s failed", t.game_id, level)
        action = default_action(legal)
    if action not in legal:
        log.error("table %s: bot %s chose illegal %r", t.game_id, level, action)
        action = default_action(legal)
    t.apply(action, "bot")


def on_bot_answer(t: Table, msg: _BotAnswer) -> None:
    """An external bot's answer: played if its decision is still open and it is legal."""
    d = t.timers.decisions.get(msg.seat)
    if d is None or d.token != msg.token or not t.seats[msg.seat].bot_controlled:
        return  # that decision is over
    legal = t.variant.legal(t.state, msg.seat)
    action = msg.action
    if action is None or action not in legal:
        action = default_action(legal)
    t.apply(action, "bot")
