"""``jantaku log``: work with game logs (``verify`` replays Tenhou logs through the engine)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, TypeVar

from server.records.exports import FORMATS
from server.records.load import load_log
from server.records.model import RecordError
from server.records.verify import verify_game

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from server.db.session import Database

T = TypeVar("T")


class _NoDatabase(Exception):
    """The database could not be opened; ``_database`` has said why."""


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
    e = sub.add_parser(
        "export",
        help="write a finished game of the server's database as tenhou.net/6 JSON or mjai",
        description="Export a finished game from the database that `jantaku serve` uses.",
    )
    e.add_argument("game_id", type=int, metavar="GAME_ID")
    e.add_argument("--format", choices=FORMATS, default="tenhou6")
    e.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    i = sub.add_parser(
        "import",
        help="verify Tenhou logs by replay and store them in the server's database",
        description=(
            "Replay each mjlog XML / tenhou.net/6 JSON file through the engine (as `log verify`) "
            "and store it in the database that `jantaku serve` uses (migrated first), where it "
            "shows in the history and the replay viewer. Exit status 0 only if every file "
            "was imported."
        ),
    )
    i.add_argument("files", nargs="+", metavar="FILE")
    vs = sub.add_parser(
        "verify-seed",
        help="check a finished game's seed against its commitment and re-derive every wall",
        description=(
            "Check that SHA-256 of a finished game's seed is the commitment its players were "
            "shown, derive every round's wall from the seed (docs/players.md) and compare the "
            "tiles dealt and drawn with the record, then replay the recorded actions and "
            "compare every event. The game comes from the server's database, or with --json "
            "from a file holding GET /api/games/{id}. Exit status 0 only when all match."
        ),
    )
    vs.add_argument("game_id", type=int, metavar="ID")
    vs.add_argument(
        "--commitment", metavar="HEX", help="the commitment you were shown (default: the game's)"
    )
    vs.add_argument("--json", metavar="FILE", help="the game as GET /api/games/{id} returned it")


def run(args: argparse.Namespace) -> int:
    if args.log_command == "verify":
        return verify_files(args.files, quiet=args.quiet)
    if args.log_command == "export":
        return export_game(args.game_id, args.format, args.output)
    if args.log_command == "import":
        return import_files(args.files)
    if args.log_command == "verify-seed":
        return verify_seed(args.game_id, args.commitment, args.json)
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


def _database() -> Database | None:
    """The database ``jantaku serve`` uses (migrated to head), or None after printing why not."""
    from pydantic import ValidationError

    from server.db import migrate
    from server.db.session import Database
    from server.paths import ProjectRootError, project_root
    from server.settings import SettingsError, get_settings

    try:
        url = get_settings().sqlalchemy_url
    except (SettingsError, ValidationError) as exc:
        print(f"error: settings: {exc}", file=sys.stderr)
        return None
    try:
        project_root()  # the migrations the database is brought up to
    except ProjectRootError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return None
    migrate.upgrade(url)
    return Database(url)


def _query(fn: Callable[[Session], T]) -> T:
    """``fn`` in one transaction on a database opened for it alone."""
    db = _database()
    if db is None:
        raise _NoDatabase
    try:
        return db.run(fn)
    finally:
        db.dispose()


def export_game(game_id: int, fmt: str, output: str | None) -> int:
    """``jantaku log export``: one game of the server's database to stdout or a file."""
    from server.db.imported import export_source
    from server.records.exports import render

    try:
        src = _query(lambda s: export_source(s, game_id))
    except _NoDatabase:
        return 2
    if src is None:
        print(f"error: no game {game_id}", file=sys.stderr)
        return 1
    if src.status == "live":
        print(f"error: game {game_id} is still being played", file=sys.stderr)
        return 1
    try:
        text = render(fmt, game_id, src).text
    except RecordError as exc:
        print(f"error: game {game_id}: {exc}", file=sys.stderr)
        return 1
    if output:
        with open(output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


def import_files(files: list[str]) -> int:
    """``jantaku log import``: verify each file by replay, then store it; one line per file."""
    from pathlib import Path

    from server.db.imported import find_import, find_original, store_imported
    from server.records.importer import import_log

    db = _database()
    if db is None:
        return 2
    failed = 0
    try:
        for path in files:
            try:
                game = import_log(Path(path).read_bytes(), path)
            except OSError as exc:
                print(f"error: {path}: cannot read: {exc.strerror}", file=sys.stderr)
                failed += 1
                continue
            except RecordError as exc:
                print(f"error: {exc}", file=sys.stderr)
                failed += 1
                continue
            known = db.run(partial(find_import, digest=game.digest))
            if known is not None:
                print(f"{path}: already imported as game {known}")
                continue
            original = db.run(partial(find_original, game=game))
            if original is not None:
                print(f"{path}: an export of game {original}, which is here already")
                continue
            gid = db.run(partial(store_imported, game=game, uploaded_by=None))
            print(f"{path}: imported as game {gid} ({len(game.results)} rounds)")
    finally:
        db.dispose()
    return 1 if failed else 0


def verify_seed(game_id: int, expected: str | None, json_file: str | None) -> int:
    """``jantaku log verify-seed``: the commitment, every round's wall, the replay."""
    import json

    from server.db.games import game_detail
    from server.tables.fairness import verify_game

    if json_file is not None:
        try:
            with open(json_file, encoding="utf-8") as f:
                game = json.load(f)
        except (OSError, ValueError) as exc:
            print(f"error: {json_file}: {exc}", file=sys.stderr)
            return 2
        if not isinstance(game, dict) or game.get("id") != game_id:
            print(f"error: {json_file} does not hold game {game_id}", file=sys.stderr)
            return 2
    else:
        try:
            found = _query(lambda s: game_detail(s, game_id))
        except _NoDatabase:
            return 2
        if found is None:
            print(f"error: no game {game_id}", file=sys.stderr)
            return 1
        game = found
    if game.get("status") == "live":
        print(f"error: game {game_id} is still being played: its seed is secret", file=sys.stderr)
        return 1
    report = verify_game(game, expected)
    if not report.ok:
        for problem in report.problems:
            print(f"game {game_id}: REFUSED: {problem}")
        return 1
    print(
        f"game {game_id}: seed matches commitment {game.get('seed_commitment')}; "
        f"{report.rounds} walls derived and matched; {report.events} events replayed"
    )
    return 0
