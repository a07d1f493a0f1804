// The games and their presets (GET /api/variants), for the home and lobby pickers:
// one <select> with the presets grouped by game, each game's seats and bot levels.
import { api } from "./api.js";
import { t } from "./i18n.js";
import { outsideBotHint } from "./names.js";

let cached = null;

/** Every game: [{key, title, seats, default_preset, bot_levels, presets: [{name, rules}]}]. */
export function loadVariants() {
  if (!cached) {
    cached = api.variants().then(
      (r) => r.variants,
      (e) => {
        cached = null;
        throw e;
      },
    );
  }
  return cached;
}

/** The game and preset entry of a preset name. */
export function findPreset(variants, name) {
  for (const v of variants) {
    const p = v.presets.find((x) => x.name === name);
    if (p) return { variant: v, preset: p };
  }
  return null;
}

/** A preset picker grouped by game (optgroup per game, its seat count in the label). */
export function presetSelect(variants, value, name = "preset") {
  const sel = document.createElement("select");
  sel.name = name;
  for (const v of variants) {
    const group = document.createElement("optgroup");
    group.label = t(`game.${v.key}`);
    group.dataset.game = v.key;
    for (const p of v.presets) {
      const o = document.createElement("option");
      o.value = p.name;
      o.textContent = t(`preset.${p.name}`);
      o.selected = p.name === value;
      group.append(o);
    }
    sel.append(group);
  }
  return sel;
}

/** The hint shown beside a bot level: Nanchang's bots play their own game. */
export function botHint(game, level) {
  const outside = outsideBotHint(level); // an operator's external bot, or a remote one
  if (outside) return t(outside);
  return t(game === "nanchang" ? `bot_hint.nc_${level}` : `bot_hint.${level}`);
}
