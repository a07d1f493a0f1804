// The analysis beside the replay (docs/analysis.md): one decision of the viewed seat
// (candidates with shanten, ukeire and danger, the bots' choices, waits, furiten) and
// every player's summary with links to the key moments. Text only through i18n keys.
import { t } from "./i18n.js";
import { tileEl } from "./tiles.js";
import { seatName } from "./names.js";
import { tileName } from "./tilenames.js";

// Re-exported for the replay viewer, which reads tile names from here.
export { tileName };

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

/** A tile image with its name beside it. */
export function namedTile(tile) {
  const box = el("span", "named-tile");
  const img = tileEl(tile, { classes: ["mini"] });
  // The name is written beside it: a screen reader need not say it twice.
  img.querySelector("img").alt = "";
  box.append(img, el("span", "", tileName(tile)));
  box.title = tileName(tile);
  return box;
}

/** What an action did, in words. */
export function actionText(a) {
  if (!a) return "";
  const key = `review.action_${a.type}`;
  return t(key, { tile: a.tile ? tileName(a.tile) : "" });
}

function reasonText(r, players, threat) {
  return t(`review.reason_${r.key}`, { n: r.n ?? "", who: seatName(players, threat) });
}

function dangerEl(danger, players) {
  const cell = el("td", "danger");
  if (!danger) return cell;
  const b = el("span", `band band-${danger.band}`, `${t(`review.band_${danger.band}`)} ${danger.level}`);
  b.dataset.level = String(danger.level);
  cell.append(b);
  for (const th of danger.threats) {
    const line = el("div", "reasons");
    const words = th.reasons.map((r) => reasonText(r, players, th.seat)).join(", ");
    line.textContent = `${seatName(players, th.seat)}: ${words}`;
    cell.append(line);
  }
  return cell;
}

function choiceRow(label, a, agree, testid) {
  const row = el("div", "choice");
  row.dataset.testid = testid;
  row.append(el("span", "label", label));
  row.append(el("strong", "", actionText(a)));
  if (agree != null) row.append(el("span", agree ? "agree" : "differ", agree ? t("review.agrees") : t("review.differs")));
  return row;
}

/** One decision of the viewed seat. */
export function decisionEl(d, players) {
  const box = el("div", "decision");
  box.dataset.testid = "decision";
  box.dataset.event = String(d.event);
  box.dataset.shanten = String(d.shanten);
  box.dataset.turn = String(d.turn); // a turn (discards to weigh) or a call offered
  const head = el("div", "decision-head");
  head.append(el("span", "", d.shanten <= 0 ? t("review.tenpai") : t("review.shanten", { n: d.shanten })));
  head.append(el("span", "", t("review.junme", { n: d.junme + 1 })));
  if (d.threats.length) head.append(el("span", "threat", t("review.threats", { names: d.threats.map((s) => seatName(players, s)).join(", ") })));
  box.append(head);
  box.append(choiceRow(t("review.actual"), d.actual, null, "actual"));
  box.append(choiceRow(t("review.efficient"), d.efficient, d.agree_efficient, "efficient"));
  // the same marks as on the hand (replay.js markPicks)
  box.querySelector("[data-testid=actual] .label").classList.add("pick-actual-key");
  box.querySelector("[data-testid=efficient] .label").classList.add("pick-efficient-key");
  box.append(choiceRow(t("review.defensive"), d.defensive, d.agree_defensive, "defensive"));
  if (d.candidates.length) {
    const tbl = el("table", "candidates");
    tbl.dataset.testid = "candidates";
    const hr = el("tr");
    for (const k of ["col_tile", "col_shanten", "col_ukeire", "col_danger"]) hr.append(el("th", "", t(`review.${k}`)));
    tbl.append(hr);
    const actual = d.actual.tile;
    for (const c of d.candidates) {
      const tr = el("tr", "candidate");
      tr.dataset.tile = c.tile;
      tr.dataset.shanten = String(c.shanten);
      tr.dataset.total = String(c.total);
      const mine = actual && actual.replace("0", "5") === c.tile.replace("0", "5");
      if (mine) tr.classList.add("actual");
      const name = el("td", "");
      name.append(namedTile(c.tile));
      tr.append(name, el("td", "num", String(c.shanten)), el("td", "num", String(c.total)), dangerEl(c.danger, players));
      tbl.append(tr);
      // the tiles that improve the hand, with copies left, on a row of their own
      const more = el("tr", `ukeire-row${mine ? " actual" : ""}`);
      const cell = el("td", "ukeire-cell");
      cell.colSpan = 4;
      const tiles = el("div", "ukeire");
      tiles.title = t("review.col_tiles");
      cell.append(tiles);
      for (const u of c.ukeire) {
        const item = el("span", "uke");
        item.dataset.tile = u.tile;
        item.dataset.left = String(u.left);
        item.title = `${tileName(u.tile)}: ${t("review.left", { n: u.left })}`;
        item.append(tileEl(u.tile, { classes: ["mini"] }), el("small", "", String(u.left)));
        tiles.append(item);
      }
      more.append(cell);
      tbl.append(more);
    }
    const wrap = el("div", "table-wrap");
    wrap.append(tbl);
    box.append(wrap);
  }
  if (d.waits.length) {
    const w = el("div", "waits-after");
    w.dataset.testid = "waits";
    w.append(el("span", "label", t("review.waits")));
    for (const x of d.waits) {
      const item = el("span", "wait");
      item.dataset.tile = x.tile;
      item.dataset.left = String(x.left);
      item.append(namedTile(x.tile), el("small", "", t("review.left", { n: x.left })));
      w.append(item);
    }
    box.append(w);
  }
  if (d.furiten) {
    const f = el("div", "warn-text", t("review.furiten"));
    f.dataset.testid = "furiten";
    box.append(f);
  }
  return box;
}

