// The learner panel of a table created with hints on: the odds the server works out from this
// seat's own view (the standing bid's chance, each face's expected count, any bid of the
// picker), what the hard bot would play, and after the game the review of the player's
// riskiest decisions. Nothing here computes odds: the numbers come in `hints`, `suggest` and
// `review` frames (docs/protocol.md), and this module words them in the page's language.
//
// table.js calls:
//   learnerRender(ctx)  after each render, ctx = {table, view, game, seat, send}
//   learnerFrame(frame) for the frames hints, odds, suggest and review
//   learnerBid(bid)     when a bid of the picker is pointed at, focused or picked ("5x3")
//   bidChance(bid)      the chance a bid is true (null while unknown): for any picker
//
// DOM: section#learner[data-turn] > #learner-standing (#learner-standing-chance),
// #learner-basis, ul#learner-expected > li[data-face] .learner-value, p#learner-bid[data-bid]
// (#learner-bid-chance), button#learner-suggest, p#learner-suggestion[data-action];
// #learner-review (in #game-over) > h3, ol > li[data-action] .learner-risk.

import { bidNode, dieEl } from "/static/dice.js";
import { actionText, faceName, lang, parseBid, t, tNodes } from "/static/i18n.js";
import { el } from "/static/ui.js";

const HINT_TYPES = new Set(["hints", "odds", "suggest", "review"]);

const L = {
  ctx: null,
  asked: "", // the game|turn whose hints were asked for
  hints: null, // the hints frame of that turn
  bid: null, // the bid pointed at, "5x3"
  suggestion: null, // the suggest frame of this turn
  suggesting: false,
  reviewGame: null, // the game whose review was asked for
  review: null,
};

/** A chance as people read it in the page's language: one decimal, never rounding a possible
 * outcome to 0 % or a doubtful one to 100 % (<0.1 %, >99.9 %). */
