// The fold: a seat's view of the game brought forward by the frames of protocol 2
// (docs/protocol.md, "Frames"). Pure: no DOM, no socket; the live table and the replay
// viewer share it, and tests/web/test_fold.py checks it in Node against the server's
// own view after every step, for every seat and a spectator of each game.
//
// A table state is { version, view, timer, inTurn }: `view` has the shape of the
// server's view (docs/engine.md, docs/protocol.md), `inTurn` whether the seat in turn is
// the one deciding (not a call window), which no view field says outright. Events never
// touch the seat's own decision (legal_actions, help, timer): only decision frames do,
// and the server sends one whenever these change. A draw's or discard's fields that are
// false or null are left out (protocol 2): read them as such.

import { sortTiles } from "./tiles.js";

const WINDS = "ESWN";

/** A table state from a whole view (a `view` frame: on connecting, or a resync). */
export function fromView(frame) {
  const view = frame.view;
  const w = view.waiting_on || [];
  return {
    version: frame.version,
    view,
    timer: frame.timer || null,
    // Only the seat in turn acts in its turn, and it never answers its own discard or kan.
    inTurn: view.phase === "play" && w.length === 1 && w[0] === view.turn,
  };
}

/**
 * The state after one frame (`event` or `decision`; a `view` replaces it). Frames of
 * other types leave it as it is. Never changes `state`: what changes is copied.
 */
export function foldFrame(state, frame) {
  if (frame.type === "step") return foldFrames(state, expandStep(frame, state.view.seat));
  if (frame.type === "view") return fromView(frame);
  if (frame.type === "decision") return decide(state, frame);
  if (frame.type !== "event") return state;
  if (!frame.event) return { ...state, version: frame.version };
  const view = structuredClone(state.view);
  const next = { ...state, version: frame.version, view };
  const fold = view.variant === "nanchang" ? NANCHANG : RIICHI;
  // (a Nanchang call or kan event's type is its meld's: chi, pon, minkan, ankan, kakan)
  const f = fold[frame.event.type];
  if (f) f(next, view, frame.event);
  view.waiting_on = waiting(next);
  return next;
}

/** Fold a list of frames. */
export function foldFrames(state, frames) {
  return frames.reduce(foldFrame, state);
}

/**
 * A step frame (protocol 2: a step's events and the seat's decision in one frame) as the
 * event frames and decision frame it stands for (server/tables/steps.py).
 */
export function expandStep(frame, seat) {
  const events = frame.events || [];
  const first = frame.version - events.length + 1;
  const out = events.map((event, i) => (event ? { type: "event", version: first + i, event } : { type: "event", version: first + i }));
  const { type, version, events: _, ...decision } = frame;
  if (Object.keys(decision).length) out.push({ type: "decision", version, seat, ...decision });
  return out;
}

/** A decision frame: the fields of the seat's decision that changed (only those). */
function decide(state, d) {
  const view = { ...state.view };
  const next = { ...state, view };
  if ("legal" in d) view.legal_actions = expandLegal(d.legal, d.seat);
  if ("help" in d) view.help = d.help;
  if ("timer" in d) next.timer = d.timer;
  view.waiting_on = waiting(next);
  return next;
}

/**
 * The legal actions of a decision frame's compact runs (server/wire/actions.py
 * legal_runs): [["discard", "1m9p"], ["chi", ["3m", "4m"]], ["pass", 0]] (a string of
 * tiles is one action per tile).
 */
export function expandLegal(runs, seat) {
  const out = [];
  for (const [type, ...payloads] of runs) {
    for (const p of payloads) {
      if (typeof p === "string") {
        for (let i = 0; i < p.length; i += 2) out.push({ type, seat, tile: p.slice(i, i + 2) });
        continue;
      }
      const a = { type, seat };
      if (Array.isArray(p)) a.tiles = p;
      else if (p && typeof p === "object") Object.assign(a, { tile: p.tile, tiles: p.tiles });
      out.push(a);
    }
  }
  return out;
}

