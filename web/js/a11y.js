// The live table for screen readers and keyboards (issue 15): the hand's tiles are
// buttons named in words ("red 5 of dots"), focus survives the re-render that follows
// every action (a discarded tile's place goes to its neighbour, never to the page body),
// and a polite live region outside the re-rendered table says the moves as they come
// ("Kai discards 3 of dots", "Kai calls Pon", "Your turn"). GameScreen feeds it events
// and calls beforeRender() / afterRender() around each render.
import { t } from "./i18n.js";
import { seatName } from "./names.js";
import { tileName } from "./tilenames.js";

// Call events: as documented (`call` / `kan` with the kind inside) and as the server
// sends them today (the kind as the type), as in game.js's log.
const CALLS = new Set(["call", "kan", "pon", "chi", "daiminkan", "ankan", "kakan"]);
// Lines kept in the live region: each new line is announced, older ones are context.
const KEEP = 4;

/** The live region, one per page, outside #app so a render never replaces it. */
function liveRegion() {
  let r = document.getElementById("table-live");
  if (!r) {
    r = document.createElement("div");
    r.id = "table-live";
    r.className = "sr-only";
    r.setAttribute("role", "status");
    r.setAttribute("aria-live", "polite");
    r.dataset.testid = "live";
    document.body.append(r);
  }
  return r;
}

/** What element had focus, said so that the next render's copy of it can be found. */
function focusKey(root) {
  const a = document.activeElement;
  if (!a || a === document.body || !root.contains(a)) return null;
  const tile = a.closest(".hand-tiles .tile");
  if (tile) return { tile: Number(tile.dataset.index) };
  for (const attr of ["testid", "action", "auto"]) {
    if (a.dataset && a.dataset[attr]) return { selector: `[data-${attr}="${CSS.escape(a.dataset[attr])}"]` };
  }
  return { tile: 0 };
}

export class TableAccess {
  constructor(screen) {
    this.screen = screen;
    this.region = liveRegion();
    this.region.replaceChildren();
    this.focus = null;
    this.turn = false; // the table waited on us at the last render
    this.onKey = (e) => this.key(e);
    this.onFocus = (e) => this.roveTo(e.target);
    screen.root.addEventListener("keydown", this.onKey);
    screen.root.addEventListener("focusin", this.onFocus);
  }

  destroy() {
    this.screen.root.removeEventListener("keydown", this.onKey);
    this.screen.root.removeEventListener("focusin", this.onFocus);
    this.region.remove();
  }

  /** One line for the live region. */
  say(text) {
    if (!text) return;
    const p = document.createElement("p");
    p.textContent = text;
    this.region.append(p);
    while (this.region.childElementCount > KEEP) this.region.firstElementChild.remove();
  }

  onEvent(ev) {
    const players = this.screen.players;
    const name = (seat) => seatName(players, seat);
    const type = ev.type;
    if (type === "discard") {
      const words = { name: name(ev.seat), who: name(ev.seat), tile: tileName(ev.tile) };
      this.say(ev.riichi ? t("a11y.riichi", words) : t("history.step_discard", words));
    } else if (CALLS.has(type)) {
      const kind = type === "call" || type === "kan" ? ev.meld : type;
      this.say(t("a11y.call", { name: name(ev.seat), action: t(`action.${kind}`) }));
    } else if (type === "nuki") {
      this.say(t("a11y.call", { name: name(ev.seat), action: t("action.nuki") }));
    } else if (type === "agari") {
      for (const w of ev.winners || []) {
        this.say(t("log.win", { name: name(w.seat), action: t(w.from_seat == null ? "action.tsumo" : "action.ron") }));
      }
    } else if (type === "ryuukyoku") {
      this.say(t(`draw.${ev.reason}`));
    } else if (type === "round_start" && ev.round_wind) {
      this.say(t("table.round", { wind: t(`wind.${ev.round_wind}`), kyoku: ev.kyoku }));
    }
  }

