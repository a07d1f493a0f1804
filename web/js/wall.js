// The wall as on a real table (docs/client.md "The wall"): face-down stacks of two round
// the centre box, one wall in front of each seat, the break marked, riichi's dead wall
// with its indicators face up, Nanchang's turned-up tile, tiles gone from the front as
// they are drawn and from the other end as kans (and sanma's norths) take replacements;
// the dice in the centre. Everything comes from the view's public fields: the round's
// `dealer` and `dice`, `wall_left`, `dora_indicators` / `indicator` and `wall` (docs/
// engine.md "The public wall"); no tile of the wall is ever known here but the face-up ones.
import { t } from "./i18n.js";
import { seatPosition } from "./seats.js";
import { tileName } from "./tilenames.js";

// Riichi positions in drawing order from the break (server/engine/riichi/wall.py Layout).
const RIICHI_LAYOUTS = {
  4: { size: 136, walls: 4, per: 17, rinshan: [134, 135, 132, 133], dora: [130, 128, 126, 124, 122] },
  3: {
    size: 108, walls: 3, per: 18,
    rinshan: [106, 107, 104, 105, 102, 103, 100, 101], dora: [98, 96, 94, 92, 90],
  },
};
const NANCHANG = { size: 136, walls: 4, per: 17 };
const NANCHANG_DEAL = 53; // N4: the deal takes positions 0..52
const ROTATION = [0, -90, 180, 90];
const PIPS = {
  1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8],
};

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

const sum = (d) => (d ? d[0] + d[1] : 0);

/**
 * Physical stacks in drawing order from the break, as [wall, i]: the i-th stack from the
 * right end of the wall in front of seat `wall` (server/engine/*\/wall.py stack_order).
 * `skip` stacks of `wall` are passed first (a count past a wall goes on along the next).
 */
export function stackOrder(wall, skip, walls, per) {
  let w = wall;
  let i = skip;
  while (i >= per) {
    w = (w - 1 + walls) % walls;
    i -= per;
  }
  const out = [];
  for (let k = 0; k < walls * per; k++) {
    if (i === per) {
      w = (w - 1 + walls) % walls;
      i = 0;
    }
    out.push([w, i]);
    i += 1;
  }
  return out;
}

/** Riichi's counts when the view has no `wall` (an older server): kans and norths replaced. */
function riichiCounts(view, layout) {
  if (view.wall) return view.wall;
  let replaced = 0;
  for (const p of view.players) {
    replaced += p.nuki || 0;
    for (const m of p.melds || []) if (["ankan", "kakan", "daiminkan"].includes(m.type)) replaced += 1;
  }
  return { drawn: layout.size - 14 - (view.wall_left ?? 0) - replaced, rinshan: replaced };
}

/** Nanchang's end (N11): the last stack's top, then its bottom; `n` draws from `live`. */
function tailTaken(first, size, n) {
  const live = [];
  for (let p = first; p < size; p++) live.push(p);
  const gone = new Set();
  for (let k = 0; k < n && live.length; k++) {
    const m = live.length;
    const pos = m >= 2 && live[m - 2] % 2 === 0 && live[m - 1] === live[m - 2] + 1 ? live.splice(m - 2, 1)[0] : live.pop();
    gone.add(pos);
  }
  return gone;
}

/**
 * The wall of a view as data: { walls, per, seats: [[stack…] per physical wall], dice:
 * [{kind, dice}], left, dead } where a stack is { count: 0..2, dead, face, first, last }
 * (`face` the tile shown face up on it, `first` the break's first stack, `last` the one
 * before the break). Null when the view has no round yet.
 */
