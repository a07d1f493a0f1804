// The table screen: rendering a seat's view (docs/engine.md "View") and turning clicks
// and keys into the legal actions the view lists. The server decides legality; the
// client only offers what legal_actions contains and never guesses.
import { t } from "./i18n.js";
import { seatName } from "./names.js";
import { tileEl, doraKinds, kindOf, sortTiles } from "./tiles.js";
import { meldLayout } from "./melds.js";
import { renderResult, renderFinal } from "./results.js";
import { WINDS, seatCount, seatPosition, seatWind } from "./seats.js";
import { markJokers } from "./jokers.js";
import { wallEl, diceEl } from "./wall.js";
import { tileNames } from "./tilenames.js";

// Position of a seat seen from the viewer (seats.js): 0 self (bottom), 1 shimocha (right),
// 2 toimen (top), 3 kamicha (left); three seats have no toimen. The zone of each is
// rotated to face its owner.
const ZONE_ROTATION = [0, -90, 180, 90];
// Button order, which is also the order of the 1-9 keyboard shortcuts.
const BUTTON_ORDER = ["tsumo", "ron", "riichi", "chi", "pon", "daiminkan", "ankan", "kakan", "nuki", "kyuushu", "pass"];
// Sanma's nukidora: the norths a seat has set aside (S-rules), shown beside its hand.
const NORTH = "4z";

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

function meldEl(meld, owner, dora, seats = 4, openAnkan = false) {
  const box = el("span", `meld meld-${meld.type}`);
  box.dataset.meld = meld.type;
  for (const part of meldLayout(meld, owner, seats, openAnkan)) {
    if (part.stacked) {
      const stack = el("span", "kakan-stack");
      stack.append(
        tileEl(part.stacked, { sideways: true, dora: dora.has(kindOf(part.stacked)) }),
        tileEl(part.tile, { sideways: true, dora: dora.has(kindOf(part.tile)) }),
      );
      box.append(stack);
    } else {
      box.append(
        tileEl(part.tile, {
          sideways: part.sideways,
          back: part.back,
          dora: !part.back && dora.has(kindOf(part.tile)),
          classes: part.sideways ? ["called-from"] : [],
        }),
      );
    }
  }
  return box;
}

function riverEl(player, dora) {
  const river = el("div", "river");
  river.dataset.seat = player.seat;
  const items = player.river || [];
  for (let r = 0; r * 6 < items.length; r++) {
    const row = el("div", "river-row");
    for (const d of items.slice(r * 6, r * 6 + 6)) {
      const classes = [];
      if (d.called) classes.push("called");
      if (d.tsumogiri) classes.push("tsumogiri");
      row.append(tileEl(d.tile, { sideways: d.riichi, dora: dora.has(kindOf(d.tile)), classes }));
    }
    river.append(row);
  }
  return river;
}

/** The norths a seat has pulled (sanma nukidora), face up beside its hand. */
function nukiEl(player, dora) {
  const box = el("span", "nuki");
  box.dataset.testid = "nuki";
  box.dataset.seat = player.seat;
  box.title = t("table.nuki");
  for (let i = 0; i < (player.nuki || 0); i++) box.append(tileEl(NORTH, { dora: dora.has(kindOf(NORTH)) }));
  return box;
}

/** Whether a view is of Nanchang (jokers and a points ledger instead of dora and sticks). */
export function isNanchang(view) {
  return !!view && view.variant === "nanchang";
}

