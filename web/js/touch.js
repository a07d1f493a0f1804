// Select-then-confirm discards on touch screens (issue 15): a finger covers the tile it
// taps and a slip discards the wrong one, so the first tap only raises the tile and a
// second tap on it, or the Discard button that appears, sends the discard. Mouse and
// keyboard keep acting at once. GameScreen calls tap() for a click on a playable hand
// tile and decorate() after each render.
import { t } from "./i18n.js";

// The pointer of the latest press: a click's own pointerType is empty when it was
// synthesised (Playwright, some browsers), so the press that led to it decides.
let lastPointer = "";
document.addEventListener("pointerdown", (e) => { lastPointer = e.pointerType || ""; }, true);
document.addEventListener("keydown", () => { lastPointer = ""; }, true);

function fromTouch(e) {
  const type = e && e.pointerType;
  return type ? type === "touch" : lastPointer === "touch";
}

export class TouchDiscard {
  constructor(screen) {
    this.screen = screen;
    this.armed = null; // {index, tile}: the raised tile a second tap discards
  }

  /** A click on a playable hand tile. True when it only armed the tile (a first touch tap). */
  tap(tile, index, e) {
    if (!fromTouch(e)) {
      this.armed = null;
      return false;
    }
    if (this.armed && this.armed.index === index && this.armed.tile === tile) {
      this.armed = null;
      return false;
    }
    this.armed = { index, tile };
    this.screen.selected = index;
    this.screen.render();
    return true;
  }

  /** After a render: keep the armed tile raised and offer the confirm button, or forget it. */
  decorate(root) {
    const s = this.screen;
    if (!this.armed) return;
    const tl = root.querySelector(`.hand-tiles .tile[data-index="${this.armed.index}"]`);
    const stale = !tl || tl.dataset.tile !== this.armed.tile || !tl.classList.contains("playable");
    if (stale || s.busy || s.selected !== this.armed.index) {
      // The turn moved on (a discard sent, a call, a new hand): nothing stays armed.
      if (s.selected === this.armed.index) s.selected = null;
      if (tl) tl.classList.remove("selected");
      this.armed = null;
      return;
    }
    tl.classList.add("selected");
    const bar = root.querySelector(".actions");
    if (!bar) return;
    const riichi = s.mode && s.mode.kind === "riichi";
    const b = document.createElement("button");
    b.type = "button";
    b.className = "action-btn confirm-discard";
    b.dataset.action = "confirm-discard";
    b.textContent = `${t(riichi ? "action.riichi" : "action.discard")} `;
    const tile = this.armed.tile;
    b.setAttribute("aria-label", t("a11y.confirm_discard", { action: t(riichi ? "action.riichi" : "action.discard"), tile: tl.getAttribute("aria-label") || tile }));
    b.title = t("a11y.tap_again");
    b.append(tl.querySelector("img").cloneNode());
    b.addEventListener("click", () => {
      this.armed = null;
      s.clickTile(tile);
    });
    bar.append(b);
  }
}
