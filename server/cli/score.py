"""``jantaku score``: score hands, one JSON object per line on stdin and stdout.

The objects are those of ``server.wire.calc``. A line that cannot be scored
gets an ``{"error": ...}`` line and the command goes on with the next one;
blank lines are skipped. Exit status: 0, or 1 when any line was bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from server.engine.riichi.rules import PRESETS
from server.wire.calc import error, score_request

MAX_LINE = 16 * 1024


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rules",
        choices=sorted(PRESETS),
        default=None,
        help="preset for lines without a 'rules' field (default: standard)",
    )


def score_line(line: str, default_rules: str | None = None) -> dict[str, Any]:
    """The output object for one input line."""
    if len(line) > MAX_LINE:
        return error("bad_input", f"line longer than {MAX_LINE} characters")
    try:
        obj = json.loads(line)
    except ValueError as exc:
        return error("bad_input", f"not valid JSON: {exc}")
    if default_rules is not None and isinstance(obj, dict) and "rules" not in obj:
        obj = {**obj, "rules": default_rules}
    return score_request(obj)


def run(args: argparse.Namespace, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    src = stdin if stdin is not None else sys.stdin
    dst = stdout if stdout is not None else sys.stdout
    status = 0
    for line in src:
        if not line.strip():
            continue
        out = score_line(line, args.rules)
        if "error" in out and out["error"]["code"] == "bad_input":
            status = 1
        dst.write(json.dumps(out, ensure_ascii=False) + "\n")
        # Flush per line so a caller driving us through a pipe gets each answer at once.
        dst.flush()
    return status
