// What the table shows around the board (issue 15): who is watching, the last discard,
// the tile a call would take, riichi sticks in front of their owners, the tab title on
// your turn, "the clock played for you", the Auto toggles, and "Back to lobby" /
// "Rematch" on the final screen. GameScreen feeds it frames and calls decorate() after
// each render; it only adds to the rendered table.
import { api } from "./api.js";
import { t } from "./i18n.js";
import { errorLine } from "./errors.js";
import { tileEl } from "./tiles.js";
import { tileName } from "./tilenames.js";
import { autoAction, loadToggles, saveToggles, togglesEl } from "./autoplay.js";

const CALL_EVENTS = new Set(["call", "pon", "chi", "daiminkan"]);
const CLAIMS = ["chi", "pon", "daiminkan", "ron"];
// A decision the clock made for us: our timer had run out by then (small slack for
// the frame's way here).
const CLOCK_SLACK_MS = 600;
const AUTO_DELAY_MS = 300;
const WIDE = window.matchMedia("(min-width: 1100px)"); // the side log shows (app.css)

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

/** Who watches, by name; the anonymous ones counted. */
function watcherNames(names, total) {
  const parts = [...names];
  const anon = total - names.length;
  if (anon > 0) parts.push(t("table.anonymous_watchers", { n: anon }));
  const w = el("span", "watcher-names", t("table.watcher_names", { names: parts.join(", ") }));
  w.dataset.testid = "watcher-names";
  return w;
}

export class TableExtras {
  constructor(screen) {
    this.screen = screen;
    this.spectators = 0;
    this.watchers = []; // the named watchers (only a seat is told them)
    this.lastDiscard = null; // {seat, tile} of the newest discard still in its river
    this.toggles = loadToggles();
    this.autoTimer = null;
    this.lobby = undefined; // the lobby this game was started from (looked up at the end)
    this.rematchAsked = false;
    this.baseTitle = document.title;
  }

  destroy() {
    clearTimeout(this.autoTimer);
    document.title = this.baseTitle;
  }

  onWelcome(m) {
    if (typeof m.spectators === "number") this.spectators = m.spectators;
    if (Array.isArray(m.watchers)) this.watchers = m.watchers;
  }

  onPlayers(m) {
    if (typeof m.spectators === "number") this.spectators = m.spectators;
    if (Array.isArray(m.watchers)) this.watchers = m.watchers;
  }

  onEvent(ev) {
    const s = this.screen;
    if (ev.type === "discard") {
      this.lastDiscard = { seat: ev.seat, tile: ev.tile };
      if (ev.seat === s.mySeat && !s.busy && this.clockRanOut()) {
        s.flash(t("table.clock_discarded", { tile: tileName(ev.tile) }));
      }
    } else if (ev.type === "round_start" || CALL_EVENTS.has(ev.type)) {
      this.lastDiscard = null;
    }
  }

  /** Before a new view replaces the old one: did the clock pass for us? */
  beforeView() {
    const s = this.screen;
    const acts = (s.view && s.view.legal_actions) || [];
    if (!s.busy && acts.some((a) => a.type === "pass") && this.clockRanOut()) {
      s.flash(t("table.clock_passed"));
    }
  }

  clockRanOut() {
    const s = this.screen;
    const tm = s.timer;
    if (!tm || tm.seat !== s.mySeat || s.mySeat == null) return false;
    return performance.now() - s.timerSince >= tm.think_ms + tm.bank_ms - CLOCK_SLACK_MS;
  }

  /** After a view: let the Auto toggles answer, a moment later, if still current. */
  afterView() {
    const s = this.screen;
    clearTimeout(this.autoTimer);
    if (s.overlay || s.view.phase !== "play") return;
    const a = autoAction(s.view, s.mySeat, this.toggles);
    if (!a) return;
    const version = s.version;
    this.autoTimer = setTimeout(() => {
      if (s.version === version && !s.busy && !s.mode) s.send(a);
    }, AUTO_DELAY_MS);
  }

