"""``jantaku db backup``: a consistent copy of a live SQLite database.

SQLite's online backup API copies the database page by page while other
connections keep writing; the copy is the database as of one moment. A server
with PostgreSQL is backed up with ``pg_dump`` (the error says how).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sqlalchemy.engine import make_url


class BackupError(Exception):
    """The backup cannot be made; ``status`` is the command's exit status."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


def backup(url: str, target: str | Path) -> int:
    """Copy the SQLite database at ``url`` to ``target``; the number of pages copied."""
    u = make_url(url)
    if u.get_backend_name() == "postgresql":
        safe = u.set(drivername="postgresql").render_as_string(hide_password=True)
        raise BackupError(
            "the database is PostgreSQL: back it up with pg_dump, e.g.\n"
            f"  pg_dump --format=custom --file={target} '{safe}'\n"
            "(give the password with PGPASSWORD or ~/.pgpass; restore with pg_restore; "
            "see docs/operations.md)",
            status=2,
        )
    if u.get_backend_name() != "sqlite" or not u.database or u.database == ":memory:":
        raise BackupError(f"cannot back up {u.get_backend_name()} database {u.database!r}", 2)
    source = Path(u.database)
    if not source.is_file():
        raise BackupError(f"no database file at {source}")
    out = Path(target)
    if out.exists():
        raise BackupError(f"{out} exists: choose a new file")
    if out.resolve() == source.resolve():
        raise BackupError("the backup cannot be the database itself")
    src = sqlite3.connect(source)
    try:
        dst = sqlite3.connect(out)
        try:
            pages = 0

            def progress(status: int, remaining: int, total: int) -> None:
                nonlocal pages
                pages = total

            # 256 pages a step: the server's writers are blocked only between steps.
            src.backup(dst, pages=256, progress=progress)
            # One self-contained file, whatever journal mode the server uses.
            dst.execute("PRAGMA journal_mode=DELETE")
        finally:
            dst.close()
    except sqlite3.Error as exc:
        out.unlink(missing_ok=True)
        raise BackupError(f"backup failed: {exc}") from None
    finally:
        src.close()
    return pages
