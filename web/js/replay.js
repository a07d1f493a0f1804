// Replay viewer (#/replay/ID[/HAND/STEP[/VIEW]]): a finished game on the live table's
// renderer (table.js), folded step by step from its record (replay-fold.js), seen from
// one seat with every hand open or only that seat's, with autoplay, and for riichi games
// the server's analysis of the viewed seat beside it (review.js, docs/analysis.md).
// VIEW is the viewpoint seat (1-based) followed by "o" when every hand is open: "2o".
// Keys: → / l next step, ← / h previous, ↓ / j next hand, ↑ / k previous hand,
// Home / End first / last step of the hand, space play / pause, v next viewpoint,
// o every hand open or not, n the viewed seat's next decision. Swipe on the table steps.
// The address always names hand, step and view: it is the link to this moment.
import { api } from "./api.js";
import { t } from "./i18n.js";
import { errorLine } from "./errors.js";
import { checkSeed } from "./fairness.js";
import { tableScreen } from "./table.js";
import { renderFinal } from "./results.js";
import { seatName } from "./names.js";
import { splitHands, foldView, stepOfEvent } from "./replay-fold.js";
import { decisionEl, summaryEl, tileName } from "./review.js";
import { s, el } from "./history.js";
import { ReplayFeel } from "./replay-feel.js";

const SPEEDS = [2000, 1000, 500, 250];
const SPEED_LABELS = ["0.5×", "1×", "2×", "4×"];
const ANALYSED = new Set(["riichi", "sanma"]);
const SWIPE_PX = 40;

export { splitHands, foldView };

/** "2o" → {seat: 1, open: true}; anything else → every hand open from seat 0. */
export function parseView(text, seats) {
  const m = /^([1-4])(o?)$/.exec(text || "");
  if (!m || Number(m[1]) > seats) return { seat: 0, open: true };
  return { seat: Number(m[1]) - 1, open: m[2] === "o" };
}

function roundLabel(r) {
  const wind = typeof r.round_wind === "number" ? ["E", "S", "W", "N"][r.round_wind] : r.round_wind;
  if (r.hand_number != null) {
    // Nanchang: the hand in the round, and the deals the dealer has kept.
    const hand = t("table.round", { wind: t(`wind.${wind}`), kyoku: r.hand_number });
    return `${hand} · ${t("table.repeat", { n: r.repeat ?? 0 })}`;
  }
  const kyoku = r.kyoku ?? 1;
  return `${t("table.round", { wind: t(`wind.${wind}`), kyoku })} · ${t("table.honba", { n: r.honba ?? 0 })}`;
}

export class ReplayScreen {
  constructor(root, gameId, hand = 0, step = 0, view = null) {
    this.root = root;
    this.gameId = gameId;
    this.hand = hand;
    this.step = step;
    this.viewText = view;
    this.seat = 0;
    this.open = true;
    this.data = null;
    this.playing = false;
    this.speed = 1;
    this.timer = null;
    this.analysis = new Map(); // seat -> {status: "loading" | "ok" | "error", body | message}
    this.feel = new ReplayFeel(); // a step's calls said at their seats (replay-feel.js)
    this.onKey = (e) => this.key(e);
    document.addEventListener("keydown", this.onKey);
    root.replaceChildren(el("p", "hint", s("loading")));
    this.load();
  }

  destroy() {
    // a late answer (the analysis) must not draw over the next page
    this.gone = true;
    document.removeEventListener("keydown", this.onKey);
    this.stop();
    this.feel.destroy();
  }

  async load() {
    try {
      const g = await api.game(this.gameId);
      if (this.gone) return;
      if (g.status === "live") throw new Error(s("still_live"));
      const { hands, gameStart, seats } = splitHands(g.events || []);
      if (!hands.length) throw new Error(s("no_record"));
      const meta = (g.events || []).find((e) => e.kind === "import");
      const rules = g.rules || {};
      const variant = rules.variant || (seats === 3 ? "sanma" : "riichi");
      this.data = { game: g, hands, gameStart, seats, variant, imported: meta ? meta.data : null };
      this.data.fair = await checkSeed(g).catch(() => ({ state: "none" }));
      this.players = g.seats.map((x) => ({ seat: x.seat, name: x.name, bot: x.bot }));
      ({ seat: this.seat, open: this.open } = parseView(this.viewText, seats));
      this.go(this.hand, this.step);
    } catch (err) {
      if (this.gone) return;
      const p = el("p", "error", errorLine(err));
      p.dataset.testid = "replay-error";
      this.root.replaceChildren(p);
    }
  }

