// Short motion (issue 15): a drawn tile appears, a discard slides into its river, a new
// meld slides in, a kakan's added tile drops onto its pon, each for MOTION_MS, so several
// bot turns read as a sequence. Only classes are added to the table just rendered: the
// DOM is already in its final state, nothing waits for an animation, and clicks go
// through at once. The whole table is rebuilt on every frame, so each re-render carries a
// running animation on from where it was (a negative animation-delay). With
// `prefers-reduced-motion: reduce` nothing moves (and css/feel.css stops every animation
// on the table).

export const MOTION_MS = 220;

const REDUCE = window.matchMedia("(prefers-reduced-motion: reduce)");

/** Whether the reader asked for no motion. */
export function reducedMotion() {
  return REDUCE.matches;
}

const CALL_TYPES = new Set(["call", "pon", "chi", "daiminkan", "minkan", "ankan"]);

/** The motion an event starts, or null: {kind: draw | discard | meld | kakan | nuki, seat, tile}. */
export function motionOf(ev) {
  if (!ev || ev.seat == null) return null;
  if (ev.type === "draw") return { kind: "draw", seat: ev.seat, tile: ev.tile ?? null };
  if (ev.type === "discard") return { kind: "discard", seat: ev.seat, tile: ev.tile };
  if (ev.type === "nuki") return { kind: "nuki", seat: ev.seat, tile: ev.tile };
  // A kakan changes a meld in place: only its added tile moves. Riichi's meld changes
  // with its kan event; Nanchang's kakan event changes nothing yet (Motion.onEvent).
  if (ev.type === "kan" && ev.added != null) return { kind: "kakan", seat: ev.seat, tile: ev.added };
  if (CALL_TYPES.has(ev.type) || ev.type === "kan") return { kind: "meld", seat: ev.seat, tile: null };
  return null;
}

/** A tile's kind: a red five is a five. */
function kindOf(tile) {
  return tile && tile[0] === "0" ? `5${tile.slice(1)}` : tile;
}

/** The element a motion moves on a rendered table, or null when it is not shown. */
function target(scr, m, mySeat) {
  const zone = `.zone[data-seat="${m.seat}"]`;
  const own = m.seat === mySeat && scr.querySelector(".myhand .hand-tiles");
  const last = (sel) => {
    const all = scr.querySelectorAll(sel);
    return all.length ? all[all.length - 1] : null;
  };
  if (m.kind === "discard") {
    const tile = last(`${zone} .river .tile`);
    return tile && tile.dataset.tile === m.tile ? tile : null;
  }
  if (m.kind === "draw") return own ? scr.querySelector(".hand-tiles .tile.drawn") : last(`${zone} .opp-concealed .tile.drawn`);
  if (m.kind === "meld") return own ? last(".own-melds .meld") : last(`${zone} .melds .meld`);
  if (m.kind === "kakan") {
    // The added tile is its stack's first (melds.js): the one of the pon of its kind.
    const stacks = scr.querySelectorAll(own ? ".own-melds .kakan-stack" : `${zone} .melds .kakan-stack`);
    for (const stack of stacks) {
      const tile = stack.firstElementChild;
      if (tile && kindOf(tile.dataset.tile) === kindOf(m.tile)) return tile;
    }
    return null;
  }
  if (m.kind === "nuki") return own ? last(".myhand .nuki .tile") : last(`${zone} .nuki .tile`);
  return null;
}

export class Motion {
  constructor() {
    this.recent = []; // {kind, seat, tile, at}
    this.pendingKakan = null; // Nanchang: a kakan nobody has let stand yet
  }

  /** Forget everything (the replay jumped). */
  reset() {
    this.recent = [];
    this.pendingKakan = null;
  }

  onEvent(ev) {
    if (!ev) return;
    // Nanchang: an added kan stands once nobody robbed it, with its replacement draw (N11).
    if (ev.type === "kakan") {
      this.pendingKakan = { kind: "kakan", seat: ev.seat, tile: ev.added };
      return;
    }
    const stands = this.pendingKakan && ev.type === "draw" && ev.replacement ? this.pendingKakan : null;
    this.pendingKakan = null;
    for (const m of [stands, motionOf(ev)]) if (m) this.start(m);
  }

  start(m) {
    if (reducedMotion()) return;
    // A seat's newer motion of the same kind replaces the older one.
    this.recent = this.recent.filter((x) => !(x.seat === m.seat && x.kind === m.kind));
    this.recent.push({ ...m, at: performance.now() });
  }

  /** Mark what is still moving on the table just rendered into root. */
  decorate(root, mySeat) {
    const now = performance.now();
    this.recent = this.recent.filter((m) => now - m.at < MOTION_MS);
    if (reducedMotion()) {
      this.recent = [];
      return;
    }
    const scr = root.querySelector(".table-screen");
    if (!scr) return;
    for (const m of this.recent) {
      const e = target(scr, m, mySeat);
      if (!e) continue;
      e.classList.add("motion", `motion-${m.kind}`);
      e.style.animationDelay = `${-Math.round(now - m.at)}ms`;
    }
  }
}
