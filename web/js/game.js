// The live table: one WebSocket for this seat (docs/protocol.md), catching up by version
// after a drop, and the input handling (clicks and keys) on top of renderTable. It speaks
// protocol 2: a whole view on connecting, then events and decision frames folded into it
// (fold.js).
import { api, LiveSocket } from "./api.js";
import { fromView, foldFrame, expandStep } from "./fold.js";
import { t, onLangChange } from "./i18n.js";
import { renderTable, tickTimer } from "./table.js";
import { rememberCommitment } from "./fairness.js";
import { TableExtras } from "./tablextras.js";
import { TableFeel } from "./feel.js";
import { loadLog, saveLog, KEEP_ENTRIES } from "./tablelog.js";
import { TableAccess } from "./a11y.js";
import { TouchDiscard } from "./touch.js";
import { errorLine, errorText } from "./errors.js";
import { tickCountdown } from "./countdown.js";


export class GameScreen {
  /**
   * opts.connect(handlers) opens the table socket (default: a LiveSocket to the server);
   * opts.returnPoints skips asking the server for the rules. Both exist for the mock page.
   */
  constructor(root, gameId, opts = {}) {
    this.root = root;
    this.gameId = gameId;
    this.version = null;
    this.state = null; // the fold's table state (fold.js); this.view is what is shown
    this.view = null;
    // Our discard was shown and the decision it ended is not told yet (the call window holds it).
    this.hideActions = false;
    this.players = [];
    this.mySeat = null;
    this.mode = null;
    this.selected = null;
    this.busy = false;
    this.timer = null;
    this.timerSince = 0;
    this.status = "connecting";
    this.overlay = null;
    this.dismissed = null;
    this.pendingFinal = null;
    this.returnPoints = 30000;
    this.toast = null;
    // The side log, kept across reloads (tablelog.js); logVersion: its last event's version.
    ({ entries: this.log, version: this.logVersion } = loadLog(gameId));
    this.resyncing = false;
    this.extras = new TableExtras(this);
    this.feel = new TableFeel(this); // announcements, motion, sounds (feel.js)
    // The result card's countdown (round_pause), why the game ended and its record
    // (the final screen's hands and graph); opts.loadGame stands in for the server (mock).
    this.pauseUntil = null;
    this.endReason = null;
    this.record = null;
    this.loadGame = opts.loadGame || ((id) => api.game(id, opts.watch));
    this.a11y = new TableAccess(this);
    this.touch = new TouchDiscard(this);
    root.replaceChildren(Object.assign(document.createElement("p"), { textContent: t("common.loading") }));
    this.onKey = (e) => this.key(e);
    document.addEventListener("keydown", this.onKey);
    this.offLang = onLangChange(() => this.render());
    if (opts.returnPoints) {
      this.returnPoints = opts.returnPoints;
    } else {
      api.game(gameId, opts.watch).then(
        (g) => {
          const rules = g && g.rules;
          if (rules && typeof rules === "object" && rules.return_points) this.returnPoints = rules.return_points;
        },
        () => {},
      );
    }
    const connect = opts.connect || ((handlers) => new LiveSocket(`ws/table/${encodeURIComponent(gameId)}`, handlers));
    this.sock = connect({
      hello: () => ({ type: "hello", protocol: 2, last_version: this.state ? this.version : null, spectate: false, ...(opts.watch ? { watch: opts.watch } : {}) }),
      onMessage: (m) => this.message(m),
      onStatus: (s) => {
        this.status = s;
        if (this.view) this.render();
        else if (s === "not_found" || s === "auth_failed") this.showError(s);
      },
    });
    this.raf = requestAnimationFrame(() => this.frame());
  }

  destroy() {
    this.sock.close();
    document.removeEventListener("keydown", this.onKey);
    this.offLang();
    cancelAnimationFrame(this.raf);
    this.extras.destroy();
    this.feel.destroy();
    this.a11y.destroy();
  }

  frame() {
    tickTimer(this.root, this.timer, this.timerSince);
    tickCountdown(this.root, this.pauseUntil);
    this.raf = requestAnimationFrame(() => this.frame());
  }