  decorate(root) {
    const s = this.screen;
    const view = s.view;
    if (!view) return;
    const scr = root.querySelector(".table-screen");
    if (!scr) return;
    const mine = s.mySeat != null && (view.waiting_on || []).includes(s.mySeat);
    document.title = mine ? `● ${t("table.your_turn")} · ${t("app.title")}` : t("app.title");
    scr.dataset.spectators = String(this.spectators);
    const top = scr.querySelector(".table-top");
    if (top && this.spectators > 0) {
      const w = el("span", "watching", `👁 ${t("table.watching", { n: this.spectators })}`);
      w.dataset.testid = "watching";
      top.append(w);
      if (this.watchers.length) top.append(watcherNames(this.watchers, this.spectators));
    }
    this.markLastDiscard(scr, view);
    this.markClaims(scr, view);
    for (const p of view.players || []) {
      const zone = scr.querySelector(`.zone[data-seat="${p.seat}"]`);
      if (zone && p.riichi) {
        const stick = el("span", "riichi-stick zone-stick", "");
        stick.dataset.testid = "zone-stick";
        zone.append(stick);
      }
    }
    if (s.mySeat != null) {
      const box = togglesEl(this.toggles, (next) => {
        this.toggles = next;
        saveToggles(next);
        s.render();
        if (s.view) this.afterView();
      });
      // Wide screens have the side column (the log's, app.css); elsewhere under the hand.
      const side = WIDE.matches && scr.querySelector(".side-log");
      if (side) side.prepend(box);
      else {
        const bottom = scr.querySelector(".table-bottom");
        if (bottom) bottom.append(box);
      }
    }
    const final = scr.querySelector('.overlay-card[data-kind="final"]');
    if (final && s.mySeat != null) final.append(this.finalActions());
  }

  markLastDiscard(scr, view) {
    const last = this.lastDiscard || view.last_discard;
    if (!last) return;
    const tiles = scr.querySelectorAll(`.zone[data-seat="${last.seat}"] .river .tile`);
    const tile = tiles[tiles.length - 1];
    if (tile && !tile.classList.contains("called") && tile.dataset.tile === last.tile) {
      tile.classList.add("last-discard");
    }
  }

  /** A call or ron button shows the tile it takes. */
  markClaims(scr, view) {
    const claimed = view.last_discard && view.last_discard.tile;
    if (!claimed) return;
    for (const type of CLAIMS) {
      const b = scr.querySelector(`.actions .action-btn[data-action="${type}"]`);
      if (b && !b.querySelector(".claimed")) b.append(tileEl(claimed, { classes: ["mini", "claimed"] }));
    }
  }

  /** "Back to lobby" and "Rematch" under the final standings. */
  finalActions() {
    const box = el("div", "final-actions");
    box.dataset.testid = "final-actions";
    if (this.lobby === undefined) {
      this.lobby = null;
      api.myLobbies().then(
        ({ lobbies }) => {
          this.lobby = lobbies.find((l) => l.game && String(l.game.id) === String(this.screen.gameId)) || null;
          if (this.lobby) this.screen.render();
        },
        () => {},
      );
    }
    const l = this.lobby;
    if (!l) return box;
    const back = el("a", "button", t("result.back_lobby"));
    back.href = `#/lobby/${encodeURIComponent(l.code)}`;
    back.dataset.testid = "back-lobby";
    const again = el("button", "primary", t("result.rematch"));
    again.type = "button";
    again.dataset.testid = "rematch";
    again.disabled = this.rematchAsked;
    again.addEventListener("click", async () => {
      this.rematchAsked = true;
      try {
        const next = await api.rematch(l.code, this.screen.gameId);
        // Started: everyone asked. Otherwise wait in the lobby, which moves us to the
        // new game when the others ask too.
        location.hash = next.status === "playing" && next.game ? `#/game/${next.game.id}` : `#/lobby/${encodeURIComponent(l.code)}`;
      } catch (e) {
        this.rematchAsked = false;
        this.screen.flash(errorLine(e));
        this.screen.render();
      }
    });
    box.append(back, again);
    return box;
  }
}
