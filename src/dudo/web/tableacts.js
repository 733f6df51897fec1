// tableacts.js — acting on the table page: sending my move (one at a time: the controls wait
// for the server's answer, or 8 s), asking whether a move is legal and showing why not in
// #bid-explain, and the #actions card: the obliger's choice, the calls and the bid entry
// (bidentry.js), each shown only when legal. The hooks are listed in table.js.

import { closeSheet, markKeys, renderBidEntry } from "/static/bidentry.js";
import { actionText, callWord, t, wordReason } from "/static/i18n.js";
import { $, S, inGame, myTurn, send } from "/static/tablestate.js";
import { toast } from "/static/ui.js";

const PENDING_MS = 8000;

export function clearPending() {
  S.pending = false;
  clearTimeout(S.pendingTimer);
}

export function act(action) {
  if (!S.view || S.pending) return;
  if (!send({ type: "act", action, turn: S.view.turn })) {
    toast(t("conn.not_sent"), "error");
    return;
  }
  S.pending = true;
  S.autoNotice = null;
  S.pendingTimer = setTimeout(() => {
    S.pending = false;
    renderActions();
  }, PENDING_MS);
  renderActions();
}

/** Ask the server whether `action` is legal now and why not; `quiet`: without saying so in
 *  #bid-explain (typed text answers by its field). True when the frame was sent. */
export function explain(action, { quiet = false } = {}) {
  if (!quiet) {
    const box = $("bid-explain");
    box.dataset.legal = "";
    box.dataset.action = action;
    box.textContent = t("game.explaining", { bid: actionText(action) });
  }
  if (!send({ type: "explain", action })) {
    toast(t("conn.not_sent"), "error");
    return false;
  }
  return true;
}

export function showExplain(frame) {
  const box = $("bid-explain");
  box.dataset.action = frame.action;
  box.dataset.legal = frame.legal ? "true" : "false";
  if (frame.legal) {
    box.textContent = t("game.legal_now", { bid: actionText(frame.action) });
    return;
  }
  // The engine's reason, worded here: the frame's `problem` is the server's English.
  const why = frame.reason ? wordReason(frame.reason) : t("game.not_allowed");
  box.textContent = `${actionText(frame.action)}: ${why}`;
}

export function renderActions() {
  const v = S.view;
  const box = $("actions");
  if (!inGame() || !v) {
    box.hidden = true;
    closeSheet();
    return;
  }
  const legal = v.legal || [];
  box.hidden = legal.length === 0 || v.phase === "over";
  if (box.hidden) {
    closeSheet();
    return;
  }
  $("actions-heading").textContent = myTurn() ? t("game.your_move") : t("game.out_of_turn");
  const has = (a) => legal.includes(a);
  // Obliger's choice.
  $("choice-buttons").hidden = !(has("open") || has("closed"));
  setButton("action-open", has("open"), t("act.open", { word: callWord("open") }));
  setButton("action-closed", has("closed"), t("act.closed", { word: callWord("closed") }));
  // Calls.
  setButton("action-call", has("call"), myTurn() ? t("act.call") : t("act.call_out"));
  setButton("action-spot-on", has("spot-on"), t("act.spot_on"));
  setButton("action-pass", has("pass"), t("act.pass"));
  setButton("action-doubt-pass", has("doubt-pass"), t("act.doubt_pass"));
  markKeys();
  // Bids.
  const bids = v.legal_bids || [];
  $("bid-area").hidden = bids.length === 0;
  renderBidEntry(v, S.game);
  for (const b of box.querySelectorAll("button")) b.toggleAttribute("data-pending", S.pending);
  for (const b of box.querySelectorAll("button[data-action]")) b.disabled = S.pending;
}

function setButton(id, visible, label) {
  const b = $(id);
  b.hidden = !visible;
  b.textContent = label;
}

/** The buttons of the calls and the obliger's choice play their data-action. */
export function bindActs() {
  for (const id of ["action-call", "action-spot-on", "action-pass", "action-doubt-pass", "action-open", "action-closed"]) {
    $(id).addEventListener("click", () => act($(id).dataset.action));
  }
}
