"""``jantaku db``: Alembic migrations by hand, and backups, on the configured database."""

from __future__ import annotations

import argparse
import sys

from pydantic import ValidationError

from server.paths import ProjectRootError, project_root
from server.settings import SettingsError, get_settings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="db_command", required=True)
    up = sub.add_parser("upgrade", help="upgrade the schema (default: to the newest revision)")
    up.add_argument("revision", nargs="?", default="head")
    down = sub.add_parser("downgrade", help="downgrade the schema (default: drop everything)")
    down.add_argument("revision", nargs="?", default="base")
    sub.add_parser("current", help="print the current revision")
    sub.add_parser(
        "backfill-stats",
        help="write the stats summaries of finished games that have none (serve does it too)",
    )
    b = sub.add_parser(
        "backup",
        help="copy a SQLite database to FILE while the server runs (PostgreSQL: pg_dump)",
        description=(
            "Copy the SQLite database to FILE with SQLite's online backup API: a consistent "
            "snapshot, taken while `jantaku serve` keeps writing. For PostgreSQL it prints "
            "the pg_dump command to use instead (docs/operations.md)."
        ),
    )
    b.add_argument("file", metavar="FILE", help="the copy to write (must not exist)")


def run(args: argparse.Namespace) -> int:
    from server.db import migrate

    try:
        url = get_settings().sqlalchemy_url
    except (SettingsError, ValidationError) as exc:
        print(f"jantaku db: {exc}", file=sys.stderr)
        return 2
    if args.db_command == "backup":
        from server.db.backup import BackupError, backup

        try:
            pages = backup(url, args.file)
        except BackupError as exc:
            print(f"jantaku db backup: {exc}", file=sys.stderr)
            return exc.status
        print(f"{args.file}: {pages} pages written")
        return 0
    try:
        project_root()
    except ProjectRootError as exc:
        print(f"jantaku db: {exc}", file=sys.stderr)
        return 2
    if args.db_command == "backfill-stats":
        from server.cli.serve import backfill_stats

        print(f"{backfill_stats(url)} stats summaries written")
        return 0
    if args.db_command == "upgrade":
        migrate.upgrade(url, args.revision)
    elif args.db_command == "downgrade":
        migrate.downgrade(url, args.revision)
    print(migrate.current(url) or "(empty)")
    return 0
