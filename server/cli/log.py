"""``jantaku log``: work with game logs (``verify`` replays Tenhou logs through the engine)."""

from __future__ import annotations

import argparse
import sys

from server.records.load import load_log
from server.records.model import RecordError
from server.records.verify import verify_game


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="log_command", required=True)
    v = sub.add_parser(
        "verify",
        help="replay Tenhou mjlog XML / tenhou.net/6 JSON files and compare every result",
        description=(
            "Replay each round of each file through the engine under the tenhou preset "
            "and compare wins, draws, score changes and final scores with the log. "
            "Prints one line per round that differs and a summary; exit status 0 only "
            "when every round matches."
        ),
    )
    v.add_argument("files", nargs="+", metavar="FILE", help="mjlog (.mjlog, .xml, gzip) or JSON")
    v.add_argument("-q", "--quiet", action="store_true", help="print only the summary")


def run(args: argparse.Namespace) -> int:
    if args.log_command == "verify":
        return verify_files(args.files, quiet=args.quiet)
    raise AssertionError(f"unknown log command {args.log_command!r}")  # argparse prevents this


def verify_files(files: list[str], *, quiet: bool = False) -> int:
    """Verify each file; one line per differing round, then ``N rounds, M match``."""
    total = matched = 0
    bad_files = 0
    for path in files:
        try:
            game = load_log(path)
        except RecordError as exc:
            print(f"error: {exc}", file=sys.stderr)
            bad_files += 1
            continue
        report = verify_game(game)
        for r in report.rounds:
            total += 1
            matched += r.ok
            if not r.ok and not quiet:
                print(f"{path} {r.label}: {'; '.join(r.diffs)}")
    summary = f"{total} rounds, {matched} match"
    if bad_files:
        summary += f"; {bad_files} file(s) could not be read"
    print(summary)
    return 0 if matched == total and not bad_files else 1
