"""Names of external mjai bots: ``mjai:CMD`` on the command line, the operator's list.

``jantaku simulate --bots efficient,mjai:python bot.py`` names a bot by its command
(mjai.app's form; ``mjai-lines:CMD`` for Mortal's one event a line). An operator
registers bots for the lobby in ``JANTAKU_MJAI_BOTS``: ``name=command`` entries
separated by ``;`` (``name=lines:command`` for the one-event-a-line form), each then
a bot level ``mjai-<name>`` of the four-player game.

Parsing only (the settings check it): no bot is started here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Form = Literal["array", "lines"]

PREFIXES: dict[str, Form] = {"mjai:": "array", "mjai-lines:": "lines"}
LEVEL_PREFIX = "mjai-"
# A bot an account connects over /ws/bot (server/external/remote.py): remote-<name>.
REMOTE_PREFIX = "remote-"


@dataclass(frozen=True, slots=True)
class ExternalBot:
    """A registered external bot: its level name, command and form."""

    level: str
    command: str
    form: Form


def parse_spec(name: str) -> tuple[str, Form] | None:
    """``mjai:CMD`` -> (CMD, form); None for a level of ours."""
    for prefix, form in PREFIXES.items():
        if name.startswith(prefix):
            command = name[len(prefix) :].strip()
            if not command:
                raise ValueError(f"{name!r}: name the bot's command after {prefix!r}")
            return command, form
    return None


def parse_registry(text: str) -> dict[str, ExternalBot]:
    """``JANTAKU_MJAI_BOTS``: ``name=command; name=lines:command`` -> bots by level."""
    out: dict[str, ExternalBot] = {}
    for entry in text.split(";"):
        entry = entry.strip()
        if not entry:
            continue
        name, eq, command = entry.partition("=")
        name, command = name.strip(), command.strip()
        if not eq or not name or not command:
            raise ValueError(f"JANTAKU_MJAI_BOTS: {entry!r} is not name=command")
        if not name.replace("-", "").replace("_", "").isalnum() or len(name) > 24:
            raise ValueError(f"JANTAKU_MJAI_BOTS: {name!r} is not a short name (a-z, 0-9, -, _)")
        form: Form = "array"
        if command.startswith("lines:"):
            form, command = "lines", command[len("lines:") :].strip()
        level = LEVEL_PREFIX + name
        if level in out:
            raise ValueError(f"JANTAKU_MJAI_BOTS: {name!r} twice")
        out[level] = ExternalBot(level, command, form)
    return out
