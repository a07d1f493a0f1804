"""Wire schemas: HTTP bodies and WebSocket client messages (validated pydantic models)."""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal

from fastapi import Path, Query
from pydantic import AfterValidator, BaseModel, ConfigDict, Field

NAME_MAX = 32
# Control and format characters (NUL, zero-width joiners, right-to-left overrides, a
# byte-order mark), lone surrogates, private-use and unassigned code points, and line
# or paragraph separators: none of them belongs in a name shown to other players.
_NAME_BANNED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
# Bots sit at the table as "Bot (level)": a person may not pass for one.
BOT_NAME_PREFIX = "bot ("


def clean_name(value: str) -> str:
    """A display name as stored: NFC, trimmed, 1..32 characters, at least one of them
    visible (a letter, digit, mark of punctuation or symbol), nothing invisible or
    direction-changing, and not a bot's."""
    name = unicodedata.normalize("NFC", value).strip()
    if not name:
        raise ValueError("a name needs at least one visible character")
    if len(name) > NAME_MAX:
        raise ValueError(f"a name is at most {NAME_MAX} characters")
    bad = next((c for c in name if unicodedata.category(c) in _NAME_BANNED), None)
    if bad is not None:
        raise ValueError(f"a name may not contain U+{ord(bad):04X} (invisible or control)")
    if not any(unicodedata.category(c)[0] in "LNPS" for c in name):
        raise ValueError("a name needs at least one visible character")
    if name.casefold().startswith(BOT_NAME_PREFIX):
        raise ValueError('names beginning "Bot (" are the bots\' own')
    return name


Name = Annotated[str, Field(max_length=4 * NAME_MAX), AfterValidator(clean_name)]
Slot = Annotated[int, Field(ge=0, le=3)]

# Ids and offsets are checked at the edge: past the database's integer range a query
# would fail in the database (PostgreSQL's integer is 32 bits).
MAX_ID = 2**31 - 1
GameId = Annotated[int, Path(ge=1, le=MAX_ID, description="a game id")]
SlotPath = Annotated[int, Path(ge=0, le=3, description="a lobby slot, 0..3")]
Offset = Annotated[int, Query(ge=0, le=MAX_ID)]
Limit = Annotated[int, Query(ge=1, le=100)]
LOBBY_CODE = r"^[A-Za-z0-9_-]{1,32}$"
LobbyCode = Annotated[str, Path(pattern=LOBBY_CODE, description="a lobby's code")]


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
    # The levels of the lobby's game (``server.bots.LEVELS``), an operator's external
    # bot (``mjai-<name>``) or a connected remote bot (``remote-<name>``), checked by the lobby.
    level: str = Field(default="efficient", min_length=1, max_length=32)
    slot: Slot | None = None


class ReadyBody(Strict):
    ready: bool = True


class RematchBody(Strict):
    game_id: int = Field(ge=1, le=MAX_ID)


# WebSocket client messages ---------------------------------------------------


class WsMessage(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ref: str | int | None = None


class Hello(WsMessage):
    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=200)
    last_version: int | None = Field(default=None, ge=0)
    spectate: bool = False
    # The spectate link's key (a live game is watched only with it, or by a member).
    watch: str | None = Field(default=None, max_length=64)
    # Receive the frames of one step as one {"type": "batch", "messages": [...]} frame.
    batch: bool = False
    # 1: a full view after every step; 2: events and decision frames (docs/protocol.md).
    protocol: Literal[1, 2] = 1


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
LOBBY_MESSAGES: dict[str, type[WsMessage]] = {
    "hello": Hello,
    "ping": PingMsg,
    "resync": ResyncMsg,
}
