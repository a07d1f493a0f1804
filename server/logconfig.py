"""Logging for ``jantaku serve``: uvicorn's log config with our own loggers, JSON or text.

uvicorn configures only its own loggers; without a handler for ours, the app's
INFO lines (games resumed, recorder failures ...) went nowhere. ``log_config``
returns the ``logging.config.dictConfig`` dict that ``uvicorn.run`` applies:
uvicorn's loggers and ``server.*`` share one handler on stderr, each line a
JSON object (``JANTAKU_LOG_FORMAT=json``, the default) or plain text.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from typing import Any

# Attributes every LogRecord has: anything else was passed in ``extra=`` and is kept.
_SKIP = set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {
    "message",
    "asctime",
    "color_message",  # uvicorn's copy of the message with terminal colours
}


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, and the record's extras.

    uvicorn's access lines also get ``client``, ``method``, ``path`` and ``status``.
    """

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.name == "uvicorn.access" and isinstance(record.args, tuple):
            args = record.args
            if len(args) == 5:
                out.update(
                    client=args[0], method=args[1], path=args[2], status=args[4], http=args[3]
                )
        for key, value in vars(record).items():
            if key not in _SKIP and key not in out and not key.startswith("_"):
                out[key] = value if isinstance(value, str | int | float | bool) else repr(value)
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


def log_config(fmt: str = "json", level: str = "info") -> dict[str, Any]:
    """The dictConfig for uvicorn: its loggers and ours (``server``), one stderr handler."""
    lvl = level.upper()
    formatter: dict[str, Any] = (
        {"()": "server.logconfig.JsonFormatter"}
        if fmt == "json"
        else {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}
    )
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"main": formatter},
        "handlers": {
            "main": {
                "class": "logging.StreamHandler",
                "formatter": "main",
                "stream": "ext://sys.stderr",
            }
        },
        "loggers": {
            "uvicorn": {"handlers": ["main"], "level": lvl, "propagate": False},
            "uvicorn.error": {"handlers": ["main"], "level": lvl, "propagate": False},
            "uvicorn.access": {"handlers": ["main"], "level": lvl, "propagate": False},
            "server": {"handlers": ["main"], "level": lvl, "propagate": False},
        },
    }
