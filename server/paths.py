"""Where the files beside the package are: ``migrations/``, ``alembic.ini`` and ``web/``.

They live at the top of the project, not inside the ``server`` package. Run from a
checkout (or an editable install) they are next to the package; after a plain
``pip install .`` (as in the Dockerfile) the package is in site-packages and they
are in the directory the server runs from. ``JANTAKU_HOME`` names the directory
outright.
"""

from __future__ import annotations

import os
from pathlib import Path

_SOURCE_ROOT = Path(__file__).resolve().parents[1]


class ProjectRootError(ValueError):
    """No directory with ``migrations/`` where ``project_root`` looks."""


def _has_migrations(d: Path) -> bool:
    return (d / "migrations" / "env.py").is_file()


def project_root() -> Path:
    """``$JANTAKU_HOME``, else the checkout this package runs from, else the working directory.

    ProjectRootError, naming the places looked at, when none holds ``migrations/``.
    """
    home = os.environ.get("JANTAKU_HOME")
    places = [Path(home).resolve()] if home else [_SOURCE_ROOT, Path.cwd()]
    for d in places:
        if _has_migrations(d):
            return d
    looked = ", ".join(str(d) for d in places)
    raise ProjectRootError(
        f"migrations/ not found in {looked}: run jantaku from the project directory "
        "or set JANTAKU_HOME to it"
    )
