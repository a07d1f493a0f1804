"""Provably fair walls: the seed commitment, and checking a finished game against it.

Before the first hand every seat is told ``seed_commitment``, SHA-256 of the
game's secret 32-byte seed. Once the game is over the seed is published; anyone
can then check that it hashes to the commitment and derive every round's wall
from it (docs/players.md gives the derivation step by step), and see that the
tiles dealt and drawn are the ones the wall holds, in order. ``verify_game``
does both, then replays the recorded actions through the engine and compares
every event it yields with the record.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from server.engine import Action, IllegalAction
from server.engine.nanchang.wall import FIRST_DRAW as NC_FIRST_DRAW
from server.engine.nanchang.wall import NUM_TILES as NC_TILES
from server.engine.nanchang.wall import NanchangWall, roll_for_dealer
from server.engine.replay import steps
from server.engine.riichi.wall import LAYOUTS, Wall
from server.engine.tiles import tile_of_id, tile_str
from server.tables.options import game_setup
from server.wire.actions import parse_action
from server.wire.codec import codec_for

# Events older records hold and the engine no longer yields (as ``resume``).
_RETIRED = frozenset({"tsumo_turn"})


def commitment(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


@dataclass(slots=True)
class FairnessReport:
    rounds: int = 0  # rounds whose wall was derived and matched
    events: int = 0  # recorded events the replay reproduced
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def verify_game(game: dict[str, Any], expected_commitment: str | None = None) -> FairnessReport:
    """Check a finished game as ``GET /api/games/{id}`` gives it (``seed``, ``rules``,
    ``first_dealer``, ``events``) against its commitment (``expected_commitment``, what
    a player was shown, or else the game's ``seed_commitment``)."""
    report = FairnessReport()
    seed_hex = game.get("seed")
    if not isinstance(seed_hex, str) or not seed_hex:
        report.problems.append("the game has no published seed (is it over?)")
        return report
    try:
        seed = bytes.fromhex(seed_hex)
    except ValueError:
        report.problems.append("the seed is not hex")
        return report
    want = (expected_commitment or game.get("seed_commitment") or "").lower()
    if not want:
        report.problems.append("no commitment to check the seed against")
        return report
    if commitment(seed) != want:
        report.problems.append(
            f"SHA-256 of the seed is {commitment(seed)}, the commitment was {want}"
        )
        return report
    try:
        variant, rules, _ = game_setup(game["rules"])
    except (ValueError, KeyError) as exc:
        report.problems.append(f"rules: {exc}")
        return report
    rows = [e for e in game.get("events", []) if e.get("type") not in _RETIRED]
    events = [(e["type"], e["data"]) for e in rows if e.get("kind") == "event"]
    if variant.key == "nanchang":
        _check_nanchang_walls(seed, int(game["first_dealer"]), events, rules, report)
    else:
        red = rules.red_fives > 0
        _check_riichi_walls(seed, variant.seats, red, events, report)
    if report.ok:
        _check_replay(variant, rules, seed, int(game["first_dealer"]), rows, events, report)
    return report


def _rounds(
    events: Sequence[tuple[str, dict[str, Any]]],
) -> Iterator[tuple[dict[str, Any], list[tuple[str, dict[str, Any]]]]]:
    """Each round_start with the events up to the next one."""
    start: dict[str, Any] | None = None
    body: list[tuple[str, dict[str, Any]]] = []
    for t, d in events:
        if t == "round_start":
            if start is not None:
                yield start, body
            start, body = d, []
        elif start is not None:
            body.append((t, d))
    if start is not None:
        yield start, body


def _check_riichi_walls(
    seed: bytes,
    seats: int,
    red: bool,
    events: Sequence[tuple[str, dict[str, Any]]],
    report: FairnessReport,
) -> None:
    layout = LAYOUTS[seats]
    for start, body in _rounds(events):
        label = f"round {start['round_index']}"
        wall = Wall.from_seed(seed, int(start["round_index"]), int(start["dealer"]), red, layout)
        dealer = int(start["dealer"])

        def at(pos: int, w: Wall = wall) -> str:
            return tile_str(tile_of_id(w.tiles[pos], red))

        if list(start["dice"]) != list(wall.dice):
            report.problems.append(
                f"{label}: the dice {start['dice']} are not the seed's {list(wall.dice)}"
            )
            continue
        if start["dora_indicators"][:1] != [at(layout.dora_pos[0])]:
            report.problems.append(f"{label}: the dora indicator is not the wall's")
            continue
        live, rinshan, dora = layout.first_draw, 0, 1
        bad = None
        for t, d in body:
            if t == "haipai":
                seat = int(d["seat"])
                want = sorted(at(p) for p in layout.deal_positions((seat - dealer) % seats))
                if sorted(d["tiles"] or ()) != want:
                    bad = f"seat {seat}'s dealt hand is not the wall's"
            elif t == "draw":
                if d["rinshan"]:
                    pos = layout.rinshan_pos[rinshan]
                    rinshan += 1
                else:
                    pos, live = live, live + 1
                if d["tile"] != at(pos):
                    bad = f"a draw of {d['tile']} where the wall holds {at(pos)}"
            elif t == "new_dora":
                if d["indicator"] != at(layout.dora_pos[dora]):
                    bad = "a kan dora indicator is not the wall's"
                dora += 1
            if bad:
                break
        if bad:
            report.problems.append(f"{label}: {bad}")
        else:
            report.rounds += 1


def _check_nanchang_walls(
    seed: bytes,
    first_dealer: int,
    events: Sequence[tuple[str, dict[str, Any]]],
    rules: Any,
    report: FairnessReport,
) -> None:
    if rules.dealer_by_dice:
        start = next((d for t, d in events if t == "game_start"), None)
        dice, _ = roll_for_dealer(seed, first_dealer)
        if start is None or list(start.get("dice") or ()) != list(dice):
            report.problems.append("the roll for the first dealer is not the seed's")
            return
    for start, body in _rounds(events):
        label = f"round {start['round_index']}"
        dealer = int(start["dealer"])
        wall = NanchangWall.from_seed(seed, int(start["round_index"]), dealer)
        if [list(start["dice"]), list(start["second_dice"])] != [
            list(wall.break_dice),
            list(wall.second_dice),
        ]:
            report.problems.append(f"{label}: the dice are not the seed's")
            continue
        live = list(range(NC_FIRST_DRAW, NC_TILES))
        bad = None
        for t, d in body:
            if t == "deal":
                seat = int(d["seat"])
                want = sorted(tile_str(tid // 4) for tid in wall.hand(seat))
                if sorted(d["tiles"] or ()) != want:
                    bad = f"seat {seat}'s dealt hand is not the wall's"
            elif t == "jokers":
                if list(d["dice"]) != list(wall.joker_dice):
                    bad = "the joker roll is not the seed's"
            elif t == "draw":
                # N11: replacements from the end, the last stack's top tile first
                if not d["replacement"]:
                    pos = live.pop(0)
                elif len(live) >= 2 and live[-2] % 2 == 0 and live[-1] == live[-2] + 1:
                    pos = live.pop(-2)
                else:
                    pos = live.pop()
                if d["tile"] != tile_str(wall.tiles[pos] // 4):
                    bad = f"a draw of {d['tile']} that is not the wall's"
            if bad:
                break
        if bad:
            report.problems.append(f"{label}: {bad}")
        else:
            report.rounds += 1


def _check_replay(
    variant: Any,
    rules: Any,
    seed: bytes,
    first_dealer: int,
    rows: Sequence[dict[str, Any]],
    recorded: Sequence[tuple[str, dict[str, Any]]],
    report: FairnessReport,
) -> None:
    """The recorded actions, replayed from the seed, yield exactly the recorded events."""
    actions: list[Action | None] = []
    for r in rows:
        if r.get("kind") == "action":
            try:
                actions.append(parse_action(r["data"], seats=variant.seats))
            except ValueError as exc:
                report.problems.append(f"a recorded action does not parse: {exc}")
                return
    encode = codec_for(variant).event_json
    produced: list[dict[str, Any]] = []
    try:
        last = None
        for state, step in steps(variant, rules, seed, actions, first_dealer, auto_next=True):
            last = state
            produced += [encode(ev) for ev in step.events]
        # The next round may have been dealt after the last recorded action.
        behind = len(recorded) > len(produced)
        if last is not None and behind and variant.phase(last) == "round_end":
            produced += [encode(ev) for ev in variant.next_round(last)]
    except (ValueError, IllegalAction) as exc:
        report.problems.append(f"the replay refused a recorded action: {exc}")
        return
    for i, ((_, want), got) in enumerate(zip(recorded, produced, strict=False)):
        if want != json.loads(json.dumps(got)):
            report.problems.append(f"event {i + 1} ({want.get('type')}) differs from the replay")
            return
    if len(recorded) != len(produced):
        report.problems.append(
            f"the replay yields {len(produced)} events, the record holds {len(recorded)}"
        )
        return
    report.events = len(recorded)
