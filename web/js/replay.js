// Replay viewer (#/replay/ID[/HAND/STEP]): steps through a finished game's record with all
// four hands open. The record is the engine event stream of GET /api/games/{id}
// (docs/engine.md "Events"); the viewer folds it, hand by hand, into a table state.
// Keys: → / l next step, ← / h previous, ↓ / j next hand, ↑ / k previous hand,
// Home / End first / last step of the hand. The address always names hand and step.
import { api } from "./api.js";
import { t } from "./i18n.js";
import { errorLine } from "./errors.js";
import { tileEl, doraKinds, kindOf, sortTiles } from "./tiles.js";
import { meldLayout } from "./melds.js";
import { renderResult, renderFinal } from "./results.js";
import { s, el, injectStyle } from "./history.js";
import { checkSeed } from "./fairness.js";
import { seatWind } from "./seats.js";
import { markJokers } from "./jokers.js";

// Events that start a new step; the others (tsumo_turn, new_dora, riichi_accepted,
// round_end, Nanchang's deal and jokers) belong to the step before them.
const STEP_TYPES = new Set([
  "draw", "discard", "call", "kan", "nuki", "agari", "ryuukyoku", "win", "wall_exhausted", "game_end",
]);
// The steps that end a round and show its result card.
const RESULT_TYPES = new Set(["agari", "ryuukyoku", "win", "wall_exhausted"]);

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
  return { hands, gameStart };
}

function removeTile(list, tile) {
  const i = list.indexOf(tile);
  if (i >= 0) list.splice(i, 1);
  return i >= 0;
}

/** The table after events[0..upto] of one hand. */
export function foldHand(hand, upto) {
  const r = hand.start;
  // As many seats as the round has scores (sanma 3).
  const seats = () => r.scores.map(() => []);
  const st = {
    round: r,
    seats: r.scores.length,
    hands: seats(),
    drawn: r.scores.map(() => null),
    melds: seats(),
    rivers: seats(),
    riichi: r.scores.map(() => false),
    nuki: r.scores.map(() => 0),
    scores: [...r.scores],
    dora: [...(r.dora_indicators || [])],
    jokers: null,
    indicator: null,
    wallLeft: r.wall_left,
    sticks: r.riichi_sticks ?? 0,
    turn: r.dealer,
    last: null,
    result: null,
    final: null,
  };
  const merge = (seat) => {
    if (st.drawn[seat]) st.hands[seat].push(st.drawn[seat]);
    st.drawn[seat] = null;
  };
  for (let i = 0; i <= upto && i < hand.events.length; i++) {
    const { type, data: d } = hand.events[i];
    st.last = hand.events[i];
    if (type === "haipai" || type === "deal") st.hands[d.seat] = sortTiles(d.tiles || []);
    else if (type === "jokers") {
      st.jokers = { zheng: d.zheng, fu: d.fu };
      st.indicator = d.indicator;
    } else if (type === "nuki") {
      merge(d.seat);
      removeTile(st.hands[d.seat], d.tile);
      st.hands[d.seat] = sortTiles(st.hands[d.seat]);
      st.nuki[d.seat] += 1;
    } else if (type === "round_end" && d.result) {
      st.result = d.result;
      st.scores = [...d.result.scores];
    } else if (type === "draw") {
      st.drawn[d.seat] = d.tile;
      if (d.wall_left != null) st.wallLeft = d.wall_left;
      st.turn = d.seat;
    } else if (type === "tsumo_turn") st.wallLeft = d.wall_left;
    else if (type === "discard") {
      if (d.tsumogiri && st.drawn[d.seat] === d.tile) st.drawn[d.seat] = null;
      else {
        removeTile(st.hands[d.seat], d.tile);
        merge(d.seat);
      }
      st.hands[d.seat] = sortTiles(st.hands[d.seat]);
      st.rivers[d.seat].push({ tile: d.tile, tsumogiri: d.tsumogiri, riichi: d.riichi, called: false });
      st.turn = d.seat;
    } else if (type === "call") {
      const own = [...d.tiles];
      removeTile(own, d.called);
      for (const x of own) removeTile(st.hands[d.seat], x);
      const river = st.rivers[d.from_seat];
      if (river.length) river[river.length - 1].called = true;
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
    } else if (type === "new_dora") st.dora = [...d.dora_indicators];
    else if (type === "riichi_accepted") {
      st.riichi[d.seat] = true;
      st.scores = [...d.scores];
      st.sticks = d.riichi_sticks;
    } else if (type === "agari" || type === "ryuukyoku") {
      st.result = d;
      st.scores = [...d.scores];
      st.sticks = d.riichi_sticks;
    } else if (type === "game_end") st.final = d.final;
  }
  return st;
}

