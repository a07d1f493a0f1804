// The final screen's account of the game (issue 15): why it ended, your row marked, one
// line per hand (round, result, score changes) and a score graph, an inline SVG line
// per player through the scores after each hand. The hands come from the game's record
// (GET /api/games/{id}, published once the game is over), so a reload shows them too.
// Everything is set through attributes and classes: the CSP allows no inline style.
import { t } from "./i18n.js";
import { seatName } from "./names.js";
import { handLabel } from "./history.js";

const SVG = "http://www.w3.org/2000/svg";
// The graph's drawing box (viewBox units; the SVG scales to the card's width).
const W = 600;
const H = 220;
// left: room for "-12300" in the phone's 20-unit labels (results.css)
const PAD = { left: 76, right: 12, top: 12, bottom: 24 };

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

function svg(tag, attrs = {}, text = null) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text != null) e.textContent = text;
  return e;
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

/** Mark the viewer's row of a standings or deltas table (rows carry data-seat). */
export function markMe(tbl, ctx) {
  if (!tbl || ctx.mySeat == null) return;
  for (const tr of tbl.querySelectorAll("tr[data-seat]")) {
    if (Number(tr.dataset.seat) === ctx.mySeat) {
      tr.classList.add("me");
      tr.dataset.me = "true";
    }
  }
}

/** Why the game ended: the game_end event seen live, else the record's. */
export function endReason(ctx) {
  if (ctx.endReason) return ctx.endReason;
  const events = (ctx.record && ctx.record.events) || [];
  const end = events.find((e) => e.kind === "event" && e.type === "game_end");
  return (end && end.data && end.data.reason) || null;
}

/** "The game ended because …" (hidden until known). */
export function reasonEl(ctx) {
  const p = el("p", "end-reason");
  p.dataset.testid = "end-reason";
  const reason = endReason(ctx);
  if (reason) {
    p.dataset.reason = reason;
    p.textContent = t(`end.${reason}`);
  } else {
    p.hidden = true;
  }
  return p;
}

/** A hand's result in a few words: who won how, or the draw. */
function handResult(h, ctx) {
  const r = h.result || {};
  const name = (s) => seatName(ctx.players, s);
  const how = (w) => `${name(w.seat)} ${t(w.from_seat == null ? "action.tsumo" : "action.ron")}`;
  if (r.result) {
    // Nanchang: the round's whole result
    return r.result.win ? how(r.result.win) : t("nc.wall_exhausted");
  }
  if (h.kind === "agari") return (r.winners || []).map(how).join(" · ");
  return t(`draw.${r.reason || "exhaustive"}`);
}

function handListEl(hands, seats, ctx) {
  const box = el("div", "hand-list-box");
  const tbl = el("table", "hand-list");
  tbl.dataset.testid = "hand-list";
  const head = el("tr");
  head.append(el("th", "", "#"), el("th", "", t("result.round")), el("th", "", t("result.outcome")));
  for (let s = 0; s < seats; s++) head.append(el("th", s === ctx.mySeat ? "me" : "", seatName(ctx.players, s)));
  tbl.append(head);
  hands.forEach((h, i) => {
    const tr = el("tr");
    tr.dataset.hand = String(i + 1);
    tr.append(el("td", "", String(i + 1)), el("td", "", handLabel(h)), el("td", "", handResult(h, ctx)));
    for (let s = 0; s < seats; s++) {
      const d = (h.deltas || [])[s] ?? 0;
      const td = el("td", d > 0 ? "plus" : d < 0 ? "minus" : "", signed(d));
      if (s === ctx.mySeat) td.classList.add("me");
      tr.append(td);
    }
    tbl.append(tr);
  });
  box.append(tbl);
  return box;
}

/**
 * Each seat's scores: before the first hand, after each hand, and the final points when
 * they differ from the last hand's (riichi sticks left on the table go to the first).
 */
export function scoreSeries(hands, final, seats) {
  const series = [];
  const finalPoints = new Map(final.map((f) => [f.seat, f.points]));
  const last = hands[hands.length - 1];
  const extra = [...Array(seats).keys()].some((s) => finalPoints.has(s) && finalPoints.get(s) !== last.scores[s]);
  for (let s = 0; s < seats; s++) {
    const line = [hands[0].scores[s] - hands[0].deltas[s], ...hands.map((h) => h.scores[s])];
    if (extra) line.push(finalPoints.get(s) ?? last.scores[s]);
    series.push(line);
  }
  return series;
}

function graphEl(series, ctx) {
  const all = series.flat();
  let lo = Math.min(...all);
  let hi = Math.max(...all);
  if (hi === lo) hi = lo + 1;
  const span = hi - lo;
  lo -= span * 0.05;
  hi += span * 0.05;
  const steps = series[0].length - 1;
  const x = (i) => PAD.left + ((W - PAD.left - PAD.right) * i) / Math.max(1, steps);
  const y = (v) => PAD.top + ((H - PAD.top - PAD.bottom) * (hi - v)) / (hi - lo);
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "score-graph", role: "img", "aria-label": t("result.score_graph") });
  root.dataset.testid = "score-graph";
  root.append(svg("title", {}, t("result.score_graph")));
  // The frame, the zero line when scores went below it, and the extremes labelled.
  root.append(svg("rect", { x: PAD.left, y: PAD.top, width: W - PAD.left - PAD.right, height: H - PAD.top - PAD.bottom, class: "graph-frame" }));
  if (lo < 0 && hi > 0) root.append(svg("line", { x1: PAD.left, x2: W - PAD.right, y1: y(0), y2: y(0), class: "graph-zero" }));
  for (const v of [Math.max(...all), Math.min(...all)]) {
    root.append(svg("text", { x: PAD.left - 4, y: y(v) + 4, class: "graph-label", "text-anchor": "end" }, String(v)));
  }
  for (let i = 0; i <= steps; i++) {
    root.append(svg("text", { x: x(i), y: H - 6, class: "graph-label", "text-anchor": "middle" }, String(i)));
  }
  series.forEach((line, s) => {
    const pts = line.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    const cls = `graph-line graph-s${s}${s === ctx.mySeat ? " me" : ""}`;
    const pl = svg("polyline", { points: pts, class: cls, "data-seat": s, "data-scores": line.join(",") });
    pl.append(svg("title", {}, seatName(ctx.players, s)));
    root.append(pl);
  });
  const legend = el("ul", "graph-legend");
  series.forEach((line, s) => {
    const li = el("li", s === ctx.mySeat ? "me" : "");
    li.append(el("span", `swatch graph-s${s}`), el("span", "", `${seatName(ctx.players, s)} ${line[line.length - 1]}`));
    legend.append(li);
  });
  const box = el("div", "graph-box");
  box.append(root, legend);
  return box;
}

/** What follows the standings once the record is here: the hands and the graph. */
export function finalSummary(final, ctx) {
  const out = [];
  const hands = (ctx.record && ctx.record.hands) || [];
  if (!hands.length) return out;
  const seats = (hands[0].scores || []).length || final.length;
  out.push(el("h3", "", t("result.hands_played", { n: hands.length })));
  out.push(handListEl(hands, seats, ctx));
  out.push(el("h3", "", t("result.score_graph")));
  out.push(graphEl(scoreSeries(hands, final, seats), ctx));
  return out;
}
