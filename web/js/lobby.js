// Lobby: seats, ready flags, bots, rules summary, invite link; live over /ws/lobby/{code}.
import { LobbyVersions } from "./lobbyversions.js";
import { api, appUrl, LiveSocket } from "./api.js";
import { t } from "./i18n.js";
import { loadVariants, presetSelect, botHint, findPreset } from "./variants.js";
import { errorLine } from "./errors.js";
import { botLabel } from "./names.js";

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

function button(text, testid, fn, cls = "") {
  const b = el("button", cls, text);
  b.type = "button";
  if (testid) b.dataset.testid = testid;
  b.addEventListener("click", fn);
  return b;
}

/** Rule options worth showing, as [label, value] pairs. */
export function rulesSummary(r) {
  const yn = (b) => (b ? t("common.yes") : t("common.no"));
  const timer = [t("opt.timer"), r.think_seconds > 0 ? `${r.think_seconds}s + ${r.bank_seconds}s` : t("opt.no_timer")];
  if (r.variant === "nanchang") {
    return [
      [t("opt.preset"), `${t("game.nanchang")} · ${t(`preset.${r.name}`)}`],
      [t("opt.seats"), "4"],
      [t("opt.rounds"), String(r.rounds)],
      timer,
      [t("opt.deguo_bonus"), String(r.deguo_bonus)],
      [t("opt.bawang"), yn(r.bawang)],
      [t("opt.chongguan"), yn(r.chongguan)],
    ];
  }
  const rows = [
    [t("opt.preset"), `${t(`game.${r.variant || "riichi"}`)} · ${t(`preset.${r.name}`)}`],
    [t("opt.seats"), String(r.seats || 4)],
    [t("opt.length"), t(`opt.${r.length}`)],
    [t("opt.red_fives"), String(r.red_fives)],
    [t("opt.timer"), r.think_seconds > 0 ? `${r.think_seconds}s + ${r.bank_seconds}s` : t("opt.no_timer")],
    [t("opt.kuitan"), yn(r.kuitan)],
    [t("opt.multiple_ron"), t(`opt.mr_${r.multiple_ron}`)],
    [t("opt.double_yakuman"), yn(r.double_yakuman)],
    [t("opt.nagashi_mangan"), yn(r.nagashi_mangan)],
    [t("opt.tobi"), yn(r.tobi)],
    [t("opt.agari_yame"), yn(r.agari_yame)],
    [t("opt.start_points"), `${r.start_points} / ${r.return_points}`],
    [t("opt.uma"), (r.uma || []).map((u) => (u > 0 ? `+${u}` : u)).join(" ")],
  ];
  return rows;
}

/** The thinking time in words, shown before start. */
export function timerLine(r) {
  return r.think_seconds > 0
    ? t("lobby.timer_line", { think: r.think_seconds, bank: r.bank_seconds })
    : t("lobby.no_timer_line");
}

/** What the host's start still waits for, in the reader's language (null: nothing). */
export function startHint(l) {
  const empty = l.slots.filter((s) => !s.player && !s.bot).length;
  if (empty) return t("lobby.start_empty", { n: empty });
  const waiting = l.slots.filter((s) => s.player && s.player.id !== l.host_id && !s.ready);
  if (waiting.length) return t("lobby.start_waiting", { names: waiting.map((s) => s.player.name).join(", ") });
  return null;
}

export class LobbyScreen {
  constructor(root, app, code) {
    this.root = root;
    this.app = app;
    this.code = code;
    this.lobby = null;
    this.error = null;
    this.botLevel = "efficient";
    // The operator's external mjai bots (GET api/bots), offered in four-player riichi.
    this.external = [];
    api.bots().then(
      (b) => {
        this.external = b.external || [];
        if (this.lobby) this.render();
      },
      () => {},
    );
    this.variants = null;
    loadVariants().then(
      (v) => {
        this.variants = v;
        if (this.lobby) this.render();
      },
      () => {},
    );
    root.replaceChildren(el("p", "", t("common.loading")));
    this.versions = new LobbyVersions();
    api.lobby(code).then(
      // (a push may have come first: it is at least as new)
      (l) => (this.versions.version == null ? this.update(l) : null),
      (e) => this.fail(e),
    );
    this.sock = new LiveSocket(`ws/lobby/${encodeURIComponent(code)}`, {
      hello: () => {
        this.versions.reset();
        return { type: "hello" };
      },
      onMessage: (m) => {
        if (m.type !== "lobby") return;
        const what = this.versions.accept(m);
        if (what === "apply") this.update(m.lobby);
        else if (what === "resync") this.sock.send({ type: "resync" });
      },
      onStatus: (s) => {
        if (s === "not_found") this.fail(new Error(t("lobby.closed")));
      },
    });
  }