  get analysed() {
    return ANALYSED.has(this.data.variant);
  }

  /** The address of a moment (hand and step 0-based here, 1-based hand in the address). */
  hashFor(hand, step, seat = this.seat, open = this.open) {
    return `#/replay/${this.gameId}/${hand + 1}/${step}/${seat + 1}${open ? "o" : ""}`;
  }

  go(hand, step) {
    const hands = this.data.hands;
    this.hand = Math.max(0, Math.min(hands.length - 1, hand));
    const steps = hands[this.hand].steps;
    this.step = Math.max(0, Math.min(steps.length - 1, step));
    history.replaceState(null, "", this.hashFor(this.hand, this.step));
    this.render();
  }

  setView(seat, open) {
    this.seat = (seat + this.data.seats) % this.data.seats;
    this.open = open;
    this.go(this.hand, this.step);
  }

  atEnd() {
    const hands = this.data.hands;
    return this.hand === hands.length - 1 && this.step === hands[this.hand].steps.length - 1;
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

  play() {
    if (this.atEnd()) return;
    this.playing = true;
    clearInterval(this.timer);
    this.timer = setInterval(() => {
      if (this.atEnd()) this.stop();
      else this.next();
    }, SPEEDS[this.speed]);
    this.render();
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
    if (this.playing) {
      this.playing = false;
      if (this.data) this.render();
    }
  }

  toggle() {
    if (this.playing) this.stop();
    else this.play();
  }

  key(e) {
    if (!this.data || e.target.closest("input, select, textarea") || e.ctrlKey || e.metaKey || e.altKey) return;
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
      " ": () => this.toggle(),
      v: () => this.setView(this.seat + 1, this.open),
      o: () => this.setView(this.seat, !this.open),
      n: () => this.nextDecision(),
    };
    const fn = moves[e.key];
    if (fn) {
      e.preventDefault();
      fn();
    }
  }

  // --- analysis ---------------------------------------------------------

  analysisOf(seat) {
    let a = this.analysis.get(seat);
    if (!a) {
      a = { status: "loading" };
      this.analysis.set(seat, a);
      api.analysis(this.gameId, seat).then(
        (body) => {
          this.analysis.set(seat, { status: "ok", body });
          if (this.wantNext === seat) {
            this.wantNext = null;
            if (this.seat === seat) this.nextDecision();
          }
          if (this.data && this.seat === seat) this.render();
        },
        (err) => {
          this.analysis.set(seat, { status: "error", message: err.message });
          if (this.data && this.seat === seat) this.render();
        },
      );
    }
    return a;
  }

  /** The step a decision is looked at from: a turn before its discard shows, an answer at the discard. */
  decisionStep(d) {
    const hand = this.data.hands[d.hand];
    if (!hand) return -1;
    const at = stepOfEvent(hand, d.event);
    return d.turn ? Math.max(0, at - 1) : at;
  }

  nextDecision() {
    const a = this.analysis.get(this.seat);
    if (!a || a.status !== "ok") {
      this.wantNext = this.seat; // once the analysis is here
      return;
    }
    const d = a.body.decisions.find((x) => x.hand > this.hand || (x.hand === this.hand && this.decisionStep(x) > this.step));
    if (d) this.go(d.hand, this.decisionStep(d));
  }

  momentLink(hand, event, seat) {
    const h = this.data.hands[hand];
    const step = h ? Math.max(0, stepOfEvent(h, event) - 1) : 0;
    return { href: this.hashFor(hand, step, seat, this.open), go: () => this.setViewAt(hand, step, seat) };
  }

  setViewAt(hand, step, seat) {
    this.seat = seat;
    this.hand = hand;
    this.step = step;
    this.go(hand, step);
  }

  /** The viewed seat's decisions shown at this step (none until the analysis is here). */
  decisionsHere() {
    const a = this.analysed ? this.analysis.get(this.seat) : null;
    if (!a || a.status !== "ok") return [];
    return a.body.decisions.filter((d) => d.hand === this.hand && this.decisionStep(d) === this.step);
  }

  /** At a turn, mark in the seat's hand the tile played and the efficient bot's. */
  markPicks(box) {
    const d = this.decisionsHere().find((x) => x.turn);
    if (!d) return;
    const tiles = [...box.querySelectorAll(".myhand .hand-tiles .tile")];
    const mark = (a, cls) => {
      if (!a || !a.tile) return;
      const drawn = tiles.find((x) => x.classList.contains("drawn") && x.dataset.tile === a.tile);
      const hit = drawn || tiles.find((x) => x.dataset.tile === a.tile);
      if (hit) hit.classList.add(cls);
    };
    mark(d.actual, "pick-actual");
    mark(d.efficient, "pick-efficient");
  }

