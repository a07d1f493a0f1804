// Entry point: hash routes (#/, #/join/CODE, #/lobby/CODE, #/game/ID[/KEY], #/history, #/replay/ID,
// #/account, #/player/ID, #/leaderboard[/GAME]),
// header, language switch.
import { api } from "./api.js";
import { initI18n, setLang, getLang, LANGS, t, onLangChange } from "./i18n.js";
import { errorLine } from "./errors.js";
import { renderHome } from "./home.js";
import { LobbyScreen, joinAndOpen } from "./lobby.js";
import { GameScreen } from "./game.js";
import { renderHistory } from "./history.js";
import { ReplayScreen } from "./replay.js";
import { renderAccount, renderProfile, renderLeaderboard } from "./players.js";

const app = { me: null, screen: null };
const root = document.getElementById("app");

function header() {
  const h = document.getElementById("header");
  h.replaceChildren();
  const title = document.createElement("a");
  title.href = "#/";
  title.className = "brand";
  title.textContent = t("app.title");
  const me = document.createElement("span");
  me.className = "me";
  me.dataset.testid = "me";
  me.textContent = app.me ? app.me.name : "";
  const sel = document.createElement("select");
  sel.className = "lang";
  sel.setAttribute("aria-label", t("lang.label"));
  sel.dataset.testid = "lang";
  for (const [code, label] of [["en", "English"], ["ja", "日本語"], ["zh", "中文"]]) {
    if (!LANGS.includes(code)) continue;
    const o = document.createElement("option");
    o.value = code;
    o.textContent = label;
    o.selected = code === getLang();
    sel.append(o);
  }
  sel.addEventListener("change", () => setLang(sel.value));
  const hist = document.createElement("a");
  hist.href = "#/history";
  hist.className = "history-link";
  hist.dataset.testid = "history-link";
  hist.textContent = t("home.history");
  // Players' pages (docs/players.md): the account (claim, sign in) and the leaderboard.
  const board = document.createElement("a");
  board.href = "#/leaderboard";
  board.className = "history-link";
  board.dataset.testid = "leaderboard-link";
  board.textContent = t("stats.leaderboard");
  const account = document.createElement("a");
  account.href = "#/account";
  account.className = "history-link";
  account.dataset.testid = "account-link";
  account.textContent = t("account.link");
  h.append(title, hist, board, account, me, sel);
}

async function route() {
  if (app.screen && app.screen.destroy) app.screen.destroy();
  app.screen = null;
  const hash = location.hash || "#/";
  const parts = hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  header();
  try {
    if (parts[0] === "join" && parts[1]) {
      if (!app.me) {
        await renderHome(root, app);
        return;
      }
      await joinAndOpen(app, parts[1]);
    } else if (parts[0] === "lobby" && parts[1]) {
      app.screen = new LobbyScreen(root, app, parts[1]);
    } else if (parts[0] === "game" && parts[1]) {
      // #/game/ID for its players; #/game/ID/KEY is a spectate link (docs/protocol.md).
      app.screen = new GameScreen(root, parts[1], { watch: parts[2] || null });
    } else if (parts[0] === "history") {
      await renderHistory(root, app, parts.slice(1));
    } else if (parts[0] === "account") {
      await renderAccount(root, app, () => (location.hash === "#/" ? route() : (location.hash = "#/")));
    } else if (parts[0] === "player" && parts[1]) {
      await renderProfile(root, app, parts[1]);
    } else if (parts[0] === "leaderboard") {
      await renderLeaderboard(root, app, parts[1]);
    } else if (parts[0] === "replay" && parts[1]) {
      // #/replay/ID/HAND/STEP/VIEW: a moment of a finished game (replay.js)
      app.screen = new ReplayScreen(root, parts[1], Number(parts[2] || 1) - 1, Number(parts[3] || 0), parts[4] || null);
    } else {
      await renderHome(root, app);
    }
  } catch (e) {
    const p = document.createElement("p");
    p.className = "error";
    p.textContent = errorLine(e);
    root.replaceChildren(p);
  }
}

async function main() {
  await initI18n();
  try {
    app.me = await api.me();
  } catch {
    app.me = null;
  }
  window.addEventListener("hashchange", route);
  onLangChange(() => {
    // The table re-renders itself; other pages are cheap to rebuild.
    if (app.screen instanceof GameScreen) header();
    else route();
  });
  // Saving a name on the home page after following an invite link continues the join.
  app.afterName = () => route();
  await route();
}

main();
