// dice.js — drawing dice and bids.
//
// A die is <span class="die" data-face="4" role="img" aria-label="4 (cuadra)"> with pip spans;
// a face-down (hidden) die has class "face-down" and data-face="?". Sizes: add class "mini",
// "small", "big" or "huge" (CSS variable --die-size). A bid is <span class="bid"
// data-bid="3x4">3 × [die] cuadras</span>; any action of a round, actionNode().

import { callWord, faceName, parseBid, parseSaid, t, tNodes } from "/static/i18n.js";

const PIPS = {
  1: [5],
  2: [3, 7],
  3: [3, 5, 7],
  4: [1, 3, 7, 9],
  5: [1, 3, 5, 7, 9],
  6: [1, 3, 4, 6, 7, 9],
};

/** One die showing `face` (null/undefined: face down). opts: {size, counted, label, decorative}. */
export function dieEl(face, opts = {}) {
  const die = document.createElement("span");
  die.className = "die";
  if (opts.size) die.classList.add(opts.size);
  if (face == null) {
    die.classList.add("face-down");
    die.dataset.face = "?";
    die.dataset.hidden = "true";
  } else {
    die.dataset.face = String(face);
    for (const spot of PIPS[face] || []) {
      const pip = document.createElement("span");
      pip.className = `pip p${spot}`;
      die.append(pip);
    }
    if (!PIPS[face]) die.textContent = String(face);
  }
  if (opts.counted) die.classList.add("counted");
  if (opts.decorative) {
    die.setAttribute("aria-hidden", "true");
  } else {
    die.setAttribute("role", "img");
    die.setAttribute(
      "aria-label",
      opts.label ?? (face == null ? t("dice.hidden") : `${face} (${faceName(face)})`),
    );
  }
  return die;
}

/** Fill `container` with dice: `faces` shown, then `hiddenCount` face-down ones. */
export function renderDice(container, faces, { hiddenCount = 0, size, counted } = {}) {
  container.replaceChildren();
  (faces || []).forEach((face, i) => {
    container.append(dieEl(face, { size, counted: counted ? counted(face, i) : false }));
  });
  for (let i = 0; i < hiddenCount; i++) container.append(dieEl(null, { size }));
  return container;
}

/** A bid with its die icon: "3 × [⚃] cuadras". Accepts "3x4", [3, 4] or {quantity, face}. */
export function bidNode(bid, { words = true } = {}) {
  const b = typeof bid === "object" && !Array.isArray(bid) && bid !== null ? bid : parseBid(bid);
  const span = document.createElement("span");
  span.className = "bid";
  if (!b) {
    span.textContent = String(bid);
    return span;
  }
  span.dataset.bid = `${b.quantity}x${b.face}`;
  const q = document.createElement("span");
  q.className = "bid-q";
  q.textContent = `${b.quantity} ×`;
  span.append(q, dieEl(b.face, { size: "mini", decorative: true }));
  if (words) {
    const name = document.createElement("span");
    name.className = "bid-face";
    name.textContent = faceName(b.face, b.quantity !== 1);
    span.append(name);
  }
  if (b.reveal && b.reveal.length) {
    const r = document.createElement("span");
    r.className = "bid-reveal";
    r.textContent = t("reveal.short", { dice: b.reveal.join(", ") });
    span.append(r);
  }
  span.setAttribute("aria-label", `${b.quantity} × ${faceName(b.face, b.quantity !== 1)}`);
  return span;
}

/** An action as a round's list shows it: a bid with its die, a bid said aloud at a real table
 * (marked so), or the word of a call. */
export function actionNode(action) {
  if (parseBid(action)) return bidNode(action);
  const said = parseSaid(action);
  if (!said) {
    const word = document.createElement("strong");
    word.textContent = callWord(action);
    return word;
  }
  const span = document.createElement("span");
  span.className = "said";
  const key = said.passed ? "real.said_pass" : "real.said_bid";
  span.append(tNodes(key, { bid: bidNode(said.bid), word: callWord("pass") }));
  return span;
}