  analysisEl() {
    const box = el("div", "analysis card");
    box.dataset.testid = "analysis";
    box.append(el("h3", "", t("review.title", { name: seatName(this.players, this.seat) })));
    if (!this.analysed) {
      const p = el("p", "hint", t("review.not_for_variant"));
      p.dataset.testid = "no-analysis";
      box.append(p);
      return box;
    }
    const a = this.analysisOf(this.seat);
    if (a.status === "loading") {
      box.append(el("p", "hint", s("loading")));
      return box;
    }
    if (a.status === "error") {
      box.append(el("p", "error", t("common.error", { message: a.message })));
      return box;
    }
    box.dataset.ready = "true";
    const here = this.decisionsHere();
    if (!here.length) {
      box.append(el("p", "hint", t("review.none_here", { name: seatName(this.players, this.seat) })));
    }
    for (const d of here) box.append(decisionEl(d, this.players));
    const nextBtn = el("button", "", t("review.next_decision"));
    nextBtn.type = "button";
    nextBtn.title = "n";
    nextBtn.dataset.testid = "next-decision";
    nextBtn.addEventListener("click", () => this.nextDecision());
    box.append(nextBtn);
    box.append(summaryEl(a.body.summary, this.players, (h, e, seat) => this.momentLink(h, e, seat)));
    return box;
  }

  // --- the page -----------------------------------------------------------

