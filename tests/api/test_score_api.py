"""``POST /api/score`` on an app that includes only the score router."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI

from server.api.score import MAX_BODY, router

GOOD = {"tiles": "123m456p789s23455s", "win": "4s", "riichi": True, "seat_wind": "S"}


@pytest.fixture
async def client() -> AsyncIterator[httpx.AsyncClient]:
    app = FastAPI()
    app.include_router(router)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
        yield c


async def test_scores_a_hand(client: httpx.AsyncClient) -> None:
    r = await client.post("/api/score", json=GOOD)
    assert r.status_code == 200
    body = r.json()
    assert body["yaku"] == [{"id": "riichi", "han": 1}, {"id": "pinfu", "han": 1}]
    assert (body["han"], body["fu"], body["payments"], body["total"]) == (
        2,
        30,
        {"ron": 2000},
        2000,
    )


async def test_bad_input_is_400_naming_the_field(client: httpx.AsyncClient) -> None:
    r = await client.post("/api/score", json={**GOOD, "seat_wind": "X"})
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "bad_input"
    assert r.json()["error"]["field"] == "seat_wind"
    r = await client.post(
        "/api/score", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "bad_input"


@pytest.mark.parametrize(
    ("req", "code"),
    [
        ({"tiles": "123m456p789s23456s", "win": "6s"}, "not_agari"),
        ({"tiles": "123m456p789s234s55s", "win": "5s"}, "no_yaku"),
    ],
)
async def test_unscorable_hand_is_422(
    client: httpx.AsyncClient, req: dict[str, str], code: str
) -> None:
    r = await client.post("/api/score", json=req)
    assert r.status_code == 422
    assert r.json()["error"]["code"] == code


async def test_body_over_16_kib_is_413(client: httpx.AsyncClient) -> None:
    for pad in (MAX_BODY, 100 * 1024):  # also past the app-wide limit of other routes
        big = json.dumps({**GOOD, "pad": "x" * pad}).encode()
        headers = {"content-type": "application/json"}
        r = await client.post("/api/score", content=big, headers=headers)
        assert r.status_code == 413
        assert r.json()["error"]["code"] == "bad_input"


async def test_body_over_16_kib_without_content_length_is_413(client: httpx.AsyncClient) -> None:
    async def chunks() -> AsyncIterator[bytes]:
        for _ in range(20):
            yield b" " * 1024

    r = await client.post(
        "/api/score", content=chunks(), headers={"content-type": "application/json"}
    )
    assert r.status_code == 413


async def test_documented_in_openapi(client: httpx.AsyncClient) -> None:
    spec = (await client.get("/openapi.json")).json()
    op = spec["paths"]["/api/score"]["post"]
    assert set(op["responses"]) >= {"200", "400", "413", "422"}
    assert "example" in op["requestBody"]["content"]["application/json"]
