// Provably fair walls (docs/players.md): the seed commitment each table connection is
// told before the first hand is kept here, and checked against the seed revealed
// once the game is over, with WebCrypto's SHA-256.
const KEY = (id) => `jantaku.commitment.${id}`;

export function rememberCommitment(gameId, commitment) {
  if (!commitment) return;
  try {
    if (!localStorage.getItem(KEY(gameId))) localStorage.setItem(KEY(gameId), commitment);
  } catch {
    // storage full or refused: the game object still carries the commitment
  }
}

function hex(buf) {
  return [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * "verified": SHA-256 of the revealed seed is the commitment seen at the table (or,
 * when this browser did not see it, the game's); "mismatch": it is not; "pending":
 * the game is not over; "none": nothing to check (an imported log) or no WebCrypto
 * (a page not served over HTTPS or from localhost).
 */
export async function checkSeed(game) {
  const shown = (() => {
    try {
      return localStorage.getItem(KEY(game.id));
    } catch {
      return null;
    }
  })();
  const commitment = shown || game.seed_commitment;
  if (!commitment) return { state: "none" };
  if (!game.seed) return { state: "pending", commitment };
  if (!(globalThis.crypto && crypto.subtle)) return { state: "none", commitment };
  const pairs = game.seed.match(/../g) || [];
  const bytes = new Uint8Array(pairs.map((h) => parseInt(h, 16)));
  const digest = hex(await crypto.subtle.digest("SHA-256", bytes));
  const ok = digest === commitment && digest === game.seed_commitment;
  return { state: ok ? "verified" : "mismatch", commitment, digest, seenHere: Boolean(shown) };
}
