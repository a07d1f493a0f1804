// Tile notation (R1) helpers and tile elements. Tiles are strings: "5p", "0p" = red 5p, "1z".."7z".
import { tileName } from "./tilenames.js";

const SUIT_ORDER = { m: 0, p: 1, s: 2, z: 3 };

/** The face of a tile ignoring colour, as 0..33 (Tenhou order). */
export function kindOf(tile) {
  const n = tile[0] === "0" ? 5 : Number(tile[0]);
  return SUIT_ORDER[tile[1]] * 9 + n - 1;
}

export function isRed(tile) {
  return tile[0] === "0";
}

/** Sort key: red fives right after the plain fives, as in the engine. */
export function sortKey(tile) {
  return kindOf(tile) + (isRed(tile) ? 0.5 : 0);
}

export function sortTiles(tiles) {
  return [...tiles].sort((a, b) => sortKey(a) - sortKey(b));
}

/** R5: the dora kind an indicator points to (S10, three seats: 1m points to 9m). */
export function doraKindOf(indicator, seats = 4) {
  const k = kindOf(indicator);
  if (seats === 3 && k === 0) return 8;
  if (k < 27) return k % 9 === 8 ? k - 8 : k + 1;
  if (k <= 30) return k === 30 ? 27 : k + 1;
  return k === 33 ? 31 : k + 1;
}

export function doraKinds(indicators, seats = 4) {
  return new Set((indicators || []).map((x) => doraKindOf(x, seats)));
}

/**
 * One tile as an element. opts: sideways (rotated 90°, for riichi and called tiles),
 * back (face down), dora (highlight), extra classes.
 */
export function tileEl(tile, opts = {}) {
  const wrap = document.createElement("span");
  wrap.className = "tile";
  if (opts.sideways) wrap.classList.add("sideways");
  if (opts.dora) wrap.classList.add("dora");
  for (const c of opts.classes || []) wrap.classList.add(c);
  const img = document.createElement("img");
  const name = opts.back || !tile ? "back" : tile;
  img.src = `tiles/${name}.svg`;
  // Its name in words for screen readers and the replay ("red 5 of dots", never "0p").
  img.alt = opts.back || !tile ? "" : tileName(tile);
  img.draggable = false;
  wrap.dataset.tile = opts.back ? "" : tile || "";
  wrap.append(img);
  return wrap;
}
