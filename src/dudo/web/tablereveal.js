// tablereveal.js — the reveal on the table page: which claim a reveal decides and its outcomes
// (followed event by event), the dialog of every hand with the dice that counted, played in
// stages (lift, count, verdict, done; at once under prefers-reduced-motion), skipped or
// dismissed, and a dismissed reveal remembered so a reload does not show it again. The hooks
// are listed in table.js.

import { turnControl } from "/static/bidentry.js";
import { bidNode, dieEl } from "/static/dice.js";
import { holdFocus, releaseFocus } from "/static/focus.js";
import { parseBid, t, tNodes } from "/static/i18n.js";
import { countsForReveal, handName } from "/static/narrate.js";
import { avatar } from "/static/avatar.js";
import { $, S, inGame, myTurn, nameOf, narrate } from "/static/tablestate.js";
import { el } from "/static/ui.js";

const REVEAL_STAGES = ["lift", "count", "verdict", "done"];
const LIFT_MS = 700;
const VERDICT_MS = 900;
let revealTimer = null;

/** Follow one new event: claims, reveals and their outcomes. */
export function followEvent(e) {
  switch (e.type) {
    case "Called":
    case "SpotOnClaimed":
    case "PassDoubted":
      S.claim = e;
      break;
    case "Revealed":
      S.reveal = {
        event: e,
        claim: S.claim,
        outcomes: [],
        roundOver: false,
        dismissed: revealSeen(e),
        stage: null,
        lit: 0,
      };
      break;
    case "DiceLost":
    case "DieWon":
    case "RoundCancelled":
    case "Eliminated":
    case "GameOver":
      if (S.reveal && !S.reveal.roundOver) S.reveal.outcomes.push(e);
      break;
    case "RoundStarted":
      S.claim = null;
      if (S.reveal) S.reveal.roundOver = true;
      break;
    case "BidMade":
      // The next round's first bid takes the reveal off the screen.
      if (S.reveal && S.reveal.roundOver) S.reveal = null;
      break;
    default:
      break;
  }
}

/** Was this reveal closed already on this table, maybe before a reload? */
function revealSeen(e) {
  try {
    const seen = JSON.parse(localStorage.getItem(`dudo.reveal.${S.code}`) || "null");
    return !!seen && seen.game === S.game && seen.seq === e.seq;
  } catch {
    return false;
  }
}

function rememberReveal(e) {
  try {
    localStorage.setItem(`dudo.reveal.${S.code}`, JSON.stringify({ game: S.game, seq: e.seq }));
  } catch {
    /* no storage: it is only shown again after a reload */
  }
}

/** Dress the built reveal for its stage, so a re-render mid-way keeps its place. */
function applyRevealStage() {
  const r = S.reveal;
  if (!r || !r.stage) return;
  const box = $("reveal");
  const late = r.stage === "verdict" || r.stage === "done";
  box.dataset.stage = r.stage;
  const counted = [...box.querySelectorAll("#reveal-hands .die.counted")];
  counted.forEach((die, i) => die.classList.toggle("lit", late || (r.stage === "count" && i < r.lit)));
  const number = $("reveal-count-number");
  if (number) {
    const all = r.event.count ?? 0;
    number.textContent = String(late || r.lit >= counted.length ? all : Math.min(r.lit, all));
  }
  const skip = $("reveal-skip");
  if (r.stage === "done" && document.activeElement === skip) $("reveal-dismiss").focus({ preventScroll: true });
  skip.hidden = r.stage === "done";
}

/** The time until the next step: the count goes faster when many dice counted. */
function revealWait(r) {
  if (r.stage === "lift") return LIFT_MS;
  if (r.stage === "count") {
    const n = $("reveal").querySelectorAll("#reveal-hands .die.counted").length;
    return r.lit < n ? Math.min(380, 2600 / n) : 700;
  }
  return VERDICT_MS;
}

function stepReveal(r) {
  revealTimer = null;
  if (r !== S.reveal || r.dismissed || r.stage === "done") return;
  const n = $("reveal").querySelectorAll("#reveal-hands .die.counted").length;
  if (r.stage === "count" && r.lit < n) r.lit += 1;
  else r.stage = REVEAL_STAGES[REVEAL_STAGES.indexOf(r.stage) + 1];
  applyRevealStage();
  if (r.stage !== "done") revealTimer = setTimeout(() => stepReveal(r), revealWait(r));
}

function startReveal(r) {
  clearTimeout(revealTimer);
  revealTimer = null;
  r.lit = 0;
  r.stage = matchMedia("(prefers-reduced-motion: reduce)").matches ? "done" : "lift";
  applyRevealStage();
  if (r.stage !== "done") revealTimer = setTimeout(() => stepReveal(r), revealWait(r));
}

