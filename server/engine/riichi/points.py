"""What a win is worth and who pays it: limits (R23), payments and settlement
(R19, R20, R24), with honba, riichi sticks and pao.
"""

from __future__ import annotations

from server.engine.riichi.rules import RuleSet
from server.engine.riichi.win import WinResult
from server.engine.riichi.yaku import PAO_YAKUMAN


def base_points(han: int, fu: int, rules: RuleSet) -> tuple[int, str | None]:
    """Base points and limit name of a non-yakuman hand."""
    if han >= 13:
        return (8000, "kazoe") if rules.kazoe_yakuman else (6000, "sanbaiman")
    if han >= 11:
        return 6000, "sanbaiman"
    if han >= 8:
        return 4000, "baiman"
    if han >= 6:
        return 3000, "haneman"
    b = fu << (han + 2)
    if han >= 5 or b >= 2000 or (rules.kiriage_mangan and b == 1920):
        return 2000, "mangan"
    return b, None


def _up100(x: int) -> int:
    return (x + 99) // 100 * 100


def payments_for(base: int, dealer: bool, tsumo: bool, rules: RuleSet) -> dict[str, int]:
    """Who pays what for a win, before honba and sticks (R23; sanma S13)."""
    if not tsumo:
        return {"ron": _up100(base * (6 if dealer else 4))}
    if dealer:
        each = _up100(base * 2)
        if rules.seats == 3 and not rules.tsumo_son:
            each += _up100(base)  # the absent seat's 2B, split between the two payers
        return {"tsumo_nondealer": each}
    from_dealer, each = _up100(base * 2), _up100(base)
    if rules.seats == 3 and not rules.tsumo_son:
        half = _up100(base // 2)  # the absent non-dealer's B, split
        from_dealer, each = from_dealer + half, each + half
    return {"tsumo_dealer": from_dealer, "tsumo_nondealer": each}


def pao_multiplier(result: WinResult) -> int:
    """The yakuman multiplier a pao seat is liable for (daisangen, daisuushii)."""
    return sum(m for y, m in result.yakuman if y in PAO_YAKUMAN)


def settle_win(
    result: WinResult,
    *,
    winner: int,
    dealer: int,
    discarder: int | None,
    pao: int | None,
    honba: int,
    riichi_sticks: int,
    rules: RuleSet,
) -> list[int]:
    """Every seat's score change for one win, honba and riichi sticks included.

    ``discarder`` None means tsumo. ``pao`` is the liable seat (R24), if any;
    it only matters when the hand has daisangen or daisuushii and the rules
    have pao. Pao pays its part in full on tsumo (honba too, when the whole hand
    is its part) and half on ron, where the discarder pays the rest and the honba.
    Three players (S13, S14): a tsumo's payers are the two others (tsumo-son as the
    rules say), and 100 per honba comes from each payer, a ron's discarder paying
    for both.
    """
    n = rules.seats
    for name, seat in (("winner", winner), ("dealer", dealer)):
        if seat not in range(n):
            raise ValueError(f"{name} must be a seat 0..{n - 1}")
    if discarder is not None and (discarder not in range(n) or discarder == winner):
        raise ValueError(f"discarder must be another seat 0..{n - 1}")
    if pao is not None and (pao not in range(n) or pao == winner):
        raise ValueError(f"pao must be another seat 0..{n - 1}")
    if honba < 0 or riichi_sticks < 0:
        raise ValueError("honba and riichi_sticks must be non-negative")
    deltas = [0] * n
    is_dealer = winner == dealer
    base = result.base
    mult = 6 if is_dealer else 4
    honba_all = 100 * (n - 1) * honba  # what the whole table pays for the honba
    liable = pao_multiplier(result) if (pao is not None and rules.pao) else 0
    if liable and rules.pao_whole_hand:
        liable = sum(m for _, m in result.yakuman)  # R24: every yakuman of the hand
    if liable:
        pao_base = 8000 * liable
        if discarder is not None:
            pao_base //= 2
        base -= pao_base
        assert pao is not None
        deltas[pao] -= pao_base * mult
        deltas[winner] += pao_base * mult
    deltas[winner] += 1000 * riichi_sticks
    if discarder is not None:
        pay = _up100(base * mult) + honba_all
        deltas[discarder] -= pay
        deltas[winner] += pay
    elif base == 0:
        # The whole hand was pao's: it pays the honba as well.
        assert pao is not None
        deltas[pao] -= honba_all
        deltas[winner] += honba_all
    else:
        pay_ = payments_for(base, is_dealer, True, rules)
        for s in range(n):
            if s == winner:
                continue
            share = pay_["tsumo_dealer"] if s == dealer else pay_["tsumo_nondealer"]
            deltas[s] -= share + 100 * honba
            deltas[winner] += share + 100 * honba
    return deltas


__all__ = ["base_points", "pao_multiplier", "payments_for", "settle_win"]