  showError(code) {
    const p = document.createElement("p");
    p.className = "error";
    p.textContent = code === "not_found" ? t("table.gone") : errorLine({ code });
    const home = Object.assign(document.createElement("a"), { href: "#/", className: "button", textContent: t("common.back_home") });
    const page = document.createElement("div");
    page.className = "page";
    page.append(p, home);
    this.root.replaceChildren(page);
  }

  message(m) {
    switch (m.type) {
      case "batch":
        // a step's frames together: shown once, as they leave the view
        this.inBatch = true;
        try {
          for (const x of m.messages || []) this.message(x);
        } finally {
          this.inBatch = false;
        }
        if (this.dirty) this.render();
        break;
      case "step":
        // a step's events and our decision in one frame (docs/protocol.md, "Frames")
        if (this.inBatch) for (const x of expandStep(m, this.mySeat)) this.message(x);
        else this.message({ type: "batch", messages: expandStep(m, this.mySeat) });
        break;
      case "timeline_lost":
        // The record lost what we showed after its version (docs/protocol.md): the
        // welcome and view that follow are the game as saved.
        this.version = null;
        this.flash(t("table.timeline_lost"));
        break;
      case "welcome":
        rememberCommitment(this.gameId, m.seed_commitment);
        this.mySeat = m.seat;
        this.players = m.players || [];
        this.extras.onWelcome(m);
        // "replay": the missed events follow, numbered from our last version on, so keep
        // it to chain them; "resync": only a view follows, which sets the version.
        if (m.mode !== "replay") this.version = null;
        break;
      case "players":
        this.players = m.players || [];
        this.extras.onPlayers(m);
        if (this.view) this.render();
        break;
      case "event":
        // A gap in versions means we missed something: ask for the whole view again.
        if (this.version != null && m.version !== this.version + 1) {
          // Once per gap: everything up to the resync's view is superseded by it.
          if (!this.resyncing) this.sock.send({ type: "resync" });
          this.resyncing = true;
          return;
        }
        this.version = m.version;
        if (this.state) {
          this.state = foldFrame(this.state, m);
          this.show();
        }
        if (m.event) this.event(m.event, m.version);
        this.render();
        break;
      case "decision":
        if (this.resyncing || !this.state) return;
        this.extras.beforeView();
        this.state = foldFrame(this.state, m);
        this.hideActions = false;
        if ("timer" in m) {
          this.timer = this.state.timer;
          this.timerSince = performance.now();
        }
        this.busy = false;
        this.show();
        if (this.mode && !this.modeStillLegal()) this.mode = null;
        this.render();
        this.extras.afterView();
        break;
      case "view":
        this.extras.beforeView();
        this.resyncing = false;
        this.version = m.version;
        this.state = fromView(m);
        this.hideActions = false;
        this.show();
        this.timer = m.timer || null;
        this.timerSince = performance.now();
        this.busy = false;
        if (this.mode && !this.modeStillLegal()) this.mode = null;
        this.syncOverlay();
        this.render();
        this.extras.afterView();
        break;
      case "game_over":
        this.showFinal(m.results);
        this.render();
        break;
      case "round_pause":
        this.pauseUntil = performance.now() + m.ms;
        this.render();
        break;
      case "error":
        this.busy = false;
        this.flash(errorText(m));
        if (m.code === "stale") this.sock.send({ type: "resync" });
        else if (this.view) this.render();
        break;
      default:
        break;
    }
  }

  /** The view shown: the folded one, without the actions a discard just ended. */
  show() {
    const v = this.state.view;
    this.view = this.hideActions ? { ...v, legal_actions: [], waiting_on: [] } : v;
  }

  event(ev, version) {
    this.logEvent(ev, version);
    this.extras.onEvent(ev);
    this.feel.onEvent(ev);
    this.a11y.onEvent(ev);
    if (ev.type === "discard") {
      if (ev.seat === this.mySeat) this.showDiscard();
      this.mode = null;
    } else if (ev.type === "agari" || ev.type === "ryuukyoku") {
      this.overlay = { kind: "result", data: ev, at: version };
    } else if (ev.type === "round_end" && ev.result) {
      // Nanchang: the round's whole result (win or 荒牌, jokers, kans, ledger).
      this.overlay = { kind: "result", data: (this.state && this.state.view.result) || ev.result, at: version };
    } else if (ev.type === "round_start") {
      this.pauseUntil = null;
      this.overlay = null;
      this.dismissed = null;
      this.mode = null;
      this.selected = null;
    } else if (ev.type === "game_end") {
      this.endReason = ev.reason || null;
      this.showFinal(ev.final);
    } else if (ev.type === "game_start" && ev.rules && ev.rules.return_points) {
      this.returnPoints = ev.rules.return_points;
    }
  }

