"""How likely a discard deals into a threatening opponent's hand (the ``strong`` bot's reading).

A threat is an opponent in riichi, or one whose open hand looks ready (three melds, or
two with a value pon or dora in them). For each threat the bot knows only what every
seat sees: rivers, melds, dora indicators, and its own tiles. ``deal_in`` estimates,
in percent, how often discarding a kind deals into that threat, from the shapes a
wait can have:

* genbutsu: the threat's own discards, and (for a riichi) what it let pass since
  declaring, cannot be ron'd (furiten): 0;
* a two-sided wait (ryanmen) on kind ``k`` uses ``k-2 k-1`` or ``k+1 k+2``; a side is
  ruled out when its other wait is genbutsu (suji) or when a tile it needs is all in
  sight (kabe, "no chance"), and counts half with three in sight ("one chance");
* what is left (kanchan, penchan, shanpon, tanki) weighs less, and less again when
  three of the kind are in sight;
* honours go by how many are in sight.

The figures follow the usual published deal-in rates against riichi (a non-suji
middle tile about 12 %, a suji terminal about 2 %, a last honour under 1 %).
``cost`` is what dealing in to a threat is worth in points, dora raising it.
"""

from __future__ import annotations

from dataclasses import dataclass

from server.engine.riichi.observe import Observation
from server.engine.tiles import DRAGONS, Kind, dora_of, kind

# percent for a number tile by its distance to the suit's edge (0: 1/9, 1: 2/8, 2: 3/7,
# 3+: 4/5/6): the part from two-sided waits per live side, and the rest
_SIDE = (4.2, 5.2, 6.0, 5.0)
_REST = (1.6, 2.6, 4.0, 2.5)
# an honour by how many of it are in sight (0..3)
_HONOUR = (7.0, 5.0, 2.2, 0.5)
# an open hand is less often ready than a riichi
OPEN_FACTOR = 0.6
# an open hand with this many melds is a threat; with two only when dora or a value pon
# is in them (``OPEN_TWO``)
OPEN_TWO = True


@dataclass(frozen=True, slots=True)
class Threat:
    seat: int
    riichi: bool
    dealer: bool
    genbutsu: frozenset[Kind]
    weight: float  # 1 for riichi, less for an open hand that may not be ready
    cost: float  # points a deal-in is likely to cost


def _after_riichi(obs: Observation, declarer: int) -> set[Kind]:
    """Kinds other seats discarded after ``declarer``'s riichi that it let pass.

    Rivers carry no global order: the ``i``-th discard of a seat is taken to come
    after the declaration only when it is safely later (one go-around's margin for a
    seat that plays before the declarer), so that calls cannot make a tile look safe
    that is not.
    """
    river = obs.players[declarer].river
    r = next((i for i, d in enumerate(river) if d.riichi), None)
    if r is None:
        return set()
    n = len(obs.players)
    order = (declarer - obs.dealer) % n
    out: set[Kind] = set()
    for p in obs.players:
        if p.seat == declarer:
            continue
        first = r + 1 if (p.seat - obs.dealer) % n > order else r + 2
        for d in p.river[first:]:
            out.add(kind(d.tile))
    return out


def _round_value(dealer: bool, han: float) -> float:
    """A typical hand's worth for ``han`` (30-40 fu), dealer one and a half times."""
    if han <= 1:
        v = 1300.0
    elif han <= 2:
        v = 2600.0
    elif han <= 3:
        v = 5200.0
    elif han <= 5:
        v = 8000.0
    elif han <= 7:
        v = 12000.0
    else:
        v = 16000.0
    return v * 1.5 if dealer else v


def read_threats(obs: Observation) -> list[Threat]:
    """Every opponent in riichi or with a threatening open hand."""
    doras = [dora_of(kind(t)) for t in obs.dora_indicators]
    out: list[Threat] = []
    for p in obs.players:
        if p.seat == obs.seat:
            continue
        dealer = p.seat == obs.dealer
        river = frozenset(kind(d.tile) for d in p.river)
        if p.riichi:
            safe = river | _after_riichi(obs, p.seat)
            out.append(Threat(p.seat, True, dealer, frozenset(safe), 1.0, _round_value(dealer, 3)))
            continue
        if not p.melds:
            continue
        shown = [kind(t) for m in p.melds for t in m.tiles]
        dora = sum(shown.count(d) for d in doras)
        value_pon = any(
            kind(m.tiles[0]) == kind(m.tiles[-1])
            and kind(m.tiles[0]) in (*DRAGONS, obs.round_wind_kind, p.wind)
            for m in p.melds
        )
        n = len(p.melds)
        if n >= 3 or (OPEN_TWO and n == 2 and (dora or value_pon)):
            weight = OPEN_FACTOR if n >= 3 else OPEN_FACTOR * 0.6
            han = 1 + dora + (1 if value_pon else 0)
            out.append(Threat(p.seat, False, dealer, river, weight, _round_value(dealer, han)))
    return out


def deal_in(k: Kind, threat: Threat, sight: list[int]) -> float:
    """Percent chance that discarding kind ``k`` deals into ``threat``; ``sight`` counts
    each kind the bot can see (own tiles included)."""
    g = threat.genbutsu
    if k in g:
        return 0.0
    seen = sight[k]
    if seen >= 4:
        return 0.0
    if k >= 27:
        return _HONOUR[min(seen, 3)] * threat.weight
    n = k % 9
    edge = min(n, 8 - n, 3)
    sides = 0.0
    if n >= 3:  # waits k-3 and k with k-2 k-1 in hand
        sides += _side(k - 3, k - 2, k - 1, g, sight)
    if n <= 5:  # waits k and k+3 with k+1 k+2 in hand
        sides += _side(k + 3, k + 1, k + 2, g, sight)
    rest = _REST[edge] * (0.4 if seen >= 3 else 1.0)
    return (sides * _SIDE[edge] + rest) * threat.weight


def _side(other: Kind, a: Kind, b: Kind, genbutsu: frozenset[Kind], sight: list[int]) -> float:
    if other in genbutsu:
        return 0.0  # suji
    need = max(sight[a], sight[b])
    if need >= 4:
        return 0.0  # kabe
    return 0.5 if need == 3 else 1.0


def tile_risk(k: Kind, threats: list[Threat], sight: list[int], doras: frozenset[Kind]) -> float:
    """Expected points lost by discarding kind ``k`` now (the sum over threats)."""
    total = 0.0
    for t in threats:
        p = deal_in(k, t, sight)
        if p:
            cost = t.cost * (1.4 if k in doras else 1.0)
            total += p / 100.0 * cost
    return total
