"""Wire schemas: HTTP bodies and WebSocket client messages (validated pydantic models)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=32)]
Slot = Annotated[int, Field(ge=0, le=3)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# HTTP ----------------------------------------------------------------------


class GuestCreate(Strict):
    name: Name


class PlayerPublic(BaseModel):
    id: int
    name: str


class GuestCreated(BaseModel):
    player: PlayerPublic
    token: str


class LobbyCreate(Strict):
    rules: str | dict[str, Any] = "standard"
    seat_mode: Literal["choose", "draw"] = "choose"


class LobbyUpdate(Strict):
    rules: str | dict[str, Any] | None = None
    seat_mode: Literal["choose", "draw"] | None = None


class JoinBody(Strict):
    slot: Slot | None = None


class SeatBody(Strict):
    slot: Slot


class BotBody(Strict):
    level: Literal["efficient", "defensive", "random", "tsumogiri"] = "efficient"
    slot: Slot | None = None


class ReadyBody(Strict):
    ready: bool = True


# WebSocket client messages ---------------------------------------------------


class WsMessage(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ref: str | int | None = None


class Hello(WsMessage):
    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=200)
    last_version: int | None = Field(default=None, ge=0)
    spectate: bool = False
    # Receive the frames of one step as one {"type": "batch", "messages": [...]} frame.
    batch: bool = False


class ActionBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: str = Field(max_length=16)
    seat: int | None = None
    tile: str | None = Field(default=None, max_length=4)
    tiles: list[Annotated[str, Field(max_length=4)]] = Field(default_factory=list, max_length=4)


class ActionMsg(WsMessage):
    type: Literal["action"]
    action: ActionBody
    version: int | None = None


class ResyncMsg(WsMessage):
    type: Literal["resync"]


class ContinueMsg(WsMessage):
    type: Literal["continue"]


class PingMsg(WsMessage):
    type: Literal["ping"]


TABLE_MESSAGES: dict[str, type[WsMessage]] = {
    "hello": Hello,
    "action": ActionMsg,
    "resync": ResyncMsg,
    "continue": ContinueMsg,
    "ping": PingMsg,
}
LOBBY_MESSAGES: dict[str, type[WsMessage]] = {"hello": Hello, "ping": PingMsg}