  destroy() {
    this.sock.close();
  }

  fail(e) {
    this.error = e;
    if (this.lobby) this.render();
    else this.root.replaceChildren(el("p", "error", errorLine(e)));
  }

  update(lobby) {
    const before = this.lobby && this.lobby.status;
    this.lobby = lobby;
    // A game starting while we look: players go to their seats. A lobby found already
    // playing (a reload, the invite link again) offers "Return to your game" instead.
    if (before === "open" && lobby.status === "playing" && lobby.game && this.isMember()) {
      location.hash = `#/game/${lobby.game.id}`;
      return;
    }
    this.render();
  }

  isMember() {
    const me = this.app.me;
    return !!me && this.lobby.slots.some((s) => s.player && s.player.id === me.id);
  }

  async act(fn) {
    this.error = null;
    try {
      const l = await fn();
      if (l && l.code) this.update(l);
    } catch (e) {
      this.error = e;
      this.render();
    }
  }

  render() {
    const l = this.lobby;
    const me = this.app.me;
    const host = me && l.host_id === me.id;
    const member = this.isMember();
    const page = el("div", "page lobby");
    page.dataset.status = l.status;
    const head = el("div", "card lobby-head");
    head.append(el("h2", "", `${t("lobby.title")} · ${t("lobby.code")} `));
    const code = el("code", "lobby-code", l.code);
    code.dataset.testid = "lobby-code";
    head.querySelector("h2").append(code);
    const link = appUrl(`#/join/${l.code}`);
    const linkInput = el("input", "invite-link");
    linkInput.readOnly = true;
    linkInput.value = link;
    linkInput.dataset.testid = "invite-link";
    const copied = el("span", "copied", "");
    head.append(
      linkInput,
      button(t("lobby.copy_link"), "copy-link", async () => {
        try {
          await navigator.clipboard.writeText(link);
        } catch {
          linkInput.select();
          document.execCommand("copy");
        }
        copied.textContent = t("lobby.copied");
      }),
      copied,
    );
    const timer = el("p", "timer-line", timerLine(l.rules));
    timer.dataset.testid = "timer-line";
    head.append(timer);
    page.append(head);
    if (l.status === "closed") page.append(el("p", "error", t("lobby.closed")));

    const seats = el("div", "card seats");
    seats.append(el("h3", "", t("lobby.seats")));
    const list = el("ol", "slot-list");
    list.dataset.testid = "slots";
    for (const s of l.slots) {
      const li = el("li", "slot");
      li.dataset.slot = s.slot;
      let who;
      if (s.player) {
        who = s.player.name;
        li.classList.add("human");
      } else if (s.bot) {
        who = t("lobby.bot", { level: botLabel(s.bot) });
        li.classList.add("bot");
      } else {
        who = t("lobby.empty");
        li.classList.add("empty");
      }
      li.append(el("span", "slot-name", who));
      if (s.player && s.player.id === l.host_id) li.append(el("span", "tag", t("lobby.host")));
      if (s.player && me && s.player.id === me.id) li.append(el("span", "tag you", t("lobby.you")));
      // The host starts the game: there is no "ready" to wait for from them.
      const isHost = s.player && s.player.id === l.host_id;
      if ((s.player && !isHost) || s.bot) li.append(el("span", s.ready ? "tag ready" : "tag", s.ready ? t("lobby.is_ready") : t("lobby.not_ready")));
      // After a game the host's flag can only mean one thing: they asked for a rematch.
      else if (isHost && s.ready && l.game) li.append(el("span", "tag ready", t("lobby.rematch_asked")));
      if (l.status === "open") {
        if (!s.player && !s.bot) {
          if (host) li.append(button(t("lobby.add_bot"), `add-bot-${s.slot}`, () => this.act(() => api.addBot(this.code, this.botLevel, s.slot))));
          if (member && l.seat_mode === "choose") li.append(button(t("lobby.sit"), `sit-${s.slot}`, () => this.act(() => api.seat(this.code, s.slot))));
        }
        if (s.bot && host) li.append(button(t("lobby.remove_bot"), `remove-bot-${s.slot}`, () => this.act(() => api.removeBot(this.code, s.slot))));
      }
      list.append(li);
    }
    seats.append(list);
    if (host && l.status === "open") {
      const lvl = el("select", "bot-level");
      lvl.dataset.testid = "bot-level";
      // The levels of this lobby's game (the server refuses others).
      const ours = l.bot_levels || ["efficient", "defensive", "random", "tsumogiri"];
      const levels = [...ours, ...((l.variant || "riichi") === "riichi" ? this.external : [])];
      if (!levels.includes(this.botLevel)) this.botLevel = levels.includes("efficient") ? "efficient" : levels[0];
      // What each level does, beside the choice (a tooltip is not seen on a phone).
      const about = el("span", "hint bot-hint", botHint(l.variant, this.botLevel));
      about.dataset.testid = "bot-hint";
      for (const b of levels) {
        const o = el("option", "", botLabel(b));
        o.value = b;
        o.title = botHint(l.variant, b);
        o.selected = b === this.botLevel;
        lvl.append(o);
      }
      lvl.addEventListener("change", () => {
        this.botLevel = lvl.value;
        about.textContent = botHint(l.variant, lvl.value);
      });
      seats.append(lvl, " ", about);
    }
    page.append(seats);

    const ctl = el("div", "card controls");
    if (l.status === "open") {
      if (!member && me) ctl.append(button(t("lobby.join"), "join-lobby", () => this.act(() => api.join(this.code)), "primary"));
      if (member && !host) {
        const mine = l.slots.find((s) => s.player && s.player.id === me.id);
        const label = mine.ready ? t("lobby.unmark_ready") : t("lobby.mark_ready");
        ctl.append(button(label, "ready", () => this.act(() => api.ready(this.code, !mine.ready)), mine.ready ? "" : "primary"));
      }
      if (member) {
        ctl.append(button(t("lobby.leave"), "leave", () => this.act(async () => {
          await api.leave(this.code);
          location.hash = "#/";
        })));
      }
      if (host) {
        ctl.append(button(t("lobby.start"), "start", () => this.act(() => api.start(this.code)), "primary"));
        const hint = el("p", "hint start-hint", startHint(l) || t("lobby.start_ok"));
        hint.dataset.testid = "start-hint";
        ctl.append(hint);
      }
      else if (member) ctl.append(el("p", "hint", t("lobby.waiting_host")));
    } else if (l.status === "playing" && l.game) {
      // Players go to their seat; anyone else holding the lobby's code may watch.
      const a = el("a", "button primary", member ? t("lobby.return_game") : t("lobby.watch"));
      const watchRoute = (l.game.watch_path || "").replace(/^\/?#/, "");
      a.href = member || !watchRoute ? `#/game/${l.game.id}` : `#${watchRoute}`;
      a.dataset.testid = member ? "return-game" : "watch";
      ctl.append(a);
      if (l.game.watch_path) {
        const watch = el("input", "invite-link");
        watch.readOnly = true;
        watch.value = appUrl(watchRoute);
        watch.dataset.testid = "watch-link";
        watch.title = t("lobby.watch_link");
        ctl.append(el("p", "hint", t("lobby.watch_link")), watch);
      }
    }
    if (this.error) {
      const e = el("p", "error", errorLine(this.error));
      e.dataset.testid = "lobby-error";
      ctl.append(e);
    }
    page.append(ctl);

    const rules = el("div", "card rules");
    rules.append(el("h3", "", t("lobby.rules")));
    const dl = el("dl", "rules-summary");
    dl.dataset.testid = "rules-summary";
    for (const [k, v] of rulesSummary(l.rules)) dl.append(el("dt", "", k), el("dd", "", v));
    rules.append(dl);
    if (host && l.status === "open" && this.variants) rules.append(this.rulesPicker(l));
    page.append(rules);
    this.root.replaceChildren(page);
  }

  /** The host's preset picker (grouped by game): a change is a PATCH, the server says
   * whether it may (a person in a seat the new game lacks: 409, shown as the error). */
  rulesPicker(l) {
    const box = el("label", "field rules-picker");
    box.append(el("span", "", t("lobby.change_rules")));
    const sel = presetSelect(this.variants, l.rules.name, "lobby-preset");
    sel.dataset.testid = "lobby-preset";
    sel.addEventListener("change", () => {
      // The new preset's defaults, keeping the thinking time, and the length while the
      // game stays riichi (four or three players): East-only stays East-only.
      const keep = { think_seconds: l.rules.think_seconds, bank_seconds: l.rules.bank_seconds };
      const found = findPreset(this.variants, sel.value);
      if (l.rules.length && found && found.variant.key !== "nanchang") keep.length = l.rules.length;
      this.act(() => api.updateLobby(this.code, { rules: { preset: sel.value, ...keep } }));
    });
    box.append(sel);
    return box;
  }
}

/** /#/join/CODE: join (after choosing a name if needed), then show the lobby. */
export async function joinAndOpen(app, code) {
  try {
    await api.join(code);
  } catch (e) {
    // A member, or anyone while a game is on: the lobby page offers "Return to your
    // game" or "Watch".
    if (e.code !== "already_member" && e.code !== "not_open") throw e;
  }
  location.replace(`#/lobby/${code}`);
}