function plateEl(ctx, player) {
  const { view, players, mySeat } = ctx;
  const seats = seatCount(view);
  const rel = seatPosition(player.seat, mySeat ?? 0, seats);
  const plate = el("div", `plate plate-${rel}`);
  plate.dataset.seat = player.seat;
  if (view.turn === player.seat) plate.classList.add("turn");
  // waiting_on names only this screen's own seat (when it must act): who may call a
  // discard is not told. Outside a call window the seat in turn is the one deciding.
  const deciding = (view.waiting_on || []).includes(player.seat)
    || (view.phase === "play" && view.last_discard == null && view.turn === player.seat);
  if (deciding) plate.classList.add("waiting");
  const top = el("div", "plate-top");
  const wind = player.wind || seatWind(player.seat, (view.round || {}).dealer ?? 0, seats);
  if (wind === "E") plate.classList.add("dealer"); // winds count from the dealer
  top.append(el("span", "plate-wind", t(`wind_short.${wind}`)));
  const score = isNanchang(view) && player.score > 0 ? `+${player.score}` : String(player.score);
  top.append(el("span", "plate-score", score));
  if (player.riichi) top.append(el("span", "riichi-stick", ""));
  plate.append(top);
  const p = players && players.find((x) => x.seat === player.seat);
  const name = el("div", "plate-name", seatName(players, player.seat));
  name.title = name.textContent; // the whole name where the card cuts it short
  if (p && p.connected === false && !p.bot) name.append(el("span", "offline", ` (${t("table.offline")})`));
  if (p && p.auto) name.append(el("span", "offline", ` (${t("table.auto")})`));
  plate.append(name);
  return plate;
}

function handBacksEl(player, dora, seats, openAnkan) {
  const row = el("div", "opp-hand");
  const concealed = el("span", "opp-concealed");
  if (player.hand) {
    // A review shows other seats' hands face up (live views never carry them).
    concealed.append(...openHandTiles(player, dora));
  } else {
    const n = player.hand_count || 0;
    for (let i = 0; i < n; i++) {
      const tl = tileEl(null, { back: true });
      if (n % 3 === 2 && i === n - 1) tl.classList.add("drawn");
      concealed.append(tl);
    }
  }
  row.append(concealed);
  const melds = el("span", "melds");
  for (const m of player.melds || []) melds.append(meldEl(m, player.seat, dora, seats, openAnkan));
  row.append(melds);
  if (player.nuki) row.append(nukiEl(player, dora));
  return row;
}

function openHandTiles(player, dora) {
  const out = player.hand.map((x) => tileEl(x, { dora: dora.has(kindOf(x)) }));
  if (player.drawn) out.push(tileEl(player.drawn, { dora: dora.has(kindOf(player.drawn)), classes: ["drawn"] }));
  return out;
}

function centerEl(ctx) {
  const { view } = ctx;
  const c = el("div", "center");
  const info = el("div", "center-info");
  const r = view.round || {};
  if (isNanchang(view)) {
    info.append(el("div", "round-name", t("table.round", { wind: t(`wind.${r.wind}`), kyoku: r.hand_number })));
    info.append(el("div", "round-sub", t("table.repeat", { n: r.repeat ?? 0 })));
  } else {
    info.append(el("div", "round-name", t("table.round", { wind: t(`wind.${r.wind}`), kyoku: r.kyoku })));
    info.append(el("div", "round-sub", `${t("table.honba", { n: r.honba ?? 0 })} · ${t("table.sticks", { n: r.riichi_sticks ?? 0 })}`));
  }
  const wall = el("div", "wall-left", t("table.wall_left", { n: view.wall_left }));
  wall.dataset.testid = "wall-left";
  info.append(wall);
  const dice = diceEl(view);
  if (dice) info.append(dice);
  c.append(info);
  return c;
}

/** Legal actions grouped by type, in button order. */
export function groupActions(actions) {
  const groups = new Map();
  for (const a of actions || []) {
    if (a.type === "discard") continue;
    if (!groups.has(a.type)) groups.set(a.type, []);
    groups.get(a.type).push(a);
  }
  return BUTTON_ORDER.filter((k) => groups.has(k)).map((k) => ({ type: k, options: groups.get(k) }));
}

/** The tiles an option shows on its button: the meld it would make. */
function optionTiles(action, view) {
  const called = view.last_discard && view.last_discard.tile;
  switch (action.type) {
    case "chi":
    case "pon":
    case "daiminkan":
      return called ? sortTiles([...action.tiles, called]) : action.tiles;
    case "ankan":
      return [action.tile, action.tile, action.tile, action.tile];
    case "kakan":
      return [action.tile];
    case "nuki":
      return [NORTH];
    default:
      return [];
  }
}

