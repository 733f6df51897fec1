// tutorial.js — the tutorial (GET /tutorial, /tutorial/<lesson>): scripted games against bots
// on fixed dice, with a coach. The server judges every move with the engine (POST
// /api/tutorial/<lesson>, docs/tutorial.md); this page keeps only the learner's accepted moves
// (in sessionStorage, so a reload resumes) and draws what the server answers.
//
// Test hooks:
//   main#learn-main  data-state (loading | lessons | playing | done), data-lesson, data-step
//   #lesson-list > li > a.lesson-link[href="/tutorial/<name>"]
//   #coach-text      what the coach says; the move it asks for is strong.coach-do (a bid, or
//                    the words of the call button to tap)
//   #coach-note      data-verdict (right | illegal | other): the engine's reason for a refused
//                    move, or why the step wants another one
//   #learn-faces > button.face-pick[data-face], #learn-less, #learn-quantity, #learn-more,
//   #learn-bid[data-action="3x4"], #learn-calls > button[data-action]
//   #learn-reveal    a round's end (hands, .die.counted, the count, who lost or won), closed
//                    with #learn-reveal-dismiss

import "/static/pwa.js";
import { api } from "/static/api.js";
import { actionNode, bidNode, dieEl, renderDice } from "/static/dice.js";
import { bidText, faceName, has, onLangChange, parseBid, t, tNodes, wordError, wordReason } from "/static/i18n.js";
import { countsForReveal, handName, narrateEvent } from "/static/narrate.js";
import { el, startPage, toast } from "/static/ui.js";

const $ = (id) => document.getElementById(id);

/** The catalogue key of each call button's words (the table page's own). */
const CALL_LABELS = { call: "act.call", "spot-on": "act.spot_on", pass: "act.pass", "doubt-pass": "act.doubt_pass" };
const CALL_BUTTONS = { call: "learn-call", "spot-on": "learn-spot-on", pass: "learn-pass", "doubt-pass": "learn-doubt-pass" };

const L = {
  lessons: [],
  name: null, // the lesson being played
  answer: null, // the server's last answer
  face: null,
  quantity: 1,
  busy: false,
  reveals: [], // reveals still to show: {claim, event, outcomes}
};

function lessonInPath() {
  const m = /^\/tutorial\/([\w-]+)\/?$/.exec(location.pathname);
  return m ? decodeURIComponent(m[1]) : null;
}

// ------------------------------------------------------------------------- the moves kept

function storeKey() {
  return `dudo.tutorial.${L.name}`;
}

function storedMoves() {
  try {
    const moves = JSON.parse(sessionStorage.getItem(storeKey()) || "[]");
    return Array.isArray(moves) && moves.every((m) => typeof m === "string") ? moves : [];
  } catch {
    return [];
  }
}

function storeMoves(moves) {
  try {
    sessionStorage.setItem(storeKey(), JSON.stringify(moves));
  } catch {
    /* no storage: a reload starts the lesson again */
  }
}

// ------------------------------------------------------------------------- asking the coach

async function ask(moves, tried = null) {
  return api(`/api/tutorial/${encodeURIComponent(L.name)}`, {
    method: "POST",
    body: tried == null ? { moves } : { moves, try: tried },
  });
}

async function start(moves) {
  try {
    L.answer = await ask(moves);
  } catch (err) {
    // Moves kept from an older version of the lesson: it starts again.
    if (!moves.length || err.status !== 400) throw err;
    L.answer = await ask([]);
  }
  storeMoves(L.answer.moves);
  chooseFace();
  render();
}

async function play(action) {
  if (L.busy || !L.answer || L.answer.done) return;
  L.busy = true;
  render();
  try {
    const answer = await ask(L.answer.moves, action);
    if (answer.verdict === "right") {
      L.reveals = revealsIn(answer.events);
      storeMoves(answer.moves);
      L.answer = answer;
      chooseFace();
    } else {
      // Nothing changed: the same step, with the coach's note.
      L.answer = { ...L.answer, verdict: answer.verdict, reason: answer.reason, note: answer.note };
    }
  } catch (err) {
    toast(wordError(err), "error", 8000);
  } finally {
    L.busy = false;
    render();
  }
}

