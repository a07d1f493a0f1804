// History page (#/history, #/history/all, #/history/lobby/CODE): finished games with date,
// rules, players and final standings; a per-hand summary of each; links to the replay
// viewer; and the import form for Tenhou logs (mjlog XML or tenhou.net/6 JSON).
import { api, http, ApiError } from "./api.js";
import { t, yakuName } from "./i18n.js";
import { elementName } from "./ledger.js";
import { errorLine } from "./errors.js";

/** A string of the history/replay pages: the key "history.KEY" of the shared dictionaries. */
export function s(key, params = {}) {
  return t(`history.${key}`, params);
}

export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

const WIND_NAMES = ["E", "S", "W", "N"];

export function handLabel(h) {
  const wind = t(`wind.${WIND_NAMES[h.round_wind] || "E"}`);
  if (h.result && h.result.result) {
    // Nanchang: the hand in the round and the dealer's repeats.
    return `${t("table.round", { wind, kyoku: h.kyoku + 1 })} · ${t("table.repeat", { n: h.honba })}`;
  }
  return `${t("table.round", { wind, kyoku: h.kyoku + 1 })} · ${t("table.honba", { n: h.honba })}`;
}

function nameOf(game, seat) {
  const x = game.seats.find((p) => p.seat === seat);
  return (x && x.name) || `#${seat + 1}`;
}

/** One line per hand: who won what (yaku, points), or the draw. */
export function handSummary(game, h) {
  const r = h.result || {};
  if (r.result) return ledgerSummary(game, h, r.result);
  if (h.kind === "agari") {
    const wins = (r.winners || []).map((w) => {
      const how = w.from_seat == null ? s("by_tsumo") : s("by_ron", { from: nameOf(game, w.from_seat) });
      const yaku = [...(w.yakuman || []), ...(w.yaku || [])].map((y) => yakuName(y.id)).join(", ");
      const limit = w.limit ? ` ${t(`limit.${w.limit}`)}` : "";
      return `${s("win_line", { who: nameOf(game, w.seat), how, points: t("result.points", { n: w.points }) })}${limit} (${yaku})`;
    });
    return `${handLabel(h)}: ${wins.join(" / ")}`;
  }
  return `${handLabel(h)}: ${t("result.draw")} — ${t(`draw.${r.reason || "exhaustive"}`)}`;
}

/** A Nanchang hand: the winner, how, the total and each scoring element by name. */
function ledgerSummary(game, h, r) {
  if (!r.win) return `${handLabel(h)}: ${t("result.draw")} — ${t("nc.wall_exhausted")}`;
  const w = r.win;
  const how = w.from_seat == null ? s("by_tsumo") : s("by_ron", { from: nameOf(game, w.from_seat) });
  const els = w.score.elements.map((e) => elementName(e.id)).join(", ");
  return `${handLabel(h)}: ${s("win_line", { who: nameOf(game, w.seat), how, points: t("nc.total", { n: w.score.total }) })} (${els})`;
}

function rulesText(rules) {
  if (!rules || typeof rules !== "object") return String(rules || "");
  if (rules.variant === "nanchang") return `${t("game.nanchang")} · ${t(`preset.${rules.name}`)} · ${t("opt.rounds")} ${rules.rounds}`;
  if (rules.variant === "sanma") return `${t(`preset.${rules.name}`)} · ${s(rules.length === "tonpuu" ? "len_tonpuu" : "len_hanchan")}`;
  const len = s(rules.length === "tonpuu" ? "len_tonpuu" : "len_hanchan");
  return `${rules.name || ""} · ${len}${rules.red_fives ? ` · ${s("red")}` : ""}`;
}

function gameItem(g, imports, me) {
  const li = el("li", "history-item");
  li.dataset.gameId = String(g.id);
  li.dataset.testid = "history-game";
  const when = g.ended_at ? new Date(g.ended_at).toLocaleString() : "";
  li.append(el("span", "when", `#${g.id} · ${when} · ${rulesText(g.rules)}`));
  const imp = imports[String(g.id)];
  if (imp) {
    const b = el("span", "badge", s("imported"));
    b.title = s("imported_from", { source: imp.source });
    li.append(b);
  }
  const seats = [...g.seats].sort((a, b) => (a.rank ?? 9) - (b.rank ?? 9) || a.seat - b.seat);
  const line = seats
    .map((x) => `${x.rank ?? "–"}. ${x.name}${me && x.player_id === me.id ? " ★" : ""} ${x.final_points ?? ""}${x.score != null ? ` (${x.score > 0 ? "+" : ""}${x.score})` : ""}`)
    .join("   ");
  const st = el("span", "standings-line", line);
  st.dataset.testid = "standings-line";
  li.append(st);
  if (g.stats) {
    // This player's stats line (GET /api/games?player=ID, docs/players.md).
    const x = g.stats;
    const line = el("span", "standings-line stats-line", s("stats_line", { rank: x.rank, rounds: x.rounds, wins: x.wins, deal_ins: x.deal_ins, riichi: x.riichi, calls: x.calls }));
    line.dataset.testid = "stats-line";
    li.append(line);
  }
  const actions = el("div", "row-actions");
  const replay = el("a", "button", s("replay"));
  replay.href = `#/replay/${g.id}`;
  replay.dataset.testid = "replay-link";
  const toggle = el("button", "", s("hands"));
  toggle.type = "button";
  toggle.dataset.testid = "hands-toggle";
  const list = el("ol", "hand-summary");
  list.hidden = true;
  toggle.addEventListener("click", async () => {
    if (!list.hidden) {
      list.hidden = true;
      toggle.textContent = s("hands");
      return;
    }
    list.hidden = false;
    toggle.textContent = s("hide");
    if (list.childElementCount) return;
    try {
      const detail = await api.game(g.id);
      (detail.hands || []).forEach((h, i) => {
        const item = el("li");
        const a = el("a", "", handSummary(detail, h));
        a.href = `#/replay/${g.id}/${i + 1}/0`;
        item.append(a);
        list.append(item);
      });
    } catch (err) {
      list.append(el("li", "error", errorLine(err)));
    }
  });
  actions.append(replay, toggle);
  li.append(actions, list);
  return li;
}

