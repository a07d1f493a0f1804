// Lobby: seats, ready flags, bots, rules summary, invite link; live over /ws/lobby/{code}.
import { api, appUrl, LiveSocket } from "./api.js";
import { t } from "./i18n.js";
import { botHint, botLabel } from "./names.js";

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
  const rows = [
    [t("opt.preset"), t(`preset.${r.name}`)],
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

export class LobbyScreen {
  constructor(root, app, code) {
    this.root = root;
    this.app = app;
    this.code = code;
    this.lobby = null;
    this.error = "";
    this.botLevel = "efficient";
    // Bot levels: ours, then the operator's external mjai bots (GET api/bots).
    this.botLevels = ["strong", "efficient", "defensive", "random", "tsumogiri"];
    api.bots().then(
      (b) => {
        this.botLevels = [...b.levels, ...b.external];
        if (this.lobby) this.render();
      },
      () => {},
    );
    root.replaceChildren(el("p", "", t("common.loading")));
    api.lobby(code).then(
      (l) => this.update(l),
      (e) => this.fail(e),
    );
    this.sock = new LiveSocket(`ws/lobby/${encodeURIComponent(code)}`, {
      hello: () => ({ type: "hello" }),
      onMessage: (m) => {
        if (m.type === "lobby") this.update(m.lobby);
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
    this.error = e.message;
    if (this.lobby) this.render();
    else this.root.replaceChildren(el("p", "error", t("common.error", { message: e.message })));
  }

  update(lobby) {
    this.lobby = lobby;
    if (lobby.status === "playing" && lobby.game && this.isMember()) {
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
    this.error = "";
    try {
      const l = await fn();
      if (l && l.code) this.update(l);
    } catch (e) {
      this.error = e.message;
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
      if (s.player || s.bot) li.append(el("span", s.ready ? "tag ready" : "tag", s.ready ? t("lobby.is_ready") : t("lobby.not_ready")));
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
      // What each level does, beside the choice (a tooltip is not seen on a phone).
      const about = el("span", "hint bot-hint", botHint(this.botLevel));
      about.dataset.testid = "bot-hint";
      for (const b of this.botLevels) {
        const o = el("option", "", botLabel(b));
        o.value = b;
        o.title = botHint(b);
        o.selected = b === this.botLevel;
        lvl.append(o);
      }
      lvl.addEventListener("change", () => {
        this.botLevel = lvl.value;
        about.textContent = botHint(lvl.value);
      });
      seats.append(lvl, " ", about);
    }
    page.append(seats);

    const ctl = el("div", "card controls");
    if (l.status === "open") {
      if (!member && me) ctl.append(button(t("lobby.join"), "join-lobby", () => this.act(() => api.join(this.code)), "primary"));
      if (member) {
        const mine = l.slots.find((s) => s.player && s.player.id === me.id);
        ctl.append(button(mine.ready ? t("lobby.not_ready") : t("lobby.ready"), "ready", () => this.act(() => api.ready(this.code, !mine.ready))));
        ctl.append(button(t("lobby.leave"), "leave", () => this.act(async () => {
          await api.leave(this.code);
          location.hash = "#/";
        })));
      }
      if (host) ctl.append(button(t("lobby.start"), "start", () => this.act(() => api.start(this.code)), "primary"));
      else if (member) ctl.append(el("p", "hint", t("lobby.waiting_host")));
    } else if (l.status === "playing" && l.game) {
      // Players go to their seat; anyone else holding the lobby's code may watch.
      const a = el("a", "button", member ? "▶" : t("lobby.watch"));
      const watchRoute = (l.game.watch_path || "").replace(/^\/?#/, "");
      a.href = member || !watchRoute ? `#/game/${l.game.id}` : `#${watchRoute}`;
      a.dataset.testid = "watch";
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
      const e = el("p", "error", t("common.error", { message: this.error }));
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
    page.append(rules);
    this.root.replaceChildren(page);
  }
}

/** /#/join/CODE: join (after choosing a name if needed), then show the lobby. */
export async function joinAndOpen(app, code) {
  try {
    await api.join(code);
  } catch (e) {
    if (e.code !== "already_member") throw e;
  }
  location.replace(`#/lobby/${code}`);
}
