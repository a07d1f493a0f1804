// Sample views for looking at the table without a server (dev/table.html?case=...).
const river = (s) => s.split(" ").map((x) => {
  const [tile, flag] = x.split(":");
  return { tile, tsumogiri: flag === "g", riichi: flag === "r", called: flag === "c" };
});

export const players = [
  { seat: 0, name: "Aoi", player_id: 1, bot: null, connected: true, auto: false },
  { seat: 1, name: null, player_id: null, bot: "efficient", connected: true, auto: false },
  { seat: 2, name: "Ren", player_id: 2, bot: null, connected: false, auto: true },
  { seat: 3, name: null, player_id: null, bot: "random", connected: true, auto: false },
];

export const views = {
  discard: {
    seat: 0, phase: "play", rules: { name: "standard", kuitan: true, red_fives: 3, length: "hanchan", think_seconds: 5, bank_seconds: 20 },
    round: { wind: "S", kyoku: 2, honba: 1, riichi_sticks: 1, dealer: 1, dice: [3, 4] },
    scores: [31200, 18700, 24100, 25000], dora_indicators: ["4p", "9s"], wall_left: 38, turn: 0, waiting_on: [0],
    last_discard: { seat: 3, tile: "7z" },
    players: [
      { seat: 0, wind: "W", score: 31200, riichi: false, hand: ["2m", "3m", "4m", "0p", "6p", "7p", "3s", "3s", "5s", "6s"], drawn: "7s", hand_count: 11,
        melds: [{ type: "pon", tiles: ["5z", "5z", "5z"], called: "5z", from_seat: 2 }],
        river: river("1z 9m 1p:g 8s 2z 4z:c 7m") },
      { seat: 1, wind: "E", score: 18700, riichi: true, hand: null, drawn: null, hand_count: 13, melds: [],
        river: river("9p 1s 2z:g 7z 6m:r 1m:g 3z 8p 5p:g 4s") },
      { seat: 2, wind: "S", score: 24100, riichi: false, hand: null, drawn: null, hand_count: 7,
        melds: [{ type: "chi", tiles: ["3p", "4p", "5p"], called: "4p", from_seat: 1 }, { type: "kakan", tiles: ["6z", "6z", "6z", "6z"], called: "6z", from_seat: 0 }],
        river: river("4z 1m 9s 2p 3m 6s 5m 2s") },
      { seat: 3, wind: "N", score: 25000, riichi: false, hand: null, drawn: null, hand_count: 10,
        melds: [{ type: "ankan", tiles: ["5m", "5m", "0m", "5m"], called: null, from_seat: null }],
        river: river("1z:g 2z 9m 1s 7z") },
    ],
    legal_actions: ["2m", "3m", "4m", "0p", "6p", "7p", "3s", "5s", "6s", "7s"].map((tile) => ({ type: "discard", seat: 0, tile }))
      .filter((a) => a.tile !== "4m")
      .concat([{ type: "kakan", seat: 0, tile: "5z" }]),
    help: { shanten: 1, waits: [], furiten: false },
  },
};

views.call = structuredClone(views.discard);
Object.assign(views.call, { turn: 3, waiting_on: [0], last_discard: { seat: 3, tile: "4s" } });
views.call.players[0].hand = ["2m", "3m", "4m", "0p", "6p", "7p", "3s", "3s", "5s", "6s"];
views.call.players[0].drawn = null;
views.call.players[0].hand_count = 10;
views.call.legal_actions = [
  { type: "chi", seat: 0, tiles: ["3s", "5s"] },
  { type: "chi", seat: 0, tiles: ["5s", "6s"] },
  { type: "ron", seat: 0, tile: "4s" },
  { type: "pass", seat: 0 },
];
views.call.help = { shanten: 0, waits: [{ tile: "4s", left: 2, yaku: true }, { tile: "7s", left: 3, yaku: false }], furiten: true };

export const results = {
  agari: {
    type: "agari",
    winners: [{ seat: 0, from_seat: 1, hand: ["2m", "3m", "4m", "0p", "6p", "7p", "3s", "3s", "4s", "5s", "6s"], melds: [{ type: "pon", tiles: ["5z", "5z", "5z"], called: "5z", from_seat: 2 }],
      win_tile: "4s", yaku: [{ id: "yakuhai_haku", han: 1 }, { id: "tanyao", han: 1 }], yakuman: [], han: 4, fu: 30, limit: null, dora: 1, aka: 1, ura: 0,
      points: 7700, payments: { ron: 7700 }, pao: null, deltas: [9000, -8000, 0, 0],
      honba: 1, honba_points: 300, riichi_sticks: 1, stick_points: 1000 }],
    dora_indicators: ["4p", "9s"], ura_indicators: [], deltas: [9000, -8000, 0, 0], scores: [40200, 10700, 24100, 25000], honba: 0, riichi_sticks: 0,
  },
  draw: {
    type: "ryuukyoku", reason: "exhaustive", tenpai: [0, 2], hands: { 0: ["2m", "3m", "4m", "0p", "6p", "7p", "3s", "3s", "5s", "6s"], 2: ["1m", "1m", "2p", "3p", "4p", "7s", "8s"] },
    nagashi: [], deltas: [1500, -1500, 1500, -1500], scores: [32700, 17200, 25600, 23500], honba: 2, riichi_sticks: 1,
  },
  final: [{ seat: 0, points: 41200, rank: 1, score: 41.2 + 20 + 10 }, { seat: 2, points: 30100, rank: 2, score: 5.1 }, { seat: 3, points: 20000, rank: 3, score: -15 }, { seat: 1, points: 8700, rank: 4, score: -31.3 }],
};