// ------------------------------------------------------------------------- words

function nameOf(p) {
  if (!L.answer) return String(p);
  return p === L.answer.learner ? t("learn.you") : L.answer.view.names[p] || String(p);
}

/** The coach's words: a bid in its parameters drawn as a bid; the move asked for (`bid`, or
 * the `call` button's words) in strong.coach-do. */
function coachWords(key, params) {
  const filled = {};
  for (const [name, value] of Object.entries(params || {})) {
    if (name === "call") filled[name] = el("strong", { class: "coach-do" }, t(CALL_LABELS[value] || value));
    else if (parseBid(value)) filled[name] = name === "bid" ? el("strong", { class: "coach-do" }, bidNode(value)) : bidNode(value);
    else filled[name] = value;
  }
  return tNodes(key, filled);
}

// ------------------------------------------------------------------------- drawing

function render() {
  const main = $("learn-main");
  const a = L.answer;
  if (!a) return;
  const lesson = a;
  main.dataset.state = a.done ? "done" : "playing";
  main.dataset.lesson = a.name;
  main.dataset.step = String(a.step);
  $("lessons").hidden = true;
  $("coach").hidden = false;
  // Once the lesson is over the next round's dice mean nothing: only the coach and the way on.
  $("learn-table").hidden = a.done;
  $("coach-heading").textContent = t(lesson.title);
  $("coach-step").textContent = t("learn.step", { n: Math.min(a.step + 1, a.steps), count: a.steps });
  $("coach-text").replaceChildren(coachWords(a.coach.key, a.coach.params));
  renderNote(a);
  renderPlayers(a.view);
  renderBids(a.view);
  renderMine(a.view);
  $("learn-moves").hidden = a.done;
  $("learn-done").hidden = !a.done;
  if (!a.done) renderMoves(a);
  renderReveal();
}

/** The engine's reason for a refused move: about the learner in its "you" form, about a bot
 * with the bot's name (the engine names players by number). */
function refusal(reason) {
  const params = { ...(reason?.params || {}) };
  if (Number.isInteger(params.player)) {
    const you = `reason.${reason.code}_you`;
    if (params.player === L.answer.learner && has(you)) return t(you);
    params.player = nameOf(params.player);
  }
  return wordReason({ ...reason, params });
}

function renderNote(a) {
  const note = $("coach-note");
  note.dataset.verdict = a.verdict || "";
  if (a.verdict === "illegal") note.replaceChildren(t("learn.refused", { reason: refusal(a.reason) }));
  else if (a.verdict === "other") note.replaceChildren(coachWords(a.note, a.coach.params));
  else if (a.verdict === "right") note.replaceChildren(t("learn.well_done"));
  note.hidden = !a.verdict;
}

function renderPlayers(v) {
  const rows = [];
  for (const p of v.order) {
    if (p === L.answer.learner) continue;
    const seen = v.seen_dice[p];
    const dice = el("span", { class: "dice learn-hand" });
    if (seen && seen.length) renderDice(dice, seen, { size: "small" });
    else renderDice(dice, [], { hiddenCount: v.dice_counts[p], size: "small" });
    rows.push(
      el(
        "li",
        { dataset: { player: p }, class: v.to_move === p ? "to-move" : null },
        el("span", { class: "who" }, nameOf(p)),
        el("span", { class: "muted small" }, t("learn.dice_count", { count: v.dice_counts[p] })),
        dice,
      ),
    );
  }
  $("learn-players").replaceChildren(...rows);
}

function renderBids(v) {
  const items = (v.round_actions || []).map(([p, action]) =>
    el("li", { dataset: { player: p } }, el("span", { class: "who" }, nameOf(p)), actionNode(action)),
  );
  if (!items.length) items.push(el("li", { class: "muted" }, t("learn.no_bids")));
  $("learn-bids").replaceChildren(...items);
}

function renderMine(v) {
  const box = $("learn-dice");
  if (v.my_dice) renderDice(box, v.my_dice, { size: "big" });
  else renderDice(box, [], { hiddenCount: v.dice_counts[L.answer.learner], size: "big" });
  $("learn-dice-hidden").hidden = !!v.my_dice || v.visibility !== "open";
}

