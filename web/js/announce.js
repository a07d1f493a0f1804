// Big call announcements (issue 15): "Pon!", "Riichi!", "Ron!" … in the reader's
// language, at the caller's seat on the board, for about a second. The live table
// (feel.js) and the replay viewer (replay.js) feed it events; both re-render the whole
// table on every frame, so decorate() puts the running announcements back into each new
// board, and a timer takes each away when its second is up.
import { t } from "./i18n.js";
import { seatPosition } from "./seats.js";

export const ANNOUNCE_MS = 1000;

// A call event's meld (riichi `call` / `kan`, the server's older `pon` … types, and
// Nanchang's, whose event type is the meld's) as the word said at the table.
const MELD_CALLS = {
  chi: "chi",
  pon: "pon",
  daiminkan: "kan",
  minkan: "kan",
  ankan: "kan",
  kakan: "kan",
};

/**
 * What an event makes someone say, as [{seat, call}] (call: chi, pon, kan, riichi, ron,
 * tsumo, nuki, hu, zimo). Pure: events as the protocol and records carry them
 * (docs/engine.md "Events"; Nanchang's `win` and meld-typed calls).
 */
export function callsOf(ev) {
  if (!ev || !ev.type) return [];
  switch (ev.type) {
    case "call":
    case "kan":
      return MELD_CALLS[ev.meld] ? [{ seat: ev.seat, call: MELD_CALLS[ev.meld] }] : [];
    case "discard":
      return ev.riichi ? [{ seat: ev.seat, call: "riichi" }] : [];
    case "nuki":
      return [{ seat: ev.seat, call: "nuki" }];
    case "agari":
      return (ev.winners || []).map((w) => ({ seat: w.seat, call: w.from_seat == null ? "tsumo" : "ron" }));
    case "win":
      // Nanchang: 胡 on a discard (or a robbed kan), 自摸 on one's own draw
      return ev.win ? [{ seat: ev.win.seat, call: ev.win.from_seat == null ? "zimo" : "hu" }] : [];
    default:
      return MELD_CALLS[ev.type] && ev.seat != null ? [{ seat: ev.seat, call: MELD_CALLS[ev.type] }] : [];
  }
}

/** One announcement's element, placed by its seat's position round the board (seats.js). */
export function announceEl(a, viewer, seats, elapsed = 0) {
  const e = document.createElement("div");
  e.className = `announce announce-pos-${seatPosition(a.seat, viewer ?? 0, seats)} announce-${a.call}`;
  e.dataset.testid = "announce";
  e.dataset.seat = String(a.seat);
  e.dataset.call = a.call;
  e.textContent = t(`announce.${a.call}`);
  // Rebuilt on every render: the pop-in carries on from where it was, never restarts.
  e.style.animationDelay = `${-Math.round(elapsed)}ms`;
  return e;
}

export class Announcer {
  constructor() {
    this.active = []; // {seat, call, at, id}
    this.root = null; // where the last board was drawn (timers take elements from there)
    this.nextId = 1;
    this.timers = new Set();
  }

  destroy() {
    for (const x of this.timers) clearTimeout(x);
    this.timers.clear();
    this.active = [];
  }

  /** Start the announcements an event makes; a seat's newer call replaces its older one. */
  onEvent(ev) {
    for (const a of callsOf(ev)) this.add(a);
  }

  add(a) {
    const at = performance.now();
    const id = this.nextId++;
    this.active = this.active.filter((x) => x.seat !== a.seat);
    this.active.push({ ...a, at, id });
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.active = this.active.filter((x) => x.id !== id);
      const shown = this.root && this.root.querySelector(`.announce[data-id="${id}"]`);
      if (shown) shown.remove();
    }, ANNOUNCE_MS);
    this.timers.add(timer);
  }

  /** Put the running announcements on the board inside root (after each render). */
  decorate(root, viewer, seats) {
    this.root = root;
    const board = root.querySelector(".board");
    if (!board) return;
    const now = performance.now();
    for (const a of this.active) {
      const e = announceEl(a, viewer, seats, now - a.at);
      e.dataset.id = String(a.id);
      board.append(e);
    }
  }
}
