"""WebSocket messages fuzzed with hypothesis: any frame gets an answer or an error frame,
the connection stays usable, and the server logs no exception (no traceback)."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.server.conftest import LiveServer, bot_table

TYPES = ["hello", "action", "resync", "continue", "ping", "pong", "batch", "", "x" * 40]
ACTIONS = [
    "discard", "riichi", "tsumo", "ankan", "kakan", "kyuushu", "ron", "pon", "chi",
    "daiminkan", "pass", "nope",
]  # fmt: skip
TILES = ["1m", "5p", "0s", "7z", "8z", "0z", "", "1", "mm", "\u0000", "5p5p", "🀄"]

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
actions = st.fixed_dictionaries(
    {"type": st.sampled_from(ACTIONS)},
    optional={
        "tile": st.sampled_from(TILES) | json_values,
        "tiles": st.lists(st.sampled_from(TILES), max_size=5) | json_values,
        "seat": st.integers(min_value=-2, max_value=6) | json_values,
    },
)
messages = st.fixed_dictionaries(
    {"type": st.sampled_from(TYPES) | json_values},
    optional={
        "action": actions | json_values,
        "version": st.integers(min_value=-5, max_value=2**65) | json_values,
        "last_version": st.integers(min_value=-5, max_value=2**65) | json_values,
        "ref": json_values,
        "token": st.text(max_size=30) | json_values,
        "spectate": json_values,
        "watch": st.text(max_size=70) | json_values,
        "batch": json_values,
        "extra": json_values,
    },
)
frames = (
    messages.map(json.dumps)
    | json_values.map(json.dumps)
    | st.text(max_size=60)
    | st.binary(max_size=60)
    | st.just("{" * 3000)
    | st.just('{"type": "action", "action": ' + "[" * 2000 + "]" * 2000 + "}")
)


class Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, Any, int, str]]:
    from server.db import migrate

    url = f"sqlite:///{tmp_path_factory.mktemp('wsfuzz') / 'fuzz.db'}"
    migrate.upgrade(url)
    srv = LiveServer(url).start()
    client, g, game_id = bot_table(srv, {"preset": "standard", "think_seconds": 0})
    code = client.post("/api/lobbies", json={}).json()["code"]
    yield srv, g, game_id, code
    srv.stop()


@pytest.fixture
def errors() -> Iterator[Errors]:
    handler = Errors()
    loggers = [logging.getLogger(n) for n in ("server", "uvicorn.error", "uvicorn")]
    for lg in loggers:
        lg.addHandler(handler)
    yield handler
    for lg in loggers:
        lg.removeHandler(handler)


async def _exchange(url: str, hello: dict[str, Any] | None, sent: list[str | bytes]) -> None:
    """Send the frames (after ``hello`` if given); the socket must then answer a ping,
    or have been closed with a protocol close code (never an internal error, 1011)."""
    async with connect(url, max_size=None, max_queue=None) as ws:
        if hello is not None:
            await ws.send(json.dumps(hello))
        for frame in sent:
            await ws.send(frame)
        await ws.send('{"type": "ping"}')
        try:
            while True:
                reply = json.loads(await asyncio.wait_for(ws.recv(), 10))
                kinds = [m["type"] for m in reply.get("messages", [reply])]
                assert all(isinstance(k, str) for k in kinds)
                if "pong" in kinds:
                    return
        except ConnectionClosed as closed:
            assert closed.rcvd is not None and closed.rcvd.code in (4401, 4404, 4409, 4429)


@pytest.mark.parametrize("socket", ["table_hello", "table_after_hello", "lobby"])
def test_no_websocket_message_breaks_anything(
    socket: str, live: tuple[LiveServer, Any, int, str], errors: Errors
) -> None:
    srv, g, game_id, code = live
    url = f"{srv.ws}/ws/table/{game_id}" if socket != "lobby" else f"{srv.ws}/ws/lobby/{code}"
    hello = None if socket == "table_hello" else {"type": "hello", "token": g["token"]}

    @given(sent=st.lists(frames, min_size=1, max_size=5))
    @settings(
        max_examples=60,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def fuzz(sent: list[str | bytes]) -> None:
        asyncio.run(_exchange(url, hello, sent))

    fuzz()
    assert [r.getMessage() for r in errors.records] == []