/** The face and quantity the picker starts a step on: the standing bid's face, else the face
 * held most; the lowest legal quantity of it (the engine's list of legal bids). */
function chooseFace() {
  const v = L.answer.view;
  const standing = parseBid(v.standing_bid);
  let face = standing ? standing.face : null;
  if (face == null) {
    const held = new Map();
    for (const f of v.my_dice || []) held.set(f, (held.get(f) || 0) + 1);
    face = [...held.keys()].sort((x, y) => held.get(y) - held.get(x) || y - x)[0] ?? 2;
  }
  setFace(face);
}

function setFace(face) {
  const v = L.answer.view;
  L.face = face;
  const legal = (v.legal_bids || []).filter(([, f]) => f === face).map(([q]) => q);
  L.quantity = legal.length ? Math.min(...legal) : Math.min(L.quantity || 1, diceInPlay(v));
}

function diceInPlay(v) {
  return v.dice_counts.reduce((sum, n) => sum + n, 0);
}

function renderMoves(a) {
  const v = a.view;
  const faces = [];
  for (let f = 1; f <= (v.faces || 6); f++) {
    faces.push(
      el(
        "button",
        {
          type: "button",
          class: "face-pick",
          dataset: { face: f },
          "aria-pressed": f === L.face ? "true" : "false",
          "aria-label": faceName(f, true),
          title: faceName(f, true),
          onclick: () => {
            setFace(f);
            render();
          },
        },
        dieEl(f, { decorative: true }),
      ),
    );
  }
  $("learn-faces").replaceChildren(...faces);
  $("learn-quantity").textContent = String(L.quantity);
  $("learn-less").disabled = L.busy || L.quantity <= 1;
  $("learn-more").disabled = L.busy || L.quantity >= diceInPlay(v);
  const bid = `${L.quantity}x${L.face}`;
  const send = $("learn-bid");
  send.dataset.action = bid;
  send.textContent = t("act.bid", { bid: bidText(bid) });
  send.disabled = L.busy;
  for (const [call, id] of Object.entries(CALL_BUTTONS)) {
    $(id).hidden = !a.calls.includes(call);
    $(id).disabled = L.busy;
  }
}

// ------------------------------------------------------------------------- the reveal

/** The reveals among new events: each with the claim it settled and its outcomes. */
function revealsIn(events) {
  const out = [];
  let claim = null;
  let current = null;
  for (const e of events || []) {
    if (["Called", "SpotOnClaimed", "PassDoubted"].includes(e.type)) claim = e;
    else if (e.type === "Revealed") {
      current = { claim, event: e, outcomes: [] };
      out.push(current);
    } else if (["DiceLost", "DieWon", "Eliminated", "GameOver"].includes(e.type) && current) {
      current.outcomes.push(e);
    } else if (e.type === "RoundStarted") current = null;
  }
  return out;
}

function claimWords(claim) {
  const you = L.answer.learner;
  if (claim.type === "Called" && claim.player === you) {
    return tNodes("learn.you_called", { bidder: nameOf(claim.bidder), bid: bidNode(claim.bid) });
  }
  if (claim.type === "SpotOnClaimed" && claim.player === you) {
    return tNodes("learn.you_spot_on", { bidder: nameOf(claim.bidder), bid: bidNode(claim.bid) });
  }
  if (claim.type === "PassDoubted" && claim.passer === you) {
    return tNodes("learn.doubts_your_pass", { name: nameOf(claim.player) });
  }
  return narrateEvent(claim, nameOf);
}

function outcomeWords(o) {
  const you = L.answer.learner;
  if (o.type === "DiceLost" && o.player === you) return t("learn.you_lose", { count: o.remaining });
  if (o.type === "DieWon" && o.player === you) return t("learn.you_win", { count: o.remaining });
  return narrateEvent(o, nameOf);
}

