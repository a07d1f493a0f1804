// The account page's "Your bots" card (docs/bots.md, "Remote bots"): make a remote mjai
// bot and see its token once, see which of your bots are connected, revoke one.
import { api } from "./api.js";
import { t } from "./i18n.js";
import { errorLine } from "./errors.js";

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

/** The card, filled from GET /api/bots/remote; it redraws itself after a change. */
export async function remoteBotsCard() {
  const card = el("div", "card remote-bots");
  card.dataset.testid = "remote-bots";
  await fill(card, null);
  return card;
}

async function fill(card, made) {
  const { bots } = await api.remoteBots();
  const list = el("ul", "session-list");
  list.dataset.testid = "remote-bot-list";
  for (const b of bots) {
    const li = el("li", "");
    li.dataset.bot = b.name;
    li.append(el("strong", "", b.level), " · ");
    li.append(el("span", b.connections ? "ok" : "hint", b.connections ? t("bots.connected", { n: b.connections }) : t("bots.offline")));
    const revoke = el("button", "", t("bots.revoke"));
    revoke.type = "button";
    revoke.dataset.testid = `revoke-bot-${b.name}`;
    revoke.addEventListener("click", async () => {
      if (!window.confirm(t("bots.revoke_confirm", { name: b.name }))) return;
      await api.revokeRemoteBot(b.name).catch(() => {});
      await fill(card, null);
    });
    li.append(" ", revoke);
    list.append(li);
  }
  if (!bots.length) list.append(el("li", "hint", t("bots.none")));

  const form = el("form", "inline-form");
  form.dataset.testid = "new-bot-form";
  const name = document.createElement("input");
  Object.assign(name, { name: "name", type: "text", required: true, maxLength: 16, pattern: "[a-z0-9][a-z0-9_\\-]{0,15}", autocomplete: "off" });
  name.dataset.testid = "new-bot-name";
  name.setAttribute("aria-label", t("bots.name"));
  name.placeholder = t("bots.name");
  const make = el("button", "primary", t("bots.make"));
  make.type = "submit";
  const msg = el("p", "error");
  msg.dataset.testid = "new-bot-msg";
  form.append(name, make);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    make.disabled = true;
    try {
      const bot = await api.makeRemoteBot(name.value.trim());
      await fill(card, bot);
    } catch (err) {
      msg.textContent = errorLine(err); // name_taken, too_many, bad_input (errors.js)
      make.disabled = false;
    }
  });

  const parts = [el("h2", "", t("bots.title")), el("p", "hint", t("bots.hint")), list, form, msg];
  if (made) parts.splice(2, 0, tokenBox(made));
  card.replaceChildren(...parts);
}

/** The new bot's token, shown this once, with how to connect. */
function tokenBox(bot) {
  const box = el("div", "token-box");
  box.dataset.testid = "new-bot-token";
  box.setAttribute("role", "status");
  box.append(el("p", "", t("bots.token_once", { level: bot.level })));
  const token = document.createElement("input");
  Object.assign(token, { type: "text", readOnly: true, value: bot.token });
  token.dataset.testid = "bot-token";
  token.setAttribute("aria-label", t("bots.token"));
  token.addEventListener("focus", () => token.select());
  const url = new URL("ws/bot", document.baseURI);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  box.append(token, el("p", "hint", t("bots.connect_how", { url: url.href })));
  return box;
}