export function wallModel(view) {
  const r = view.round || {};
  if (view.phase === "game_end" || r.dealer == null) return null;
  const nanchang = view.variant === "nanchang";
  let layout;
  let order;
  let present;
  let dead = () => false;
  let faces = new Map();
  let dice;
  if (nanchang) {
    const w = view.wall;
    if (!w || !w.dice) return null;
    layout = NANCHANG;
    order = stackOrder(w.second_roller, sum(w.dice) + sum(w.second_dice), layout.walls, layout.per);
    const tail = tailTaken(Math.max(w.drawn, NANCHANG_DEAL), layout.size, w.rinshan);
    present = (p) => p >= w.drawn && !tail.has(p);
    if (w.joker_dice && view.indicator) faces.set(2 * (68 - sum(w.joker_dice)), view.indicator);
    dice = [
      { kind: "break", dice: w.dice },
      { kind: "second", dice: w.second_dice },
      ...(w.joker_dice ? [{ kind: "joker", dice: w.joker_dice }] : []),
    ];
  } else {
    layout = RIICHI_LAYOUTS[view.players.length] || RIICHI_LAYOUTS[4];
    if (!r.dice) return null;
    const c = riichiCounts(view, layout);
    const taken = new Set(layout.rinshan.slice(0, c.rinshan));
    const liveEnd = c.drawn + (view.wall_left ?? 0);
    present = (p) => p >= c.drawn && !taken.has(p);
    dead = (p) => p >= liveEnd;
    (view.dora_indicators || []).forEach((tile, j) => {
      if (j < layout.dora.length) faces.set(layout.dora[j], tile);
    });
    order = stackOrder((r.dealer + sum(r.dice) - 1) % layout.walls, sum(r.dice), layout.walls, layout.per);
    dice = [{ kind: "break", dice: r.dice }];
  }
  const seats = Array.from({ length: layout.walls }, () => Array(layout.per));
  let left = 0;
  order.forEach(([w, i], k) => {
    const top = 2 * k;
    const bottom = top + 1;
    const count = (present(top) ? 1 : 0) + (present(bottom) ? 1 : 0);
    left += count;
    // the face-up tile shows while it lies on top (Nanchang: until someone draws it)
    const face = present(top) && faces.has(top) ? faces.get(top) : null;
    seats[w][i] = { count, dead: count > 0 && dead(top), face, first: k === 0, last: k === order.length - 1 };
  });
  return { walls: layout.walls, per: layout.per, seats, dice, left };
}

function stackEl(s) {
  const e = el("span", "wall-stack");
  e.dataset.count = String(s.count);
  if (s.dead) e.classList.add("dead");
  if (s.first) {
    e.classList.add("break");
    e.dataset.testid = "wall-break";
  }
  if (s.face) {
    e.classList.add("face");
    e.dataset.tile = s.face;
    const img = el("img");
    img.src = `tiles/${s.face}.svg`;
    img.alt = tileName(s.face); // in words, as every tile shown (tilenames.js)
    img.draggable = false;
    e.append(img);
  }
  return e;
}

/** The walls round the centre box, each turned to face the seat it stands in front of. */
export function wallEl(view, viewer) {
  const m = wallModel(view);
  if (!m) return null;
  const ring = el("div", "wall-ring");
  ring.dataset.testid = "wall";
  ring.dataset.left = String(m.left);
  ring.style.setProperty("--per", String(m.per));
  ring.setAttribute("role", "img");
  ring.setAttribute("aria-label", t("wall.label", { n: view.wall_left ?? 0 }));
  m.seats.forEach((stacks, w) => {
    const pos = seatPosition(w, viewer ?? 0, m.walls);
    const side = el("div", `wall-side wall-side-${pos}`);
    side.dataset.seat = String(w);
    side.style.setProperty("--rot", `${ROTATION[pos]}deg`);
    // stack 0 is the wall's right end as its owner sees it: the row runs right to left
    for (const s of stacks) side.append(stackEl(s));
    ring.append(side);
  });
  return ring;
}

function dieEl(value) {
  const d = el("span", "die");
  d.dataset.value = String(value);
  const dots = PIPS[value] || [];
  for (let c = 0; c < 9; c++) d.append(el("span", dots.includes(c) ? "pip" : ""));
  return d;
}

/** The dice of the round (Nanchang: the break's two rolls and the joker roll). */
export function diceEl(view) {
  const m = wallModel(view);
  if (!m) return null;
  const box = el("div", "dice-box");
  box.dataset.testid = "dice";
  for (const g of m.dice) {
    const pair = el("span", `dice-pair dice-${g.kind}`);
    pair.dataset.kind = g.kind;
    pair.title = t(`wall.roll_${g.kind}`, { n: sum(g.dice) });
    pair.setAttribute("aria-label", pair.title);
    pair.append(dieEl(g.dice[0]), dieEl(g.dice[1]));
    box.append(pair);
  }
  return box;
}
