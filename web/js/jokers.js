// Nanchang jokers (精, docs/rules.md N6-N8): the turned-up tile's own kind is 正精, its
// successor 副精. Every tile shown of a joker kind gets a badge, wherever it lies.
import { t } from "./i18n.js";
import { kindOf } from "./tiles.js";

/** "zheng" | "fu" | null for a tile under a round's jokers ({zheng, fu} tiles). */
export function jokerOf(tile, jokers) {
  if (!tile || !jokers) return null;
  const k = kindOf(tile);
  if (jokers.zheng && k === kindOf(jokers.zheng)) return "zheng";
  if (jokers.fu && k === kindOf(jokers.fu)) return "fu";
  return null;
}

/** Badge every face-up tile under ``root`` that is a joker (idempotent). */
export function markJokers(root, jokers) {
  if (!jokers) return;
  for (const tile of root.querySelectorAll(".tile[data-tile]")) {
    const kind = jokerOf(tile.dataset.tile, jokers);
    if (!kind || tile.dataset.joker) continue;
    tile.dataset.joker = kind;
    tile.classList.add("joker", `joker-${kind}`);
    const badge = document.createElement("span");
    badge.className = "joker-badge";
    badge.textContent = t(`joker.${kind}`);
    badge.title = t(`joker.${kind}_title`);
    tile.append(badge);
  }
}
