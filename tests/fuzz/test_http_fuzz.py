"""Every HTTP route of ``/openapi.json``, fuzzed (schemathesis): no 5xx, no traceback.

Valid and invalid inputs both, signed in as a guest, on the real app over a real
socket (SQLite). Bounded (a few dozen examples per route) to keep CI time well
under a minute; derandomized so that a failure reproduces.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error

from tests.server.conftest import TEST_SECRET, LiveServer


def _operations() -> list[Any]:
    """The app's operations, from its schema (no server needed to build it)."""
    from server.api.app import create_app
    from server.settings import Settings

    app = create_app(Settings(env="test", secret=TEST_SECRET, database_url="sqlite://"))
    schema = schemathesis.openapi.from_dict(app.openapi())
    return [r.ok() for r in schema.get_all_operations()]


OPERATIONS = _operations()


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    from server.db import migrate

    url = f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'fuzz.db'}"
    migrate.upgrade(url)
    srv = LiveServer(url).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def auth(live: LiveServer) -> dict[str, str]:
    r = httpx.post(f"{live.http}/api/guest", json={"name": "Fuzzer"})
    return {"Authorization": f"Bearer {r.json()['token']}"}


def test_the_schema_has_every_route() -> None:
    paths = {op.path for op in OPERATIONS}
    assert {"/api/guest", "/api/lobbies/{code}/start", "/api/games/{game_id}"} <= paths
    assert len(OPERATIONS) >= 20


@pytest.mark.parametrize("op", OPERATIONS, ids=lambda op: f"{op.method.upper()} {op.path}")
def test_no_input_gets_a_5xx(op: Any, auth: dict[str, str], live: LiveServer) -> None:
    # Logging out would revoke the fuzzer's own token (tested in test_edge.py).
    headers = None if op.path == "/api/logout" else auth

    cases = op.as_strategy(GenerationMode.POSITIVE) | op.as_strategy(GenerationMode.NEGATIVE)

    @given(case=cases)
    @settings(
        max_examples=30,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def fuzz(case: Any) -> None:
        response = case.call(headers=headers, base_url=live.http)
        case.validate_response(response, checks=(not_a_server_error,))
        assert "Traceback" not in response.text

    fuzz()
