// realcalls.js — calling at a real table, where the bids are said aloud: "Dudo!", "Calzo" and
// "Dudo el paso", as table.real.calls lists them for this phone. A tap opens a picker of the
// standing bid (the one entered last, when there is one: the bids said after it change it) and
// whose it was (for the doubt of a pass: who passed, on which bid), the player before me
// preselected; confirming sends the `call` frame with the view's turn, and the server plays
// what was said (the engine's `said`) and the call. The same picker enters my own bid when it
// is not my turn (`act`: the server takes a bid entered out of turn as said aloud). Nothing
// here decides what is legal: a refusal comes back in words, in the picker.
//
// Test hooks:
//   #real-calls > #real-call, #real-spot-on, #real-doubt-pass (data-call; hidden unless listed)
//   #real-picker    the dialog: data-mode = call | spot-on | doubt-pass | bid, data-sent (the
//                   turn it was sent on, while waiting for the answer)
//     #real-q-less, #real-q (the quantity), #real-q-more, #real-faces > button.face-pick
//     [data-face][aria-pressed], #real-whose (hidden for a bid) > input[name=real-whose]
//     [value=player] (checked: the one chosen), #real-picker-summary, #real-picker-error
//     (data-code), #real-picker-send, #real-picker-cancel

import { bidNode, dieEl } from "/static/dice.js";
import { faceName, parseBid, t, tNodes, wordError } from "/static/i18n.js";
import { holdFocus, releaseFocus } from "/static/focus.js";
import { $, S, nameOf, send } from "/static/tablestate.js";
import { el } from "/static/ui.js";

const BUTTONS = { call: "real-call", "spot-on": "real-spot-on", "doubt-pass": "real-doubt-pass" };
const LABELS = { call: "real.call", "spot-on": "act.spot_on", "doubt-pass": "act.doubt_pass" };

const P = {
  mode: null, // the picker's call, or "bid"; null: closed
  quantity: 1,
  face: 2,
  whose: null, // the bidder (who passed, for doubt-pass)
  sent: null, // the view's turn the frame was sent on, until answered
  round: null, // "game|round" the picker was opened in
};

// ---------------------------------------------------------------------------- the order

/** The players still in the game, clockwise as they sit (view.order). */
function seated(v) {
  const order = v.order?.length ? v.order : [...Array(v.players).keys()];
  return order.filter((p) => (v.dice_counts[p] ?? 0) > 0);
}

/** Who speaks just before `player`: clockwise play goes round view.order, counterclockwise
 * back round it (the table's rules say which). */
export function playerBefore(v, player) {
  const order = seated(v);
  const at = order.indexOf(player);
  if (at < 0 || order.length < 2) return order[0] ?? null;
  const step = S.table?.rules?.direction === "counterclockwise" ? 1 : -1;
  return order[(at + step + order.length) % order.length];
}

// ---------------------------------------------------------------------------- the picker

function totalDice(v) {
  return (v.dice_counts || []).reduce((a, b) => a + b, 0);
}

function roundKey() {
  return `${S.game}|${S.view?.round}`;
}

function heading(mode) {
  return t(`real.picker_${mode.replace("-", "_")}`);
}

function faceButton(face) {
  const button = el(
    "button",
    {
      type: "button",
      class: "face-pick",
      dataset: { face },
      "aria-pressed": String(face === P.face),
      "aria-label": faceName(face, true),
      title: faceName(face, true),
    },
    dieEl(face, { decorative: true }),
  );
  button.addEventListener("click", () => {
    P.face = face;
    drawChoice();
  });
  return button;
}

function whoseItem(player) {
  const input = el("input", { type: "radio", name: "real-whose", value: player });
  input.checked = player === P.whose;
  input.addEventListener("change", () => {
    P.whose = player;
    drawChoice();
  });
  return el("label", { class: "inline real-whose-item" }, input, el("span", {}, nameOf(player)));
}

function buildPicker(v) {
  const faces = v.faces || 6;
  $("real-faces").replaceChildren(...Array.from({ length: faces }, (_, i) => faceButton(i + 1)));
  $("real-picker").dataset.mode = P.mode;
  $("real-whose").hidden = P.mode === "bid";
  const others = seated(v).filter((p) => p !== v.viewer);
  $("real-whose-list").replaceChildren(...others.map(whoseItem));
  showError("", "");
}

/** The picker's words (again after a change of language). */
function drawWords(v) {
  $("real-picker-heading").textContent = heading(P.mode);
  $("real-whose-legend").textContent = P.mode === "doubt-pass" ? t("real.whose_pass") : t("real.whose_bid");
  let help = "real.picker_help_spoken";
  if (P.mode === "bid") help = "real.picker_help_bid";
  else if (v.standing_bid) help = "real.picker_help_entered";
  $("real-picker-help").textContent = t(help);
  for (const b of $("real-faces").querySelectorAll(".face-pick")) {
    const name = faceName(Number(b.dataset.face), true);
    b.setAttribute("aria-label", name);
    b.title = name;
  }
}