export function percent(chance) {
  const format = (value, digits) =>
    new Intl.NumberFormat(lang(), {
      style: "percent",
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(value);
  if (chance <= 0) return format(0, 0);
  if (chance >= 1) return format(1, 0);
  if (chance < 0.001) return `<${format(0.001, 1)}`;
  if (chance > 0.999) return `>${format(0.999, 1)}`;
  return format(chance, 1);
}

function decimal(value) {
  return new Intl.NumberFormat(lang(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value);
}

/** The chance that `bid` ("5x3") is true from this turn's hints; null while unknown. */
export function bidChance(bid) {
  const b = parseBid(bid);
  const table = L.hints?.at_least?.[String(b?.face)];
  if (!b || !table) return null;
  if (b.quantity < 1) return 1;
  return table[b.quantity - 1] ?? 0;
}

function turnKey(ctx) {
  return `${ctx.game}|${ctx.view?.turn}`;
}

function seated(ctx) {
  return !!ctx?.table?.hints && ctx.seat != null && ctx.view != null && ctx.view.viewer != null;
}

export function learnerRender(ctx) {
  L.ctx = ctx;
  const panel = document.getElementById("learner");
  const reviewBox = document.getElementById("learner-review");
  if (!panel || !reviewBox) return;
  const playing =
    seated(ctx) && ctx.table.status === "playing" && ctx.view.phase !== "over" && ctx.view.winner == null;
  const over = seated(ctx) && ctx.table.status === "over" && ctx.view.winner != null;
  panel.hidden = !playing;
  reviewBox.hidden = !over;
  if (playing) {
    const key = turnKey(ctx);
    if (key !== L.asked && ctx.send({ type: "hints" })) {
      L.asked = key;
      L.bid = null;
      L.suggestion = null;
      L.suggesting = false;
    }
    renderPanel(panel);
  } else {
    L.asked = "";
  }
  if (over) {
    if (L.reviewGame !== ctx.game && ctx.send({ type: "review" })) {
      L.reviewGame = ctx.game;
      L.review = null;
    }
    renderReview(reviewBox);
  }
}

/** A learner frame, or an error about one (`for`: the refused frame's type). Returns whether
 * it was the learner's. A refused hint is not the player's mistake (the game ended between
 * the question and the answer, say): the panel just shows nothing for it. */
export function learnerFrame(frame) {
  if (frame.type === "error") {
    if (!HINT_TYPES.has(frame.for)) return false;
    if (frame.for === "suggest") L.suggesting = false;
    if (L.ctx) learnerRender(L.ctx);
    return true;
  }
  const ctx = L.ctx;
  if (!ctx) return true;
  if (frame.type === "review") {
    if (frame.game === ctx.game) L.review = frame;
  } else if (frame.game !== ctx.game || frame.turn !== ctx.view?.turn) {
    return true; // an answer about a turn that has passed
  } else if (frame.type === "hints") {
    L.hints = frame;
  } else if (frame.type === "suggest") {
    L.suggestion = frame;
    L.suggesting = false;
  }
  learnerRender(ctx);
  return true;
}

export function learnerBid(bid) {
  L.bid = bid;
  const panel = document.getElementById("learner");
  if (panel && !panel.hidden) renderPanel(panel);
}

function chanceSpan(id, chance) {
  return el("span", { id, class: "learner-chance", dataset: { chance: String(chance) } }, percent(chance));
}

function renderPanel(panel) {
  // The panel is redrawn whole; a keyboard user who pressed its button keeps the focus there.
  const focused = panel.contains(document.activeElement) ? document.activeElement.id : "";
  draw(panel);
  if (focused && !panel.contains(document.activeElement)) document.getElementById(focused)?.focus({ preventScroll: true });
}

function draw(panel) {
  const ctx = L.ctx;
  const h = L.hints && L.hints.turn === ctx.view.turn ? L.hints : null;
  panel.dataset.turn = h ? String(h.turn) : "";
  const parts = [el("h2", { id: "learner-heading" }, t("learner.heading"))];
  if (!h) {
    panel.replaceChildren(...parts);
    return;
  }
  if (h.standing) {
    const line = el(
      "p",
      { id: "learner-standing" },
      tNodes("learner.standing", { bid: bidNode(h.standing), chance: chanceSpan("learner-standing-chance", h.chance) }),
    );
    const exact = el("span", { class: "muted small learner-spot-on" }, " · ", t("learner.spot_on", { chance: percent(h.spot_on) }));
    line.append(exact);
    parts.push(line);
  } else {
    parts.push(el("p", { id: "learner-standing" }, t("learner.no_bid")));
  }
  parts.push(
    el(
      "p",
      { id: "learner-basis", class: "muted small" },
      t("learner.basis", { count: h.unknown }),
      " ",
      t(h.wild ? "learner.wild" : "learner.not_wild"),
    ),
  );
  parts.push(el("h3", {}, t("learner.expected")));
  const faces = Object.keys(h.expected).map(Number);
  parts.push(
    el(
      "ul",
      { id: "learner-expected", class: "learner-expected" },
      ...faces.map((face) => {
        const value = decimal(h.expected[String(face)]);
        return el(
          "li",
          { dataset: { face }, "aria-label": t("learner.expected_item", { face: faceName(face, true), value }) },
          dieEl(face, { size: "mini", decorative: true }),
          el("span", { class: "learner-value", "aria-hidden": "true" }, value),
        );
      }),
    ),
  );
  const chance = L.bid ? bidChance(L.bid) : null;
  parts.push(
    chance == null
      ? el("p", { id: "learner-bid", class: "muted small" }, t("learner.bid_help"))
      : el(
          "p",
          { id: "learner-bid", dataset: { bid: L.bid }, "aria-live": "polite" },
          tNodes("learner.bid", { bid: bidNode(L.bid), chance: chanceSpan("learner-bid-chance", chance) }),
        ),
  );
  const mine = ctx.view.legal && ctx.view.legal.length > 0;
  if (mine) {
    const ask = el("button", { type: "button", id: "learner-suggest", class: "small" }, t("learner.suggest"));
    // aria-disabled, not disabled: a disabled button would drop the keyboard focus.
    ask.setAttribute("aria-disabled", String(L.suggesting));
    ask.addEventListener("click", () => {
      if (!L.suggesting && ctx.send({ type: "suggest" })) {
        L.suggesting = true;
        renderPanel(panel);
      }
    });
    parts.push(ask);
  }
  const s = L.suggestion && L.suggestion.turn === ctx.view.turn ? L.suggestion : null;
  if (s) {
    parts.push(
      el(
        "p",
        { id: "learner-suggestion", dataset: { action: s.action ?? "" }, "aria-live": "polite" },
        s.action == null
          ? t("learner.suggestion_none")
          : tNodes("learner.suggestion", { action: actionNode(s.action) }),
      ),
    );
  }
  panel.replaceChildren(...parts);
}

function actionNode(action) {
  const b = parseBid(action);
  if (b && !b.reveal) return bidNode(action);
  return el("strong", {}, actionText(action));
}

function renderReview(box) {
  const r = L.review;
  const parts = [el("h3", {}, t("learner.review_title"))];
  if (!r) {
    parts.push(el("p", { class: "muted small" }, t("learner.review_loading")));
    box.replaceChildren(...parts);
    return;
  }
  if (!r.riskiest.length) {
    parts.push(el("p", {}, t("learner.review_none")));
    box.replaceChildren(...parts);
    return;
  }
  parts.push(el("p", { class: "muted small" }, t("learner.review_count", { count: r.decisions })));
  const items = r.riskiest.map((d) => {
    const risk = el("span", { class: "learner-risk" }, percent(d.risk));
    const line = el("p", {}, tNodes("learner.review_item", { round: d.round, action: actionNode(d.action), risk }));
    let theirs;
    if (d.same) theirs = t("learner.review_same");
    else if (d.reviewer == null) theirs = t("learner.review_no_call");
    else {
      theirs = tNodes("learner.review_other", {
        action: actionNode(d.reviewer.action),
        risk: el("span", { class: "learner-reviewer-risk" }, percent(d.reviewer.risk)),
      });
    }
    return el("li", { dataset: { action: d.action, number: d.number } }, line, el("p", { class: "muted small" }, theirs));
  });
  parts.push(el("ol", { class: "learner-review-list" }, ...items));
  box.replaceChildren(...parts);
}
