// The replay's fold: a finished game's event stream (GET /api/games/{id}, docs/engine.md
// "Events") split into hands and steps, and folded up to a step into a table view of the
// shape the server sends (docs/engine.md "View"), so the live table renderer draws it.
// Pure: no DOM. The folding itself is the live table's (fold.js, one fold for both):
// a record's events are fed to it as event frames. Riichi (4 and 3 seats) and Nanchang.
import { fromView, foldFrames } from "./fold.js";

// Events that start a new step; the others (tsumo_turn, new_dora, riichi_accepted,
// jokers, round_end after a win) belong to the step before them.
// (a Nanchang call or kan event's type is its meld's: chi, pon, minkan, ankan, kakan)
const STEP_TYPES = new Set([
  "draw", "discard", "call", "kan", "nuki", "agari", "ryuukyoku",
  "chi", "pon", "minkan", "ankan", "kakan", "win", "wall_exhausted", "game_end",
]);

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

function emptyView(seat, seats, variant, rules) {
  return {
    seat,
    variant,
    rules,
    phase: "play",
    round: {},
    scores: Array(seats).fill(0),
    dora_indicators: [],
    wall_left: null,
    turn: 0,
    waiting_on: [],
    last_discard: null,
    players: Array.from({ length: seats }, (_, s) => ({ seat: s, hand: null, drawn: null, hand_count: 0, melds: [], river: [], score: 0 })),
    legal_actions: [],
    help: null,
    result: null,
    final: null,
  };
}

/** One seat's view after events[0..upto] of a hand: the live table's fold (fold.js). */
function foldSeat(hand, upto, seat, seats, variant, rules) {
  const start = fromView({ version: 0, view: emptyView(seat, seats, variant, rules) });
  // a record's event is {type, data}; a frame carries the event's fields beside its type
  const frames = hand.events.slice(0, upto + 1).map((e, i) => ({ type: "event", version: i + 1, event: { ...e.data, type: e.type } }));
  return foldFrames(start, frames).view;
}

/**
 * The table after events[0..upto] of one hand, as a view seen from `seat`: that seat's
 * hand always, every other hand too when `open` (each seat's own fold gives its hand).
 * The view has no legal actions and nobody waiting: nothing is decided in a replay.
 */
export function foldView(hand, upto, { seat = 0, open = true, seats = 4, variant = "riichi", rules = null } = {}) {
  const view = foldSeat(hand, upto, seat, seats, variant, rules);
  if (open) {
    for (let s = 0; s < seats; s++) {
      if (s !== seat) view.players[s] = foldSeat(hand, upto, s, seats, variant, rules).players[s];
    }
  }
  view.waiting_on = [];
  view.legal_actions = [];
  view.help = null;
  if (variant === "nanchang") nanchangLabels(view, seats);
  return view;
}

/** A Nanchang view names its hand and repeats apart and gives no seat winds; the
 * table's centre reads the riichi names (hand number as kyoku, repeats as honba). */
function nanchangLabels(view, seats) {
  const r = view.round || {};
  view.round = { ...r, kyoku: r.hand_number, honba: r.repeat ?? 0, riichi_sticks: 0 };
  for (const p of view.players) {
    if (!p.wind) p.wind = "ESWN"[(p.seat - (r.dealer ?? 0) + seats) % seats];
  }
}