/** Show the chosen bid and whose, and the confirm button's words. */
function drawChoice() {
  const v = S.view;
  const bid = `${P.quantity}x${P.face}`;
  drawWords(v);
  $("real-q").textContent = String(P.quantity);
  $("real-q-less").setAttribute("aria-disabled", String(P.quantity <= 1));
  $("real-q-more").setAttribute("aria-disabled", String(P.quantity >= totalDice(v)));
  for (const b of $("real-faces").querySelectorAll(".face-pick")) {
    b.setAttribute("aria-pressed", String(Number(b.dataset.face) === P.face));
  }
  for (const input of $("real-whose-list").querySelectorAll("input")) input.checked = Number(input.value) === P.whose;
  const summary = $("real-picker-summary");
  let key = "real.summary_bid";
  if (P.mode === "bid") key = "real.summary_mine";
  else if (P.mode === "doubt-pass") key = "real.summary_pass";
  summary.replaceChildren(tNodes(key, { bid: bidNode(bid), name: nameOf(P.whose) }));
  const sendButton = $("real-picker-send");
  sendButton.dataset.bid = bid;
  if (P.mode === "bid") sendButton.replaceChildren(tNodes("act.bid", { bid: bidNode(bid) }));
  else sendButton.textContent = t(LABELS[P.mode]);
  sendButton.disabled = P.sent != null || (P.mode !== "bid" && P.whose == null);
  $("real-picker").dataset.sent = P.sent == null ? "" : String(P.sent);
}

function showError(text, code) {
  const box = $("real-picker-error");
  box.textContent = text;
  box.dataset.code = code;
}

function step(dir) {
  const next = P.quantity + dir;
  if (next < 1 || next > totalDice(S.view)) return;
  P.quantity = next;
  drawChoice();
}

/** Open the picker for `mode` (a call, or "bid"), on the standing bid entered if any. */
export function openPicker(mode) {
  const v = S.view;
  if (!v || v.viewer == null) return;
  const standing = parseBid(v.standing_bid);
  P.mode = mode;
  P.sent = null;
  P.round = roundKey();
  P.quantity = standing ? standing.quantity + (mode === "bid" ? 1 : 0) : 1;
  P.face = standing ? standing.face : Math.min(2, v.faces || 6);
  P.quantity = Math.max(1, Math.min(P.quantity, totalDice(v)));
  P.whose = mode === "bid" ? null : playerBefore(v, v.viewer);
  buildPicker(v);
  drawChoice();
  const box = $("real-picker");
  box.hidden = false;
  holdFocus(box);
  $("real-picker-send").focus({ preventScroll: true });
}

export function closePicker() {
  if (P.mode == null) return;
  P.mode = null;
  P.sent = null;
  const box = $("real-picker");
  box.hidden = true;
  box.dataset.mode = "";
  releaseFocus(box, (opener) => [opener, $("real-call")]);
}

function sendPick() {
  const v = S.view;
  if (!v || P.sent != null) return;
  const bid = `${P.quantity}x${P.face}`;
  const frame =
    P.mode === "bid"
      ? { type: "act", action: bid, turn: v.turn }
      : { type: "call", call: P.mode, bid, bidder: P.whose, turn: v.turn };
  if (!send(frame)) {
    showError(t("conn.not_sent"), "not_sent");
    return;
  }
  P.sent = v.turn;
  showError("", "");
  drawChoice();
}

/** An error frame: the answer to the picker's frame, shown in it. True when it was. */
export function pickerRefused(frame) {
  if (P.mode == null || P.sent == null) return false;
  P.sent = null;
  showError(wordError(frame), frame.code || "");
  drawChoice();
  return true;
}

// ---------------------------------------------------------------------------- the buttons

/** The call buttons as table.real.calls lists them for me (`ready`: every cup has rolled);
 * the picker closes once its frame was played, or when the round it was opened in is over. */
export function renderCalls(ready) {
  const v = S.view;
  const listed = ready ? S.table?.real?.calls?.[String(v.viewer)] || [] : [];
  for (const [call, id] of Object.entries(BUTTONS)) {
    const button = $(id);
    button.hidden = !listed.includes(call);
    button.textContent = t(LABELS[call]);
  }
  $("real-calls").hidden = listed.length === 0;
  if (P.mode == null) return;
  const answered = P.sent != null && v.turn > P.sent;
  if (answered || P.round !== roundKey() || v.phase === "over") closePicker();
  else drawChoice();
}

export function bindCalls() {
  for (const [call, id] of Object.entries(BUTTONS)) $(id).addEventListener("click", () => openPicker(call));
  $("real-q-less").addEventListener("click", () => step(-1));
  $("real-q-more").addEventListener("click", () => step(+1));
  $("real-picker-send").addEventListener("click", sendPick);
  $("real-picker-cancel").addEventListener("click", closePicker);
  $("real-picker").addEventListener("click", (e) => {
    if (e.target === $("real-picker")) closePicker();
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && P.mode != null) closePicker();
  });
}
