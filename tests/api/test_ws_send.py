"""Frames handed to the ASGI server at once, and the rare send that suspends."""

from __future__ import annotations

import asyncio

import pytest

from server.api.ws import WsConn, run_now


class FakeSocket:
    """``send_text`` completes at once, as uvicorn's does, unless ``gate`` is set:
    then it waits for it (a server applying back-pressure)."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.gate: asyncio.Event | None = None
        self.closed_with: int | None = None

    async def send_text(self, text: str) -> None:
        if self.gate is not None:
            await self.gate.wait()
        if text == "boom":
            raise RuntimeError("the peer went away")
        self.sent.append(text)

    async def close(self, code: int) -> None:
        self.closed_with = code


async def test_a_send_that_does_not_suspend_is_done_on_the_spot() -> None:
    ws = FakeSocket()
    assert run_now(ws.send_text("a")) is None
    assert ws.sent == ["a"]
    with pytest.raises(RuntimeError):
        run_now(ws.send_text("boom"))


async def test_the_rest_of_a_suspended_send_runs_as_a_task() -> None:
    ws = FakeSocket()
    ws.gate = asyncio.Event()
    rest = run_now(ws.send_text("a"))
    assert rest is not None and ws.sent == []
    ws.gate.set()
    await rest
    assert ws.sent == ["a"]


async def test_cancelling_the_rest_reaches_the_coroutine() -> None:
    ws = FakeSocket()
    ws.gate = asyncio.Event()
    rest = run_now(ws.send_text("a"))
    assert rest is not None
    await asyncio.sleep(0)
    rest.cancel()
    with pytest.raises(asyncio.CancelledError):
        await rest
    ws.gate.set()
    await asyncio.sleep(0)
    assert ws.sent == []


async def test_frames_behind_a_suspended_send_keep_their_order() -> None:
    ws = FakeSocket()
    conn = WsConn(ws)  # type: ignore[arg-type]
    conn.send("1")  # at once
    ws.gate = asyncio.Event()
    conn.send("2")  # suspends
    conn.send("3")  # queued behind it
    conn.send("4")
    for _ in range(5):  # let the writer and the suspended send run as far as they can
        await asyncio.sleep(0)
    assert ws.sent == ["1"]
    ws.gate.set()
    ws.gate = None
    conn.close(1000)
    await asyncio.wait_for(conn.writer, 2.0)
    assert ws.sent == ["1", "2", "3", "4"] and ws.closed_with == 1000
    conn.send("5")  # after close: dropped
    assert ws.sent[-1] == "4"


async def test_a_failed_send_marks_the_connection_closed() -> None:
    ws = FakeSocket()
    conn = WsConn(ws)  # type: ignore[arg-type]
    conn.send("boom")
    assert conn.closed
    conn.writer.cancel()


async def test_a_batch_client_gets_a_loop_turn_of_frames_as_one() -> None:
    ws = FakeSocket()
    conn = WsConn(ws)  # type: ignore[arg-type]
    conn.batch = True
    conn.send('{"n":1}')
    conn.send('{"n":2}')
    assert ws.sent == []  # held until the loop's next turn
    await asyncio.sleep(0)
    assert ws.sent == ['{"type":"batch","messages":[{"n":1},{"n":2}]}']
    conn.send('{"n":3}')
    conn.close(1000)  # what was held goes before the close
    await asyncio.wait_for(conn.writer, 2.0)
    assert ws.sent[-1] == '{"n":3}' and ws.closed_with == 1000
