// Tiles in words, in the reader's language ("red 5 of dots", "五萬", "东风"): the image
// alt of every tile, the hand's spoken names, the replay's steps and announcements.
import { t } from "./i18n.js";

const HONORS = ["east", "south", "west", "north", "white", "green", "red_dragon"];

/** A tile's name in the current language ("3 of characters", "三萬", "东风"). */
export function tileName(tile) {
  if (!tile) return "";
  const n = tile[0] === "0" ? 5 : Number(tile[0]);
  const suit = tile[1];
  if (suit === "z") return t(`review.tile_${HONORS[n - 1]}`);
  const name = t(`review.tile_${suit}`, { n });
  return tile[0] === "0" ? t("review.tile_red", { name }) : name;
}

/** Several tiles in words, comma separated. */
export function tileNames(tiles) {
  return (tiles || []).map(tileName).join(", ");
}