function roundLabel(r) {
  if (r.hand_number != null) {
    // Nanchang: the hand in the round, and the deals the dealer has kept.
    return `${t("table.round", { wind: t(`wind.${r.round_wind}`), kyoku: r.hand_number })} · ${t("table.repeat", { n: r.repeat })}`;
  }
  return `${t("table.round", { wind: t(`wind.${r.round_wind}`), kyoku: r.kyoku })} · ${t("table.honba", { n: r.honba })}`;
}

export class ReplayScreen {
  constructor(root, gameId, hand = 0, step = 0) {
    this.root = root;
    this.gameId = gameId;
    this.hand = hand;
    this.step = step;
    this.data = null;
    injectStyle();
    this.onKey = (e) => this.key(e);
    document.addEventListener("keydown", this.onKey);
    root.replaceChildren(el("p", "hint", s("loading")));
    this.load();
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
  }

  async load() {
    try {
      const g = await api.game(this.gameId);
      if (g.status === "live") throw new Error(s("still_live"));
      const { hands, gameStart } = splitHands(g.events || []);
      if (!hands.length) throw new Error(s("no_record"));
      const meta = (g.events || []).find((e) => e.kind === "import");
      this.data = { game: g, hands, gameStart, imported: meta ? meta.data : null };
      this.data.fair = await checkSeed(g).catch(() => ({ state: "none" }));
      this.players = g.seats.map((x) => ({ seat: x.seat, name: x.name, bot: x.bot }));
      this.go(this.hand, this.step);
    } catch (err) {
      const p = el("p", "error", errorLine(err));
      p.dataset.testid = "replay-error";
      this.root.replaceChildren(p);
    }
  }

  go(hand, step) {
    const hands = this.data.hands;
    this.hand = Math.max(0, Math.min(hands.length - 1, hand));
    const steps = hands[this.hand].steps;
    this.step = Math.max(0, Math.min(steps.length - 1, step));
    // The address is the shareable link to this very hand and step.
    history.replaceState(null, "", `#/replay/${this.gameId}/${this.hand + 1}/${this.step}`);
    this.render();
  }

  key(e) {
    if (!this.data || e.target.closest("input, select, textarea")) return;
    const last = this.data.hands[this.hand].steps.length - 1;
    const moves = {
      ArrowRight: () => this.next(),
      l: () => this.next(),
      ArrowLeft: () => this.prev(),
      h: () => this.prev(),
      ArrowDown: () => this.go(this.hand + 1, 0),
      j: () => this.go(this.hand + 1, 0),
      ArrowUp: () => this.go(this.hand - 1, 0),
      k: () => this.go(this.hand - 1, 0),
      Home: () => this.go(this.hand, 0),
      End: () => this.go(this.hand, last),
    };
    const fn = moves[e.key];
    if (fn) {
      e.preventDefault();
      fn();
    }
  }

  next() {
    const steps = this.data.hands[this.hand].steps;
    if (this.step < steps.length - 1) this.go(this.hand, this.step + 1);
    else if (this.hand < this.data.hands.length - 1) this.go(this.hand + 1, 0);
  }

  prev() {
    if (this.step > 0) this.go(this.hand, this.step - 1);
    else if (this.hand > 0) this.go(this.hand - 1, this.data.hands[this.hand - 1].steps.length - 1);
  }

  nameOf(seat) {
    const p = this.players.find((x) => x.seat === seat);
    return (p && p.name) || `#${seat + 1}`;
  }

