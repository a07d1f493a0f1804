// Prints, for each event on stdin (a JSON list of events as a page receives them), the
// calls web/js/announce.js says for it: [[{seat, call}], ...]. argv[2] is the folder
// holding the client's modules (tests/web/test_feel_calls.py).
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const { callsOf } = await import(pathToFileURL(join(process.argv[2], "announce.js")).href);
const events = JSON.parse(readFileSync(0, "utf8"));
console.log(JSON.stringify(events.map((e) => callsOf(e))));
