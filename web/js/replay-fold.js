// The replay's fold: a finished game's event stream (GET /api/games/{id}, docs/engine.md
// "Events") split into hands and steps, and folded up to a step into a table view of the
// shape the server sends (docs/engine.md "View"), so the live table renderer draws it.
// Pure: no DOM. Works for riichi (4 and 3 seats) and Nanchang events.
// When web/js/fold.js (the live table's fold of wire events) lands, foldView becomes a
// call of it per event; splitHands and the step rules stay here.
import { kindOf, sortTiles } from "./tiles.js";

// Events that start a new step; the others (tsumo_turn, new_dora, riichi_accepted,
// jokers, round_end after a win) belong to the step before them.
const STEP_TYPES = new Set(["draw", "discard", "call", "kan", "nuki", "agari", "ryuukyoku", "win", "wall_exhausted", "game_end"]);
export const WINDS = ["E", "S", "W", "N"];

/** Split the record into hands: {start, events, steps} with steps = indices into events. */
export function splitHands(rows) {
  const events = rows.filter((r) => r.kind === "event").map((r) => ({ type: r.type, data: r.data }));
  const hands = [];
  let cur = null;
  let gameStart = null;
  for (const ev of events) {
    if (ev.type === "game_start") gameStart = ev.data;
    if (ev.type === "round_start") {
      cur = { start: ev.data, events: [], steps: [0] };
      hands.push(cur);
    }
    if (!cur) continue;
    if (STEP_TYPES.has(ev.type)) cur.steps.push(cur.events.length);
    cur.events.push(ev);
  }
  return { hands, gameStart, seats: seatCount(gameStart, hands) };
}

function seatCount(gameStart, hands) {
  const rules = (gameStart && gameStart.rules) || {};
  if (rules.seats) return rules.seats;
  const first = hands[0];
  return first && first.start.scores ? first.start.scores.length : 4;
}

/** The step (index into hand.steps) that shows events[i]. */
export function stepOfEvent(hand, i) {
  let s = 0;
  while (s + 1 < hand.steps.length && hand.steps[s + 1] <= i) s += 1;
  return s;
}

function removeTile(list, tile) {
  const i = list.indexOf(tile);
  if (i >= 0) list.splice(i, 1);
  return i >= 0;
}

function windName(w) {
  return typeof w === "number" ? WINDS[w] : w || "E";
}

/**
 * The table after events[0..upto] of one hand, as a view seen from `seat`: that seat's
 * hand always, every other hand too when `open`. The view has no legal actions.
 */
