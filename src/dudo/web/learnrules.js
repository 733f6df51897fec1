// learnrules.js — the worked examples of the "How to play" pages, made from a preset's rule
// values (the JSON of GET /api/presets, as the engine's Rules.to_dict() gives them).
//
// The arithmetic here follows the engine's (dudo.engine.bids: raise_problem in its normal and
// same-face contexts, aces_needed_from, quantity_needed_after_aces; dudo.engine.counting:
// count_matching, pass_hand). The pages put every example's bids, hands and verdict on the
// page as data attributes, and a test checks each of them against the engine, so a sentence
// of these pages cannot say other than the engine plays.

/** Does the preset add ace arithmetic (switching to and from aces) to its raises? */
export function usesAceArithmetic(rules) {
  return rules.aces_wild && rules.raise_mode !== "index";
}

/** Fewest aces that raise a bid of `quantity` dice of another face. */
export function acesNeeded(rules, quantity) {
  return rules.aces_to === "ceil_half" ? Math.ceil(quantity / 2) : Math.floor(quantity / 2) + 1;
}

/** Fewest dice of another face that raise a bid of `aces` aces. */
export function afterAcesNeeded(rules, aces) {
  return rules.aces_from === "double_plus_one" ? 2 * aces + 1 : 2 * aces;
}

function faceRank(rules, face) {
  if (face === 1 && rules.raise_mode === "index") {
    return rules.aces_rank === "high" ? rules.faces + 1 : 1;
  }
  return face;
}

/** Does `bid` raise `standing` ([quantity, face] each) in an ordinary round? */
export function raises(rules, standing, bid) {
  const [pq, pf] = standing;
  const [q, f] = bid;
  if (usesAceArithmetic(rules)) {
    if (pf !== 1 && f === 1) return q >= acesNeeded(rules, pq);
    if (pf === 1 && f === 1) return q > pq;
    if (pf === 1 && f !== 1) return q >= afterAcesNeeded(rules, pq);
  }
  const rp = faceRank(rules, pf);
  const rn = faceRank(rules, f);
  if (rules.raise_mode === "nondecreasing") return q >= pq && rn >= rp && (q > pq || rn > rp);
  return q > pq || (q === pq && rn > rp);
}

/** Does `bid` raise `standing` for a player who may not change the face (obliging round)? */
export function raisesSameFace(standing, bid) {
  return bid[1] === standing[1] && bid[0] > standing[0];
}

/** The dice that count for a bid on `face`: a true/false per die, hand by hand. */
export function countingDice(rules, hands, face) {
  const wild = rules.aces_wild && face !== 1;
  const aces = wild && (!rules.wild_needs_natural || hands.some((h) => h.includes(face)));
  return hands.map((hand) => hand.map((d) => d === face || (aces && d === 1)));
}

export function countFor(rules, hands, face) {
  return countingDice(rules, hands, face).flat().filter(Boolean).length;
}

/** A hand of five dice for each pass hand, as the engine names them. */
export const PASS_HAND_EXAMPLES = {
  full_house: [3, 3, 3, 5, 5],
  five_kind: [4, 4, 4, 4, 4],
  five_different: [2, 3, 4, 5, 6],
};

/** The table shown when a bid is counted: three players' hands. */
export const TABLE_HANDS = [
  [5, 2, 1, 6, 3],
  [5, 5, 4, 2, 2],
  [1, 3, 6, 6, 4],
];

/** The raises tried after 3 × fours: two that raise under every mode, then the ones on which
 * the modes differ or that never raise. */
export const RAISE_TRIES = [
  [4, 4],
  [3, 5],
  [4, 2],
  [3, 3],
  [2, 6],
];

/** The worked examples of switching to aces and back: [{standing, bid, ok}] (the fewest that
 * is enough, and one fewer, which is not). */
export function aceExamples(rules) {
  const q = rules.aces_to === "ceil_half" ? 5 : 4;
  const least = acesNeeded(rules, q);
  const aces = 2;
  const back = afterAcesNeeded(rules, aces);
  return {
    to: [
      { standing: [q, 3], bid: [least, 1], ok: true },
      { standing: [q, 3], bid: [least - 1, 1], ok: false },
    ].filter((e) => e.bid[0] > 0),
    from: [
      { standing: [aces, 1], bid: [back, 4], ok: true },
      { standing: [aces, 1], bid: [back - 1, 4], ok: false },
    ],
  };
}

/** Which family a preset is rated and taught in (every dudo-* variant is Dudo). */
export const FAMILIES = ["dudo", "perudo", "cacho", "liars-dice"];

export function familyOf(preset) {
  return FAMILIES.includes(preset) ? preset : "dudo";
}
