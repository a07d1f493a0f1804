"""How a round ends and who pays (R17-R20, R23-R24): wins, exhaustive and abortive draws."""

from __future__ import annotations

from server.engine.events import Event
from server.engine.riichi.deal import clear_claims, sorted_tiles
from server.engine.riichi.events import Agari, Ryuukyoku, Winner
from server.engine.riichi.points import settle_win
from server.engine.riichi.state import S_END, GameState, RoundResult
from server.engine.riichi.win import WinResult
from server.engine.tiles import YAOCHU, Tile


def _pao_for(st: GameState, seat: int, res: WinResult) -> int | None:
    ids = {y for y, _ in res.yakuman}
    if "daisangen" in ids and st.pao_dragon[seat] is not None:
        return st.pao_dragon[seat]
    if "daisuushii" in ids and st.pao_wind[seat] is not None:
        return st.pao_wind[seat]
    return None


def _tsumo_points(r: WinResult, dealer: bool, n: int) -> int:
    """A tsumo's total before honba and sticks: every other seat's share (S13: two in sanma)."""
    if dealer:
        return (n - 1) * r.payments.get("tsumo_nondealer", 0)
    return r.payments.get("tsumo_dealer", 0) + (n - 2) * r.payments.get("tsumo_nondealer", 0)


def _winner(
    st: GameState,
    seat: int,
    from_seat: int | None,
    win_tile: Tile,
    res: WinResult,
    honba: int,
    sticks: int,
) -> Winner:
    pao = _pao_for(st, seat, res)
    if pao == seat:
        pao = None
    deltas = settle_win(
        res,
        winner=seat,
        dealer=st.dealer,
        discarder=from_seat,
        pao=pao,
        honba=honba,
        riichi_sticks=sticks,
        rules=st.rules,
    )
    hand = st.concealed(seat)
    if from_seat is None:
        points = _tsumo_points(res, seat == st.dealer, st.n)
    else:
        hand.append(win_tile)
        points = sum(res.payments.values())
    return Winner(
        seat=seat,
        from_seat=from_seat,
        hand=sorted_tiles(hand),
        melds=tuple(f.meld for f in st.melds[seat]),
        win_tile=win_tile,
        result=res,
        points=points,
        pao=pao,
        deltas=tuple(deltas),
        honba=honba,
        riichi_sticks=sticks,
    )


def tsumo(st: GameState, s: int) -> list[Event]:
    drawn = st.drawn[s]
    assert drawn is not None
    res = st.score(s, st.tile(drawn), True)
    assert res is not None
    return _agari(st, [_winner(st, s, None, st.tile(drawn), res, st.honba, st.riichi_sticks)])


def ron(st: GameState, seats: list[int]) -> list[Event]:
    """The seats (in turn order from the discarder) ron the window's tile (R9, R20)."""
    src = st.claim_from
    assert src is not None
    if len(seats) == 3 and st.rules.multiple_ron == "double" and st.rules.abortive_draws:
        st.riichi_decl = None
        return ryuukyoku(st, "sanchahou")
    results = dict(st.claim_results)
    assert st.claim_tile is not None
    win_tile = st.tile(st.claim_tile)
    st.riichi_decl = None  # R14: a declaration tile that is ronned puts no stick down
    wins = []
    for i, s in enumerate(seats):
        first = i == 0
        wins.append(
            _winner(
                st,
                s,
                src,
                win_tile,
                results[s],
                st.honba if first else 0,
                st.riichi_sticks if first else 0,
            )
        )
    return _agari(st, wins)


def _agari(st: GameState, wins: list[Winner]) -> list[Event]:
    clear_claims(st)
    st.step = S_END
    st.phase = "round_end"
    n = st.n
    total = list(st.round_deltas)
    st.touch_all()
    for w in wins:
        for i in range(n):
            total[i] += w.deltas[i]
            st.scores[i] += w.deltas[i]
    st.riichi_sticks = 0
    any_riichi = any(st.riichi[w.seat] for w in wins)
    event = Agari(
        winners=tuple(wins),
        dora_indicators=tuple(st.dora_indicators()),
        ura_indicators=tuple(st.ura_indicators()) if any_riichi else (),
        deltas=tuple(total),
        scores=tuple(st.scores),
        honba=st.honba,
        riichi_sticks=0,
    )
    dealer_won = any(w.seat == st.dealer for w in wins)
    _record(st, "agari", None, tuple(wins), (), total, dealer_won, dealer_won, event)
    return [event]


