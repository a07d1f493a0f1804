// The mock table page (table.html): the real table screen on a fake socket.
// /dev/table.html?case=discard|call|riichi&overlay=agari|draw|final&lang=en|ja|zh
// &echo=1 (a discard is answered by its event alone), &watchers=N (spectators),
// &clock=1 (the clock has run out: the drawn tile's discard comes without our action),
// &names=Kai,Mei (the watchers' names), &pause=MS (the round-end pause after a result
// card, default 6000), &keeplog=1 (the side log saved by the last load is kept; otherwise
// each load starts afresh), &noevents=1 (only the view: no public events before it),
// &more=N (N more calls in the side log). The final screen's record is mock.js's. Messages the page sends are
// logged as "send {json}" on the console (the browser tests read them).
import { initI18n, setLang } from "../js/i18n.js";
import { GameScreen } from "../js/game.js";
import { forgetLog } from "../js/tablelog.js";
import { views, players, results, logEvents, moreLogEvents, record } from "./mock.js";
const q = new URLSearchParams(location.search);
await initI18n();
if (q.get("lang")) await setLang(q.get("lang"), false);
const view = views[q.get("case") || "discard"];
const ov = q.get("overlay");
if (!q.get("keeplog")) forgetLog("mock");
const connect = (h) => {
  setTimeout(() => {
    h.onStatus("open");
    const watchers = q.get("names") ? q.get("names").split(",") : [];
    h.onMessage({ type: "welcome", game_id: 0, seat: 0, version: 10, mode: "resync", players, spectators: Number(q.get("watchers") || 0), watchers });
    const events = q.get("noevents") ? [] : [...moreLogEvents(Number(q.get("more") || 0)), ...logEvents];
    events.forEach((event, i) => h.onMessage({ type: "event", version: 10 - events.length + i, event }));
    const clock = !!q.get("clock");
    h.onMessage({ type: "view", version: 10, view, timer: { seat: 0, think_ms: clock ? 0 : 5000, bank_ms: clock ? 0 : 20000 } });
    if (clock) {
      const tile = view.players[0].drawn;
      h.onMessage({ type: "event", version: 11, event: { type: "discard", seat: 0, tile, tsumogiri: true, riichi: false } });
    }
    if (q.get("gap")) {
      // Two events after a missed one: the page should ask for one resync.
      h.onMessage({ type: "event", version: 12 });
      h.onMessage({ type: "event", version: 13 });
    }
    if (ov === "final") h.onMessage({ type: "game_over", game_id: 0, results: results.final });
    else if (ov) {
      h.onMessage({ type: "event", version: 11, event: results[ov] });
      h.onMessage({ type: "view", version: 11, view: { ...view, phase: "round_end", legal_actions: [] }, timer: null });
      h.onMessage({ type: "round_pause", ms: Number(q.get("pause") || 6000) });
    }
  });
  return {
    send: (m) => {
      console.log("send " + JSON.stringify(m));
      if (q.get("echo") && m.type === "action" && m.action.type === "discard") {
        // As the server does while a call window is open: the discard event alone.
        const d = view.players[0].drawn;
        const event = { type: "discard", seat: 0, tile: m.action.tile, tsumogiri: m.action.tile === d, riichi: false };
        setTimeout(() => h.onMessage({ type: "batch", messages: [{ type: "event", version: 11, event }] }));
      }
      return true;
    },
    close: () => {},
  };
};
const loadGame = async () => record;
window.mockScreen = new GameScreen(document.getElementById("app"), "mock", { connect, returnPoints: 30000, loadGame });
