"""Self-play games through a table actor whose every connection follows events
(protocol 2), with the server's own view of each connection at every step beside
what it was sent: the material web/js/fold.js is checked against (test_fold.py).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from server.bots import make_bot
from server.engine import AnyVariant
from server.tables.clock import FakeClock
from server.tables.outbox import Out
from server.tables.table import Connect, SeatSpec, Table, TableConfig
from tests.server.tablekit import UNTIMED, FakeConn, HeldSink, settle

ROOT = Path(__file__).resolve().parents[2]


# fold.js and what it imports
FOLD_MODULES = ("fold.js", "tiles.js", "tilenames.js", "i18n.js")


def client_modules(into: Path, names: Sequence[str] = FOLD_MODULES) -> Path:
    """web/js's modules ``names`` in ``into``/js, as ES modules Node loads (web/ has no
    package.json: it needs no build)."""
    js = into / "js"
    js.mkdir(exist_ok=True)
    for name in names:
        shutil.copy(ROOT / "web" / "js" / name, js / name)
    (js / "package.json").write_text('{"type": "module"}')
    return js


def run_client(script: str, names: Sequence[str], data: Any, timeout: float = 120) -> Any:
    """tests/web/``script`` run by Node on web/js's modules ``names`` (the folder is its
    first argument) with ``data`` as JSON on stdin; what it printed, as JSON."""
    with tempfile.TemporaryDirectory() as tmp:
        js = client_modules(Path(tmp), names)
        out = subprocess.run(
            [node(), str(ROOT / "tests" / "web" / script), str(js)],
            input=json.dumps(data),
            capture_output=True,
            text=True,
            check=True,
            timeout=timeout,
        )
    return json.loads(out.stdout)


def node() -> str:
    path = shutil.which("node")
    if path is None:
        raise AssertionError("node is needed to fold the client's frames")
    return path


def fold_view(frames: list[dict[str, Any]]) -> dict[str, Any] | None:
    """What a page that received ``frames`` shows: {"version", "view", "timer"} folded
    by web/js/fold.js from its last whole view (None before any view)."""
    result: dict[str, Any] | None = run_client("fold_frames.mjs", FOLD_MODULES, frames, 60)
    return result


class SnapshotFanout:
    """Delivers each committed step, then notes every connection's server-side view."""

    def __init__(self) -> None:
        self.table: Table | None = None
        self.conns: list[FakeConn] = []
        # per connection: [(frames received so far, the server's view then)]
        self.marks: list[list[tuple[int, dict[str, Any]]]] = []

    def deliver(self, game_id: int, items: Sequence[Out]) -> None:
        for item in items:
            item.deliver()
        t = self.table
        assert t is not None
        seats = [c.seat for c in self.conns]
        views = t.codec.views(t.state, seats)
        for i, (conn, view) in enumerate(zip(self.conns, views, strict=True)):
            # a copy: the views share their public parts, and json drops nothing of them
            self.marks[i].append((len(conn.sent), json.loads(json.dumps(view))))


async def self_play(
    variant: AnyVariant, rules: Any, seed: bytes, max_steps: int = 100_000
) -> list[dict[str, Any]]:
    """One game played by bots, each seat (and one spectator) watching over protocol 2.

    Returns per connection ``{"seat", "frames", "marks"}``: every frame it got, as sent
    (step frames whole, server/tables/steps.py; the
    welcome's view first) and, after each committed step, how many frames it had
    got by then and the view the server would have sent it then.
    """
    clock = FakeClock()
    state = variant.new_game(rules, seed, 0)
    # Random bots call, kan and declare riichi whenever they may: every event comes up.
    levels = ["random", "efficient", "random", "random"]
    bots = [SeatSpec(f"Bot {i}", bot=levels[i]) for i in range(variant.seats)]
    fanout = SnapshotFanout()
    table = Table(
        1,
        variant,
        state,
        bots,
        options=UNTIMED,
        config=TableConfig(bot_delay=0.0, round_end_pause=0.0, spectator_interval=0.0),
        sink=HeldSink(auto=True),
        bot_factory=make_bot,  # type: ignore[arg-type]
        seed=int.from_bytes(seed[:4], "big"),
        clock=clock,
        fanout=fanout,
    )
    fanout.table = table
    seats: list[int | None] = [*range(variant.seats), None]
    fanout.conns = [FakeConn(clock, s, protocol=2) for s in seats]
    fanout.marks = [[] for _ in seats]
    table.start(list(variant.start_events(state)))
    for conn in fanout.conns:
        table.post(Connect(conn, None))
    await settle()
    for _ in range(max_steps):
        if table.finished:
            break
        clock.advance(0.001)
        await settle()
    assert table.finished, "the game did not end"
    await table.stop()
    return [
        {"seat": c.seat, "frames": c.sent, "marks": m}
        for c, m in zip(fanout.conns, fanout.marks, strict=True)
    ]