function buttonEl(label, key, onClick, tiles = [], action = "") {
  const b = el("button", "action-btn");
  b.type = "button";
  if (action) b.dataset.action = action;
  if (key) b.append(el("kbd", "", key));
  b.append(el("span", "", label));
  for (const tl of tiles) b.append(tileEl(tl, { classes: ["mini"] }));
  b.addEventListener("click", onClick);
  return b;
}

function actionBarEl(ctx, h) {
  const bar = el("div", "actions");
  bar.dataset.testid = "actions";
  const buttons = [];
  if (ctx.mode && ctx.mode.kind === "choose") {
    for (const a of ctx.mode.options) {
      buttons.push([t(`action.${a.type}`), () => h.onAction(a), optionTiles(a, ctx.view), `option-${a.type}`]);
    }
    buttons.push([t("common.cancel"), () => h.onCancel(), [], "cancel"]);
  } else if (ctx.mode && ctx.mode.kind === "riichi") {
    bar.append(el("span", "hint", t("table.choose_riichi")));
    buttons.push([t("common.cancel"), () => h.onCancel(), [], "cancel"]);
  } else if (!ctx.busy) {
    for (const g of groupActions(ctx.view.legal_actions)) {
      const single = g.options.length === 1;
      const tiles = single ? optionTiles(g.options[0], ctx.view) : [];
      buttons.push([t(`action.${g.type}`), () => h.onGroup(g), ["ankan", "kakan", "nuki"].includes(g.type) ? tiles : [], g.type]);
    }
  }
  buttons.forEach(([label, fn, tiles, action], i) => {
    const b = buttonEl(label, i < 9 ? String(i + 1) : "", fn, tiles, action);
    bar.append(b);
  });
  return bar;
}

function helpEl(ctx) {
  const box = el("div", "help");
  box.dataset.testid = "help";
  const help = ctx.view.help;
  if (!help) return box;
  const waits = help.waits || [];
  if (waits.length) {
    const w = el("span", "waits");
    w.append(el("span", "label", `${t("table.waits")}:`));
    for (const x of waits) {
      const item = el("span", `wait${x.yaku ? "" : " no-yaku"}`);
      item.append(tileEl(x.tile, { classes: ["mini"] }));
      item.append(el("small", "", t("table.left", { n: x.left })));
      w.append(item);
    }
    box.append(w);
    const noYaku = waits.filter((x) => !x.yaku).map((x) => x.tile);
    if (noYaku.length) box.append(el("span", "warn no-yaku-warn", t("table.no_yaku", { tiles: tileNames(noYaku) })));
  } else if (typeof help.shanten === "number" && help.shanten > 0) {
    box.append(el("span", "shanten", t("table.shanten", { n: help.shanten })));
  }
  if (help.furiten) box.append(el("span", "warn furiten-warn", t("table.furiten")));
  return box;
}

function myHandEl(ctx, h) {
  const { view, mySeat } = ctx;
  const me = view.players.find((p) => p.seat === mySeat);
  const box = el("div", "myhand");
  box.dataset.testid = "myhand";
  if (!me || !me.hand) return box;
  const dora = doraKinds(view.dora_indicators, seatCount(view));
  const actions = ctx.busy ? [] : view.legal_actions || [];
  const riichiMode = ctx.mode && ctx.mode.kind === "riichi";
  const want = riichiMode ? "riichi" : "discard";
  const allowed = new Set(actions.filter((a) => a.type === want).map((a) => a.tile));
  // Forbidden tiles are greyed only when the seat is choosing a discard at all.
  const choosing = allowed.size > 0;
  const tiles = [...me.hand];
  const row = el("div", "hand-tiles");
  const all = me.drawn ? [...tiles, me.drawn] : tiles;
  all.forEach((tile, i) => {
    const isDrawn = me.drawn && i === all.length - 1;
    const classes = ["hand-tile"];
    if (isDrawn) classes.push("drawn");
    if (choosing && !allowed.has(tile)) classes.push("forbidden");
    if (choosing && allowed.has(tile)) classes.push("playable");
    if (ctx.selected === i) classes.push("selected");
    const tl = tileEl(tile, { dora: dora.has(kindOf(tile)), classes });
    tl.dataset.index = i;
    if (choosing && allowed.has(tile)) {
      tl.addEventListener("click", (e) => h.onTile(tile, i, e));
    }
    row.append(tl);
  });
  box.append(row);
  const melds = el("div", "melds own-melds");
  for (const m of me.melds || []) melds.append(meldEl(m, me.seat, dora, seatCount(view), isNanchang(view)));
  box.append(melds);
  if (me.nuki) box.append(nukiEl(me, dora));
  return box;
}