def _record(
    st: GameState,
    kind_: str,
    reason: str | None,
    wins: tuple[Winner, ...],
    tenpai: tuple[int, ...],
    deltas: list[int],
    renchan: bool,
    merit: bool,
    event: Agari | Ryuukyoku,
) -> None:
    rr = RoundResult(
        st.round_wind,
        st.kyoku,
        st.round_start_honba,
        st.round_start_sticks,
        kind_,
        reason,
        wins,
        tenpai,
        tuple(deltas),
        tuple(st.scores),
        renchan,
        merit,
        event,
    )
    st.round_results.append(rr)
    st.last_result = rr


def ryuukyoku(
    st: GameState,
    reason: str,
    *,
    hands: tuple[tuple[int, tuple[Tile, ...]], ...] = (),
    tenpai: tuple[int, ...] = (),
    nagashi: tuple[int, ...] = (),
    pay: list[int] | None = None,
    renchan: bool = True,
    merit: bool = False,
) -> list[Event]:
    """The round ends without a win (R17-R18); abortive draws keep the dealer."""
    clear_claims(st)
    st.step = S_END
    st.phase = "round_end"
    n = st.n
    pay = pay or [0] * n
    total = [st.round_deltas[i] + pay[i] for i in range(n)]
    st.touch_all()
    for i in range(n):
        st.scores[i] += pay[i]
    event = Ryuukyoku(
        reason=reason,
        tenpai=tenpai,
        hands=hands,
        nagashi=nagashi,
        deltas=tuple(total),
        scores=tuple(st.scores),
        honba=st.honba + 1,
        riichi_sticks=st.riichi_sticks,
    )
    _record(st, "ryuukyoku", reason, (), tenpai, total, renchan, merit, event)
    return [event]


def kyuushu(st: GameState, s: int) -> list[Event]:
    return ryuukyoku(st, "kyuushu_kyuuhai", hands=((s, sorted_tiles(st.concealed(s))),))


def exhaustive(st: GameState) -> list[Event]:
    """The live wall is empty (R17): nagashi mangan, else tenpai payments."""
    n = st.n
    tenpai = tuple(s for s in range(n) if st.is_tenpai_at_draw(s))
    hands = tuple((s, sorted_tiles(st.concealed(s))) for s in tenpai)
    dealer_tenpai = st.dealer in tenpai
    nagashi: tuple[int, ...] = ()
    if st.rules.nagashi_mangan:
        nagashi = tuple(
            s
            for s in range(n)
            if st.rivers[s] and all((r.tid >> 2) in YAOCHU and not r.called for r in st.rivers[s])
        )
    pay = [0] * n
    if nagashi:
        # R17: a mangan tsumo per nagashi seat, no honba, no tenpai payments (Tenhou)
        for s in nagashi:
            for o in range(n):
                if o == s:
                    continue
                p = 4000 if (s == st.dealer or o == st.dealer) else 2000
                pay[o] -= p
                pay[s] += p
        return ryuukyoku(
            st,
            "nagashi_mangan",
            hands=hands,
            tenpai=tenpai,
            nagashi=nagashi,
            pay=pay,
            renchan=dealer_tenpai,
            merit=dealer_tenpai,
        )
    k = len(tenpai)
    if 0 < k < n:
        total = 3000 if n == 4 else 2000  # R17; sanma S15
        for s in range(n):
            pay[s] = total // k if s in tenpai else -total // (n - k)
    return ryuukyoku(
        st,
        "exhaustive",
        hands=hands,
        tenpai=tenpai,
        pay=pay,
        renchan=dealer_tenpai,
        merit=dealer_tenpai,
    )
