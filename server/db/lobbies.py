"""Players and lobbies: every change a route makes, as one function over a Session."""

from __future__ import annotations

import secrets
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from server.bots import LEVELS
from server.db.games import seed_commitment
from server.db.models import Game, GameSeat, Lobby, LobbySeat, Player, utcnow
from server.engine import DEFAULT_VARIANT, AnyVariant, VariantError, find_variant

SEAT_MODES = ("choose", "draw")
# The level every game has: the default of the lobby's level picker.
DEFAULT_BOT = "efficient"


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


def get_lobby(s: Session, code: str) -> Lobby:
    lobby = s.scalar(
        select(Lobby)
        .where(Lobby.code == code)
        .options(selectinload(Lobby.seats).selectinload(LobbySeat.player))
    )
    if lobby is None:
        raise LobbyError("not_found", "no lobby with that code")
    return lobby


def lobby_variant(rules: dict[str, Any]) -> AnyVariant:
    """The game a lobby's stored rules play (they name it: ``stored_rules``)."""
    try:
        return find_variant(rules.get("variant", DEFAULT_VARIANT))
    except VariantError as exc:
        raise LobbyError("bad_rules", str(exc)) from None


def bot_levels(variant: AnyVariant) -> tuple[str, ...]:
    """The bot levels of a game, in the order the lobby offers them."""
    return tuple(LEVELS[variant.key])


