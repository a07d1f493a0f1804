"""The PyPI ``mjai`` package's ``RulebaseBot`` as an mjai.app stdio bot: ``rulebase.py SEAT``.

Runs in the environment that has ``mjai`` (``.venv-mjai``: it pins an old ``mahjong``).
Each input line is a JSON array of events; each answer one action. Its log lines
(loguru, one per discard) are switched off: nobody reads them here.
"""

import sys

from loguru import logger
from mjai.bot.rulebase import RulebaseBot

logger.remove()
RulebaseBot(player_id=int(sys.argv[1])).start()
