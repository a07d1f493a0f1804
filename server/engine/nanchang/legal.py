"""Legal actions (N8-N11, N16): one source for what a seat may do and why an action is refused.

Action shapes (the shared ``Action`` type, tiles as ``Kind`` ints):

* own turn: ``TSUMO``; ``ANKAN`` (tile = the kind); ``KAKAN`` (tile = the kind added to
  a pon); ``DISCARD`` (tile). After a chi or pon only ``DISCARD`` (N10).
* another seat's discard: ``RON`` (tile), ``PON`` (tiles = two own), ``DAIMINKAN``
  (tiles = three own), ``CHI`` (tiles = two own; only the next seat), ``PASS``.
* an added kan: ``RON`` (抢杠) or ``PASS``.
"""

from __future__ import annotations

from server.engine.actions import Action, ActionType
from server.engine.nanchang.shapes import GROUPS, SEQS, is_win, jingdiao
from server.engine.nanchang.state import NanchangGame
from server.engine.tiles import Kind, tile_str


def _chi_pairs(k: Kind) -> tuple[tuple[Kind, Kind], ...]:
    """N9: the pairs of other kinds that make a sequence with ``k`` (winds: any three)."""
    out: set[tuple[Kind, Kind]] = set()
    for start, size, gtype in GROUPS:
        if start <= k < start + size:
            for seq in SEQS[gtype]:
                if k - start in seq:
                    a, b = (start + x for x in seq if start + x != k)
                    out.add((a, b))
    return tuple(sorted(out))


CHI_PAIRS: tuple[tuple[tuple[Kind, Kind], ...], ...] = tuple(_chi_pairs(k) for k in range(34))


def counts_of(g: NanchangGame, seat: int) -> list[int]:
    c = [0] * 34
    for t in g.hands[seat]:
        c[t // 4] += 1
    return c


def can_ron(g: NanchangGame, seat: int, k: Kind, dihu: bool = False) -> bool:
    """N7, N16: the seat's 13 tiles win with ``k`` as its own tile; 精吊 only wins by self-draw.

    On the dealer's first discard (地糊) a 精吊 hand may win (the seed's 精吊地糊).
    """
    hand = [t // 4 for t in g.hands[seat]]
    melds = len(g.melds[seat])
    wild = [True] * len(hand) + [False]
    quads = g.options.seven_pairs_quads
    if not is_win([*hand, k], g.jokers, melds, wild, quads):
        return False
    if dihu:
        return True
    sets, pairs = jingdiao(hand, g.jokers, melds, quads)
    return not (sets or pairs)


def can_tsumo(g: NanchangGame, seat: int) -> bool:
    hand = [t // 4 for t in g.hands[seat]]
    return is_win(hand, g.jokers, len(g.melds[seat]), None, g.options.seven_pairs_quads)


def turn_actions(g: NanchangGame) -> list[Action]:
    """What the seat in turn may do (step act or discard)."""
    seat = g.turn
    counts = counts_of(g, seat)
    out: list[Action] = []
    if g.step == "act":
        if can_tsumo(g, seat):
            out.append(Action(ActionType.TSUMO, seat))
        if g.live:  # N11: a kan needs a replacement tile
            for k in range(34):
                if counts[k] == 4:
                    out.append(Action(ActionType.ANKAN, seat, k))
            for m in g.melds[seat]:
                if m.type == "pon" and counts[m.tiles[0]]:
                    out.append(Action(ActionType.KAKAN, seat, m.tiles[0]))
    for k in range(34):
        if counts[k]:
            out.append(Action(ActionType.DISCARD, seat, k))
    return out


def call_choices(g: NanchangGame, discarder: int, k: Kind, dihu: bool) -> dict[int, list[Action]]:
    """N8-N10: every other seat's answers to a discard (only seats with a choice)."""
    out: dict[int, list[Action]] = {}
    for i in range(1, 4):
        s = (discarder + i) % 4
        acts: list[Action] = []
        if can_ron(g, s, k, dihu):
            acts.append(Action(ActionType.RON, s, k))
        if g.live:  # N25: the last discard can only be won on
            n = sum(1 for t in g.hands[s] if t // 4 == k)
            if n >= 2:
                acts.append(Action(ActionType.PON, s, None, (k, k)))
            if n >= 3:
                acts.append(Action(ActionType.DAIMINKAN, s, None, (k, k, k)))
            if i == 1:
                counts = counts_of(g, s)
                for a, b in CHI_PAIRS[k]:
                    if counts[a] and counts[b]:
                        acts.append(Action(ActionType.CHI, s, None, (a, b)))
        if acts:
            acts.append(Action(ActionType.PASS, s))
            out[s] = acts
    return out


def rob_choices(g: NanchangGame, kan_seat: int, k: Kind) -> dict[int, list[Action]]:
    """N11: 抢杠: seats that win on an added kan's tile (never on a concealed kan)."""
    out: dict[int, list[Action]] = {}
    for i in range(1, 4):
        s = (kan_seat + i) % 4
        if can_ron(g, s, k):
            out[s] = [Action(ActionType.RON, s, k), Action(ActionType.PASS, s)]
    return out


def legal_actions(g: NanchangGame, seat: int) -> list[Action]:
    """What ``seat`` may do now; empty when the game does not wait on it."""
    if g.phase != "play":
        return []
    if g.step in ("act", "discard"):
        if seat != g.turn:
            return []
        cached = g.legal_cache.get(seat)
        if cached is None:
            cached = g.legal_cache[seat] = turn_actions(g)
        return list(cached)
    if seat in g.answers:
        return []
    return list(g.choices.get(seat, ()))


def why_illegal(g: NanchangGame, action: Action) -> str | None:
    """The reason ``action`` is refused now, or None when it is legal."""
    if not isinstance(action, Action):
        return "not an action"
    if g.phase == "game_end":
        return "the game is over"
    if g.phase == "round_end":
        return "the round is over; the next one has not started"
    if not 0 <= action.seat <= 3:
        return f"no seat {action.seat}"
    legal = legal_actions(g, action.seat)
    if action in legal:
        return None
    if not legal:
        if g.step in ("act", "discard"):
            return f"it is seat {g.turn}'s turn, not seat {action.seat}'s"
        if action.seat in g.answers:
            return f"seat {action.seat} has already answered"
        return f"seat {action.seat} has nothing to answer"
    types = {a.type for a in legal}
    if action.type not in types:
        allowed = ", ".join(sorted(t.value for t in types))
        return f"{action.type.value} is not allowed now (allowed: {allowed})"
    what = (
        tile_str(action.tile) if action.tile is not None and 0 <= action.tile < 34 else action.tile
    )
    if action.type is ActionType.DISCARD:
        return f"seat {action.seat} holds no {what}"
    return f"{action!r} is not allowed now"
