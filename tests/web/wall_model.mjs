// Prints wallModel(view) (web/js/wall.js) for each view on stdin (a JSON list), as
// [[wall][stack] = [count, face, dead, first]]; argv[2] is the folder of the client's
// modules (tests/web/test_wall_model.py).
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const { wallModel } = await import(pathToFileURL(join(process.argv[2], "wall.js")).href);
const views = JSON.parse(readFileSync(0, "utf8"));
const out = views.map((v) => {
  const m = wallModel(v);
  return m && m.seats.map((stacks) => stacks.map((s) => [s.count, s.face, s.dead, s.first]));
});
console.log(JSON.stringify(out));
