"""Read a game log file in any supported format."""

from __future__ import annotations

from pathlib import Path

from server.records.mjlog import looks_like_mjlog, parse_mjlog
from server.records.model import LoggedGame, RecordError
from server.records.tenhou6 import looks_like_tenhou6, parse_tenhou6

MAX_LOG_BYTES = 8 * 1024 * 1024  # a hanchan mjlog is ~30 kB; refuse anything absurd


def parse_log(data: bytes, source: str = "<log>") -> LoggedGame:
    """Parse mjlog XML (plain or gzip) or tenhou.net/6 JSON, detected from the content."""
    if len(data) > MAX_LOG_BYTES:
        raise RecordError(f"{source}: file is larger than {MAX_LOG_BYTES} bytes")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if looks_like_mjlog(data):
        return parse_mjlog(data, source)
    if looks_like_tenhou6(data):
        return parse_tenhou6(data, source)
    raise RecordError(f"{source}: neither mjlog XML nor tenhou.net/6 JSON")


def load_log(path: str | Path) -> LoggedGame:
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise RecordError(f"{p}: cannot read: {exc.strerror}") from None
    return parse_log(data, str(p))
