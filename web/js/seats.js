// Seats round a table of any size (riichi and Nanchang 4, sanma 3): where each sits as
// seen from the viewer. Positions: 0 bottom (self), 1 right (shimocha), 2 top
// (toimen), 3 left (kamicha). Three seats have no toimen: the kamicha sits left.
export const WINDS = ["E", "S", "W", "N"];

/** The seat count of a view (its players), 4 when unknown. */
export function seatCount(view) {
  return (view && view.players && view.players.length) || 4;
}

/** Turns after the viewer: 0 self, 1 shimocha, …, seats - 1 kamicha. */
export function relativeSeat(seat, viewer, seats = 4) {
  return (((seat - viewer) % seats) + seats) % seats;
}

/** Where a seat sits round the board (0 bottom, 1 right, 2 top, 3 left). */
export function seatPosition(seat, viewer, seats = 4) {
  const rel = relativeSeat(seat, viewer, seats);
  return rel === seats - 1 ? 3 : rel;
}

/** A seat's wind letter when the dealer is East. */
export function seatWind(seat, dealer, seats = 4) {
  return WINDS[relativeSeat(seat, dealer, seats)];
}