/** Nanchang: the turned-up tile and the two jokers it makes (正精 and 副精). */
function jokersEl(view) {
  const box = el("div", "dora-box jokers-box");
  box.append(el("span", "label", t("table.indicator")));
  const ind = el("span", "dora-tiles");
  ind.dataset.testid = "indicator";
  ind.append(tileEl(view.indicator || null, { back: !view.indicator, classes: ["mini", "indicator"] }));
  box.append(ind);
  const j = view.jokers || {};
  box.append(el("span", "label", t("table.jokers")));
  const row = el("span", "dora-tiles");
  row.dataset.testid = "jokers";
  for (const x of [j.zheng, j.fu]) if (x) row.append(tileEl(x, { classes: ["mini"] }));
  box.append(row);
  return box;
}

function doraEl(view) {
  if (isNanchang(view)) return jokersEl(view);
  const box = el("div", "dora-box");
  box.append(el("span", "label", t("table.dora")));
  const row = el("span", "dora-tiles");
  row.dataset.testid = "dora";
  const ind = view.dora_indicators || [];
  for (let i = 0; i < 5; i++) row.append(tileEl(ind[i] || null, { back: i >= ind.length, classes: ["mini"] }));
  box.append(row);
  return box;
}

/** The side log of public moves (wide screens only, hidden by CSS elsewhere). */
function logEl(ctx) {
  const box = el("div", "side-log");
  box.dataset.testid = "log";
  box.append(el("h4", "", t("log.title")));
  const list = el("ol", "");
  // As many as fit: the oldest go off the box's top (css: .side-log ol).
  for (const e of ctx.log || []) {
    const li = el("li", `log-${e.kind}`);
    if (e.kind === "round") {
      li.textContent = `${t("table.round", { wind: t(`wind.${e.wind}`), kyoku: e.kyoku })} · ${t("table.honba", { n: e.honba })}`;
    } else if (e.kind === "call") {
      li.textContent = t("log.call", { name: seatName(ctx.players, e.seat), action: t(`action.${e.action}`) });
      for (const tl of e.tiles) li.append(tileEl(tl, { classes: ["mini"] }));
    } else if (e.kind === "riichi") {
      li.textContent = t("log.riichi", { name: seatName(ctx.players, e.seat) });
    } else if (e.kind === "dora") {
      li.textContent = t("log.dora");
      li.append(tileEl(e.tile, { classes: ["mini"] }));
    } else if (e.kind === "win") {
      li.textContent = t("log.win", { name: seatName(ctx.players, e.seat), action: t(`action.${e.action}`) });
    } else if (e.kind === "draw") {
      li.textContent = t(`draw.${e.reason}`);
    }
    list.append(li);
  }
  box.append(list);
  return box;
}

/** Render the whole table into root. ctx: {view, players, mySeat, mode, selected, busy, timer, status, overlay}. */
export function renderTable(root, ctx, h) {
  root.replaceChildren(tableScreen(ctx, h));
}

/**
 * The table screen as an element, built from ctx alone (renderTable's body; the replay
 * viewer uses it too). ctx.review: a finished game seen from mySeat, no timer or key hints.
 */