function importCard(app) {
  const card = el("div", "card");
  card.append(el("h2", "", s("import_title")));
  card.append(el("p", "hint", s("import_hint")));
  const msg = el("p", "import-msg");
  msg.dataset.testid = "import-msg";
  if (!app.me) {
    card.append(el("p", "hint", s("import_sign_in")));
    return card;
  }
  const form = el("form", "import-form");
  form.dataset.testid = "import-form";
  const input = document.createElement("input");
  input.type = "file";
  input.accept = ".mjlog,.xml,.json,.gz,application/json,text/xml";
  input.dataset.testid = "import-file";
  const button = el("button", "primary", s("import_button"));
  button.type = "submit";
  form.append(input, button);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    msg.className = "import-msg";
    const file = input.files && input.files[0];
    if (!file) {
      msg.textContent = s("import_choose");
      return;
    }
    button.disabled = true;
    try {
      const res = await fetch(`api/games/import?filename=${encodeURIComponent(file.name)}`, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/octet-stream" },
        body: file,
      });
      const data = await res.json().catch(() => null);
      if (!res.ok) {
        const d = data && data.detail;
        throw new ApiError(res.status, (d && d.code) || "http", (d && d.message) || res.statusText);
      }
      msg.textContent = "";
      const a = el("a", "", s("import_done", { id: data.id, rounds: data.rounds }));
      a.href = `#/replay/${data.id}`;
      a.dataset.testid = "import-link";
      msg.append(a);
    } catch (err) {
      msg.className = "import-msg error";
      msg.textContent = errorLine(err);
    } finally {
      button.disabled = false;
    }
  });
  card.append(form, msg);
  return card;
}

/** Render the history page. parts: [] mine (or all when signed out), ["all"], ["lobby", CODE]. */
export async function renderHistory(root, app, parts = []) {
  root.replaceChildren();
  const page = el("div", "page history-page");
  page.dataset.testid = "history-page";
  root.append(page);
  const mode = parts[0] === "lobby" && parts[1] ? "lobby" : parts[0] === "all" || !app.me ? "all" : "mine";
  const head = el("div", "card");
  head.append(el("h2", "", mode === "lobby" ? s("lobby", { code: parts[1] }) : s("title")));
  const tabs = el("div", "tabs");
  if (app.me) {
    const mine = el("a", `button${mode === "mine" ? " active" : ""}`, s("mine"));
    mine.href = "#/history";
    tabs.append(mine);
  }
  const all = el("a", `button${mode === "all" ? " active" : ""}`, s("all"));
  all.href = "#/history/all";
  tabs.append(all);
  const lobbyForm = el("form", "tabs");
  lobbyForm.dataset.testid = "lobby-form";
  const code = document.createElement("input");
  code.name = "code";
  code.placeholder = s("lobby_code");
  code.setAttribute("aria-label", s("lobby_code"));
  code.value = mode === "lobby" ? parts[1] : "";
  const show = el("button", "", s("lobby_show"));
  show.type = "submit";
  lobbyForm.append(code, show);
  lobbyForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const c = code.value.trim();
    if (c) location.hash = `#/history/lobby/${encodeURIComponent(c)}`;
  });
  head.append(tabs, lobbyForm);
  page.append(head, importCard(app));

  const card = el("div", "card");
  const list = el("ul", "history-list");
  list.dataset.testid = "history-list";
  card.append(list);
  page.append(card);
  const more = el("button", "", s("more"));
  more.type = "button";
  // display, not the hidden attribute: the shared stylesheet sets buttons' display
  more.style.display = "none";
  card.append(more);
  let offset = 0;
  const load = async () => {
    more.style.display = "none";
    try {
      let res;
      if (mode === "lobby") res = await http("GET", `api/lobbies/${encodeURIComponent(parts[1])}/games?limit=20&offset=${offset}`);
      else if (mode === "mine") res = await http("GET", `api/games?player=${app.me.id}&limit=20&offset=${offset}`);
      else res = await http("GET", `api/games?limit=20&offset=${offset}`);
      const ids = res.games.map((g) => g.id);
      const imports = ids.length ? (await http("GET", `api/history/imports?ids=${ids.join(",")}`)).imports : {};
      if (!res.games.length && offset === 0) list.append(el("li", "hint", s("none")));
      for (const g of res.games) list.append(gameItem(g, imports, app.me));
      offset += res.games.length;
      more.style.display = offset >= res.total ? "none" : "";
    } catch (err) {
      list.append(el("li", "error", errorLine(err)));
    }
  };
  more.addEventListener("click", load);
  await load();
}