/**
 * Every player's summary. link(hand, event, seat) gives {href, go} for a key moment:
 * the address of that moment and what a click does.
 */
export function summaryEl(summary, players, link) {
  const box = el("div", "summary");
  box.dataset.testid = "summary";
  box.append(el("h3", "", t("review.summary")));
  for (const s of summary) {
    const card = el("div", "summary-seat");
    card.dataset.seat = String(s.seat);
    card.append(el("strong", "", seatName(players, s.seat)));
    const pct = (a) => (s.discards ? Math.round((100 * a) / s.discards) : 0);
    const agree = el("div", "agree");
    agree.dataset.testid = "agreement";
    agree.dataset.efficient = String(s.agree_efficient);
    agree.dataset.discards = String(s.discards);
    agree.textContent = `${t("review.agree_eff", { n: pct(s.agree_efficient), a: s.agree_efficient, b: s.discards })} · ${t("review.agree_def", { n: pct(s.agree_defensive), a: s.agree_defensive, b: s.discards })}`;
    card.append(agree);
    const list = el("ul", "moments");
    for (const k of s.key_moments) {
      const li = el("li", `moment moment-${k.kind}`);
      const to = link(k.hand, k.event, s.seat);
      const a = el("a", "", momentText(k, s));
      a.href = to.href;
      a.dataset.testid = "key-moment";
      a.dataset.kind = k.kind;
      a.addEventListener("click", (e) => {
        e.preventDefault();
        to.go();
      });
      li.append(a);
      list.append(li);
    }
    if (!s.key_moments.length) list.append(el("li", "hint", t("review.no_moments")));
    card.append(list);
    box.append(card);
  }
  return box;
}

function momentText(k, s) {
  const tile = k.tile ? tileName(k.tile) : "";
  const where = t("review.where", { hand: k.hand + 1 });
  if (k.kind === "deal_in") {
    return `${where}: ${k.band ? t("review.km_deal_in", { tile, band: t(`review.band_${k.band}`) }) : t("review.km_deal_in_free", { tile })}`;
  }
  if (k.kind === "riichi") {
    const r = s.riichi.find((x) => x.hand === k.hand && x.event === k.event);
    return `${where}: ${t("review.km_riichi", { junme: r ? r.junme : "?", left: r ? r.left : "?" })}`;
  }
  return `${where}: ${t(`review.km_${k.kind}`, { tile, n: k.loss })}`;
}