/** Who the view says is deciding: the seat in turn, or in a call window this seat if asked. */
function waiting(state) {
  const v = state.view;
  if (v.phase !== "play") return [];
  if (state.inTurn || (v.variant === "nanchang" && (v.step === "act" || v.step === "discard"))) return [v.turn];
  return v.seat != null && (v.legal_actions || []).length ? [v.seat] : [];
}

function player(view, seat) {
  return view.players[seat];
}

function mine(view, seat) {
  return view.seat === seat && view.seat != null;
}

/** Own tiles less `used` (one each), the drawn one merged in, sorted. */
function takeTiles(p, used) {
  const tiles = p.drawn ? [...p.hand, p.drawn] : [...p.hand];
  for (const t of used) {
    const i = tiles.indexOf(t);
    if (i >= 0) tiles.splice(i, 1);
  }
  p.hand = sortTiles(tiles);
  p.drawn = null;
}

// -- riichi and sanma -----------------------------------------------------------------

const RIICHI = {
  game_start(s, v, e) {
    v.rules = e.rules;
    v.scores = [...e.scores];
  },
  round_start(s, v, e) {
    const n = v.players.length;
    v.phase = "play";
    v.round = { wind: e.round_wind, kyoku: e.kyoku, honba: e.honba, riichi_sticks: e.riichi_sticks, dealer: e.dealer, dice: [...e.dice] };
    v.scores = [...e.scores];
    v.dora_indicators = [...e.dora_indicators];
    v.wall_left = e.wall_left;
    // the public wall (docs/engine.md "The wall"): the deal took 13 tiles a seat
    v.wall = { drawn: 13 * n, rinshan: 0 };
    v.turn = e.dealer;
    v.last_discard = null;
    v.result = null;
    v.final = null;
    v.players = v.players.map((p, seat) => ({
      seat,
      wind: WINDS[(seat - e.dealer + n) % n],
      score: e.scores[seat],
      riichi: false,
      hand: mine(v, seat) ? [] : null,
      drawn: null,
      hand_count: 0,
      melds: [],
      nuki: 0,
      river: [],
    }));
    s.inTurn = false;
  },
  haipai(s, v, e) {
    const p = player(v, e.seat);
    p.hand_count = 13;
    if (mine(v, e.seat) && e.tiles) p.hand = sortTiles(e.tiles);
  },
  draw(s, v, e) {
    const p = player(v, e.seat);
    p.hand_count += 1;
    if (mine(v, e.seat)) p.drawn = e.tile ?? null;
    v.wall_left = e.wall_left;
    if (v.wall) {
      if (e.rinshan) v.wall.rinshan += 1;
      else v.wall.drawn += 1;
    }
    v.turn = e.seat;
    // A kan's (or north's) tile stays "last discard" through its replacement draw.
    if (!e.rinshan) v.last_discard = null;
    s.inTurn = true;
  },
  discard(s, v, e) {
    const p = player(v, e.seat);
    p.hand_count -= 1;
    p.river.push({ tile: e.tile, tsumogiri: !!e.tsumogiri, riichi: !!e.riichi, called: false });
    if (mine(v, e.seat)) takeTiles(p, [e.tile]);
    v.last_discard = { seat: e.seat, tile: e.tile };
    s.inTurn = false;
  },
  call(s, v, e) {
    const p = player(v, e.seat);
    const used = [...e.tiles];
    used.splice(used.indexOf(e.called), 1);
    p.hand_count -= used.length;
    p.melds.push({ type: e.meld, tiles: [...e.tiles], called: e.called, from_seat: e.from_seat });
    const river = player(v, e.from_seat).river;
    if (river.length) river[river.length - 1].called = true;
    if (mine(v, e.seat)) takeTiles(p, used);
    v.turn = e.seat;
    v.last_discard = null;
    s.inTurn = true;
  },
  kan(s, v, e) {
    const p = player(v, e.seat);
    if (e.added != null) {
      const i = p.melds.findIndex((m) => m.type === "pon" && sameKind(m.tiles[0], e.added));
      const pon = p.melds[i];
      p.melds[i] = { type: e.meld, tiles: [...e.tiles], called: pon.called, from_seat: pon.from_seat };
      p.hand_count -= 1;
      if (mine(v, e.seat)) takeTiles(p, [e.added]);
      v.last_discard = { seat: e.seat, tile: e.added };
    } else {
      p.melds.push({ type: e.meld, tiles: [...e.tiles], called: null, from_seat: null });
      p.hand_count -= 4;
      if (mine(v, e.seat)) takeTiles(p, e.tiles);
      // the tile a kokushi could rob it with: the red five when there is one
      v.last_discard = { seat: e.seat, tile: e.tiles.find((t) => t[0] === "0") || e.tiles[0] };
    }
    v.turn = e.seat;
    s.inTurn = false;
  },
  nuki(s, v, e) {
    const p = player(v, e.seat);
    p.nuki += 1;
    p.hand_count -= 1;
    if (mine(v, e.seat)) takeTiles(p, [e.tile]);
    v.last_discard = { seat: e.seat, tile: e.tile };
    s.inTurn = false;
  },
  new_dora(s, v, e) {
    v.dora_indicators = [...e.dora_indicators];
  },
  riichi_accepted(s, v, e) {
    player(v, e.seat).riichi = true;
    setScores(v, e.scores);
    v.round.riichi_sticks = e.riichi_sticks;
  },
  agari(s, v, e) {
    roundResult(s, v, e);
  },
  ryuukyoku(s, v, e) {
    roundResult(s, v, e);
  },
  round_end(s, v, e) {
    v.phase = "round_end";
    setScores(v, e.scores);
    v.last_discard = null;
    s.inTurn = false;
  },
  game_end(s, v, e) {
    v.phase = "game_end";
    setScores(v, e.scores);
    v.final = e.final;
    v.result = null;
    s.inTurn = false;
  },
};

