// History page (#/history, #/history/all, #/history/lobby/CODE): finished games with date,
// rules, players and final standings; a per-hand summary of each; links to the replay
// viewer; and the import form for Tenhou logs (mjlog XML or tenhou.net/6 JSON).
import { api, http, ApiError } from "./api.js";
import { t, getLang, yakuName } from "./i18n.js";

// Strings of these pages only, kept here so that the shared dictionaries stay the
// web client's; every key has en, ja and zh.
const STRINGS = {
  en: {
    title: "Game history",
    mine: "My games",
    all: "All games",
    lobby: "Games of lobby {code}",
    none: "No finished games yet.",
    replay: "Replay",
    hands: "Hands",
    hide: "Hide hands",
    imported: "imported",
    imported_from: "Imported from {source}",
    import_title: "Import a Tenhou log",
    import_hint: "mjlog XML (.mjlog, gzip or plain) or tenhou.net/6 JSON. The game is replayed through the rules engine before it is stored.",
    import_button: "Import",
    import_done: "Imported as game {id} ({rounds} hands).",
    import_sign_in: "Choose a name on the home page to import logs.",
    import_choose: "Choose a file first.",
    loading: "Loading…",
    still_live: "this game is still being played",
    no_record: "this game has no recorded hand",
    replay_title: "Replay of game {id}",
    jump_hand: "Jump to hand",
    export_tenhou6: "Download tenhou.net/6",
    export_mjai: "Download mjai",
    history: "History",
    step_of: "Step {n} / {total}",
    dealt: "Hands dealt",
    step_draw: "{who} draws {tile}",
    step_rinshan: "{who} draws {tile} (rinshan)",
    step_discard: "{who} discards {tile}",
    step_riichi: "{who} declares riichi with {tile}",
    step_call: "{who}: {call} {tile} ({from})",
    keys: "Keys: ← → step, ↑ ↓ hand, Home / End start / end of the hand",
    win_line: "{who} {how} {points}",
    by_tsumo: "tsumo",
    by_ron: "ron from {from}",
    lobby_code: "Lobby code",
    lobby_show: "Show its games",
    len_hanchan: "hanchan",
    len_tonpuu: "East only",
    red: "red fives",
    more: "More",
  },
  ja: {
    title: "対局履歴",
    mine: "自分の対局",
    all: "すべての対局",
    lobby: "ロビー {code} の対局",
    none: "終了した対局はまだありません。",
    replay: "牌譜再生",
    hands: "局の一覧",
    hide: "閉じる",
    imported: "取り込み",
    imported_from: "{source} から取り込み",
    import_title: "天鳳の牌譜を取り込む",
    import_hint: "mjlog XML（.mjlog、gzip可）または tenhou.net/6 JSON。保存する前にルールエンジンで再生して検証します。",
    import_button: "取り込む",
    import_done: "対局 {id} として取り込みました（{rounds} 局）。",
    import_sign_in: "牌譜を取り込むにはトップページで名前を決めてください。",
    import_choose: "ファイルを選んでください。",
    loading: "読み込み中…",
    still_live: "この対局はまだ終わっていません",
    no_record: "この対局には記録された局がありません",
    replay_title: "対局 {id} の牌譜",
    jump_hand: "局へ移動",
    export_tenhou6: "tenhou.net/6 形式で保存",
    export_mjai: "mjai 形式で保存",
    history: "履歴",
    step_of: "{n} / {total} 手目",
    dealt: "配牌",
    step_draw: "{who} ツモ {tile}",
    step_rinshan: "{who} 嶺上ツモ {tile}",
    step_discard: "{who} 打 {tile}",
    step_riichi: "{who} 立直 打 {tile}",
    step_call: "{who}：{call} {tile}（{from}）",
    keys: "キー：← → 一手、↑ ↓ 局、Home / End 局の最初 / 最後",
    win_line: "{who} {how} {points}",
    by_tsumo: "ツモ",
    by_ron: "{from} からロン",
    lobby_code: "ロビーコード",
    lobby_show: "対局を表示",
    len_hanchan: "半荘",
    len_tonpuu: "東風",
    red: "赤あり",
    more: "もっと見る",
  },
  zh: {
    title: "对局记录",
    mine: "我的对局",
    all: "全部对局",
    lobby: "房间 {code} 的对局",
    none: "还没有结束的对局。",
    replay: "牌谱回放",
    hands: "各局",
    hide: "收起",
    imported: "导入",
    imported_from: "导入自 {source}",
    import_title: "导入天凤牌谱",
    import_hint: "mjlog XML（.mjlog，可为 gzip）或 tenhou.net/6 JSON。保存前先用规则引擎重放验证。",
    import_button: "导入",
    import_done: "已导入为对局 {id}（{rounds} 局）。",
    import_sign_in: "请先在首页设置名字再导入牌谱。",
    import_choose: "请先选择文件。",
    loading: "加载中…",
    still_live: "该对局尚未结束",
    no_record: "该对局没有记录的牌局",
    replay_title: "对局 {id} 的牌谱",
    jump_hand: "跳到某局",
    export_tenhou6: "下载 tenhou.net/6",
    export_mjai: "下载 mjai",
    history: "记录",
    step_of: "第 {n} / {total} 步",
    dealt: "配牌",
    step_draw: "{who} 摸 {tile}",
    step_rinshan: "{who} 岭上摸 {tile}",
    step_discard: "{who} 打 {tile}",
    step_riichi: "{who} 立直 打 {tile}",
    step_call: "{who}：{call} {tile}（{from}）",
    keys: "按键：← → 一步，↑ ↓ 一局，Home / End 本局开始 / 结束",
    win_line: "{who} {how} {points}",
    by_tsumo: "自摸",
    by_ron: "荣和 {from}",
    lobby_code: "房间代码",
    lobby_show: "显示对局",
    len_hanchan: "半庄",
    len_tonpuu: "东风",
    red: "赤宝牌",
    more: "更多",
  },
};