  describe(ev) {
    if (!ev) return "";
    const d = ev.data;
    const who = d.seat != null ? this.nameOf(d.seat) : "";
    switch (ev.type) {
      case "round_start":
      case "haipai":
        return s("dealt");
      case "draw":
        return s(d.rinshan || d.replacement ? "step_rinshan" : "step_draw", { who, tile: d.tile });
      case "discard":
        return s(d.riichi ? "step_riichi" : "step_discard", { who, tile: d.tile });
      case "call":
        return s("step_call", { who, call: t(`action.${d.meld}`), tile: d.called, from: this.nameOf(d.from_seat) });
      case "kan":
        return s("step_call", { who, call: t(`action.${d.meld}`), tile: d.added || d.tiles[0], from: who });
      case "nuki":
        return s("step_call", { who, call: t("action.nuki"), tile: d.tile, from: who });
      case "agari":
      case "win":
        return t("result.agari");
      case "wall_exhausted":
        return `${t("result.draw")}: ${t("nc.wall_exhausted")}`;
      case "ryuukyoku":
        return `${t("result.draw")}: ${t(`draw.${d.reason}`)}`;
      case "game_end":
        return t("result.final");
      default:
        return "";
    }
  }

  render() {
    const { game, hands, imported } = this.data;
    const hand = hands[this.hand];
    const steps = hand.steps;
    const lastIdx = this.step + 1 < steps.length ? steps[this.step + 1] - 1 : hand.events.length - 1;
    const st = foldHand(hand, lastIdx);
    const stepEvent = hand.events[steps[this.step]];

    const page = el("div", "replay");
    page.dataset.testid = "replay";
    page.dataset.hand = String(this.hand + 1);
    page.dataset.step = String(this.step);

    // Header: title, hand picker, export and links.
    const head = el("div", "replay-head card");
    const title = el("h2", "", s("replay_title", { id: game.id }));
    head.append(title);
    if (imported) head.append(el("span", "badge", s("imported_from", { source: imported.source })));
    const fair = this.data.fair;
    if (fair && fair.state !== "none") {
      // The seed against the commitment shown before the first hand (docs/players.md).
      const badge = el("span", `badge seed-${fair.state}`, s(`seed_${fair.state}`));
      badge.dataset.testid = "seed-check";
      badge.title = s("seed_title", { commitment: fair.commitment });
      head.append(badge);
    }
    const pick = document.createElement("select");
    pick.dataset.testid = "hand-select";
    pick.setAttribute("aria-label", s("jump_hand"));
    hands.forEach((h, i) => {
      const o = document.createElement("option");
      o.value = String(i);
      o.textContent = `${i + 1}. ${roundLabel(h.start)}`;
      o.selected = i === this.hand;
      pick.append(o);
    });
    pick.addEventListener("change", () => this.go(Number(pick.value), 0));
    head.append(pick);
    const nanchang = (game.rules || {}).variant === "nanchang";
    // Nanchang has no Tenhou or mjai format: only our own record (docs/records.md).
    if (nanchang) head.append(el("span", "hint", s("own_record_only")));
    for (const fmt of nanchang ? ["jantaku"] : ["tenhou6", "mjai"]) {
      const a = el("a", "button", s(`export_${fmt}`));
      a.href = `api/games/${game.id}/export?format=${fmt}`;
      a.setAttribute("download", "");
      a.dataset.testid = `export-${fmt}`;
      head.append(a);
    }
    const back = el("a", "button", s("history"));
    back.href = "#/history";
    head.append(back);
    page.append(head);

    // Controls and what this step is.
    const ctl = el("div", "replay-controls");
    const btn = (label, key, fn, id) => {
      const b = el("button", "", label);
      b.type = "button";
      b.title = key;
      b.dataset.testid = id;
      b.addEventListener("click", fn);
      ctl.append(b);
    };
    btn("«", "↑", () => this.go(this.hand - 1, 0), "prev-hand");
    btn("◀", "←", () => this.prev(), "prev-step");
    btn("▶", "→", () => this.next(), "next-step");
    btn("»", "↓", () => this.go(this.hand + 1, 0), "next-hand");
    const pos = el("span", "replay-pos", s("step_of", { n: this.step, total: steps.length - 1 }));
    pos.dataset.testid = "step-pos";
    ctl.append(pos);
    const what = el("span", "replay-what", this.describe(stepEvent));
    what.dataset.testid = "step-what";
    ctl.append(what);
    page.append(ctl);
    page.append(el("div", "hint keys-hint", s("keys")));

    if (st.result && RESULT_TYPES.has(stepEvent.type)) {
      const card = el("div", "card result-card");
      card.dataset.testid = "replay-result";
      renderResult(card, st.result, { players: this.players, mySeat: null }, {});
      page.append(card);
    }
    if (st.final && stepEvent.type === "game_end") {
      const card = el("div", "card result-card");
      card.dataset.testid = "replay-final";
      renderFinal(card, st.final, { players: this.players, mySeat: null, returnPoints: (game.rules || {}).return_points, variant: (game.rules || {}).variant }, {});
      page.append(card);
    }
    // The table: centre info, then the four seats with their hands open.
    const info = el("div", "replay-info card");
    info.append(el("strong", "round-name", roundLabel(st.round)));
    if (!nanchang) info.append(el("span", "", t("table.sticks", { n: st.sticks })));
    if (st.wallLeft != null) {
      const wall = el("span", "", t("table.wall_left", { n: st.wallLeft }));
      wall.dataset.testid = "replay-wall";
      info.append(wall);
    }
    const dora = el("span", "dora-row");
    if (nanchang) {
      dora.append(el("span", "label", t("table.indicator")));
      if (st.indicator) dora.append(tileEl(st.indicator, { classes: ["mini"] }));
    } else {
      dora.append(el("span", "label", t("table.dora")));
      for (const x of st.dora) dora.append(tileEl(x, { classes: ["mini"] }));
    }
    info.append(dora);
    page.append(info);

    const doraSet = doraKinds(st.dora, st.seats);
    const seats = el("div", "replay-seats");
    seats.dataset.seats = String(st.seats);
    for (let seat = 0; seat < st.seats; seat++) seats.append(this.seatEl(st, seat, doraSet, nanchang));
    page.append(seats);
    markJokers(page, st.jokers);

    this.root.replaceChildren(page);
  }

