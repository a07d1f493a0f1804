// Folds the frames each connection got and compares the result with the server's view
// after every step (tests/web/test_fold.py writes the input; argv[2] the folder holding
// the client's modules, argv[3] the input file). Prints {"checked", "mismatches": [...]}.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const { fromView, foldFrame } = await import(pathToFileURL(join(process.argv[2], "fold.js")).href);
const conns = JSON.parse(readFileSync(process.argv[3], "utf8"));

function diff(a, b, path) {
  if (JSON.stringify(a) === JSON.stringify(b)) return null;
  if (a && b && typeof a === "object" && typeof b === "object" && Array.isArray(a) === Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      const d = diff(a[k], b[k], `${path}.${k}`);
      if (d) return d;
    }
    return null; // the same but for the order of keys
  }
  return { path, got: a, want: b };
}

let checked = 0;
const mismatches = [];
for (const c of conns) {
  const first = c.frames.findIndex((f) => f.type === "view");
  let state = fromView(c.frames[first]);
  let at = first + 1;
  for (const [upTo, want] of c.marks) {
    if (upTo <= first) continue;
    const seen = [];
    for (; at < upTo; at++) {
      state = foldFrame(state, c.frames[at]);
      seen.push(c.frames[at]);
    }
    checked++;
    const d = diff(state.view, want, "view");
    if (d) {
      mismatches.push({ seat: c.seat, version: state.version, ...d, frames: seen.slice(-6) });
      state = fromView({ view: want, version: state.version, timer: state.timer });
      if (mismatches.length > 30) break;
    }
  }
}
console.log(JSON.stringify({ checked, mismatches }));
