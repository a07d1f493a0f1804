"""Players and lobbies: every change a route makes, as one function over a Session."""

from __future__ import annotations

import secrets
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from server.db.models import Game, GameSeat, Lobby, LobbySeat, Player, utcnow

BOT_LEVELS = ("strong", "efficient", "defensive", "random", "tsumogiri")  # server.bots.BOTS
SEAT_MODES = ("choose", "draw")


class LobbyError(ValueError):
    """A refused lobby operation; ``code`` is the protocol error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class StartedGame:
    game_id: int
    seed: bytes
    rules: dict[str, Any]
    first_dealer: int
    dice: tuple[int, int]
    # Per seat: (name, player_id, bot level)
    seats: tuple[tuple[str, int | None, str | None], ...]


def create_player(s: Session, name: str, token_hash: str) -> Player:
    p = Player(name=name, token_hash=token_hash)
    s.add(p)
    s.flush()
    return p


def player_by_token_hash(s: Session, token_hash: str) -> Player | None:
    return s.scalar(select(Player).where(Player.token_hash == token_hash))


def get_lobby(s: Session, code: str) -> Lobby:
    lobby = s.scalar(
        select(Lobby)
        .where(Lobby.code == code)
        .options(selectinload(Lobby.seats).selectinload(LobbySeat.player))
    )
    if lobby is None:
        raise LobbyError("not_found", "no lobby with that code")
    return lobby


def lobby_json(s: Session, lobby: Lobby) -> dict[str, Any]:
    by_slot = {ls.slot: ls for ls in lobby.seats}
    slots = []
    for slot in range(4):
        ls = by_slot.get(slot)
        slots.append(
            {
                "slot": slot,
                "player": (
                    {"id": ls.player.id, "name": ls.player.name}
                    if ls is not None and ls.player is not None
                    else None
                ),
                "bot": ls.bot if ls is not None else None,
                "ready": bool(ls.ready) if ls is not None else False,
            }
        )
    game: dict[str, Any] | None = None
    if lobby.game_id is not None:
        g = s.get(Game, lobby.game_id)
        if g is not None:
            game = {
                "id": g.id,
                "dice": list(g.dice),
                "first_dealer": g.first_dealer,
                "status": g.status,
                "seats": [
                    {"seat": gs.seat, "name": gs.name, "player_id": gs.player_id, "bot": gs.bot}
                    for gs in g.seats
                ],
            }
    return {
        "code": lobby.code,
        "host_id": lobby.host_id,
        "rules": lobby.rules,
        "seat_mode": lobby.seat_mode,
        "status": lobby.status,
        "slots": slots,
        "game": game,
        "invite_path": f"/#/join/{lobby.code}",
    }


def create_lobby(s: Session, host: Player, rules: dict[str, Any], seat_mode: str) -> Lobby:
    _check_seat_mode(seat_mode)
    # 16 url-safe characters = 96 random bits: not guessable, short enough to share.
    lobby = Lobby(code=secrets.token_urlsafe(12), host_id=host.id, rules=rules, seat_mode=seat_mode)
    lobby.seats.append(LobbySeat(slot=0, player_id=host.id, ready=False))
    s.add(lobby)
    s.flush()
    return get_lobby(s, lobby.code)


def _check_seat_mode(seat_mode: str) -> None:
    if seat_mode not in SEAT_MODES:
        raise LobbyError("bad_input", f"seat_mode must be one of {', '.join(SEAT_MODES)}")


def _require_open(lobby: Lobby) -> None:
    if lobby.status != "open":
        raise LobbyError("not_open", f"the lobby is {lobby.status}")


def _require_host(lobby: Lobby, player: Player) -> None:
    if lobby.host_id != player.id:
        raise LobbyError("not_host", "only the host may do that")


def _member_seat(lobby: Lobby, player: Player) -> LobbySeat | None:
    return next((ls for ls in lobby.seats if ls.player_id == player.id), None)


def _free_slot(lobby: Lobby, slot: int | None) -> int:
    taken = {ls.slot for ls in lobby.seats}
    if slot is None:
        free = [i for i in range(4) if i not in taken]
        if not free:
            raise LobbyError("lobby_full", "all four seats are taken")
        return free[0]
    if not 0 <= slot <= 3:
        raise LobbyError("bad_input", "slot must be 0..3")
    if slot in taken:
        raise LobbyError("slot_taken", f"slot {slot} is taken")
    return slot


def _unready_all(lobby: Lobby) -> None:
    for ls in lobby.seats:
        if ls.bot is None:
            ls.ready = False


def join(s: Session, lobby: Lobby, player: Player, slot: int | None) -> None:
    _require_open(lobby)
    if _member_seat(lobby, player) is not None:
        raise LobbyError("already_member", "you are already in this lobby")
    if lobby.seat_mode == "draw":
        slot = None  # seats are drawn at start; the slot is only a place in the list
    lobby.seats.append(LobbySeat(slot=_free_slot(lobby, slot), player_id=player.id))
    s.flush()


def leave(s: Session, lobby: Lobby, player: Player) -> None:
    _require_open(lobby)
    ls = _member_seat(lobby, player)
    if ls is None:
        raise LobbyError("not_member", "you are not in this lobby")
    lobby.seats.remove(ls)
    if lobby.host_id == player.id:
        humans = [x for x in lobby.seats if x.player_id is not None]
        if humans:
            lobby.host_id = min(humans, key=lambda x: x.slot).player_id  # type: ignore[assignment]
        else:
            lobby.status = "closed"
    s.flush()


def move(s: Session, lobby: Lobby, player: Player, slot: int) -> None:
    _require_open(lobby)
    if lobby.seat_mode != "choose":
        raise LobbyError("bad_input", "seats are drawn in this lobby")
    ls = _member_seat(lobby, player)
    if ls is None:
        raise LobbyError("not_member", "you are not in this lobby")
    if ls.slot == slot:
        return
    new_slot = _free_slot(lobby, slot)
    ready = ls.ready
    lobby.seats.remove(ls)
    s.flush()
    lobby.seats.append(LobbySeat(slot=new_slot, player_id=player.id, ready=ready))
    s.flush()


def add_bot(
    s: Session,
    lobby: Lobby,
    player: Player,
    level: str,
    slot: int | None,
    external: Collection[str] = (),
) -> None:
    """Seat a bot: one of ours, or an external bot the operator registered (``external``:
    their levels; four-player riichi lobbies only)."""
    _require_open(lobby)
    _require_host(lobby, player)
    if level in external:
        if lobby.rules.get("variant", "riichi") != "riichi":
            raise LobbyError("bad_input", f"{level} plays four-player riichi only")
    elif level not in BOT_LEVELS:
        levels = ", ".join((*BOT_LEVELS, *external))
        raise LobbyError("bad_input", f"bot level must be one of {levels}")
    lobby.seats.append(LobbySeat(slot=_free_slot(lobby, slot), bot=level, ready=True))
    s.flush()


def remove_bot(s: Session, lobby: Lobby, player: Player, slot: int) -> None:
    _require_open(lobby)
    _require_host(lobby, player)
    ls = next((x for x in lobby.seats if x.slot == slot), None)
    if ls is None or ls.bot is None:
        raise LobbyError("not_found", f"no bot in slot {slot}")
    lobby.seats.remove(ls)
    s.flush()


def set_ready(s: Session, lobby: Lobby, player: Player, ready: bool) -> None:
    _require_open(lobby)
    ls = _member_seat(lobby, player)
    if ls is None:
        raise LobbyError("not_member", "you are not in this lobby")
    ls.ready = ready
    s.flush()


def update(
    s: Session,
    lobby: Lobby,
    player: Player,
    rules: dict[str, Any] | None,
    seat_mode: str | None,
) -> None:
    _require_open(lobby)
    _require_host(lobby, player)
    if seat_mode is not None:
        _check_seat_mode(seat_mode)
        lobby.seat_mode = seat_mode
    if rules is not None:
        lobby.rules = rules
    # Everyone agreed to the old settings, not the new ones.
    _unready_all(lobby)
    s.flush()


def roll_dice() -> tuple[int, int]:
    return (secrets.randbelow(6) + 1, secrets.randbelow(6) + 1)


def start(s: Session, lobby: Lobby, player: Player) -> StartedGame:
    """Seat everyone, roll for the first dealer and create the game row."""
    _require_open(lobby)
    _require_host(lobby, player)
    if len(lobby.seats) < 4:
        raise LobbyError("not_ready", "four players or bots are needed")
    waiting = [
        ls.player.name
        for ls in lobby.seats
        if ls.player is not None and ls.player_id != lobby.host_id and not ls.ready
    ]
    if waiting:
        raise LobbyError("not_ready", f"not ready: {', '.join(waiting)}")
    ordered = sorted(lobby.seats, key=lambda x: x.slot)
    if lobby.seat_mode == "draw":
        secrets.SystemRandom().shuffle(ordered)
    dice = roll_dice()
    # Seat 0 rolls and counts counter-clockwise from itself (1 = itself), seed 000.
    first_dealer = (dice[0] + dice[1] - 1) % 4
    seed = secrets.token_bytes(32)
    game = Game(
        lobby_id=lobby.id,
        rules=lobby.rules,
        seed=seed.hex(),
        first_dealer=first_dealer,
        dice=list(dice),
    )
    seats = []
    for i, ls in enumerate(ordered):
        name = ls.player.name if ls.player is not None else f"Bot ({ls.bot})"
        game.seats.append(GameSeat(seat=i, player_id=ls.player_id, bot=ls.bot, name=name))
        seats.append((name, ls.player_id, ls.bot))
    s.add(game)
    s.flush()
    lobby.status = "playing"
    lobby.game_id = game.id
    s.flush()
    return StartedGame(game.id, seed, dict(lobby.rules), first_dealer, dice, tuple(seats))


def touch(s: Session, player: Player) -> None:
    player.last_seen = utcnow()
