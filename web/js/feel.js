// How the live table feels (issue 15): call announcements (announce.js), short motion
// (motion.js) and sounds (sounds.js) for the events GameScreen folds, and the mute and
// volume controls. GameScreen hands it every event and calls decorate() after each
// render; it only adds to what was rendered and never holds anything back.
//
// The controls sit in the page header, which the table's re-renders leave alone (a
// volume slider inside the table would be rebuilt under the reader's finger while bots
// play).
import { t } from "./i18n.js";
import { Announcer } from "./announce.js";
import { Motion } from "./motion.js";
import { playSound, soundSettings, setSoundSettings, onSoundSettings } from "./sounds.js";
import { seatCount } from "./seats.js";

const CALL_SOUND = new Set(["call", "kan", "nuki", "pon", "chi", "daiminkan", "minkan", "ankan", "kakan"]);

/** The sound an event makes, or null. */
export function soundOf(ev) {
  if (!ev) return null;
  if (ev.type === "discard") return ev.riichi ? "riichi" : "discard";
  if (CALL_SOUND.has(ev.type)) return "call";
  if (ev.type === "agari" || ev.type === "win") return "win";
  return null;
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

export class TableFeel {
  constructor(screen) {
    this.screen = screen;
    this.announcer = new Announcer();
    this.motion = new Motion();
    this.wasMyTurn = false;
    this.controls = soundControlsEl();
    this.offSettings = onSoundSettings(() => updateControls(this.controls));
    this.onPointer = closeOutside(this.controls);
    document.addEventListener("pointerdown", this.onPointer);
  }

  destroy() {
    this.announcer.destroy();
    this.offSettings();
    document.removeEventListener("pointerdown", this.onPointer);
    this.controls.remove();
  }

  /** An event GameScreen has just folded into its state (before it renders). */
  onEvent(ev) {
    // Events before the first view (or a resync's) are history, not news.
    if (!this.screen.state || this.screen.resyncing) return;
    this.announcer.onEvent(ev);
    this.motion.onEvent(ev);
    const sound = soundOf(ev);
    if (sound) playSound(sound);
  }

  decorate(root) {
    const s = this.screen;
    const view = s.view;
    if (!view) return;
    this.announcer.decorate(root, s.mySeat, seatCount(view));
    this.motion.decorate(root, s.mySeat);
    const mine = s.mySeat != null && (view.waiting_on || []).includes(s.mySeat);
    if (mine && !this.wasMyTurn) playSound("turn");
    this.wasMyTurn = mine;
    const header = document.getElementById("header");
    if (header && !this.controls.isConnected) {
      const lang = header.querySelector("select.lang");
      if (lang) header.insertBefore(this.controls, lang);
      else header.append(this.controls);
    }
    updateControls(this.controls);
  }
}

/**
 * The mute toggle and volume slider (built once, kept across renders). On a phone's
 * narrow header they fold into a panel under a speaker button (css/feel.css).
 */
function soundControlsEl() {
  const box = el("span", "sound-controls");
  box.dataset.testid = "sound-controls";
  const open = el("button", "sound-open");
  open.type = "button";
  open.dataset.testid = "sound-open";
  open.setAttribute("aria-expanded", "false");
  open.addEventListener("click", () => {
    const opened = box.classList.toggle("open");
    open.setAttribute("aria-expanded", String(opened));
  });
  const panel = el("span", "sound-panel");
  const mute = el("button", "sound-mute");
  mute.type = "button";
  mute.dataset.testid = "mute";
  mute.addEventListener("click", () => setSoundSettings({ muted: !soundSettings().muted }));
  const volume = el("input", "sound-volume");
  volume.type = "range";
  volume.min = "0";
  volume.max = "100";
  volume.step = "5";
  volume.dataset.testid = "volume";
  volume.addEventListener("input", () => setSoundSettings({ volume: Number(volume.value) / 100, muted: false }));
  panel.append(mute, volume);
  box.append(open, panel);
  updateControls(box);
  return box;
}

/** A tap outside the controls folds the phone's panel away. */
function closeOutside(box) {
  return (e) => {
    if (!box.contains(e.target) && box.classList.contains("open")) {
      box.classList.remove("open");
      box.querySelector(".sound-open").setAttribute("aria-expanded", "false");
    }
  };
}

function updateControls(box) {
  const { muted, volume } = soundSettings();
  const mute = box.querySelector(".sound-mute");
  const range = box.querySelector(".sound-volume");
  const open = box.querySelector(".sound-open");
  mute.replaceChildren(speakerIcon(muted || volume === 0));
  open.replaceChildren(speakerIcon(muted || volume === 0));
  open.setAttribute("aria-label", t("sound.settings"));
  open.title = t("sound.settings");
  mute.setAttribute("aria-pressed", String(muted));
  mute.setAttribute("aria-label", t("sound.mute"));
  mute.title = muted ? t("sound.unmute") : t("sound.mute");
  range.setAttribute("aria-label", t("sound.volume"));
  range.title = `${t("sound.volume")}: ${Math.round(volume * 100)}%`;
  // Not while the reader drags it: the value is theirs.
  if (document.activeElement !== range) range.value = String(Math.round(volume * 100));
}

const SVG = "http://www.w3.org/2000/svg";

/** A speaker, with sound waves or crossed out (drawn here: no emoji font is needed). */
function speakerIcon(silent) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", "18");
  svg.setAttribute("height", "18");
  svg.setAttribute("aria-hidden", "true");
  const path = (d, filled) => {
    const p = document.createElementNS(SVG, "path");
    p.setAttribute("d", d);
    p.setAttribute("fill", filled ? "currentColor" : "none");
    p.setAttribute("stroke", "currentColor");
    p.setAttribute("stroke-width", filled ? "1" : "2");
    p.setAttribute("stroke-linecap", "round");
    return p;
  };
  svg.append(path("M3 9h4l5-4v14l-5-4H3z", true));
  if (silent) svg.append(path("M15.5 9.5l5 5M20.5 9.5l-5 5", false));
  else svg.append(path("M15.5 9a4 4 0 0 1 0 6", false), path("M18 6.5a7.5 7.5 0 0 1 0 11", false));
  svg.dataset.silent = String(silent);
  return svg;
}
