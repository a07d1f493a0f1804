// The automatic advance after a round: the server pauses before the next round
// (docs/protocol.md, "round_pause") and the result card counts the seconds left down.
import { t } from "./i18n.js";

/** Whole seconds left until ``until`` (a performance.now() time), never below 0. */
export function secondsLeft(until, now = performance.now()) {
  return Math.max(0, Math.ceil((until - now) / 1000));
}

function paint(p, until) {
  const n = secondsLeft(until);
  if (p.dataset.seconds === String(n)) return;
  p.dataset.seconds = String(n);
  p.textContent = n > 0 ? t("result.next_round_in", { n }) : t("result.next_round_now");
}

/** The card's countdown line (hidden while no pause is known: a replay, an old server). */
export function countdownEl(until) {
  const p = document.createElement("p");
  p.className = "next-round";
  p.dataset.testid = "next-round";
  p.setAttribute("aria-live", "off");
  if (until == null) p.hidden = true;
  else paint(p, until);
  return p;
}

/** Keep the countdown on screen current (called every animation frame). */
export function tickCountdown(root, until) {
  if (until == null) return;
  const p = root.querySelector("[data-testid=next-round]");
  if (p && !p.hidden) paint(p, until);
}