  seatEl(st, seat, doraSet, nanchang = false) {
    const box = el("div", "replay-seat card");
    box.dataset.seat = String(seat);
    if (st.turn === seat) box.classList.add("turn");
    const wind = seatWind(seat, st.round.dealer, st.seats);
    const top = el("div", "seat-top");
    top.append(el("span", "plate-wind", t(`wind_short.${wind}`)));
    top.append(el("strong", "", this.nameOf(seat)));
    const score = el("span", "seat-score", String(st.scores[seat]));
    score.dataset.testid = "seat-score";
    top.append(score);
    if (st.riichi[seat]) top.append(el("span", "badge riichi", t("action.riichi")));
    box.append(top);
    const hand = el("div", "seat-hand");
    hand.dataset.testid = "seat-hand";
    for (const x of st.hands[seat]) hand.append(tileEl(x, { dora: doraSet.has(kindOf(x)) }));
    if (st.drawn[seat]) hand.append(tileEl(st.drawn[seat], { dora: doraSet.has(kindOf(st.drawn[seat])), classes: ["drawn"] }));
    const melds = el("span", "melds");
    for (const m of st.melds[seat]) {
      const mb = el("span", "meld");
      for (const part of meldLayout(m, seat, st.seats, nanchang)) {
        mb.append(tileEl(part.tile, { sideways: part.sideways, back: part.back }));
        if (part.stacked) mb.append(tileEl(part.stacked, { sideways: true }));
      }
      melds.append(mb);
    }
    hand.append(melds);
    if (st.nuki[seat]) {
      const nuki = el("span", "nuki");
      nuki.dataset.testid = "nuki";
      for (let i = 0; i < st.nuki[seat]; i++) nuki.append(tileEl("4z", { dora: doraSet.has(kindOf("4z")) }));
      hand.append(nuki);
    }
    box.append(hand);
    const river = el("div", "seat-river");
    river.dataset.testid = "seat-river";
    for (const r of st.rivers[seat]) {
      const classes = [];
      if (r.called) classes.push("called");
      if (r.tsumogiri) classes.push("tsumogiri");
      river.append(tileEl(r.tile, { sideways: r.riichi, classes: ["mini", ...classes] }));
    }
    box.append(river);
    return box;
  }
}