function skipReveal() {
  const r = S.reveal;
  if (!r || !r.stage) return;
  clearTimeout(revealTimer);
  revealTimer = null;
  r.stage = "done";
  applyRevealStage();
}

export function renderReveal() {
  const box = $("reveal");
  const r = S.reveal;
  if (!r || r.dismissed || !inGame()) {
    if (!box.hidden) {
      box.hidden = true;
      document.body.style.overflow = "";
      // The reveal opened by itself: my turn's first control matters more than its opener.
      releaseFocus(box, (opener) => [myTurn() ? turnControl() : null, opener, $("events")]);
    }
    return;
  }
  const e = r.event;
  const claim = r.claim;
  const bid = parseBid(e.bid);
  box.dataset.bid = e.bid ?? "";
  box.dataset.count = e.count ?? "";
  box.dataset.claim = claim?.type ?? "";
  box.dataset.losers = r.outcomes.filter((o) => o.type === "DiceLost").map((o) => nameOf(o.player)).join(",");

  const claimLine = $("reveal-claim");
  claimLine.replaceChildren();
  if (claim) claimLine.append(narrate(claim));

  const order = S.view?.order?.length ? S.view.order : [...(e.hands || []).keys()];
  const hands = $("reveal-hands");
  hands.replaceChildren();
  for (const p of order) {
    const hand = e.hands?.[p] || [];
    if (!hand.length) continue;
    const dice = el("div", { class: "dice" });
    const isPasser = e.passer != null && p === e.passer;
    hand.forEach((face, index) => {
      const counted = bid ? countsForReveal(e, p, index) : isPasser;
      const die = dieEl(face, { counted });
      if (bid && !counted) die.classList.add("dim");
      dice.append(die);
    });
    const rname = el("span", { class: "rname" }, avatar(nameOf(p), S.view?.seats?.[p] ?? p, 22), nameOf(p));
    const row = el("li", { dataset: { player: p } }, rname, dice);
    // The cups lift one after another.
    row.style.animationDelay = `${Math.min(hands.children.length * 110, 440)}ms`;
    hands.append(row);
  }

  const countBox = $("reveal-count");
  const verdict = $("reveal-verdict");
  countBox.replaceChildren();
  if (bid && e.count != null) {
    countBox.hidden = false;
    countBox.append(
      tNodes("reveal.count", {
        count: el("strong", { id: "reveal-count-number" }, String(e.count)),
        die: dieEl(bid.face, { size: "small", decorative: true }),
        bid: bidNode(e.bid),
      }),
    );
    const exactClaim = claim?.type === "SpotOnClaimed";
    let text;
    if (exactClaim) text = e.count === bid.quantity ? t("reveal.exact") : t("reveal.not_exact");
    else text = e.count >= bid.quantity ? t("reveal.stands") : t("reveal.fails");
    const wild = bid.face === 1 ? t("reveal.aces_only") : e.wild_aces ? t("reveal.aces_wild") : t("reveal.aces_not_wild");
    verdict.textContent = `${text} (${wild})`;
  } else if (e.passer != null) {
    countBox.hidden = true;
    verdict.textContent = e.pass_hand
      ? t("reveal.pass_good", { name: nameOf(e.passer), hand: handName(e.pass_hand) })
      : t("reveal.pass_bluff", { name: nameOf(e.passer) });
  } else {
    countBox.hidden = true;
    verdict.textContent = "";
  }

  const outcomes = $("reveal-outcomes");
  outcomes.replaceChildren(
    ...r.outcomes.map((o) =>
      el(
        "li",
        { class: o.type === "DiceLost" || o.type === "Eliminated" ? "lost" : "won", dataset: { type: o.type } },
        narrate(o),
      ),
    ),
  );
  if (box.hidden) {
    box.hidden = false;
    holdFocus(box);
    $("reveal-dismiss").focus({ preventScroll: true });
  }
  if (!r.stage) startReveal(r);
  else applyRevealStage();
}

function dismissReveal() {
  if (S.reveal) {
    S.reveal.dismissed = true;
    rememberReveal(S.reveal.event);
  }
  clearTimeout(revealTimer);
  revealTimer = null;
  renderReveal();
}

/** The reveal's buttons; a click beside its card or Esc dismisses it too. */
export function bindReveal() {
  $("reveal-dismiss").addEventListener("click", dismissReveal);
  $("reveal-skip").addEventListener("click", skipReveal);
  $("reveal").addEventListener("click", (e) => {
    if (e.target === $("reveal")) $("reveal-dismiss").click();
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !$("reveal").hidden) $("reveal-dismiss").click();
  });
}