def lobby_json(s: Session, lobby: Lobby) -> dict[str, Any]:
    by_slot = {ls.slot: ls for ls in lobby.seats}
    variant = lobby_variant(lobby.rules)
    slots = []
    for slot in range(variant.seats):
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
                # SHA-256 of the seed, shown from the start (docs/players.md).
                "seed_commitment": seed_commitment(g.seed),
                "seats": [
                    {"seat": gs.seat, "name": gs.name, "player_id": gs.player_id, "bot": gs.bot}
                    for gs in g.seats
                ],
            }
    return {
        "code": lobby.code,
        "host_id": lobby.host_id,
        "rules": lobby.rules,
        "variant": variant.key,
        "seats": variant.seats,
        "bot_levels": list(bot_levels(variant)),
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
    seats = lobby_variant(lobby.rules).seats
    if slot is None:
        free = [i for i in range(seats) if i not in taken]
        if not free:
            raise LobbyError("lobby_full", f"all {seats} seats are taken")
        return free[0]
    if not 0 <= slot < seats:
        raise LobbyError("bad_input", f"slot must be 0..{seats - 1} (this game has {seats} seats)")
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
            heir = min(humans, key=lambda x: x.slot)
            lobby.host_id = heir.player_id  # type: ignore[assignment]
            # A host's flag is only a rematch request: the heir has made none.
            heir.ready = False
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
    variant = lobby_variant(lobby.rules)
    if level in external:
        if variant.key != "riichi":
            raise LobbyError("bad_input", f"{level} plays four-player riichi only")
    else:
        levels = bot_levels(variant)
        if level not in levels:
            names = ", ".join((*levels, *external) if variant.key == "riichi" else levels)
            raise LobbyError(
                "bad_input", f"{variant.title} bots are {names}; there is no {level!r}"
            )
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
        _change_rules(lobby, rules)
    # Everyone agreed to the old settings, not the new ones.
    _unready_all(lobby)
    s.flush()


def _change_rules(lobby: Lobby, rules: dict[str, Any]) -> None:
    """New rules for an open lobby. A game of fewer seats frees the slots past its
    count: bots there are removed, but a person there refuses the change (they
    move first). Bots of a level the new game has not become ``efficient``, the
    level every game has. Checked before anything changes."""
    variant = lobby_variant(rules)
    beyond = [ls for ls in lobby.seats if ls.slot >= variant.seats]
    people = [(ls.slot, ls.player.name) for ls in beyond if ls.player is not None]
    if people:
        slot, name = people[0]
        raise LobbyError(
            "seat_occupied",
            f"{name} sits in seat {slot + 1} and {variant.title} has "
            f"{variant.seats} seats: move to another seat first",
        )
    for ls in beyond:
        lobby.seats.remove(ls)
    levels = bot_levels(variant)
    for ls in lobby.seats:
        if ls.bot is not None and ls.bot not in levels:
            ls.bot = DEFAULT_BOT
    lobby.rules = rules


def roll_dice() -> tuple[int, int]:
    return (secrets.randbelow(6) + 1, secrets.randbelow(6) + 1)


def start(s: Session, lobby: Lobby, player: Player) -> StartedGame:
    """Seat everyone, roll for the first dealer and create the game row."""
    _require_open(lobby)
    _require_host(lobby, player)
    return _start(s, lobby, None)


def _start(s: Session, lobby: Lobby, order: list[LobbySeat] | None) -> StartedGame:
    variant = lobby_variant(lobby.rules)
    if len(lobby.seats) < variant.seats:
        raise LobbyError("not_ready", f"{variant.seats} players or bots are needed")
    waiting = [
        ls.player.name
        for ls in lobby.seats
        if ls.player is not None and ls.player_id != lobby.host_id and not ls.ready
    ]
    if waiting:
        raise LobbyError("not_ready", f"not ready: {', '.join(waiting)}")
    if order is not None:
        ordered = order
    else:
        ordered = sorted(lobby.seats, key=lambda x: x.slot)
        if lobby.seat_mode == "draw":
            secrets.SystemRandom().shuffle(ordered)
    dice = roll_dice()
    # Seat 0 rolls and counts counter-clockwise from itself (1 = itself), seed 000,
    # round the seats the game has. (Nanchang's engine rolls again for its dealer, N3:
    # this seat is the one that rolls, the variant's start seat.)
    first_dealer = (dice[0] + dice[1] - 1) % variant.seats
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


def rematch(s: Session, lobby: Lobby, player: Player, game_id: int) -> StartedGame | None:
    """A member asks for another game after ``game_id``, the lobby's last one.

    The request is the member's ready flag (the host's included); once every human
    still in the lobby has asked and every seat is taken, the game starts with the
    same rules and, where the same people and bots sit, the same seats (also in
    ``draw`` mode). People who left the lobby are not waited for. Asking again after
    the rematch started changes nothing (the answer shows the new game)."""
    if _member_seat(lobby, player) is None:
        raise LobbyError("not_member", "you are not in this lobby")
    if lobby.game_id is not None and lobby.game_id > game_id and lobby.status == "playing":
        return None  # the rematch has already started
    if lobby.game_id != game_id:
        raise LobbyError("bad_input", f"game {game_id} is not this lobby's last game")
    if lobby.status == "playing":
        raise LobbyError("not_open", "the game is still being played")
    _require_open(lobby)
    ls = _member_seat(lobby, player)
    assert ls is not None
    ls.ready = True
    s.flush()
    seats = lobby_variant(lobby.rules).seats
    if len(lobby.seats) < seats or not all(x.ready for x in lobby.seats if x.player_id is not None):
        return None
    return _start(s, lobby, _previous_order(s, lobby, game_id))


def _previous_order(s: Session, lobby: Lobby, game_id: int) -> list[LobbySeat] | None:
    """The lobby's seats in the order they sat at ``game_id``, when the same people and
    bot levels fill them; else None (seats by slot, or drawn)."""
    game = s.get(Game, game_id)
    if game is None:
        return None
    free = list(lobby.seats)
    order: list[LobbySeat] = []
    for gs in sorted(game.seats, key=lambda x: x.seat):
        match = next(
            (x for x in free if (x.player_id, x.bot) == (gs.player_id, gs.bot)),
            None,
        )
        if match is None:
            return None
        free.remove(match)
        order.append(match)
    return order if not free else None


def my_lobbies(s: Session, player_id: int, limit: int = 20) -> list[dict[str, Any]]:
    """The open and playing lobbies the player sits in: playing first, then newest."""
    rows = s.scalars(
        select(Lobby)
        .join(LobbySeat, LobbySeat.lobby_id == Lobby.id)
        .where(LobbySeat.player_id == player_id, Lobby.status.in_(("open", "playing")))
        .order_by((Lobby.status == "playing").desc(), Lobby.id.desc())
        .limit(limit)
        .options(selectinload(Lobby.seats).selectinload(LobbySeat.player))
    ).all()
    return [lobby_json(s, lobby) for lobby in rows]


def touch(s: Session, player: Player) -> None:
    player.last_seen = utcnow()
