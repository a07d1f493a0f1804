// Feeds the lobby frames on stdin (a JSON list) to web/js/lobbyversions.js as a page does
// and prints what it made of each: ["apply", "stale", ...]. argv[2]: the folder with the
// client's modules.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const { LobbyVersions } = await import(pathToFileURL(join(process.argv[2], "lobbyversions.js")).href);
const v = new LobbyVersions();
const out = [];
for (const f of JSON.parse(readFileSync(0, "utf8"))) {
  if (f === "reconnect") {
    v.reset();
    out.push("reset");
  } else {
    out.push(v.accept(f));
  }
}
console.log(JSON.stringify(out));