  /**
   * Our discard shows at once (folded into the view); the decision frame saying it ended
   * our turn comes only when the call window closes (docs/protocol.md), so our actions
   * leave the screen now, until a decision frame (or view) says what we may do.
   */
  showDiscard() {
    this.hideActions = true;
    this.show();
  }

  /** Public moves worth following (calls, kans, riichi, new dora, round ends), newest last. */
  logEvent(ev, version) {
    // A reconnect replays events the saved log already holds.
    if (version != null && this.logVersion != null && version <= this.logVersion) return;
    const entries = [];
    if (ev.type === "round_start") {
      entries.push({ kind: "round", wind: ev.round_wind, kyoku: ev.kyoku, honba: ev.honba });
    } else if (ev.type === "call" || ev.type === "kan") {
      entries.push({ kind: "call", seat: ev.seat, action: ev.meld, tiles: ev.tiles || [] });
    } else if (ev.type === "nuki") {
      entries.push({ kind: "call", seat: ev.seat, action: "nuki", tiles: [ev.tile] });
    } else if (ev.type === "win" && ev.win) {
      entries.push({ kind: "win", seat: ev.win.seat, action: ev.win.from_seat == null ? "tsumo" : "ron" });
    } else if (ev.type === "wall_exhausted") {
      entries.push({ kind: "draw", reason: "exhaustive" });
    } else if (ev.type === "riichi_accepted") {
      entries.push({ kind: "riichi", seat: ev.seat });
    } else if (ev.type === "new_dora") {
      entries.push({ kind: "dora", tile: ev.indicator });
    } else if (ev.type === "agari") {
      for (const w of ev.winners || []) entries.push({ kind: "win", seat: w.seat, action: w.from_seat == null ? "tsumo" : "ron" });
    } else if (ev.type === "ryuukyoku") {
      entries.push({ kind: "draw", reason: ev.reason });
    }
    this.log.push(...entries);
    if (this.log.length > KEEP_ENTRIES) this.log.splice(0, this.log.length - KEEP_ENTRIES);
    if (version != null) {
      this.logVersion = version;
      if (entries.length) saveLog(this.gameId, this.log, version);
    }
  }

  /**
   * The standings, once the last round's result has been seen: a game that ends with
   * its last round (Nanchang) sends both at once, and the card is not skipped.
   */
  showFinal(final) {
    if (!this.record && !this.recordAsked) {
      this.recordAsked = true;
      this.loadGame(this.gameId).then((g) => {
        this.record = g;
        this.render();
      }, () => {});
    }
    if (this.overlay && this.overlay.kind === "result") this.pendingFinal = final;
    else this.overlay = { kind: "final", data: final };
  }

  /** After a reload the result or standings come from the view itself. */
  syncOverlay() {
    const v = this.view;
    if (v.phase === "game_end" && v.final) {
      if (!this.overlay || this.overlay.kind !== "final") this.showFinal(v.final);
    } else if (v.phase === "round_end" && v.result && !this.overlay && this.dismissed !== this.version) {
      this.overlay = { kind: "result", data: v.result, at: this.version };
    } else if (v.phase === "play" && this.overlay && this.overlay.kind === "result") {
      this.overlay = null;
    }
  }

  modeStillLegal() {
    const acts = this.view.legal_actions || [];
    if (this.mode.kind === "riichi") return acts.some((a) => a.type === "riichi");
    return this.mode.options.every((o) => acts.some((a) => sameAction(a, o)));
  }

