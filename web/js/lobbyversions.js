// The versions of a lobby's pushes (docs/protocol.md, "/ws/lobby"): with many server
// processes two pushes may arrive in either order. Pure: no DOM, no socket (tested in
// Node, tests/web/test_lobby_versions.py).

export class LobbyVersions {
  constructor() {
    this.version = null; // of the lobby shown; null until a connection's first push
    this.resyncing = false;
  }

  /** A new connection: its first push is the lobby as it is, whatever its version. */
  reset() {
    this.version = null;
    this.resyncing = false;
  }

  /**
   * What to do with a pushed lobby frame: "apply" it; "stale" (an older version than
   * the one shown: ignore it); "resync" (a version was skipped: ignore it and ask for
   * the lobby again, once); "wait" (skipped too, and a resync is on its way).
   */
  accept(frame) {
    const v = frame.version;
    if (typeof v !== "number") return "apply"; // (a server from before versions)
    if (this.version != null && v <= this.version) return "stale";
    if (this.version != null && v > this.version + 1 && !frame.resync) {
      if (this.resyncing) return "wait";
      this.resyncing = true;
      return "resync";
    }
    this.version = v;
    this.resyncing = false;
    return "apply";
  }
}
