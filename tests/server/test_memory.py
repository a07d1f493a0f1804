"""The server's collector housekeeping (server/api/memory.py)."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from server.api import memory


@pytest.fixture(autouse=True)
def _unfreeze_after() -> Iterator[None]:
    yield
    gc.unfreeze()  # give the test process its collector back


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def _cycle() -> weakref.ref[Node]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_young_pass_collects_young_cycles_and_freezes_survivors() -> None:
    gone = _cycle()
    kept = Node()
    before = gc.get_freeze_count()
    memory.young_pass()
    assert gone() is None  # a cycle that was young is collected, not frozen
    assert gc.get_freeze_count() > before
    assert all(o is not kept for o in gc.get_objects())  # frozen: in no generation


def test_full_pass_collects_cycles_that_formed_among_frozen_objects() -> None:
    a, b = Node(), Node()
    memory.young_pass()  # both frozen while still referenced
    a.other, b.other = b, a
    ref = weakref.ref(a)
    del a, b
    gc.collect()
    assert ref() is not None  # frozen objects are out of the collector's reach
    memory.full_pass()
    assert ref() is None


async def test_keeper_runs_full_passes_only_while_idle(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    monkeypatch.setattr(memory, "young_pass", lambda: calls.append("young"))
    monkeypatch.setattr(memory, "full_pass", lambda: calls.append("full") or 0.0)
    idle = False
    task = asyncio.create_task(memory.freeze_survivors(0.01, lambda: idle, full_every=0.0))
    await asyncio.sleep(0.1)
    assert calls and "full" not in calls
    idle = True
    await asyncio.sleep(0.1)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert "full" in calls and calls.count("young") >= calls.count("full")
