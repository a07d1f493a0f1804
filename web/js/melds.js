// Meld display: which tile of a call turns sideways, toward the seat it came from.
import { sortTiles } from "./tiles.js";
import { seatPosition } from "./seats.js";

/** Where a seat sits as seen from the viewer (0 bottom, 1 right, 2 top, 3 left). */
export function relPos(seat, viewer, seats = 4) {
  return seatPosition(seat, viewer, seats);
}

/** Tiles of a meld in display order, each {tile, sideways, back, stacked}. */
export function meldLayout(meld, owner, seats = 4, openAnkan = false) {
  const tiles = [...meld.tiles];
  // Nanchang shows a concealed kan face up (N11).
  if (meld.type === "ankan" && openAnkan) return sortTiles(tiles).map((x) => ({ tile: x }));
  if (meld.type === "ankan") {
    // Ends face down, the middle two face up (a red five, if any, shown face up).
    const sorted = sortTiles(tiles).reverse();
    return [
      { tile: sorted[3], back: true },
      { tile: sorted[0] },
      { tile: sorted[1] },
      { tile: sorted[2], back: true },
    ];
  }
  const own = [...tiles];
  const i = own.indexOf(meld.called);
  if (i >= 0) own.splice(i, 1);
  let added = null;
  if (meld.type === "kakan") added = own.pop();
  const ownSorted = meld.type === "chi" ? sortTiles(own) : own;
  const from = relPos(meld.from_seat, owner, seats);
  // The called tile turns toward its giver: left for kamicha, middle for toimen, right for shimocha.
  let at = 0;
  if (from === 2) at = 1;
  else if (from === 1) at = ownSorted.length;
  const out = ownSorted.map((x) => ({ tile: x }));
  out.splice(at, 0, { tile: meld.called, sideways: true, stacked: added });
  return out;
}

