// Folds the frames on stdin (a JSON list, as a page received them) from the last whole
// view on, and prints {"version", "view"}: what the page's table should show. argv[2]
// is the folder holding the client's modules (tests/web/foldkit.py fold_view).
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const { fromView, foldFrame, expandStep } = await import(pathToFileURL(join(process.argv[2], "fold.js")).href);
const frames = JSON.parse(readFileSync(0, "utf8")).flatMap((f) => (f.type === "batch" ? f.messages : [f]));
let first = -1;
frames.forEach((f, i) => {
  if (f.type === "view") first = i;
});
if (first < 0) {
  console.log("null");
} else {
  // (an event already folded in is skipped: a page reconnecting with its last version
  // gets the events after it, and a test may have recorded some of them before)
  const later = frames.slice(first + 1);
  const fold = (s, f) => (f.type === "event" && f.version <= s.version ? s : foldFrame(s, f));
  // (a step frame is its events and decision frame, each skipped or folded as such)
  const state = later.reduce((s, f) => (f.type === "step" ? expandStep(f, s.view.seat).reduce(fold, s) : fold(s, f)), fromView(frames[first]));
  console.log(JSON.stringify({ version: state.version, view: state.view, timer: state.timer }));
}