// The finished game's record (GET /api/games/{id}) for the final screen: four hands
// whose scores end at results.final's points, and why it ended.
const hand = (number, kyoku, honba, kind, result, deltas, scores) => ({ number, round_wind: 0, kyoku, honba, kind, result, deltas, scores });
const ron = (seat, from, points) => ({ winners: [{ seat, from_seat: from, points }] });
export const record = {
  id: "mock", status: "finished",
  seats: players.map((p) => ({ seat: p.seat, name: p.name, bot: p.bot })),
  hands: [
    hand(0, 0, 0, "agari", ron(0, 1, 11200), [11200, -11200, 0, 0], [36200, 13800, 25000, 25000]),
    hand(1, 1, 0, "ryuukyoku", { reason: "exhaustive", tenpai: [0, 2] }, [1500, -1500, 1500, -1500], [37700, 12300, 26500, 23500]),
    hand(2, 2, 1, "agari", ron(2, 1, 3300), [0, -3600, 3600, 0], [37700, 8700, 30100, 23500]),
    hand(3, 3, 0, "agari", ron(0, 3, 3500), [3500, 0, 0, -3500], [41200, 8700, 30100, 20000]),
  ],
  events: [{ version: 400, kind: "event", type: "game_end", data: { reason: "last_round", final: results.final }, seats: null }],
};

// Own turn, tenpai after the draw: riichi is allowed with two declaration tiles.
views.riichi = structuredClone(views.discard);
views.riichi.legal_actions = views.discard.legal_actions
  .filter((a) => a.type === "discard")
  .concat([{ type: "riichi", seat: 0, tile: "3s" }, { type: "riichi", seat: 0, tile: "7s" }, { type: "tsumo", seat: 0 }]);

// Public events as they arrive on the wire before the view (for the side log).
export const logEvents = [
  { type: "round_start", round_wind: "S", kyoku: 2, honba: 1, riichi_sticks: 1, scores: [31200, 18700, 24100, 25000], dealer: 1, dice: [3, 4], dora_indicators: ["4p"], wall_left: 70, round_index: 5 },
  { type: "call", meld: "pon", seat: 0, tiles: ["5z", "5z", "5z"], called: "5z", from_seat: 2 },
  { type: "riichi_accepted", seat: 1, double: false, scores: [31200, 18700, 24100, 25000], riichi_sticks: 1 },
  { type: "new_dora", indicator: "9s", dora_indicators: ["4p", "9s"] },
];

// n more public calls before logEvents (the side log's overflow).
export const moreLogEvents = (n) =>
  Array.from({ length: n }, (_, i) => ({ type: "call", meld: "chi", seat: (i % 3) + 1, tiles: ["1m", "2m", "3m"], called: "1m", from_seat: i % 3 }));

// Sanma (three seats): own north set aside, a nuki button; seat 1 set two aside.
views.sanma = {
  seat: 0, phase: "play", rules: { name: "tenhou-sanma", seats: 3, length: "tonpuu", think_seconds: 5, bank_seconds: 20 },
  round: { wind: "E", kyoku: 2, honba: 0, riichi_sticks: 0, dealer: 1, dice: [2, 5] },
  scores: [35000, 36000, 34000], dora_indicators: ["3z", "1m"], wall_left: 40, turn: 0, waiting_on: [0], last_discard: null,
  players: [
    { seat: 0, wind: "W", score: 35000, riichi: false, hand: ["1m", "9m", "1p", "2p", "3p", "5s", "6s", "7s", "4z", "5z"], drawn: "9p", hand_count: 11, nuki: 1,
      melds: [{ type: "pon", tiles: ["7z", "7z", "7z"], called: "7z", from_seat: 2 }], river: river("1z 9s") },
    { seat: 1, wind: "E", score: 36000, riichi: false, hand: null, drawn: null, hand_count: 13, nuki: 2, melds: [], river: river("2z 8p:g") },
    { seat: 2, wind: "S", score: 34000, riichi: false, hand: null, drawn: null, hand_count: 10, nuki: 0,
      melds: [{ type: "pon", tiles: ["6z", "6z", "6z"], called: "6z", from_seat: 1 }], river: river("3z 7z:c") },
  ],
  legal_actions: ["1m", "9m", "1p", "2p", "3p", "5s", "6s", "7s", "4z", "5z", "9p"].map((tile) => ({ type: "discard", seat: 0, tile }))
    .concat([{ type: "nuki", seat: 0, tile: "4z" }]),
  help: { shanten: 2, waits: [], furiten: false },
};

