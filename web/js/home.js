// Home: display name, create a private lobby with its rules, join by link or code, past games.
import { api } from "./api.js";
import { t, hasKey } from "./i18n.js";
import { loadVariants, presetSelect, findPreset } from "./variants.js";
import { errorLine } from "./errors.js";

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("data-")) e.setAttribute(k, v);
    else e[k] = v;
  }
  e.append(...children);
  return e;
}

function field(label, input) {
  return el("label", { class: "field" }, el("span", { text: label }), input);
}

function select(name, options, value) {
  const s = el("select", { name });
  for (const [v, label] of options) s.append(el("option", { value: v, text: label, selected: v === value }));
  return s;
}

function check(name, checked) {
  return el("input", { type: "checkbox", name, checked });
}

/** An invite link ("…/#/join/CODE") or a bare code → the code, or null. */
export function parseInvite(text) {
  const s = (text || "").trim();
  const m = s.match(/#\/(?:join|lobby)\/([A-Za-z0-9_-]+)/);
  if (m) return m[1];
  return /^[A-Za-z0-9_-]{4,64}$/.test(s) ? s : null;
}

/** The rules object for POST /api/lobbies from the create form. */
export function rulesFromForm(form) {
  const f = new FormData(form);
  const timed = f.get("timer") === "on";
  const game = form.dataset.game || "riichi";
  if (game === "nanchang") {
    // Nanchang has its own options (docs/rules.md N26-N28): the length in rounds.
    return {
      preset: f.get("preset"),
      rounds: Number(f.get("rounds")),
      think_seconds: timed ? Number(f.get("think_seconds")) : 0,
      bank_seconds: timed ? Number(f.get("bank_seconds")) : 0,
    };
  }
  const reds = Number(f.get("red_fives"));
  return {
    preset: f.get("preset"),
    length: f.get("length"),
    // Sanma has two red fives (no 5m), four players three.
    red_fives: reds && game === "sanma" ? 2 : reds,
    think_seconds: timed ? Number(f.get("think_seconds")) : 0,
    bank_seconds: timed ? Number(f.get("bank_seconds")) : 0,
    kuitan: form.elements.kuitan.checked,
    multiple_ron: f.get("multiple_ron"),
    double_yakuman: form.elements.double_yakuman.checked,
    nagashi_mangan: form.elements.nagashi_mangan.checked,
    tobi: form.elements.tobi.checked,
    agari_yame: form.elements.agari_yame.checked,
    west_extension: form.elements.west_extension.checked,
  };
}

// Preset defaults (RULES.md "Presets"); the form starts from these when the preset changes.
// The thinking time is not the preset's: a private lobby starts relaxed (LOBBY_TIMER).
const PRESET_DEFAULTS = {
  standard: { multiple_ron: "double", double_yakuman: true },
  tenhou: { multiple_ron: "double", double_yakuman: false },
  majsoul: { multiple_ron: "triple", double_yakuman: true },
};
// The server's default for a lobby (docs/protocol.md): seconds per action + bank.
const LOBBY_TIMER = [10, 60];

/** "Your games and lobbies": live games to return to, open lobbies to go back to. */
async function myLobbiesCard(app) {
  const list = el("ul", { class: "my-lobbies" });
  list.dataset.testid = "my-lobbies";
  const card = el("div", { class: "card mine" }, el("h2", { text: t("home.my_lobbies") }), list);
  card.hidden = true;
  try {
    const { lobbies } = await api.myLobbies();
    for (const l of lobbies) {
      const names = l.slots
        .map((s) => (s.player ? s.player.name : s.bot ? t("lobby.bot", { level: t(`bot.${s.bot}`) }) : null))
        .filter(Boolean)
        .join(", ");
      const li = el("li", { "data-code": l.code, "data-status": l.status });
      if (l.status === "playing" && l.game) {
        li.append(
          el("a", { class: "button primary", href: `#/game/${l.game.id}`, text: t("lobby.return_game"), "data-testid": "return-game" }),
          el("span", { text: ` ${t("home.live_game")} · ${names}` }),
        );
      } else {
        li.append(
          el("a", { class: "button", href: `#/lobby/${l.code}`, text: t("home.open_lobby") }),
          el("span", { text: ` ${presetName(l.rules && l.rules.name)} · ${names}` }),
        );
      }
      list.append(li);
    }
    card.hidden = lobbies.length === 0;
  } catch (err) {
    list.append(el("li", { class: "error", text: errorLine(err) }));
    card.hidden = false;
  }
  return card;
}

function presetName(name) {
  return name && hasKey(`preset.${name}`) ? t(`preset.${name}`) : name || "";
}

export async function renderHome(root, app) {
  root.replaceChildren();
  const page = el("div", { class: "page home" });
  root.append(page);
  const msg = el("p", { class: "error", "data-testid": "home-error" });

  // Name
  const nameInput = el("input", { name: "name", maxLength: 32, required: true, value: app.me ? app.me.name : "" });
  nameInput.dataset.testid = "name";
  const nameForm = el(
    "form",
    { class: "card name-form" },
    el("h2", { text: app.me ? t("home.hello", { name: app.me.name }) : t("home.need_name") }),
    field(t("home.name"), nameInput),
    el("button", { type: "submit", class: "primary", text: t("home.name_save"), "data-testid": "save-name" }),
  );
  nameForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    msg.textContent = "";
    try {
      const name = nameInput.value.trim();
      if (app.me) app.me = await api.rename(name);
      else app.me = (await api.guest(name)).player;
      if (app.afterName) app.afterName();
      else renderHome(root, app);
    } catch (err) {
      msg.textContent = errorLine(err);
    }
  });
  page.append(nameForm, msg);
  if (!app.me) return;
  page.append(await myLobbiesCard(app));

  // Create
  const form = el("form", { class: "card create-form" });
  form.dataset.testid = "create-form";
  let variants = null;
  try {
    variants = await loadVariants();
  } catch {
    variants = null; // the four-player presets still work without the list
  }
  const presetSel = variants
    ? presetSelect(variants, "standard")
    : select("preset", ["standard", "tenhou", "majsoul"].map((p) => [p, t(`preset.${p}`)]), "standard");
  presetSel.dataset.testid = "preset";
  const rounds = select("rounds", [1, 2, 3, 4].map((n) => [String(n), String(n)]), "4");
  const think = el("input", { type: "number", name: "think_seconds", min: 1, max: 600, value: LOBBY_TIMER[0] });
  const bank = el("input", { type: "number", name: "bank_seconds", min: 0, max: 3600, value: LOBBY_TIMER[1] });
  const mr = select(
    "multiple_ron",
    [
      ["double", t("opt.mr_double")],
      ["triple", t("opt.mr_triple")],
      ["atamahane", t("opt.mr_atamahane")],
    ],
    "double",
  );
  const dy = check("double_yakuman", true);
  presetSel.addEventListener("change", () => {
    const found = variants && findPreset(variants, presetSel.value);
    const d = found ? found.preset.rules : PRESET_DEFAULTS[presetSel.value];
    form.dataset.game = found ? found.variant.key : "riichi";
    if (d.multiple_ron) mr.value = d.multiple_ron;
    if (d.double_yakuman != null) dy.checked = d.double_yakuman;
    if (d.rounds) rounds.value = String(d.rounds);
    // Riichi options are hidden for Nanchang, which has its own.
    const nanchang = form.dataset.game === "nanchang";
    for (const x of form.querySelectorAll(".riichi-only")) x.hidden = nanchang;
    for (const x of form.querySelectorAll(".nanchang-only")) x.hidden = !nanchang;
  });
  const riichiOnly = (node) => {
    node.classList.add("riichi-only");
    return node;
  };
  const roundsField = field(t("opt.rounds"), rounds);
  roundsField.classList.add("nanchang-only");
  roundsField.hidden = true;
  form.append(
    el("h2", { text: t("home.create") }),
    el(
      "div",
      { class: "grid" },
      field(t("opt.preset"), presetSel),
      riichiOnly(field(t("opt.length"), select("length", [["tonpuu", t("opt.tonpuu")], ["hanchan", t("opt.hanchan")]], "hanchan"))),
      roundsField,
      riichiOnly(field(t("opt.red_fives"), select("red_fives", [["3", "3"], ["0", "0"]], "3"))),
      field(t("opt.timer"), select("timer", [["on", t("opt.think_seconds")], ["off", t("opt.no_timer")]], "on")),
      field(t("opt.think_seconds"), think),
      field(t("opt.bank_seconds"), bank),
      riichiOnly(field(t("opt.multiple_ron"), mr)),
      field(t("opt.seat_mode"), select("seat_mode", [["choose", t("opt.seat_choose")], ["draw", t("opt.seat_draw")]], "choose")),
    ),
    el(
      "div",
      { class: "checks riichi-only" },
      field(t("opt.kuitan"), check("kuitan", true)),
      field(t("opt.double_yakuman"), dy),
      field(t("opt.nagashi_mangan"), check("nagashi_mangan", true)),
      field(t("opt.tobi"), check("tobi", true)),
      field(t("opt.agari_yame"), check("agari_yame", true)),
      field(t("opt.west_extension"), check("west_extension", true)),
    ),
    el("button", { type: "submit", class: "primary", text: t("home.create_button"), "data-testid": "create" }),
  );
  form.elements.timer.addEventListener("change", () => {
    const on = form.elements.timer.value === "on";
    think.disabled = !on;
    bank.disabled = !on;
  });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    msg.textContent = "";
    try {
      const lobby = await api.createLobby(rulesFromForm(form), form.elements.seat_mode.value);
      location.hash = `#/lobby/${lobby.code}`;
    } catch (err) {
      msg.textContent = errorLine(err);
    }
  });

  // Join
  const joinInput = el("input", { name: "invite", placeholder: t("home.join_placeholder") });
  joinInput.dataset.testid = "join-input";
  const join = el(
    "form",
    { class: "card join-form" },
    el("h2", { text: t("home.join") }),
    joinInput,
    el("button", { type: "submit", text: t("home.join_button"), "data-testid": "join" }),
  );
  join.addEventListener("submit", (e) => {
    e.preventDefault();
    const code = parseInvite(joinInput.value);
    if (!code) {
      msg.textContent = t("home.bad_code");
      return;
    }
    location.hash = `#/join/${code}`;
  });

  // History
  const hist = el("div", { class: "card history" }, el("h2", { text: t("home.history") }));
  const list = el("ul", { class: "games" });
  list.dataset.testid = "history";
  hist.append(list);
  page.append(form, join, hist);
  try {
    const res = await api.games(app.me.id);
    if (!res.games.length) list.append(el("li", { text: t("home.no_history") }));
    for (const g of res.games) {
      const seats = [...g.seats].sort((a, b) => (a.rank ?? 9) - (b.rank ?? 9));
      const when = g.ended_at ? new Date(g.ended_at).toLocaleString() : "";
      const rulesName = presetName(typeof g.rules === "object" && g.rules ? g.rules.name : g.rules);
      const mine = g.seats.find((s) => s.player_id === app.me.id);
      // Each finished game opens in the replay viewer.
      const li = el("li", {}, el("a", { class: "when", href: `#/replay/${g.id}`, text: `${when} · ${rulesName ? t(`preset.${rulesName}`) : ""}` }));
      if (mine) li.append(el("strong", { text: ` ${t("result.rank")} ${mine.rank}` }));
      li.append(el("span", { class: "standings-line", text: seats.map((s) => `${s.rank}. ${s.name} ${s.final_points}`).join("  ") }));
      list.append(li);
    }
  } catch (err) {
    list.append(el("li", { class: "error", text: errorLine(err) }));
  }
}
