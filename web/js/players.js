// Players' pages (docs/players.md): the account page (#/account: claim the guest
// identity, sign in on this device, sessions, password, delete), a player's profile
// (#/player/ID: stats per game and ratings) and the leaderboard (#/leaderboard[/GAME]).
import { api } from "./api.js";
import { t } from "./i18n.js";
import { remoteBotsCard } from "./remotebots.js";

const GAMES = ["riichi", "sanma", "nanchang"];

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

function input(name, type, testid, attrs = {}) {
  const i = document.createElement("input");
  i.name = name;
  i.type = type;
  i.dataset.testid = testid;
  i.required = true;
  Object.assign(i, attrs);
  return i;
}

function field(label, control) {
  const l = el("label", "field");
  l.append(el("span", "", label), control);
  return l;
}

/** A form card: fields, a submit button, its own message line; onSubmit(form) may throw. */
function formCard(title, testid, fields, button, onSubmit) {
  const card = el("form", "card account-form");
  card.dataset.testid = testid;
  const msg = el("p", "error");
  msg.dataset.testid = `${testid}-msg`;
  const submit = el("button", "primary", button);
  submit.type = "submit";
  card.append(el("h2", "", title), ...fields, submit, msg);
  card.addEventListener("submit", async (e) => {
    e.preventDefault();
    msg.textContent = "";
    submit.disabled = true;
    try {
      await onSubmit(card);
    } catch (err) {
      msg.textContent = t("common.error", { message: err.message });
    } finally {
      submit.disabled = false;
    }
  });
  return card;
}

const percent = (x) => (x == null ? "–" : `${(100 * x).toFixed(1)}%`);
const number = (x) => (x == null ? "–" : String(x));

/** #/account */
export async function renderAccount(root, app, onChange) {
  root.replaceChildren();
  const page = el("div", "page account-page");
  page.dataset.testid = "account-page";
  root.append(page);
  const account = app.me ? await api.account().catch(() => null) : null;
  const username = () =>
    input("username", "text", "username", { autocomplete: "username", maxLength: 24, pattern: "[A-Za-z0-9_.\\-]{3,24}" });
  const password = (name, testid, autocomplete) =>
    input(name, "password", testid, { autocomplete, minLength: name === "current" ? 1 : 8, maxLength: 128 });

  if (account && account.username) {
    const head = el("div", "card");
    const who = el("h2", "", t("account.signed_in_as", { username: account.username }));
    who.dataset.testid = "account-username";
    const profile = el("a", "button", t("account.my_profile"));
    profile.href = `#/player/${account.id}`;
    const out = el("button", "", t("account.sign_out"));
    out.type = "button";
    out.dataset.testid = "sign-out";
    out.addEventListener("click", async () => {
      await api.logout().catch(() => {});
      app.me = null;
      onChange();
    });
    head.append(who, profile, out);
    page.append(head, await sessionsCard(), await remoteBotsCard());
    page.append(
      formCard(
        t("account.change_password"),
        "password-form",
        [
          field(t("account.current_password"), password("current", "current-password", "current-password")),
          field(t("account.new_password"), password("next", "new-password", "new-password")),
        ],
        t("account.save"),
        async (f) => {
          await api.changePassword(f.elements.current.value, f.elements.next.value);
          f.reset();
          renderAccount(root, app, onChange);
        },
      ),
      formCard(
        t("account.delete"),
        "delete-form",
        [el("p", "hint", t("account.delete_hint")), field(t("account.password"), password("current", "delete-password", "current-password"))],
        t("account.delete_button"),
        async (f) => {
          await api.deleteAccount(f.elements.current.value);
          app.me = null;
          onChange();
        },
      ),
    );
    return;
  }
  if (app.me) {
    page.append(
      formCard(
        t("account.claim", { name: app.me.name }),
        "claim-form",
        [el("p", "hint", t("account.claim_hint")), field(t("account.username"), username()), field(t("account.password"), password("password", "password", "new-password"))],
        t("account.claim_button"),
        async (f) => {
          await api.claim(f.elements.username.value.trim(), f.elements.password.value);
          renderAccount(root, app, onChange);
        },
      ),
    );
  }
  page.append(
    formCard(
      t("account.sign_in"),
      "login-form",
      [
        el("p", "hint", app.me ? t("account.sign_in_hint_guest") : t("account.sign_in_hint")),
        field(t("account.username"), username()),
        field(t("account.password"), password("password", "password", "current-password")),
      ],
      t("account.sign_in_button"),
      async (f) => {
        const res = await api.login(f.elements.username.value.trim(), f.elements.password.value);
        app.me = { id: res.player.id, name: res.player.name };
        onChange();
      },
    ),
  );
}