  flash(text) {
    this.toast = text;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => {
      this.toast = null;
      const n = this.root.querySelector(".toast");
      if (n) n.remove();
    }, 4000);
  }

  render() {
    if (!this.view) return;
    if (this.inBatch) {
      this.dirty = true;
      return;
    }
    this.dirty = false;
    this.a11y.beforeRender();
    renderTable(
      this.root,
      {
        view: this.view,
        version: this.version,
        players: this.players,
        mySeat: this.mySeat,
        mode: this.mode,
        selected: this.selected,
        busy: this.busy,
        timer: this.timer,
        status: this.status,
        overlay: this.overlay,
        returnPoints: this.returnPoints,
        log: this.log,
        gameId: this.gameId,
        pauseUntil: this.pauseUntil,
        endReason: this.endReason,
        record: this.record,
      },
      {
        onTile: (tile, index, e) => this.touch.tap(tile, index, e) || this.clickTile(tile),
        onAction: (a) => this.send(a),
        onGroup: (g) => this.group(g),
        onCancel: () => {
          this.mode = null;
          this.render();
        },
        onContinue: () => {
          this.sock.send({ type: "continue" });
          this.overlay = this.pendingFinal ? { kind: "final", data: this.pendingFinal } : null;
          this.pendingFinal = null;
          this.dismissed = this.version;
          this.render();
        },
      },
    );
    this.extras.decorate(this.root);
    this.feel.decorate(this.root);
    this.touch.decorate(this.root);
    this.a11y.afterRender();
    if (this.toast) {
      const d = document.createElement("div");
      d.className = "toast";
      d.textContent = this.toast;
      this.root.append(d);
    }
  }

  send(action) {
    const a = { type: action.type };
    if (action.tile != null) a.tile = action.tile;
    if (action.tiles && action.tiles.length) a.tiles = action.tiles;
    this.mode = null;
    this.selected = null;
    if (this.sock.send({ type: "action", action: a, version: this.version })) {
      this.busy = true;
    }
    this.render();
  }

  group(g) {
    if (g.type === "riichi") {
      this.mode = { kind: "riichi" };
      this.render();
    } else if (g.options.length > 1) {
      this.mode = { kind: "choose", type: g.type, options: g.options };
      this.render();
    } else {
      this.send(g.options[0]);
    }
  }

  clickTile(tile) {
    const want = this.mode && this.mode.kind === "riichi" ? "riichi" : "discard";
    const a = (this.view.legal_actions || []).find((x) => x.type === want && x.tile === tile);
    if (a) this.send(a);
  }

  handTiles() {
    const me = this.view && this.view.players.find((p) => p.seat === this.mySeat);
    if (!me || !me.hand) return [];
    return me.drawn ? [...me.hand, me.drawn] : [...me.hand];
  }

  key(e) {
    if (!this.view || e.target.closest("input, select, textarea") || e.ctrlKey || e.metaKey || e.altKey) return;
    // Enter on a focused button or link is that button's (a11y.js keeps focus on them).
    if (e.key === "Enter" && e.target.closest("button, a")) return;
    if (this.overlay && this.overlay.kind === "result") {
      // Enter on a round result is "continue"; nothing else acts under the card.
      if (e.key === "Enter") {
        const b = this.root.querySelector("[data-testid=continue]");
        if (b) b.click();
        e.preventDefault();
      }
      return;
    }
    const tiles = this.handTiles();
    if (this.selected != null && this.selected >= tiles.length) this.selected = tiles.length ? tiles.length - 1 : null;
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      if (!tiles.length) return;
      const d = e.key === "ArrowLeft" ? -1 : 1;
      this.selected = this.selected == null ? (d > 0 ? 0 : tiles.length - 1) : (this.selected + d + tiles.length) % tiles.length;
      this.render();
      e.preventDefault();
    } else if (e.key === "Enter" && this.selected != null && tiles[this.selected]) {
      this.clickTile(tiles[this.selected]);
      e.preventDefault();
    } else if (e.key === "d" || e.key === "D") {
      const me = this.view.players.find((p) => p.seat === this.mySeat);
      if (me && me.drawn) this.clickTile(me.drawn);
    } else if (e.key === "Escape") {
      if (this.mode) {
        this.mode = null;
        this.render();
      } else {
        const pass = (this.view.legal_actions || []).find((a) => a.type === "pass");
        if (pass && !this.busy) this.send(pass);
      }
    } else if (/^[1-9]$/.test(e.key)) {
      const buttons = this.root.querySelectorAll(".actions .action-btn");
      const b = buttons[Number(e.key) - 1];
      if (b) b.click();
    }
  }
}

function sameAction(a, b) {
  return a.type === b.type && a.tile === b.tile && (a.tiles || []).join() === (b.tiles || []).join();
}
