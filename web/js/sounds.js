// The table's sounds (issue 15), made here: each is synthesised with WebAudio when it
// plays (oscillators and a noise burst, nothing downloaded or stored). The reader's mute
// and volume live in localStorage["jantaku.sound"]. No AudioContext exists before the
// reader's first gesture on the page (browser autoplay policy): until then a sound is
// only counted.
//
// Test hook: soundStats() says how often each sound was asked for (`requested`) and how
// often it reached the speakers (`played`: after a gesture, not muted, volume above 0).

const STORE_KEY = "jantaku.sound";
export const DEFAULT_VOLUME = 0.5;
export const SOUNDS = ["discard", "call", "riichi", "win", "turn"];

// A voice: an oscillator (wave, frequency, optional glide to `to`) or a noise burst through
// a band-pass filter, starting `at` seconds in, decaying over `dur`, at `gain`.
const RECIPES = {
  // a tile set down: a short knock and a click
  discard: [
    { noise: 2400, q: 1.2, at: 0, dur: 0.06, gain: 0.7 },
    { wave: "sine", freq: 180, to: 120, at: 0, dur: 0.07, gain: 0.5 },
  ],
  // a call: two quick rising notes
  call: [
    { wave: "triangle", freq: 660, at: 0, dur: 0.12, gain: 0.45 },
    { wave: "triangle", freq: 990, at: 0.09, dur: 0.16, gain: 0.45 },
  ],
  // riichi: a stick set down, then a three-note chime
  riichi: [
    { noise: 1600, q: 2, at: 0, dur: 0.05, gain: 0.5 },
    { wave: "sine", freq: 523.25, at: 0.04, dur: 0.35, gain: 0.4 },
    { wave: "sine", freq: 659.25, at: 0.12, dur: 0.35, gain: 0.4 },
    { wave: "sine", freq: 783.99, at: 0.2, dur: 0.5, gain: 0.4 },
  ],
  // a win: a bright arpeggio ending on a held chord
  win: [
    { wave: "triangle", freq: 523.25, at: 0, dur: 0.9, gain: 0.3 },
    { wave: "triangle", freq: 659.25, at: 0.08, dur: 0.85, gain: 0.3 },
    { wave: "triangle", freq: 783.99, at: 0.16, dur: 0.8, gain: 0.3 },
    { wave: "sine", freq: 1046.5, at: 0.24, dur: 0.75, gain: 0.3 },
    { wave: "sine", freq: 1318.5, at: 0.32, dur: 0.6, gain: 0.2 },
  ],
  // your turn: one soft ping
  turn: [{ wave: "sine", freq: 880, at: 0, dur: 0.18, gain: 0.35 }],
};

let settings = loadSettings();
let ctx = null;
let master = null;
let noiseBuffer = null;
let gestured = false;
const stats = { requested: {}, played: {} };
const listeners = new Set();

function loadSettings() {
  try {
    const s = JSON.parse(localStorage.getItem(STORE_KEY) || "{}");
    const volume = Number.isFinite(s.volume) ? Math.min(1, Math.max(0, s.volume)) : DEFAULT_VOLUME;
    return { muted: s.muted === true, volume };
  } catch {
    return { muted: false, volume: DEFAULT_VOLUME };
  }
}

// The first gesture anywhere on the page allows audio from then on.
function onGesture() {
  gestured = true;
  for (const type of ["pointerdown", "keydown", "touchend"]) document.removeEventListener(type, onGesture, true);
  if (ctx && ctx.state === "suspended") ctx.resume().catch(() => {});
}
for (const type of ["pointerdown", "keydown", "touchend"]) document.addEventListener(type, onGesture, true);

/** {muted, volume 0..1}: the reader's sound settings. */
export function soundSettings() {
  return { ...settings };
}

/** Change and remember the settings (either field). */
export function setSoundSettings(next) {
  settings = { ...settings, ...next };
  settings.volume = Math.min(1, Math.max(0, Number(settings.volume) || 0));
  settings.muted = !!settings.muted;
  localStorage.setItem(STORE_KEY, JSON.stringify(settings));
  if (master) master.gain.value = loudness();
  for (const fn of listeners) fn(soundSettings());
}

/** Call fn(settings) whenever they change; returns the function that stops it. */
export function onSoundSettings(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** How often each sound was asked for and played (the browser tests read it). */
export function soundStats() {
  return { requested: { ...stats.requested }, played: { ...stats.played }, context: ctx ? ctx.state : null };
}

// Volume is felt roughly as the square of the gain.
function loudness() {
  return settings.muted ? 0 : settings.volume * settings.volume;
}

function audio() {
  if (ctx) return ctx;
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return null;
  try {
    ctx = new AC();
  } catch {
    return null;
  }
  master = ctx.createGain();
  master.gain.value = loudness();
  master.connect(ctx.destination);
  // White noise from a fixed linear congruential sequence: the same knock every time.
  noiseBuffer = ctx.createBuffer(1, Math.round(ctx.sampleRate * 0.2), ctx.sampleRate);
  const data = noiseBuffer.getChannelData(0);
  let x = 12345;
  for (let i = 0; i < data.length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    data[i] = x / 2147483648 - 1;
  }
  return ctx;
}

function voice(ac, v, t0) {
  const start = t0 + v.at;
  const env = ac.createGain();
  env.gain.setValueAtTime(0.0001, start);
  env.gain.linearRampToValueAtTime(v.gain, start + 0.005);
  env.gain.exponentialRampToValueAtTime(0.0001, start + v.dur);
  env.connect(master);
  let src;
  if (v.noise) {
    src = ac.createBufferSource();
    src.buffer = noiseBuffer;
    const band = ac.createBiquadFilter();
    band.type = "bandpass";
    band.frequency.value = v.noise;
    band.Q.value = v.q;
    src.connect(band);
    band.connect(env);
  } else {
    src = ac.createOscillator();
    src.type = v.wave;
    src.frequency.setValueAtTime(v.freq, start);
    if (v.to) src.frequency.exponentialRampToValueAtTime(v.to, start + v.dur);
    src.connect(env);
  }
  src.start(start);
  src.stop(start + v.dur + 0.02);
}

/** Play a sound by name (SOUNDS): counted always, heard only after a gesture and unmuted. */
export function playSound(name) {
  const recipe = RECIPES[name];
  if (!recipe) return;
  stats.requested[name] = (stats.requested[name] || 0) + 1;
  if (!gestured || loudness() === 0) return;
  const ac = audio();
  if (!ac) return;
  try {
    if (ac.state === "suspended") ac.resume().catch(() => {});
    const t0 = ac.currentTime + 0.01;
    for (const v of recipe) voice(ac, v, t0);
  } catch {
    return; // a sound is never worth a broken table
  }
  stats.played[name] = (stats.played[name] || 0) + 1;
}
