"""The frames a table sends, encoded once (orjson: encoding views is a large part of a
table's CPU time per action)."""

from __future__ import annotations

from typing import Any

import orjson

PUBLIC = -1  # seat mask of an event every seat and spectator may see


def dumps(obj: Any) -> str:
    return orjson.dumps(obj).decode()


def error_frame(code: str, message: str, ref: Any = None) -> str:
    msg: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if ref is not None:
        msg["ref"] = ref
    return dumps(msg)


def batch_frame(frames: list[str]) -> str:
    """Several frames as one ``{"type": "batch", "messages": [...]}`` frame."""
    if len(frames) == 1:
        return frames[0]
    return '{"type":"batch","messages":[' + ",".join(frames) + "]}"