  beforeRender() {
    this.focus = focusKey(this.screen.root);
  }

  afterRender() {
    const s = this.screen;
    const root = s.root;
    const tiles = [...root.querySelectorAll(".hand-tiles .tile")];
    this.nameTiles(tiles);
    this.announceTurn();
    let f = this.focus;
    this.focus = null;
    // Keys that select a tile (game.js's arrows) bring the focus into the hand.
    if (!f && s.selected != null && (!document.activeElement || document.activeElement === document.body)) f = { tile: s.selected };
    if (!f) return;
    let target = null;
    const card = root.querySelector("[data-testid=overlay]");
    if (f.selector) target = root.querySelector(f.selector);
    // A result card takes the focus from the table behind it.
    if (card && !(target && card.contains(target))) target = card.querySelector("[data-testid=continue], button, a");
    if (!target && tiles.length) {
      // The selected tile (keys, a touch), else the focused tile's place: after a
      // discard, its right neighbour.
      const i = s.selected ?? Math.min(f.tile ?? 0, tiles.length - 1);
      target = tiles[i] || tiles[0];
    }
    if (target && document.activeElement !== target) target.focus({ preventScroll: true });
  }

  /** The hand's one tab stop is the tile last focused, so Tab and Shift+Tab come back to it. */
  roveTo(el) {
    const tile = el && el.closest && el.closest(".hand-tiles .tile");
    if (!tile) return;
    for (const x of tile.parentElement.children) x.tabIndex = x === tile ? 0 : -1;
  }

  /** Every hand tile a button named in words; one of them in the tab order. */
  nameTiles(tiles) {
    const s = this.screen;
    let current = tiles.findIndex((x) => x.classList.contains("selected"));
    if (current < 0) current = tiles.findIndex((x) => x.classList.contains("playable"));
    if (current < 0) current = 0;
    tiles.forEach((tl, i) => {
      tl.setAttribute("role", "button");
      tl.tabIndex = i === current ? 0 : -1;
      const name = tileName(tl.dataset.tile);
      tl.setAttribute("aria-label", tl.classList.contains("drawn") ? t("a11y.drawn_tile", { tile: name }) : name);
      if (!tl.classList.contains("playable")) tl.setAttribute("aria-disabled", "true");
      // The image's alt would repeat the name.
      const img = tl.querySelector("img");
      if (img) img.alt = "";
    });
    const row = s.root.querySelector(".hand-tiles");
    if (row) {
      row.setAttribute("role", "group");
      row.setAttribute("aria-label", t("a11y.hand"));
    }
  }

  /** "Your turn" (with the drawn tile) or what may be called, once per decision. */
  announceTurn() {
    const s = this.screen;
    const v = s.view;
    const acts = (!s.busy && v && v.legal_actions) || [];
    const mine = s.mySeat != null && acts.length > 0 && (v.waiting_on || []).includes(s.mySeat);
    if (mine && !this.turn) {
      const me = v.players.find((p) => p.seat === s.mySeat);
      if (acts.some((a) => a.type === "discard" || a.type === "riichi")) {
        this.say(me && me.drawn ? t("a11y.your_turn_drawn", { tile: tileName(me.drawn) }) : t("table.your_turn"));
      } else {
        const kinds = [...new Set(acts.map((a) => t(`action.${a.type}`)))];
        this.say(t("a11y.may_call", { actions: kinds.join(", ") }));
      }
    }
    this.turn = mine;
  }

  /** Keys on a focused hand tile: Enter or Space discards it, arrows move from it. */
  key(e) {
    const tile = e.target.closest && e.target.closest(".hand-tiles .tile");
    if (!tile || e.ctrlKey || e.metaKey || e.altKey) return;
    const s = this.screen;
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      e.stopPropagation();
      if (tile.classList.contains("playable")) s.clickTile(tile.dataset.tile);
    } else if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      // game.js moves the selection by one: from the tile that has focus.
      s.selected = Number(tile.dataset.index);
    }
  }
}
