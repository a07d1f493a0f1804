// The table's automatic choices ("Auto" toggles): discard after riichi (on by default),
// auto-win, no calls, tsumogiri. They only ever pick one of the view's legal actions.
import { t } from "./i18n.js";

const STORE_KEY = "jantaku.auto";
export const TOGGLES = [
  ["riichiDiscard", "auto.riichi_discard"],
  ["win", "auto.win"],
  ["noCalls", "auto.no_calls"],
  ["tsumogiri", "auto.tsumogiri"],
];
const DEFAULTS = { riichiDiscard: true, win: false, noCalls: false, tsumogiri: false };
const CALLS = new Set(["chi", "pon", "daiminkan", "pass"]);

export function loadToggles() {
  try {
    return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(STORE_KEY) || "{}") };
  } catch {
    return { ...DEFAULTS };
  }
}

export function saveToggles(toggles) {
  localStorage.setItem(STORE_KEY, JSON.stringify(toggles));
}

/**
 * The action the toggles take for this seat now, or null (the player decides).
 * Wins are taken only with auto-win; a discard is automatic only when nothing but
 * discarding is on offer (after riichi), or with tsumogiri when no win is.
 */
export function autoAction(view, seat, toggles) {
  const legal = (view && view.legal_actions) || [];
  if (!legal.length || seat == null) return null;
  const types = new Set(legal.map((a) => a.type));
  const win = legal.find((a) => a.type === "tsumo" || a.type === "ron");
  if (win) return toggles.win ? win : null;
  if (toggles.noCalls && types.has("pass") && [...types].every((x) => CALLS.has(x))) {
    return legal.find((a) => a.type === "pass");
  }
  const me = (view.players || []).find((p) => p.seat === seat);
  if (!me || !me.drawn) return null;
  const drawn = legal.find((a) => a.type === "discard" && a.tile === me.drawn);
  if (!drawn) return null;
  if (toggles.riichiDiscard && me.riichi && [...types].every((x) => x === "discard")) return drawn;
  if (toggles.tsumogiri) return drawn;
  return null;
}

/** The toggles as a row of checkboxes. */
export function togglesEl(toggles, onChange) {
  const box = document.createElement("div");
  box.className = "auto-toggles";
  box.dataset.testid = "auto-toggles";
  const title = document.createElement("span");
  title.className = "label";
  title.textContent = `${t("auto.title")}:`;
  box.append(title);
  for (const [key, label] of TOGGLES) {
    const lab = document.createElement("label");
    const input = document.createElement("input");
    input.type = "checkbox";
    input.checked = !!toggles[key];
    input.dataset.auto = key;
    input.addEventListener("change", () => onChange({ ...toggles, [key]: input.checked }));
    lab.append(input, " ", t(label));
    box.append(lab);
  }
  return box;
}
