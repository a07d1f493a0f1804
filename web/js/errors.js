// Server errors in the reader's language. The server's message is English and names the
// particular problem, so an English reader gets it as it is; other readers get
// error.<code> from the dictionaries (docs/protocol.md lists the codes), followed by the
// server's words only where they carry the detail (which field, rule or file), and the
// server's text alone for a code the dictionaries do not know.
import { t, hasKey, getLang } from "./i18n.js";

// Codes whose server message names the particular problem (which field, which rule,
// what is wrong with a file): it follows the translated text, as the server said it.
const DETAILED = new Set(["bad_input", "bad_rules", "invalid_log", "illegal_action"]);

/** The text of an error: an ApiError / error frame ({code, message}) or an Error. */
export function errorText(e) {
  const code = e && e.code;
  const message = e && e.message;
  if (getLang() === "en" && message && message !== code) return message;
  if (code && hasKey(`error.${code}`)) {
    const text = t(`error.${code}`);
    return DETAILED.has(code) && message && message !== code ? `${text} (${message})` : text;
  }
  return message || String(code || e);
}

/** "Error: …" as the pages show it. */
export function errorLine(e) {
  return t("common.error", { message: errorText(e) });
}