export function tableScreen(ctx, h) {
  const { view } = ctx;
  const screen = el("div", "table-screen");
  screen.dataset.phase = view.phase;
  // Exposed for tests and debugging: which table version this screen shows, from which seat.
  screen.dataset.version = ctx.version ?? "";
  screen.dataset.seat = ctx.mySeat ?? "";
  screen.dataset.busy = ctx.busy ? "true" : "false";
  const viewer = ctx.mySeat ?? 0;
  const seats = seatCount(view);
  screen.dataset.seats = String(seats);
  screen.dataset.variant = view.variant || (seats === 3 ? "sanma" : "riichi");

  const top = el("div", "table-top");
  top.append(doraEl(view));
  const status = el("span", "turn-status");
  status.dataset.testid = "turn-status";
  if (ctx.mySeat == null) status.textContent = t("table.spectating");
  else if ((view.waiting_on || []).includes(ctx.mySeat)) status.textContent = t("table.your_turn");
  else if (view.phase === "play") status.textContent = t("table.turn", { name: seatName(ctx.players, view.turn) });
  top.append(status);
  if (ctx.status && ctx.status !== "open") {
    const text = { replaced: "table.replaced", not_found: "table.gone" }[ctx.status] || "table.disconnected";
    const c = el("span", "conn-warn", t(text));
    c.dataset.testid = "conn";
    top.append(c);
  }
  screen.append(top);

  const wrap = el("div", "board-wrap");
  const board = el("div", "board");
  const dora = doraKinds(view.dora_indicators, seatCount(view));
  board.append(centerEl(ctx));
  const ring = wallEl(view, viewer);
  if (ring) {
    board.append(ring);
    board.classList.add("has-wall");
  }
  for (const p of view.players) {
    const rel = seatPosition(p.seat, viewer, seats);
    const zone = el("div", `zone zone-${rel}`);
    zone.dataset.seat = p.seat;
    zone.style.setProperty("--rot", `${ZONE_ROTATION[rel]}deg`);
    zone.append(riverEl(p, dora));
    if (rel !== 0 || ctx.mySeat == null) zone.append(handBacksEl(p, dora, seats, isNanchang(view)));
    board.append(zone);
  }
  // Upright seat cards in the board's corners or beside it (css/plates.css).
  for (const p of view.players) board.append(plateEl(ctx, p));
  wrap.append(board);
  screen.append(wrap);
  if (!ctx.review) screen.append(logEl(ctx));

  const bottom = el("div", "table-bottom");
  const timer = el("div", "timer");
  timer.dataset.testid = "timer";
  if (ctx.timer && ctx.timer.seat === ctx.mySeat) {
    timer.classList.add("on");
    timer.append(el("div", "timer-think"), el("div", "timer-bank"), el("span", "timer-text"));
  }
  bottom.append(timer);
  if (ctx.mySeat != null) {
    bottom.append(helpEl(ctx));
    bottom.append(actionBarEl(ctx, h));
    bottom.append(myHandEl(ctx, h));
    if (!ctx.review) bottom.append(el("div", "keys-hint", t("table.keys")));
  }
  screen.append(bottom);

  if (ctx.overlay) {
    const ov = el("div", "overlay");
    ov.dataset.testid = "overlay";
    const card = el("div", "overlay-card");
    // which result this is: the version that brought it (one card per hand)
    if (ctx.overlay.at != null) card.dataset.at = String(ctx.overlay.at);
    if (ctx.overlay.kind === "final") renderFinal(card, ctx.overlay.data, ctx, h);
    else renderResult(card, ctx.overlay.data, ctx, h);
    ov.append(card);
    screen.append(ov);
  }
  // Jokers are the round's: every tile of their kinds is marked, wherever it is shown.
  markJokers(screen, view.jokers);
  return screen;
}

/** Keep the timer bar moving between renders. */
export function tickTimer(root, timer, since) {
  const box = root.querySelector(".timer.on");
  if (!box || !timer) return;
  const elapsed = performance.now() - since;
  const think = Math.max(0, timer.think_ms - elapsed);
  const bank = Math.max(0, timer.bank_ms - Math.max(0, elapsed - timer.think_ms));
  const total = Math.max(1, timer.think_ms);
  box.querySelector(".timer-think").style.width = `${(100 * think) / total}%`;
  box.querySelector(".timer-bank").style.width = think > 0 ? "0%" : `${Math.min(100, (100 * bank) / Math.max(1, timer.bank_ms))}%`;
  box.querySelector(".timer-text").textContent = `${Math.ceil(think / 1000)}s + ${Math.ceil(bank / 1000)}s`;
}

export { WINDS };