function roundResult(s, v, e) {
  const { type, ...result } = e;
  v.phase = "round_end";
  v.result = result;
  setScores(v, e.scores);
  v.round.riichi_sticks = e.riichi_sticks;
  v.last_discard = null;
  s.inTurn = false;
}

function setScores(v, scores) {
  v.scores = [...scores];
  v.players.forEach((p, i) => {
    p.score = scores[i];
  });
}

function sameKind(a, b) {
  const f = (t) => (t[0] === "0" ? "5" : t[0]) + t[1];
  return f(a) === f(b);
}

// -- Nanchang -------------------------------------------------------------------------
// Own `hand` holds every concealed tile, the drawn one too (`drawn` names it again).

const WALL_AFTER_DEAL = 136 - 53; // N1: the deal takes wall positions 0..52

function nanchangMeld(e) {
  return { type: e.meld, tiles: [...e.tiles], called: e.called, from_seat: e.from_seat, added: e.added };
}

function nanchangCall(s, v, e) {
  const p = player(v, e.seat);
  const used = [...e.tiles];
  used.splice(used.indexOf(e.called), 1);
  p.hand_count -= used.length;
  p.melds.push(nanchangMeld(e));
  const river = player(v, e.from_seat).river;
  if (river.length) river[river.length - 1].called = true;
  if (mine(v, e.seat)) {
    p.hand = removeTiles(p.hand, used);
    p.drawn = null;
  }
  v.turn = e.seat;
  v.step = "discard"; // a minkan's replacement draw follows at once
  v.last_discard = null;
  s.inTurn = true;
}

function removeTiles(hand, used) {
  const tiles = [...hand];
  for (const t of used) {
    const i = tiles.indexOf(t);
    if (i >= 0) tiles.splice(i, 1);
  }
  return tiles;
}

