// Server errors in the reader's language: the server's message is English, so the
// client shows error.<code> from the dictionaries (docs/protocol.md lists the codes)
// and the server's text only for a code it does not know.
import { t, hasKey } from "./i18n.js";

/** The text of an error: an ApiError / error frame ({code, message}) or an Error. */
export function errorText(e) {
  const code = e && e.code;
  if (code && hasKey(`error.${code}`)) return t(`error.${code}`);
  return (e && e.message) || String(code || e);
}

/** "Error: …" as the pages show it. */
export function errorLine(e) {
  return t("common.error", { message: errorText(e) });
}