async function sessionsCard() {
  const card = el("div", "card");
  card.append(el("h2", "", t("account.sessions")));
  const list = el("ul", "session-list");
  list.dataset.testid = "sessions";
  card.append(list);
  const { sessions } = await api.sessions();
  for (const x of sessions) {
    const li = el("li", "", `${new Date(x.created_at).toLocaleString()} · ${x.agent || "?"}`);
    if (x.current) li.append(el("span", "badge", t("account.this_device")));
    else {
      const b = el("button", "", t("account.revoke"));
      b.type = "button";
      b.addEventListener("click", async () => {
        await api.revokeSession(x.id).catch(() => {});
        li.remove();
      });
      li.append(b);
    }
    list.append(li);
  }
  return card;
}

function statsTable(kind, s) {
  const rows = [
    ["games", number(s.games)],
    ["average_rank", s.average_rank.toFixed(2)],
    ["ranks", s.ranks.map((n, i) => `${i + 1}: ${n}`).join(" · ")],
    ["win_rate", percent(s.win_rate)],
    ["deal_in_rate", percent(s.deal_in_rate)],
    ["riichi_rate", percent(s.riichi_rate)],
    ["call_rate", percent(s.call_rate)],
    ["tsumo_share", percent(s.tsumo_share)],
    ["average_win", number(s.average_win)],
    ["average_deal_in", number(s.average_deal_in)],
    ["average_score", number(s.average_score)],
  ];
  const card = el("div", "card stats-card");
  card.dataset.testid = `stats-${kind}`;
  card.append(el("h2", "", t(`stats.game_${kind}`)));
  const table = el("table", "stats-table");
  for (const [key, value] of rows) {
    const tr = el("tr");
    const v = el("td", "", value);
    v.dataset.testid = `stat-${key}`;
    tr.append(el("th", "", t(`stats.${key}`)), v);
    table.append(tr);
  }
  card.append(table);
  if (s.yakuman.length) {
    const list = el("ul", "yakuman-list");
    for (const y of s.yakuman) {
      const li = el("li");
      const a = el("a", "", `#${y.game_id}: ${y.yakuman.map((id) => t(`yaku.${id}`)).join(", ")}`);
      a.href = `#/replay/${y.game_id}`;
      li.append(a);
      list.append(li);
    }
    card.append(el("h3", "", t("stats.yakuman")), list);
  }
  return card;
}

/** #/player/ID */
export async function renderProfile(root, app, id) {
  root.replaceChildren();
  const page = el("div", "page profile-page");
  page.dataset.testid = "profile-page";
  root.append(page);
  const data = await api.playerStats(id);
  const head = el("div", "card");
  const name = el("h2", "", data.player.username ? `${data.player.name} (@${data.player.username})` : data.player.name);
  name.dataset.testid = "profile-name";
  head.append(name);
  const ratings = el("p", "ratings");
  ratings.dataset.testid = "profile-ratings";
  ratings.textContent = GAMES.filter((g) => data.ratings[g])
    .map((g) => t("stats.rating_line", { game: t(`stats.game_${g}`), rating: data.ratings[g].rating, games: data.ratings[g].games }))
    .join(" · ") || t("stats.no_rating");
  const board = el("a", "button", t("stats.leaderboard"));
  board.href = "#/leaderboard";
  head.append(ratings, board);
  page.append(head);
  const played = GAMES.filter((g) => data.games[g]);
  if (!played.length) page.append(el("p", "hint", t("stats.no_games")));
  for (const g of played) page.append(statsTable(g, data.games[g]));
}

/** #/leaderboard[/GAME] */
export async function renderLeaderboard(root, app, game = "riichi") {
  root.replaceChildren();
  const page = el("div", "page leaderboard-page");
  page.dataset.testid = "leaderboard-page";
  root.append(page);
  const head = el("div", "card");
  head.append(el("h2", "", t("stats.leaderboard")), el("p", "hint", t("stats.leaderboard_hint")));
  const tabs = el("div", "tabs");
  for (const g of GAMES) {
    const a = el("a", `button${g === game ? " active" : ""}`, t(`stats.game_${g}`));
    a.href = `#/leaderboard/${g}`;
    tabs.append(a);
  }
  head.append(tabs);
  page.append(head);
  if (!app.me) {
    page.append(el("p", "hint", t("stats.sign_in_first")));
    return;
  }
  const { entries } = await api.leaderboard(GAMES.includes(game) ? game : "riichi");
  const card = el("div", "card");
  const table = el("table", "stats-table");
  table.dataset.testid = "leaderboard";
  for (const e of entries) {
    const tr = el("tr");
    const who = el("td");
    const a = el("a", "", e.name);
    a.href = `#/player/${e.player_id}`;
    who.append(a);
    if (app.me && e.player_id === app.me.id) who.append(" ★");
    tr.append(el("td", "", String(e.place)), who, el("td", "", e.rating.toFixed(2)), el("td", "", t("stats.games_n", { n: e.games })));
    table.append(tr);
  }
  if (!entries.length) card.append(el("p", "hint", t("stats.no_rating")));
  card.append(table);
  page.append(card);
}
