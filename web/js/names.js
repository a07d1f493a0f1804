// Seat names on the table: the server's name, or the bot's level (localised); seats that would
// read the same (three "Bot (efficient)") get their seat number added.
import { t } from "./i18n.js";

// A bot level's name: ours translated; an operator's external bot ("mjai-…") or a remote bot
// connected with a token ("remote-…") as named.
export function botLabel(level) {
  return /^(mjai|remote)-/.test(level) ? level : t(`bot.${level}`);
}

/** The i18n key of an external or remote bot's hint; null for ours. */
export function outsideBotHint(level) {
  if (level.startsWith("mjai-")) return "bot_hint.external";
  if (level.startsWith("remote-")) return "bot_hint.remote";
  return null;
}

export function botHint(level) {
  return t(outsideBotHint(level) || `bot_hint.${level}`);
}

function baseName(p, seat) {
  if (!p) return `#${seat + 1}`;
  // A bot seat's name is the server's English "Bot (level)": show it in the reader's language.
  if (p.bot && (!p.name || p.name.startsWith("Bot ("))) return t("lobby.bot", { level: botLabel(p.bot) });
  return p.name || `#${seat + 1}`;
}

export function seatName(players, seat) {
  const list = players || [];
  const p = list.find((x) => x.seat === seat);
  const name = baseName(p, seat);
  const same = list.filter((x) => baseName(x, x.seat) === name).length;
  return same > 1 ? `${name} ${seat + 1}` : name;
}