  describe(ev) {
    if (!ev) return "";
    const d = ev.data;
    const who = d.seat != null ? seatName(this.players, d.seat) : "";
    switch (ev.type) {
      case "round_start":
      case "haipai":
      case "deal":
        return s("dealt");
      case "draw":
        return s(d.rinshan || d.replacement ? "step_rinshan" : "step_draw", { who, tile: tileName(d.tile) });
      case "discard":
        return s(d.riichi ? "step_riichi" : "step_discard", { who, tile: tileName(d.tile) });
      case "call":
      case "chi":
      case "pon":
      case "minkan":
        return s("step_call", { who, call: t(`action.${d.meld}`), tile: tileName(d.called), from: seatName(this.players, d.from_seat) });
      case "kan":
      case "ankan":
      case "kakan":
        return s("step_call", { who, call: t(`action.${d.meld}`), tile: tileName(d.added || d.tiles[0]), from: who });
      case "nuki":
        return s("step_nuki", { who, tile: tileName(d.tile) });
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

  headEl() {
    const { game, hands, imported } = this.data;
    const head = el("div", "replay-head card");
    head.append(el("h2", "", s("replay_title", { id: game.id })));
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
    // Nanchang has no Tenhou or mjai format: only our own record (docs/records.md).
    if (this.data.variant === "nanchang") head.append(el("span", "hint", s("own_record_only")));
    for (const fmt of this.data.variant === "nanchang" ? ["jantaku"] : ["tenhou6", "mjai"]) {
      const a = el("a", "button", s(`export_${fmt}`));
      a.href = `api/games/${game.id}/export?format=${fmt}`;
      a.setAttribute("download", "");
      a.dataset.testid = `export-${fmt}`;
      head.append(a);
    }
    const back = el("a", "button", s("history"));
    back.href = "#/history";
    head.append(back);
    return head;
  }

  controlsEl(stepEvent) {
    const steps = this.data.hands[this.hand].steps;
    const ctl = el("div", "replay-controls");
    const btn = (label, key, fn, id) => {
      const b = el("button", "", label);
      b.type = "button";
      b.title = key;
      b.dataset.testid = id;
      b.addEventListener("click", fn);
      ctl.append(b);
      return b;
    };
    btn("«", "↑", () => this.go(this.hand - 1, 0), "prev-hand");
    btn("◀", "←", () => this.prev(), "prev-step");
    const pb = btn(this.playing ? "❚❚" : "▷", s(this.playing ? "pause" : "play"), () => this.toggle(), "play");
    pb.setAttribute("aria-label", s(this.playing ? "pause" : "play"));
    pb.dataset.playing = String(this.playing);
    btn("▶", "→", () => this.next(), "next-step");
    btn("»", "↓", () => this.go(this.hand + 1, 0), "next-hand");
    const speed = document.createElement("select");
    speed.dataset.testid = "speed";
    speed.setAttribute("aria-label", s("speed"));
    SPEED_LABELS.forEach((label, i) => {
      const o = document.createElement("option");
      o.value = String(i);
      o.textContent = label;
      o.selected = i === this.speed;
      speed.append(o);
    });
    speed.addEventListener("change", () => {
      this.speed = Number(speed.value);
      if (this.playing) this.play();
    });
    ctl.append(speed);
    const view = document.createElement("select");
    view.dataset.testid = "viewpoint";
    view.setAttribute("aria-label", s("viewpoint"));
    for (let i = 0; i < this.data.seats; i++) {
      const o = document.createElement("option");
      o.value = String(i);
      o.textContent = seatName(this.players, i);
      o.selected = i === this.seat;
      view.append(o);
    }
    view.addEventListener("change", () => this.setView(Number(view.value), this.open));
    ctl.append(view);
    const openLabel = el("label", "open-toggle");
    const open = document.createElement("input");
    open.type = "checkbox";
    open.checked = this.open;
    open.dataset.testid = "open-hands";
    open.addEventListener("change", () => this.setView(this.seat, open.checked));
    openLabel.append(open, el("span", "", s("open_hands")));
    ctl.append(openLabel);
    const pos = el("span", "replay-pos", s("step_of", { n: this.step, total: steps.length - 1 }));
    pos.dataset.testid = "step-pos";
    ctl.append(pos);
    const link = el("a", "moment-link", s("link"));
    link.href = this.hashFor(this.hand, this.step);
    link.dataset.testid = "moment-link";
    link.title = s("link_hint");
    ctl.append(link);
    const what = el("div", "replay-what", this.describe(stepEvent));
    what.dataset.testid = "step-what";
    const wrap = el("div", "replay-bar");
    wrap.append(ctl, what);
    return wrap;
  }

  overlayFor(view, stepEvent) {
    const type = stepEvent.type;
    if (type === "game_end" && view.final) return { kind: "final", data: view.final };
    // Riichi's agari / ryuukyoku, Nanchang's win / 荒牌 (its card: ledger.js, as at the table).
    const ends = ["agari", "ryuukyoku", "win", "wall_exhausted"];
    if (ends.includes(type) && view.result) return { kind: "result", data: view.result };
    return null;
  }

  render() {
    if (this.gone) return;
    const { game, hands, seats } = this.data;
    const hand = hands[this.hand];
    const steps = hand.steps;
    const lastIdx = this.step + 1 < steps.length ? steps[this.step + 1] - 1 : hand.events.length - 1;
    const rules = game.rules || {};
    const view = foldView(hand, lastIdx, { seat: this.seat, open: this.open, seats, variant: this.data.variant, rules });
    const stepEvent = hand.events[steps[this.step]];

    const page = el("div", "replay review-page");
    page.dataset.testid = "replay";
    page.dataset.hand = String(this.hand + 1);
    page.dataset.step = String(this.step);
    page.dataset.seat = String(this.seat);
    page.dataset.open = String(this.open);
    page.append(this.headEl(), this.controlsEl(stepEvent));

    const body = el("div", "review-body");
    const tableBox = el("div", "replay-table review");
    tableBox.dataset.testid = "replay-table";
    const overlay = this.overlayFor(view, stepEvent);
    const noop = () => {};
    tableBox.append(
      tableScreen(
        {
          view,
          players: this.players,
          mySeat: this.seat,
          review: true,
          overlay,
          returnPoints: (game.rules || {}).return_points,
          log: [],
          record: game, // the final card's reason, hands and score graph
        },
        { onTile: noop, onAction: noop, onGroup: noop, onCancel: noop, onContinue: () => this.next() },
      ),
    );
    this.markPicks(tableBox);
    this.feel.decorate(tableBox, { handIndex: this.hand, step: this.step, hand, lastIdx, seat: this.seat, seats });
    if (overlay) {
      const card = tableBox.querySelector(".overlay-card");
      if (card) card.dataset.testid = overlay.kind === "final" ? "replay-final" : "replay-result";
    }
    let startX = null;
    let startY = null;
    tableBox.addEventListener("touchstart", (e) => {
      startX = e.touches[0].clientX;
      startY = e.touches[0].clientY;
    }, { passive: true });
    tableBox.addEventListener("touchend", (e) => {
      if (startX == null) return;
      const dx = e.changedTouches[0].clientX - startX;
      const dy = e.changedTouches[0].clientY - startY;
      startX = null;
      if (Math.abs(dx) >= SWIPE_PX && Math.abs(dx) > Math.abs(dy)) {
        if (dx < 0) this.next();
        else this.prev();
      }
    });
    body.append(tableBox);
    const side = el("div", "review-side");
    side.append(this.analysisEl());
    side.append(el("div", "hint keys-hint", s("keys")));
    body.append(side);
    page.append(body);
    this.root.replaceChildren(page);
  }
}
