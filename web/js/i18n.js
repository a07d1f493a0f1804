// Interface text in English, Japanese and Chinese. The dictionaries are plain JSON
// under /i18n/ (keys shared by all three; yaku keys are the canonical ids of RULES.md).
export const LANGS = ["en", "ja", "zh"];
const STORE_KEY = "jantaku.lang";

let lang = "en";
let dict = {};
let fallback = {};
const listeners = new Set();

function initialLang() {
  const saved = localStorage.getItem(STORE_KEY);
  if (LANGS.includes(saved)) return saved;
  const nav = (navigator.language || "en").slice(0, 2);
  return LANGS.includes(nav) ? nav : "en";
}

async function load(code) {
  const res = await fetch(`i18n/${code}.json`);
  if (!res.ok) throw new Error(`cannot load language ${code}`);
  return res.json();
}

export async function initI18n() {
  fallback = await load("en");
  await setLang(initialLang(), false);
}

export async function setLang(code, remember = true) {
  if (!LANGS.includes(code)) throw new Error(`unknown language ${code}`);
  dict = code === "en" ? fallback : await load(code);
  lang = code;
  if (remember) localStorage.setItem(STORE_KEY, code);
  document.documentElement.lang = code;
  for (const fn of listeners) fn(code);
}

export function getLang() {
  return lang;
}

export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Translate a key, filling {name} placeholders; an unknown key shows itself so gaps are visible. */
export function t(key, params = {}) {
  const s = dict[key] ?? fallback[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (m, p) => (p in params ? String(params[p]) : m));
}

/** The display name of a yaku id (canonical ids, RULES.md). */
export function yakuName(id) {
  return t(`yaku.${id}`);
}

/** Whether the dictionaries have a key (to fall back on the server's text when not). */
export function hasKey(key) {
  return key in dict || key in fallback;
}