export function foldView(hand, upto, { seat = 0, open = true, seats = 4 } = {}) {
  const r = hand.start;
  const n = seats;
  const st = {
    hands: Array.from({ length: n }, () => []),
    drawn: Array(n).fill(null),
    melds: Array.from({ length: n }, () => []),
    rivers: Array.from({ length: n }, () => []),
    riichi: Array(n).fill(false),
    nuki: Array(n).fill(0),
    scores: [...(r.scores || Array(n).fill(0))],
    dora: [...(r.dora_indicators || [])],
    wallLeft: r.wall_left ?? null,
    sticks: r.riichi_sticks ?? 0,
    turn: r.dealer,
    lastDiscard: null,
    result: null,
    final: null,
    phase: "play",
  };
  const merge = (s) => {
    if (st.drawn[s]) st.hands[s].push(st.drawn[s]);
    st.drawn[s] = null;
  };
  for (let i = 0; i <= upto && i < hand.events.length; i++) {
    const { type, data: d } = hand.events[i];
    if (type !== "discard") st.lastDiscard = null;
    if (type === "haipai" || type === "deal") {
      if (d.tiles) st.hands[d.seat] = sortTiles(d.tiles);
    } else if (type === "draw") {
      if (st.drawn[d.seat]) merge(d.seat);
      st.drawn[d.seat] = d.tile;
      if (d.wall_left != null) st.wallLeft = d.wall_left;
      else if (st.wallLeft != null) st.wallLeft -= 1;
      st.turn = d.seat;
    } else if (type === "tsumo_turn") {
      if (d.wall_left != null) st.wallLeft = d.wall_left;
    } else if (type === "discard") {
      if (d.tsumogiri && st.drawn[d.seat] === d.tile) st.drawn[d.seat] = null;
      else {
        removeTile(st.hands[d.seat], d.tile);
        merge(d.seat);
      }
      st.hands[d.seat] = sortTiles(st.hands[d.seat]);
      st.rivers[d.seat].push({ tile: d.tile, tsumogiri: !!d.tsumogiri, riichi: !!d.riichi, called: false });
      st.turn = d.seat;
      st.lastDiscard = { seat: d.seat, tile: d.tile };
    } else if (type === "call") {
      const own = [...d.tiles];
      removeTile(own, d.called);
      for (const x of own) removeTile(st.hands[d.seat], x);
      const river = st.rivers[d.from_seat];
      if (river && river.length) river[river.length - 1].called = true;
      st.melds[d.seat].push({ type: d.meld, tiles: d.tiles, called: d.called, from_seat: d.from_seat });
      st.turn = d.seat;
    } else if (type === "kan") {
      merge(d.seat);
      if (d.meld === "ankan") {
        for (const x of d.tiles) removeTile(st.hands[d.seat], x);
        st.melds[d.seat].push({ type: "ankan", tiles: d.tiles, called: null, from_seat: null });
      } else {
        removeTile(st.hands[d.seat], d.added);
        const k = kindOf(d.added);
        const m = st.melds[d.seat].find((x) => x.type === "pon" && kindOf(x.called) === k);
        if (m) {
          m.type = "kakan";
          m.tiles = d.tiles;
        }
      }
      st.hands[d.seat] = sortTiles(st.hands[d.seat]);
      st.turn = d.seat;
    } else if (type === "nuki") {
      merge(d.seat);
      removeTile(st.hands[d.seat], d.tile);
      st.nuki[d.seat] += 1;
      st.turn = d.seat;
    } else if (type === "new_dora") st.dora = [...d.dora_indicators];
    else if (type === "jokers") st.dora = [d.indicator];
    else if (type === "riichi_accepted") {
      st.riichi[d.seat] = true;
      st.scores = [...d.scores];
      st.sticks = d.riichi_sticks;
    } else if (type === "agari" || type === "ryuukyoku") {
      st.result = d;
      st.scores = [...d.scores];
      st.sticks = d.riichi_sticks;
      st.phase = "round_end";
    } else if (type === "round_end" && d.result) {
      st.result = d.result;
      st.scores = [...d.result.scores];
      st.phase = "round_end";
    } else if (type === "game_end") {
      st.final = d.final;
      st.phase = "game_end";
    }
  }
  const players = [];
  for (let s = 0; s < n; s++) {
    const shown = open || s === seat;
    const count = st.hands[s].length + (st.drawn[s] ? 1 : 0);
    players.push({
      seat: s,
      wind: WINDS[(s - r.dealer + n) % n],
      score: st.scores[s],
      riichi: st.riichi[s],
      hand: shown ? [...st.hands[s]] : null,
      drawn: shown ? st.drawn[s] : null,
      hand_count: count,
      melds: st.melds[s],
      nuki: st.nuki[s],
      river: st.rivers[s],
    });
  }
  return {
    seat,
    phase: st.phase,
    round: {
      wind: windName(r.round_wind),
      kyoku: r.kyoku ?? r.hand_number ?? 1,
      honba: r.honba ?? r.repeat ?? 0,
      riichi_sticks: st.sticks,
      dealer: r.dealer,
    },
    scores: st.scores,
    dora_indicators: st.dora,
    wall_left: st.wallLeft,
    turn: st.turn,
    waiting_on: [],
    last_discard: st.lastDiscard,
    players,
    legal_actions: [],
    help: null,
    result: st.result,
    final: st.final,
  };
}
