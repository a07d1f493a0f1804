// HTTP and WebSocket access to the server (docs/protocol.md). Identity is the HttpOnly cookie.
// Every path is relative ("api/...", "ws/..."): resolved against the page, so the client
// works under a sub-path (JANTAKU_ROOT_PATH, docs/operations.md) as well as at "/".

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function http(method, path, body) {
  const opts = { method, headers: {}, credentials: "same-origin" };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(path, opts);
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    const d = data && data.detail;
    if (d && typeof d === "object" && d.code) throw new ApiError(res.status, d.code, d.message || d.code);
    const msg = typeof d === "string" ? d : Array.isArray(d) ? d.map((x) => x.msg).join("; ") : res.statusText;
    throw new ApiError(res.status, "http_" + res.status, msg);
  }
  return data;
}

export const api = {
  me: () => http("GET", "api/me"),
  guest: (name) => http("POST", "api/guest", { name }),
  rename: (name) => http("PATCH", "api/me", { name }),
  createLobby: (rules, seatMode) => http("POST", "api/lobbies", { rules, seat_mode: seatMode }),
  lobby: (code) => http("GET", `api/lobbies/${encodeURIComponent(code)}`),
  join: (code, slot) => http("POST", `api/lobbies/${encodeURIComponent(code)}/join`, slot == null ? {} : { slot }),
  leave: (code) => http("POST", `api/lobbies/${encodeURIComponent(code)}/leave`),
  seat: (code, slot) => http("POST", `api/lobbies/${encodeURIComponent(code)}/seat`, { slot }),
  addBot: (code, level, slot) =>
    http("POST", `api/lobbies/${encodeURIComponent(code)}/bots`, slot == null ? { level } : { level, slot }),
  bots: () => http("GET", "api/bots"),
  removeBot: (code, slot) => http("DELETE", `api/lobbies/${encodeURIComponent(code)}/bots/${slot}`),
  ready: (code, ready) => http("POST", `api/lobbies/${encodeURIComponent(code)}/ready`, { ready }),
  start: (code) => http("POST", `api/lobbies/${encodeURIComponent(code)}/start`),
  updateLobby: (code, body) => http("PATCH", `api/lobbies/${encodeURIComponent(code)}`, body),
  variants: () => http("GET", "api/variants"),
  rematch: (code, gameId) => http("POST", `api/lobbies/${encodeURIComponent(code)}/rematch`, { game_id: Number(gameId) }),
  myLobbies: () => http("GET", "api/me/lobbies"),
  games: (playerId) => http("GET", `api/games?player=${playerId}&limit=20`),
  game: (id, key) => http("GET", `api/games/${encodeURIComponent(id)}${key ? `?key=${encodeURIComponent(key)}` : ""}`),
  // Accounts, stats and ratings (docs/players.md).
  account: () => http("GET", "api/account"),
  claim: (username, password) => http("POST", "api/account/claim", { username, password }),
  login: (username, password) => http("POST", "api/account/login", { username, password }),
  logout: () => http("POST", "api/logout"),
  sessions: () => http("GET", "api/account/sessions"),
  revokeSession: (id) => http("DELETE", `api/account/sessions/${encodeURIComponent(id)}`),
  remoteBots: () => http("GET", "api/bots/remote"),
  makeRemoteBot: (name) => http("POST", "api/bots/remote", { name }),
  revokeRemoteBot: (name) => http("DELETE", `api/bots/remote/${encodeURIComponent(name)}`),
  changePassword: (current, next) =>
    http("POST", "api/account/password", { current_password: current, new_password: next }),
  deleteAccount: (password) => http("POST", "api/account/delete", { password }),
  playerStats: (id) => http("GET", `api/players/${encodeURIComponent(id)}/stats`),
  leaderboard: (game) => http("GET", `api/leaderboard?game=${encodeURIComponent(game)}`),
  analysis: (id, seat) => http("GET", `api/games/${encodeURIComponent(id)}/analysis?seat=${seat}`),
};

function wsUrl(path) {
  const url = new URL(path, document.baseURI);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  url.hash = "";
  return url.href;
}

/** The app's own address (the page without its #route), e.g. https://host/mahjong/ */
export function appUrl(route = "") {
  const url = new URL(document.baseURI);
  url.hash = route;
  return url.href;
}

// Close codes after which reconnecting cannot help (protocol.md).
const FINAL_CLOSE = { 4401: "auth_failed", 4404: "not_found", 4409: "replaced" };

/**
 * A WebSocket that says hello on every (re)connect and reconnects on its own with
 * backoff after a network drop. helloFn() builds the hello message at connect time
 * (so a table socket can send its latest version); onMessage gets parsed frames;
 * onStatus gets "open" | "reconnecting" | a FINAL_CLOSE reason.
 */
export class LiveSocket {
  constructor(path, { hello, onMessage, onStatus }) {
    this.path = path;
    this.helloFn = hello;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.closed = false;
    this.attempt = 0;
    this.ws = null;
    this.timer = null;
    this.connect();
  }

  connect() {
    if (this.closed) return;
    const ws = new WebSocket(wsUrl(this.path));
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      ws.send(JSON.stringify(this.helloFn()));
      this.onStatus("open");
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      this.onMessage(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws || this.closed) return;
      const final = FINAL_CLOSE[ev.code];
      if (final) {
        this.closed = true;
        this.onStatus(final);
        return;
      }
      this.onStatus("reconnecting");
      const delay = Math.min(5000, 300 * 2 ** this.attempt++);
      this.timer = setTimeout(() => this.connect(), delay);
    };
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }
}
