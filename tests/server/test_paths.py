"""Finding migrations/ and web/ from a checkout, from a plain install, and by JANTAKU_HOME."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from server.paths import project_root

ROOT = Path(__file__).resolve().parents[2]

# What `jantaku serve` needs first: the migrations, then the web client's directory.
PROBE = """
import server, sys
from server.db import migrate
from server.paths import project_root
migrate.upgrade(sys.argv[1])
print(server.__file__)
print(project_root())
"""


def test_a_checkout_finds_its_own_files(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JANTAKU_HOME", raising=False)
    assert project_root() == ROOT
    assert (project_root() / "web" / "index.html").is_file()


def test_jantaku_home_names_the_directory(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("JANTAKU_HOME", str(ROOT))
    assert project_root() == ROOT
    monkeypatch.setenv("JANTAKU_HOME", str(tmp_path))
    with pytest.raises(ValueError, match=f"migrations/ not found in {tmp_path}"):
        project_root()


def _installed_copy(tmp_path: Path) -> Path:
    """The package alone, as `pip install .` leaves it in site-packages (Dockerfile)."""
    site = tmp_path / "site-packages"
    shutil.copytree(ROOT / "server", site / "server", ignore=shutil.ignore_patterns("__pycache__"))
    return site


def _run(site: Path, cwd: Path, db: Path) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(site), "HOME": str(cwd)}
    return subprocess.run(
        [sys.executable, "-P", "-c", PROBE, f"sqlite:///{db}"],  # -P: not the cwd on sys.path
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_an_installed_package_migrates_from_the_directory_it_runs_in(tmp_path: Path) -> None:
    site = _installed_copy(tmp_path)
    db = tmp_path / "app.db"
    done = _run(site, ROOT, db)
    assert done.returncode == 0, done.stderr
    package, root = done.stdout.split()
    assert package == str(site / "server" / "__init__.py")  # not the checkout's
    assert root == str(ROOT)
    with sqlite3.connect(db) as conn:
        assert conn.execute("select version_num from alembic_version").fetchone()


def test_an_installed_package_elsewhere_says_what_is_missing(tmp_path: Path) -> None:
    site = _installed_copy(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = _run(site, elsewhere, tmp_path / "app.db")
    assert done.returncode != 0
    assert "migrations/ not found in" in done.stderr
    assert "set JANTAKU_HOME" in done.stderr


def test_the_cli_says_so_without_a_traceback(tmp_path: Path) -> None:
    site = _installed_copy(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(site),
        "HOME": str(elsewhere),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'app.db'}",
    }
    for command in (["db", "upgrade"], ["serve", "--port", "1"]):
        done = subprocess.run(
            [sys.executable, "-P", "-m", "server", *command],
            cwd=elsewhere,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 2, done.stderr
        assert done.stderr.startswith(f"jantaku {command[0]}: migrations/ not found in ")
        assert "Traceback" not in done.stderr