/** A string of the history/replay pages in the current language. */
export function s(key, params = {}) {
  const text = (STRINGS[getLang()] || {})[key] ?? STRINGS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, p) => (p in params ? String(params[p]) : m));
}

export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

// Styles of these pages, added once (the shared stylesheet is the web client's).
const CSS = `
.history-list { list-style: none; margin: 0; padding: 0; display: grid; gap: 8px; }
.history-item { border-top: 1px solid #e6e0cf; padding-top: 8px; }
.history-item .when { color: #555; font-size: 13px; }
.history-item .standings-line { display: block; font-size: 14px; margin: 3px 0; }
.history-item .row-actions { display: flex; gap: 8px; flex-wrap: wrap; margin-top: 4px; }
.hand-summary { margin: 6px 0 0; padding-left: 20px; font-size: 13px; }
.hand-summary li { margin: 2px 0; }
.badge { display: inline-block; font-size: 12px; padding: 1px 6px; border-radius: 8px; background: #efe6c8; margin-left: 6px; }
.badge.riichi { background: var(--accent); color: #000; }
.tabs { display: flex; gap: 8px; flex-wrap: wrap; }
.tabs a.active { background: var(--felt); color: #fff; }
.history-page form.tabs { margin-top: 8px; }
.import-form { display: flex; gap: 8px; flex-wrap: wrap; align-items: center; }
.replay { max-width: 1100px; margin: 0 auto; padding: 8px; display: grid; gap: 8px; }
.replay-head { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
.replay-head h2 { margin: 0 8px 0 0; }
.replay-controls { display: flex; gap: 6px; align-items: center; flex-wrap: wrap; }
.replay-controls button { min-width: 44px; font-size: 18px; }
.replay-pos { font-variant-numeric: tabular-nums; margin-left: 6px; }
.replay-what { font-weight: 600; }
.replay-info { display: flex; gap: 14px; flex-wrap: wrap; align-items: center; }
.replay-info .dora-row { display: inline-flex; gap: 2px; align-items: center; }
.replay-info .label { margin-right: 4px; }
.replay-seats { display: grid; gap: 8px; }
.replay-seat { --tw: min(34px, calc((100vw - 60px) / 19)); }
.replay-seat.turn { outline: 3px solid var(--accent); }
.replay-seat .seat-top { display: flex; gap: 8px; align-items: center; margin-bottom: 4px; }
.replay-seat .seat-score { margin-left: auto; font-variant-numeric: tabular-nums; }
.replay-seat .seat-hand { display: flex; flex-wrap: wrap; align-items: flex-end; gap: 1px; }
.replay-seat .seat-hand .drawn { margin-left: 8px; }
.replay-seat .seat-hand .melds { margin-left: 12px; display: inline-flex; gap: 6px; }
.replay-seat .meld { display: inline-flex; align-items: flex-end; }
.replay-seat .seat-river { display: flex; flex-wrap: wrap; gap: 1px; margin-top: 6px; min-height: 24px; }
.replay-seat .seat-river .called { opacity: 0.4; }
.replay-seat .seat-river .tsumogiri { filter: brightness(0.9); }
.result-card .winner { margin-bottom: 8px; }
`;

export function injectStyle() {
  if (document.getElementById("history-style")) return;
  const st = document.createElement("style");
  st.id = "history-style";
  st.textContent = CSS;
  document.head.append(st);
}

const WIND_NAMES = ["E", "S", "W", "N"];

function handLabel(h) {
  const wind = t(`wind.${WIND_NAMES[h.round_wind] || "E"}`);
  return `${t("table.round", { wind, kyoku: h.kyoku + 1 })} · ${t("table.honba", { n: h.honba })}`;
}

function nameOf(game, seat) {
  const x = game.seats.find((p) => p.seat === seat);
  return (x && x.name) || `#${seat + 1}`;
}

/** One line per hand: who won what (yaku, points), or the draw. */
export function handSummary(game, h) {
  const r = h.result || {};
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

function rulesText(rules) {
  if (!rules || typeof rules !== "object") return String(rules || "");
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
      list.append(el("li", "error", t("common.error", { message: err.message })));
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
      const res = await fetch(`/api/games/import?filename=${encodeURIComponent(file.name)}`, {
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
      msg.textContent = t("common.error", { message: err.message });
    } finally {
      button.disabled = false;
    }
  });
  card.append(form, msg);
  return card;
}

/** Render the history page. parts: [] mine (or all when signed out), ["all"], ["lobby", CODE]. */
export async function renderHistory(root, app, parts = []) {
  injectStyle();
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
      if (mode === "lobby") res = await http("GET", `/api/lobbies/${encodeURIComponent(parts[1])}/games?limit=20&offset=${offset}`);
      else if (mode === "mine") res = await http("GET", `/api/games?player=${app.me.id}&limit=20&offset=${offset}`);
      else res = await http("GET", `/api/games?limit=20&offset=${offset}`);
      const ids = res.games.map((g) => g.id);
      const imports = ids.length ? (await http("GET", `/api/history/imports?ids=${ids.join(",")}`)).imports : {};
      if (!res.games.length && offset === 0) list.append(el("li", "hint", s("none")));
      for (const g of res.games) list.append(gameItem(g, imports, app.me));
      offset += res.games.length;
      more.style.display = offset >= res.total ? "none" : "";
    } catch (err) {
      list.append(el("li", "error", t("common.error", { message: err.message })));
    }
  };
  more.addEventListener("click", load);
  await load();
}