// Nanchang: 5p turned up, so 5p is 正精 and 6p 副精; no winds in the view (the dealer's).
views.nanchang = {
  variant: "nanchang", seat: 0, phase: "play", step: 40,
  rules: { variant: "nanchang", name: "nanchang", rounds: 4, think_seconds: 5, bank_seconds: 20 },
  round: { index: 1, wind: "E", hand_number: 2, dealer: 1, repeat: 1 }, first_dealer: 0,
  turn: 0, waiting_on: [0], scores: [12, -3, -4, -5], indicator: "5p", jokers: { zheng: "5p", fu: "6p" }, wall_left: 61,
  players: [
    { seat: 0, hand: ["1m", "4m", "7m", "2p", "5p", "6p", "3s", "8s", "1z", "3z", "5z", "7z", "7z"], drawn: "6p", hand_count: 14,
      melds: [], river: river("9m 6p"), score: 12 },
    { seat: 1, hand: null, drawn: null, hand_count: 10, melds: [{ type: "pon", tiles: ["5p", "5p", "5p"], called: "5p", from_seat: 0, added: null }], river: river("2z"), score: -3 },
    { seat: 2, hand: null, drawn: null, hand_count: 13, melds: [{ type: "ankan", tiles: ["9s", "9s", "9s", "9s"], called: null, from_seat: null, added: null }], river: river("4z 6p:g"), score: -4 },
    { seat: 3, hand: null, drawn: null, hand_count: 13, melds: [], river: river("1p"), score: -5 },
  ],
  last_discard: null, kakan: null,
  legal_actions: ["1m", "4m", "7m", "2p", "5p", "6p", "3s", "8s", "1z", "3z", "5z", "7z"].map((tile) => ({ type: "discard", seat: 0, tile })),
  result: null, final: null,
};

// A Nanchang round result: 德国 self-draw win, a 冲关 joker bonus, a joker kan.
results.nc_win = {
  type: "round_end",
  result: {
    round_index: 1, round_wind: "E", hand_number: 2, dealer: 1, repeat: 1, kind: "win",
    win: { seat: 0, from_seat: null, win_tile: "6p", hand: ["1m", "2m", "3m", "4p", "5p", "6p", "6p", "7p", "8p", "3s", "4s", "5s", "7z", "7z"], melds: [],
      score: { shape: "pinghu", elements: [{ id: "pinghu", factor: 1, points: 0 }, { id: "zimo", factor: 2, points: 0 }, { id: "deguo", factor: 2, points: 5 }],
        payer_elements: [{ id: "zhuang", factor: 2, points: 0 }], base: 4, bonus: 5, flat: false, payments: [30, -13, -9, -9], total: 30 } },
    hands: [[], [], [], []],
    joker_bonus: [
      { seat: 0, zheng: 1, fu: 3, points: 5, value: 10, chongguan: true, bawang: false, payer: 2, deltas: [30, 0, -30, 0] },
      { seat: 1, zheng: 0, fu: 0, points: 0, value: 0, chongguan: false, bawang: false, payer: null, deltas: [0, 0, 0, 0] },
    ],
    kans: [{ seat: 2, tile: "5p", meld: "ankan", joker: true, points: 14, deltas: [-14, -14, 42, -14] }],
    deltas: [46, -27, 3, -22], scores: [58, -30, -1, -27], dealer_keeps: false,
  },
};
// In riichi, own turn: only the drawn tile may go (the Auto toggle discards it).
views.after_riichi = structuredClone(views.discard);
views.after_riichi.players[0].riichi = true;
views.after_riichi.legal_actions = [{ type: "discard", seat: 0, tile: "7s" }];
// The wall after two kans (docs/engine.md "The public wall"): 82 tiles taken from the
// front, two replacement draws from the dead wall, three indicators face up.
views.wall_kan = structuredClone(views.discard);
Object.assign(views.wall_kan, { dora_indicators: ["4p", "9s", "1z"], wall: { drawn: 82, rinshan: 2 } });
views.sanma.wall = { drawn: 108 - 14 - 40 - 3, rinshan: 3 };
views.nanchang.wall = { dice: [5, 6], second_roller: 3, second_dice: [6, 6], joker_dice: [4, 2], drawn: 74, rinshan: 1 };
