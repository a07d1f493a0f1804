// Nanchang round results and final ledger (docs/rules.md N17-N28): each scoring element
// under its localised name, the joker bonus (冲关, 霸王精), kan points, and the points
// ledger. Shapes: server/wire/nanchang.py ``result_json``.
import { t } from "./i18n.js";
import { seatName } from "./names.js";
import { tileEl, sortTiles } from "./tiles.js";
import { meldLayout } from "./melds.js";

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

/** Whether a result card's data is a Nanchang round result. */
export function isLedgerResult(data) {
  return !!data && Array.isArray(data.joker_bonus);
}

/** The localised name of a scoring element id (server/engine/nanchang/scoring.py). */
export function elementName(id) {
  return t(`nc_el.${id}`);
}

function tilesRow(tiles, cls = "") {
  const row = el("span", `tiles-row ${cls}`);
  for (const x of tiles) row.append(tileEl(x));
  return row;
}

function elementItem(id, value) {
  const li = el("li");
  li.dataset.element = id;
  li.append(el("span", "element-name", elementName(id)), el("span", "", value));
  return li;
}

function winEl(w, ctx) {
  const box = el("div", "winner");
  box.dataset.testid = "winner";
  const name = (s) => seatName(ctx.players, s);
  box.append(el("h3", "", w.from_seat == null
    ? t("result.tsumo_by", { name: name(w.seat) })
    : t("result.ron_by", { name: name(w.seat), from: name(w.from_seat) })));
  const hand = el("div", "result-hand");
  const rest = [...w.hand];
  const wi = w.win_tile ? rest.lastIndexOf(w.win_tile) : -1;
  if (wi >= 0) rest.splice(wi, 1);
  hand.append(tilesRow(sortTiles(rest)));
  if (w.win_tile) hand.append(tilesRow([w.win_tile], "win-tile"));
  const melds = el("span", "melds");
  for (const m of w.melds || []) {
    const mb = el("span", "meld");
    for (const part of meldLayout(m, w.seat, 4, true)) mb.append(tileEl(part.tile, { sideways: part.sideways }));
    melds.append(mb);
  }
  hand.append(melds);
  box.append(hand);
  const sc = w.score;
  const list = el("ul", "yaku-list element-list");
  list.dataset.testid = "element-list";
  for (const e of sc.elements) {
    const parts = [];
    if (e.factor > 1) parts.push(`×${e.factor}`);
    if (e.points) parts.push(t("nc.points", { n: e.points }));
    list.append(elementItem(e.id, parts.join(" ")));
  }
  for (const e of sc.payer_elements) list.append(elementItem(e.id, t("nc.payer_factor", { n: e.factor })));
  box.append(list);
  const sum = el("div", "result-summary", [
    sc.flat ? t("nc.flat", { n: sc.base }) : t("nc.base", { n: sc.base }),
    sc.bonus ? t("nc.bonus", { n: sc.bonus }) : "",
    t("nc.total", { n: sc.total }),
  ].filter(Boolean).join(" · "));
  sum.dataset.testid = "result-summary";
  box.append(sum);
  return box;
}

function jokerBonusEl(data, ctx) {
  const box = el("div", "joker-bonus");
  box.dataset.testid = "joker-bonus";
  box.append(el("h3", "", t("nc.joker_bonus")));
  const list = el("ul", "yaku-list");
  for (const b of data.joker_bonus) {
    if (!b.points) continue;
    const li = el("li");
    li.dataset.seat = b.seat;
    const counts = t("nc.joker_counts", { zheng: b.zheng, fu: b.fu });
    li.append(el("span", "", `${seatName(ctx.players, b.seat)}: ${counts}`));
    const right = el("span", "", t("nc.per_seat", { n: b.value }));
    for (const id of ["chongguan", "bawang"]) {
      if (b[id]) {
        const tag = el("span", "tag element-tag", elementName(id));
        tag.dataset.element = id;
        right.prepend(tag, " ");
      }
    }
    li.append(right);
    if (b.payer != null) li.append(el("small", "", t("nc.chongguan_payer", { name: seatName(ctx.players, b.payer) })));
    list.append(li);
  }
  if (!list.childElementCount) list.append(el("li", "", t("nc.no_jokers")));
  box.append(list);
  return box;
}

function kansEl(data, ctx) {
  const box = el("div", "kan-points");
  box.append(el("h3", "", t("nc.kans")));
  const list = el("ul", "yaku-list");
  for (const k of data.kans) {
    const li = el("li");
    li.dataset.element = k.joker ? "joker_kan" : "kan";
    const who = el("span", "", `${seatName(ctx.players, k.seat)}: ${t(`action.${k.meld}`)} `);
    who.append(tileEl(k.tile, { classes: ["mini"] }));
    if (k.joker) who.append(" ", el("span", "tag", elementName("joker_kan")));
    li.append(who, el("span", "", t("nc.per_seat", { n: k.points })));
    list.append(li);
  }
  box.append(list);
  return box;
}

function deltasEl(data, ctx) {
  const tbl = el("table", "deltas");
  tbl.dataset.testid = "deltas";
  const head = el("tr");
  head.append(el("th", "", t("result.player")), el("th", "", t("result.score_changes")), el("th", "", t("nc.ledger")));
  tbl.append(head);
  data.deltas.forEach((d, s) => {
    const tr = el("tr");
    tr.append(el("td", "", seatName(ctx.players, s)));
    tr.append(el("td", d > 0 ? "plus" : d < 0 ? "minus" : "", signed(d)));
    tr.append(el("td", "", signed(data.scores[s])));
    tbl.append(tr);
  });
  return tbl;
}

/**
 * A Nanchang round result: the win and its elements, or 荒牌; jokers, kans, ledger.
 * ``footer`` (the continue button, for a seat) goes last.
 */
export function renderLedgerResult(card, data, ctx, footer = null) {
  card.dataset.kind = data.win ? "agari" : "ryuukyoku";
  card.dataset.variant = "nanchang";
  if (data.win) {
    card.append(el("h2", "", t("result.agari")));
    card.append(winEl(data.win, ctx));
  } else {
    card.append(el("h2", "", `${t("result.draw")}: ${t("nc.wall_exhausted")}`));
  }
  card.append(jokerBonusEl(data, ctx));
  if ((data.kans || []).length) card.append(kansEl(data, ctx));
  card.append(deltasEl(data, ctx));
  if (data.dealer_keeps) card.append(el("p", "hint", t("nc.dealer_keeps", { name: seatName(ctx.players, data.dealer) })));
  if (footer) card.append(footer);
}

/** The final ledger: rank, player, points (no uma, no oka: N26, N28). */
export function renderLedgerFinal(card, final, ctx) {
  card.dataset.kind = "final";
  card.dataset.variant = "nanchang";
  card.append(el("h2", "", t("result.final")));
  const tbl = el("table", "standings");
  tbl.dataset.testid = "standings";
  const head = el("tr");
  for (const k of ["result.rank", "result.player", "nc.ledger"]) head.append(el("th", "", t(k)));
  tbl.append(head);
  for (const f of [...final].sort((a, b) => a.rank - b.rank)) {
    const tr = el("tr");
    tr.dataset.rank = f.rank;
    tr.dataset.seat = f.seat;
    tr.append(el("td", "", String(f.rank)), el("td", "", seatName(ctx.players, f.seat)), el("td", "", signed(f.points)));
    tbl.append(tr);
  }
  card.append(tbl);
}