function verdictWords(r) {
  const e = r.event;
  const bid = parseBid(e.bid);
  if (bid && e.count != null) {
    const exact = r.claim?.type === "SpotOnClaimed";
    const text = exact
      ? t(e.count === bid.quantity ? "reveal.exact" : "reveal.not_exact")
      : t(e.count >= bid.quantity ? "reveal.stands" : "reveal.fails");
    const wild = bid.face === 1 ? "reveal.aces_only" : e.wild_aces ? "reveal.aces_wild" : "reveal.aces_not_wild";
    return `${text} (${t(wild)})`;
  }
  if (e.passer == null) return "";
  if (e.passer === L.answer.learner) {
    return e.pass_hand ? t("learn.your_pass_good", { hand: handName(e.pass_hand) }) : t("learn.your_pass_bluff");
  }
  return e.pass_hand
    ? t("reveal.pass_good", { name: nameOf(e.passer), hand: handName(e.pass_hand) })
    : t("reveal.pass_bluff", { name: nameOf(e.passer) });
}

function renderReveal() {
  const box = $("learn-reveal");
  const r = L.reveals[0];
  box.hidden = !r;
  if (!r) return;
  const e = r.event;
  const bid = parseBid(e.bid);
  $("learn-reveal-claim").replaceChildren(r.claim ? claimWords(r.claim) : "");
  const rows = [];
  (e.hands || []).forEach((hand, p) => {
    if (!hand.length) return;
    const dice = el("div", { class: "dice" });
    hand.forEach((face, i) => {
      const counted = bid ? countsForReveal(e, p, i) : p === e.passer;
      const die = dieEl(face, { counted });
      if (bid && !counted) die.classList.add("dim");
      dice.append(die);
    });
    rows.push(el("li", { dataset: { player: p } }, el("span", { class: "rname" }, nameOf(p)), dice));
  });
  $("learn-reveal-hands").replaceChildren(...rows);
  const count = $("learn-reveal-count");
  count.hidden = !(bid && e.count != null);
  count.replaceChildren();
  if (!count.hidden) {
    count.append(
      tNodes("reveal.count", {
        count: el("strong", {}, String(e.count)),
        die: dieEl(bid.face, { size: "small", decorative: true }),
        bid: bidNode(e.bid),
      }),
    );
  }
  $("learn-reveal-verdict").textContent = verdictWords(r);
  $("learn-reveal-outcomes").replaceChildren(
    ...r.outcomes.map((o) =>
      el("li", { class: o.type === "DieWon" ? "won" : "lost", dataset: { type: o.type } }, outcomeWords(o)),
    ),
  );
  $("learn-reveal-dismiss").focus({ preventScroll: true });
}

// ------------------------------------------------------------------------- the lesson list

function renderLessons() {
  $("learn-main").dataset.state = "lessons";
  $("lessons").hidden = false;
  $("lesson-list").replaceChildren(
    ...L.lessons.map((one) =>
      el(
        "li",
        {},
        el(
          "a",
          { class: "lesson-link", href: `/tutorial/${encodeURIComponent(one.name)}`, dataset: { lesson: one.name } },
          el("strong", { class: "lesson-title" }, t(one.title)),
          el("span", { class: "muted small" }, t(`learn.${one.name}.summary`)),
          el("span", { class: "muted small" }, t("learn.steps", { count: one.steps })),
        ),
      ),
    ),
  );
}

function bind() {
  $("learn-less").addEventListener("click", () => {
    L.quantity = Math.max(1, L.quantity - 1);
    render();
  });
  $("learn-more").addEventListener("click", () => {
    L.quantity = Math.min(diceInPlay(L.answer.view), L.quantity + 1);
    render();
  });
  $("learn-bid").addEventListener("click", () => play($("learn-bid").dataset.action));
  for (const id of Object.values(CALL_BUTTONS)) $(id).addEventListener("click", () => play($(id).dataset.action));
  $("learn-reveal-dismiss").addEventListener("click", () => {
    L.reveals.shift();
    render();
  });
  $("learn-restart").addEventListener("click", () => {
    L.reveals = [];
    start([]);
  });
}

startPage(async () => {
  bind();
  L.name = lessonInPath();
  onLangChange(() => (L.name ? render() : renderLessons()));
  if (!L.name) {
    L.lessons = (await api("/api/tutorial")).lessons;
    renderLessons();
    return;
  }
  await start(storedMoves());
});