const NANCHANG = {
  game_start(s, v, e) {
    v.rules = e.rules;
    v.first_dealer = e.first_dealer;
  },
  round_start(s, v, e) {
    v.phase = "play";
    v.step = "act";
    v.round = { index: e.round_index, wind: e.round_wind, hand_number: e.hand_number, dealer: e.dealer, repeat: e.repeat };
    v.turn = e.dealer;
    v.scores = [...e.scores];
    v.wall_left = WALL_AFTER_DEAL;
    // the joker roll comes with the `jokers` event
    v.wall = {
      dice: [...e.dice], second_roller: e.second_roller, second_dice: [...e.second_dice],
      joker_dice: null, drawn: 136 - WALL_AFTER_DEAL, rinshan: 0,
    };
    v.last_discard = null;
    v.kakan = null;
    v.result = null;
    v.players = v.players.map((p, seat) => ({
      seat,
      hand: mine(v, seat) ? [] : null,
      drawn: null,
      hand_count: 0,
      melds: [],
      river: [],
      score: e.scores[seat],
    }));
    s.pendingKakan = null;
    s.inTurn = true;
  },
  deal(s, v, e) {
    const p = player(v, e.seat);
    p.hand_count = e.count;
    if (mine(v, e.seat) && e.tiles) p.hand = sortTiles(e.tiles);
  },
  jokers(s, v, e) {
    if (v.wall) v.wall.joker_dice = [...e.dice];
    v.indicator = e.indicator;
    v.jokers = { zheng: e.zheng, fu: e.fu };
  },
  draw(s, v, e) {
    const p = player(v, e.seat);
    p.hand_count += 1;
    if (mine(v, e.seat)) {
      p.hand = sortTiles([...p.hand, e.tile]);
      p.drawn = e.tile;
    }
    if (s.pendingKakan && e.replacement) {
      // N11: nobody robbed the added kan: it stands, then its replacement is drawn
      const k = s.pendingKakan;
      player(v, k.seat).melds[k.index] = k.meld;
      v.kakan = null;
    }
    s.pendingKakan = null;
    v.wall_left -= 1;
    if (v.wall) {
      if (e.replacement) v.wall.rinshan += 1;
      else v.wall.drawn += 1;
    }
    v.turn = e.seat;
    v.step = "act";
    v.last_discard = null;
    s.inTurn = true;
  },
  discard(s, v, e) {
    const p = player(v, e.seat);
    p.hand_count -= 1;
    p.river.push({ tile: e.tile, tsumogiri: !!e.tsumogiri, called: false });
    if (mine(v, e.seat)) {
      p.hand = removeTiles(p.hand, [e.tile]);
      p.drawn = null;
    }
    // the call window, unless the next draw follows at once
    v.step = "calls";
    v.last_discard = { seat: e.seat, tile: e.tile };
    s.inTurn = false;
  },
  chi: nanchangCall,
  pon: nanchangCall,
  minkan: nanchangCall,
  ankan(s, v, e) {
    const p = player(v, e.seat);
    p.hand_count -= 4;
    p.melds.push(nanchangMeld(e));
    if (mine(v, e.seat)) {
      p.hand = removeTiles(p.hand, e.tiles);
      p.drawn = null;
    }
    s.inTurn = false;
  },
  kakan(s, v, e) {
    const p = player(v, e.seat);
    p.hand_count -= 1;
    if (mine(v, e.seat)) {
      p.hand = removeTiles(p.hand, [e.added]);
      p.drawn = null;
    }
    const index = p.melds.findIndex((m) => m.type === "pon" && m.tiles[0] === e.added);
    s.pendingKakan = { seat: e.seat, index, meld: nanchangMeld(e) };
    v.kakan = { seat: e.seat, tile: e.added };
    v.step = "rob";
    s.inTurn = false;
  },
  win(s, v, e) {
    s.lastWin = e.win; // protocol 2's round_end after it leaves it out
    v.step = "act";
    v.last_discard = null;
    s.inTurn = false;
  },
  wall_exhausted(s, v, e) {
    v.last_discard = null;
    s.inTurn = false;
  },
  round_end(s, v, e) {
    v.phase = "round_end";
    // protocol 2: a result without `win` is the win of the event just before it
    v.result = "win" in e.result ? e.result : { ...e.result, win: s.lastWin ?? null };
    s.lastWin = null;
    setScores(v, e.result.scores);
    s.inTurn = false;
  },
  game_end(s, v, e) {
    v.phase = "game_end";
    v.final = e.final;
    s.inTurn = false;
  },
};
