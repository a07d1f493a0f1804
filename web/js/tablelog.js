// The table's side log kept across reloads: each game's entries in localStorage
// ("jantaku.log.<game id>"), with the version of the last event logged so that the
// events a reconnect replays are not logged twice. Only the last few games are kept.

const PREFIX = "jantaku.log.";
const INDEX = "jantaku.logs";
const KEEP_GAMES = 8;
export const KEEP_ENTRIES = 40;

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null; // storage refused (privacy settings): the log lives as long as the page
  }
}

/** `{entries, version}` saved for this game, or an empty log (version null). */
export function loadLog(gameId) {
  const s = storage();
  try {
    const saved = s && JSON.parse(s.getItem(PREFIX + gameId) || "null");
    if (saved && Array.isArray(saved.entries) && Number.isInteger(saved.version)) {
      return { entries: saved.entries.slice(-KEEP_ENTRIES), version: saved.version };
    }
  } catch {
    // a damaged entry is dropped below by the next save
  }
  return { entries: [], version: null };
}

/** Save this game's log; forget the oldest games past KEEP_GAMES. */
export function saveLog(gameId, entries, version) {
  const s = storage();
  if (!s) return;
  try {
    s.setItem(PREFIX + gameId, JSON.stringify({ entries: entries.slice(-KEEP_ENTRIES), version }));
    let ids = JSON.parse(s.getItem(INDEX) || "[]");
    if (!Array.isArray(ids)) ids = [];
    ids = ids.filter((id) => id !== String(gameId));
    ids.push(String(gameId));
    for (const old of ids.splice(0, Math.max(0, ids.length - KEEP_GAMES))) s.removeItem(PREFIX + old);
    s.setItem(INDEX, JSON.stringify(ids));
  } catch {
    // full or refused: the log is still shown, only not kept
  }
}

/** Forget one game's log (the mock page starts each case afresh). */
export function forgetLog(gameId) {
  const s = storage();
  if (s) s.removeItem(PREFIX + gameId);
}
