// Round results (agari / ryuukyoku event data, docs/engine.md) and final standings.
import { t, yakuName } from "./i18n.js";
import { seatName } from "./names.js";
import { tileEl, doraKinds, kindOf, sortTiles } from "./tiles.js";
import { meldLayout } from "./melds.js";
import { isLedgerResult, renderLedgerResult, renderLedgerFinal } from "./ledger.js";
import { countdownEl } from "./countdown.js";
import { finalSummary, markMe, reasonEl } from "./finalsummary.js";

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

function nameOf(ctx, seat) {
  return seatName(ctx.players, seat);
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

/** Points as the table says them: "+2,000", "7,700", "-1,500". */
function amount(n, sign = true) {
  const s = Math.abs(n).toLocaleString("en-US");
  return n < 0 ? `-${s}` : sign && n > 0 ? `+${s}` : s;
}

/** Whether a seat declared riichi this round (the view still says so at its result). */
function declared(ctx, seat) {
  const p = ctx.view && (ctx.view.players || []).find((x) => x.seat === seat);
  return !!(p && p.riichi);
}

function riichiMark() {
  const m = el("span", "tag riichi-mark", t("result.riichi_mark"));
  m.dataset.testid = "riichi-mark";
  return m;
}

function tilesRow(tiles, dora, cls = "") {
  const row = el("span", `tiles-row ${cls}`);
  for (const tl of tiles) row.append(tileEl(tl, { dora: dora.has(kindOf(tl)) }));
  return row;
}

function meldsRow(melds, owner, dora, seats = 4) {
  const row = el("span", "melds");
  for (const m of melds || []) {
    const box = el("span", "meld");
    for (const part of meldLayout(m, owner, seats)) {
      box.append(tileEl(part.tile, { sideways: part.sideways, back: part.back, dora: !part.back && dora.has(kindOf(part.tile)) }));
      if (part.stacked) box.append(tileEl(part.stacked, { sideways: true }));
    }
    row.append(box);
  }
  return row;
}

function deltasTable(data, ctx) {
  const tbl = el("table", "deltas");
  tbl.dataset.testid = "deltas";
  const head = el("tr");
  head.append(el("th", "", t("result.player")), el("th", "", t("result.score_changes")), el("th", "", t("result.final_points")));
  tbl.append(head);
  const seats = (data.deltas || data.scores || [0, 0, 0, 0]).length;
  for (let s = 0; s < seats; s++) {
    const tr = el("tr");
    tr.dataset.seat = s;
    const d = (data.deltas || [])[s] ?? 0;
    const who = el("td", "", nameOf(ctx, s));
    if (declared(ctx, s)) who.append(" ", riichiMark());
    tr.append(who);
    tr.append(el("td", d > 0 ? "plus" : d < 0 ? "minus" : "", signed(d)));
    tr.append(el("td", "", String((data.scores || [])[s] ?? "")));
    tbl.append(tr);
  }
  markMe(tbl, ctx);
  return tbl;
}

/**
 * What a win was paid, item by item: the hand, the honba, the riichi sticks on the table,
 * adding up to the winner's gain (records from before these fields show no list).
 */
function payoutEl(w) {
  if (w.honba == null || w.riichi_sticks == null) return null;
  const list = el("ul", "yaku-list payout");
  list.dataset.testid = "payout";
  const item = (key, label, points, sign = true) => {
    const li = el("li");
    li.dataset.item = key;
    li.dataset.points = String(points);
    li.append(el("span", "", label), el("span", "", amount(points, sign)));
    list.append(li);
  };
  item("hand", t("result.hand_points"), w.points, false);
  if (w.honba) item("honba", t("result.honba_item", { n: w.honba }), w.honba_points);
  if (w.riichi_sticks) item("sticks", t("result.sticks_item", { n: w.riichi_sticks }), w.stick_points);
  item("total", t("result.total_item"), w.deltas[w.seat]);
  list.lastChild.classList.add("total");
  return list;
}

function continueButton(h) {
  const b = el("button", "primary continue", t("result.continue"));
  b.type = "button";
  b.dataset.testid = "continue";
  b.addEventListener("click", () => h.onContinue());
  return b;
}

function winnerEl(w, data, ctx) {
  const box = el("div", "winner");
  box.dataset.testid = "winner";
  const title = w.from_seat == null
    ? t("result.tsumo_by", { name: nameOf(ctx, w.seat) })
    : t("result.ron_by", { name: nameOf(ctx, w.seat), from: nameOf(ctx, w.from_seat) });
  const head = el("h3", "", title);
  if (declared(ctx, w.seat)) head.append(" ", riichiMark());
  box.append(head);
  const dora = doraKinds(data.dora_indicators, (data.deltas || []).length || 4);
  const hand = el("div", "result-hand");
  const rest = [...w.hand];
  const wi = rest.lastIndexOf(w.win_tile);
  if (wi >= 0) rest.splice(wi, 1);
  hand.append(tilesRow(sortTiles(rest), dora));
  const win = tilesRow([w.win_tile], dora, "win-tile");
  hand.append(win);
  hand.append(meldsRow(w.melds, w.seat, dora, (data.deltas || []).length || 4));
  box.append(hand);

  const ind = el("div", "result-dora");
  ind.append(el("span", "label", t("table.dora")), tilesRow(data.dora_indicators || [], new Set(), "mini"));
  if ((data.ura_indicators || []).length) {
    ind.append(el("span", "label", t("yaku.ura")), tilesRow(data.ura_indicators, new Set(), "mini"));
  }
  box.append(ind);

  const list = el("ul", "yaku-list");
  list.dataset.testid = "yaku-list";
  for (const y of w.yakuman || []) {
    const li = el("li", "yakuman");
    li.dataset.yaku = y.id;
    li.append(el("span", "", yakuName(y.id)), el("span", "", t("result.yakuman_x", { n: y.multiplier })));
    list.append(li);
  }
  for (const y of w.yaku || []) {
    const li = el("li");
    li.dataset.yaku = y.id;
    li.append(el("span", "", yakuName(y.id)), el("span", "", t("result.han", { n: y.han })));
    list.append(li);
  }
  for (const k of ["dora", "aka", "ura", "nuki"]) {
    if (w[k] > 0) {
      const li = el("li");
      li.dataset.yaku = k;
      li.append(el("span", "", yakuName(k)), el("span", "", t("result.han", { n: w[k] })));
      list.append(li);
    }
  }
  box.append(list);
  const sum = [];
  if (!(w.yakuman || []).length) sum.push(t("result.han", { n: w.han }), t("result.fu", { n: w.fu }));
  if (w.limit) sum.push(t(`limit.${w.limit}`));
  sum.push(t("result.points", { n: w.points }));
  const s = el("div", "result-summary", sum.join(" · "));
  s.dataset.testid = "result-summary";
  box.append(s);
  const pay = payoutEl(w);
  if (pay) box.append(pay);
  if (w.pao != null) box.append(el("div", "pao", t("result.pao", { name: nameOf(ctx, w.pao) })));
  return box;
}

/** A round result card: agari (has winners) or ryuukyoku (has reason). */
export function renderResult(card, data, ctx, h) {
  if (isLedgerResult(data)) {
    renderLedgerResult(card, data, ctx, ctx.mySeat != null ? continueButton(h) : null);
    card.append(countdownEl(ctx.pauseUntil));
    return;
  }
  card.dataset.kind = data.winners ? "agari" : "ryuukyoku";
  if (data.winners) {
    card.append(el("h2", "", t("result.agari")));
    for (const w of data.winners) card.append(winnerEl(w, data, ctx));
  } else {
    card.append(el("h2", "", `${t("result.draw")}: ${t(`draw.${data.reason}`)}`));
    const hands = data.hands || {};
    const seats = Object.keys(hands);
    if (data.reason === "exhaustive" || data.reason === "nagashi_mangan") {
      if (!(data.tenpai || []).length) card.append(el("p", "", t("result.noten")));
      else card.append(el("h3", "", t("result.tenpai_hands")));
    }
    // Only the hands the server revealed (tenpai seats; kyuushu: the declarer), with
    // their melds, which everyone saw anyway.
    const n = (data.deltas || []).length || 4;
    const dora = doraKinds((ctx.view && ctx.view.dora_indicators) || [], n);
    for (const s of seats) {
      const row = el("div", "draw-hand");
      row.dataset.seat = s;
      row.dataset.testid = "draw-hand";
      const label = el("span", "label", nameOf(ctx, Number(s)));
      if (declared(ctx, Number(s))) label.append(" ", riichiMark());
      row.append(label);
      row.append(tilesRow(sortTiles(hands[s]), dora));
      const p = ctx.view && (ctx.view.players || []).find((x) => x.seat === Number(s));
      if (p && (p.melds || []).length) row.append(meldsRow(p.melds, Number(s), dora, n));
      card.append(row);
    }
    for (const s of data.nagashi || []) card.append(el("p", "", `${t("yaku.nagashi_mangan")}: ${nameOf(ctx, s)}`));
  }
  card.append(deltasTable(data, ctx));
  if (ctx.mySeat != null) card.append(continueButton(h));
  card.append(countdownEl(ctx.pauseUntil));
}

/** Final standings: final = [{seat, points, rank, score}]. */
export function renderFinal(card, final, ctx, h) {
  if (ctx.variant === "nanchang" || (ctx.view && ctx.view.variant === "nanchang")) {
    renderLedgerFinal(card, final, ctx);
    card.querySelector("h2").after(reasonEl(ctx));
    markMe(card.querySelector("[data-testid=standings]"), ctx);
    card.append(...finalSummary(final, ctx));
    card.append(...homeLinks(ctx));
    return;
  }
  card.dataset.kind = "final";
  card.append(el("h2", "", t("result.final")), reasonEl(ctx));
  const tbl = el("table", "standings");
  tbl.dataset.testid = "standings";
  const head = el("tr");
  for (const k of ["result.rank", "result.player", "result.final_points", "result.uma_oka", "result.score"]) {
    head.append(el("th", "", t(k)));
  }
  tbl.append(head);
  const ret = ctx.returnPoints ?? 30000;
  for (const f of [...final].sort((a, b) => a.rank - b.rank)) {
    const tr = el("tr");
    tr.dataset.rank = f.rank;
    tr.dataset.seat = f.seat;
    // The server's score already includes uma and oka; show that part on its own.
    const umaOka = Math.round((f.score - (f.points - ret) / 1000) * 10) / 10;
    tr.append(
      el("td", "", String(f.rank)),
      el("td", "", nameOf(ctx, f.seat)),
      el("td", "", String(f.points)),
      el("td", "", signed(umaOka)),
      el("td", "", signed(Math.round(f.score * 10) / 10)),
    );
    tbl.append(tr);
  }
  markMe(tbl, ctx);
  card.append(tbl);
  card.append(...finalSummary(final, ctx));
  card.append(...homeLinks(ctx));
}

/** The final screen's links: home, and the replay that checks the revealed seed. */
function homeLinks(ctx) {
  const home = el("a", "button", t("common.back_home"));
  home.href = "#/";
  home.dataset.testid = "home-link";
  const links = [home];
  if (ctx.gameId != null) {
    // The seed is revealed now: the replay viewer checks it against the commitment.
    const check = el("a", "button", t("result.check_seed"));
    check.href = `#/replay/${encodeURIComponent(ctx.gameId)}`;
    check.dataset.testid = "check-seed-link";
    links.push(check);
  }
  return links;
}
