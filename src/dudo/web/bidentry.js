// bidentry.js — making a bid on the table page, phone first.
//
// Three ways to the same bids, all fed by the seat's legal actions in the view (the engine's
// word: nothing here decides what is legal):
//   - the quick entry: a row of the faces (#bid-faces > button.face-pick[data-face], the chosen
//     one aria-pressed="true"), a quantity stepper (#bid-less, #bid-quantity, #bid-more) that
//     starts at the lowest legal quantity of the chosen face, and #bid-send (data-action="3x4")
//     that plays the chosen bid; reveal-and-reroll variants of it are button.reveal-bid
//     [data-action="3x4 reveal 4,4"] in #bid-confirm;
//   - the full grid, one tap away (#bid-grid-toggle opens the #bid-sheet dialog with
//     #bid-picker > button.bid-cell[data-bid]); a legal cell chooses that bid and closes the
//     sheet, so #bid-send confirms it;
//   - typing (#bid-text in form#bid-type): the text goes to the server as it is ("5x3", "cinco
//     trenes", "dudo"), which reads the spoken forms; it is checked with `explain` first and
//     played only if legal. A refusal shows in #bid-text-error (data-code) and changes nothing.
// Greyed choices (aria-disabled="true": a face without a legal bid, a step to an illegal
// quantity, a grid cell) are still tappable and focusable: they ask the server why not, and the
// answer shows in #bid-explain.
// Keys, when the focus is not in a text field: D Dudo (call), C Calzo (spot on), P Paso (pass),
// X doubt the pass, B type a bid, G the full grid. The buttons show their key (kbd). The grid
// is one Tab stop (a roving tabindex: the cell that has it, tabindex="0"): the arrows, Home, End
// (Ctrl: the grid's ends) and Page Up/Down move in it; while open it holds the focus (focus.js)
// and Esc or G closes it onto what opened it. turnControl() is the first control of a turn.

import { bidNode, dieEl } from "/static/dice.js";
import { faceName, lang, parseBid, t, tNodes, wordError, wordReason } from "/static/i18n.js";
import { holdFocus, releaseFocus, typingIn, usable } from "/static/focus.js";
import { el } from "/static/ui.js";

const $ = (id) => document.getElementById(id);

/** The keys of the calls: the Spanish words the game is named by, in every language. */
const CALL_KEYS = { d: "action-call", c: "action-spot-on", p: "action-pass", x: "action-doubt-pass" };

const E = {
  hooks: null, // {act(action), explain(action), pending(), view(), pointed(bid)?}
  face: null, // the chosen face
  quantity: null, // the chosen quantity
  key: "", // the view the quick entry and the grid were built for
  typed: null, // the text sent to `explain` from the typing field, awaiting its answer
};

// ------------------------------------------------------------------------- legal bids

function legalBids(v) {
  return (v.legal_bids || []).map(([q, f]) => [q, f]);
}

/** The legal quantities of `face`, lowest first. */
function quantitiesOf(v, face) {
  return legalBids(v)
    .filter(([, f]) => f === face)
    .map(([q]) => q)
    .sort((a, b) => a - b);
}

/** The face the quick entry opens on: the standing bid's, else the one I hold most of. */
function firstFace(v) {
  const faces = new Set(legalBids(v).map(([, f]) => f));
  const standing = parseBid(v.standing_bid);
  if (standing && faces.has(standing.face)) return standing.face;
  const held = new Map();
  for (const face of v.my_dice || []) held.set(face, (held.get(face) || 0) + 1);
  const ranked = [...faces].sort((a, b) => (held.get(b) || 0) - (held.get(a) || 0) || a - b);
  return ranked[0] ?? null;
}

function chosen() {
  return E.face != null && E.quantity != null ? `${E.quantity}x${E.face}` : null;
}

// ------------------------------------------------------------------------- the quick entry

function faceLabel(face, ok) {
  const name = faceName(face, true);
  return ok ? name : `${name} (${t("game.not_allowed")})`;
}

function buildFaces(v) {
  const box = $("bid-faces");
  const faces = v.faces || 6;
  const buttons = [];
  for (let f = 1; f <= faces; f++) {
    const ok = quantitiesOf(v, f).length > 0;
    const button = el(
      "button",
      {
        type: "button",
        class: "face-pick",
        dataset: { face: f },
        "aria-pressed": "false",
        "aria-disabled": ok ? "false" : "true",
        "aria-label": faceLabel(f, ok),
        title: faceName(f, true),
      },
      dieEl(f, { decorative: true }),
    );
    button.addEventListener("click", () => pickFace(f));
    // A greyed face says why when it gets the focus, as when it is tapped.
    if (!ok) button.addEventListener("focus", () => explainFace(f));
    buttons.push(button);
  }
  box.replaceChildren(...buttons);
}

function explainFace(face) {
  const v = E.hooks.view();
  const q = E.quantity ?? Math.min(...legalBids(v).map(([quantity]) => quantity));
  E.hooks.explain(`${q}x${face}`);
}

function pickFace(face) {
  const v = E.hooks.view();
  const quantities = quantitiesOf(v, face);
  if (!quantities.length) {
    explainFace(face);
    return;
  }
  E.face = face;
  E.quantity = quantities[0];
  $("bid-explain").textContent = "";
  renderChoice();
}

/** The next legal quantity of the chosen face in direction `dir` (+1 / -1), or null. */
function nextQuantity(v, dir) {
  const quantities = quantitiesOf(v, E.face);
  const further = quantities.filter((q) => (dir > 0 ? q > E.quantity : q < E.quantity));
  if (!further.length) return null;
  return dir > 0 ? further[0] : further[further.length - 1];
}

function step(dir) {
  const v = E.hooks.view();
  if (E.face == null) return;
  const q = nextQuantity(v, dir);
  if (q == null) {
    // Greyed: the server says why the quantity beyond is not allowed.
    const beyond = E.quantity + dir;
    if (beyond < 1) $("bid-explain").textContent = t("bid.no_fewer");
    else E.hooks.explain(`${beyond}x${E.face}`);
    return;
  }
  E.quantity = q;
  $("bid-explain").textContent = "";
  renderChoice();
}

function setGreyed(button, greyed) {
  button.setAttribute("aria-disabled", greyed ? "true" : "false");
}

/** Show the chosen face and quantity, the Bid button and its reveal-and-reroll variants. */
function renderChoice() {
  const v = E.hooks.view();
  const pending = E.hooks.pending();
  for (const b of $("bid-faces").querySelectorAll(".face-pick")) {
    b.setAttribute("aria-pressed", String(Number(b.dataset.face) === E.face));
  }
  const bid = chosen();
  const number = $("bid-quantity");
  number.textContent = E.quantity == null ? "–" : String(E.quantity);
  setGreyed($("bid-less"), bid == null || nextQuantity(v, -1) == null);
  setGreyed($("bid-more"), bid == null || nextQuantity(v, +1) == null);
  const send = $("bid-send");
  send.hidden = bid == null;
  if (bid) {
    E.hooks.pointed?.(bid);
    send.dataset.action = bid;
    send.replaceChildren(tNodes("act.bid", { bid: bidNode(bid) }));
    send.setAttribute("aria-label", t("act.bid", { bid: `${E.quantity} × ${faceName(E.face, E.quantity !== 1)}` }));
  }
  send.disabled = pending;
  // The grid shows the chosen bid as pressed.
  for (const cell of document.querySelectorAll("#bid-picker .bid-cell")) {
    cell.setAttribute("aria-pressed", String(cell.dataset.bid === bid));
  }
  renderReveals(bid, pending);
}

function renderReveals(bid, pending) {
  const v = E.hooks.view();
  const box = $("bid-confirm");
  const reveals = bid
    ? (v.legal_reveals || (v.legal || []).filter((a) => / reveal /.test(a))).filter((a) =>
        a.startsWith(`${bid} reveal `),
      )
    : [];
  box.hidden = reveals.length === 0;
  box.replaceChildren(
    ...reveals.map((action) => {
      const b = parseBid(action);
      const button = el(
        "button",
        { type: "button", class: "reveal-bid", dataset: { action } },
        t("act.reveal_bid", { dice: b.reveal.join(", ") }),
      );
      button.addEventListener("click", () => E.hooks.act(action));
      button.disabled = pending;
      return button;
    }),
  );
}

// ------------------------------------------------------------------------- the full grid

function pickerRange(v) {
  const bids = legalBids(v);
  const total = (v.dice_counts || []).reduce((a, b) => a + b, 0);
  let low = Math.min(...bids.map(([q]) => q));
  const standing = parseBid(v.standing_bid);
  if (standing) low = Math.min(low, standing.quantity);
  const high = Math.max(total, ...bids.map(([q]) => q));
  return { low: Math.max(1, low), high };
}

function buildGrid(v) {
  const picker = $("bid-picker");
  const legal = new Set(legalBids(v).map(([q, f]) => `${q}x${f}`));
  const faces = v.faces || 6;
  const { low, high } = pickerRange(v);
  const head = el("tr");
  for (let f = 1; f <= faces; f++) {
    head.append(el("th", { scope: "col", title: faceName(f, true) }, dieEl(f, { label: faceName(f, true) })));
  }
  const body = el("tbody");
  for (let q = low; q <= high; q++) {
    const row = el("tr", { dataset: { quantity: q } });
    for (let f = 1; f <= faces; f++) {
      const bid = `${q}x${f}`;
      const ok = legal.has(bid);
      const words = `${q} × ${faceName(f, q !== 1)}`;
      const button = el(
        "button",
        {
          type: "button",
          class: `bid-cell${ok ? "" : " illegal"}`,
          dataset: { bid },
          "aria-disabled": ok ? "false" : "true",
          "aria-pressed": "false",
          "aria-label": ok ? words : `${words} (${t("game.not_allowed")})`,
        },
        String(q),
        dieEl(f, { size: "mini", decorative: true }),
      );
      button.addEventListener("click", () => pickCell(bid, ok));
      // The learner panel (hints on) shows the chance of the bid pointed at.
      for (const kind of ["mouseenter", "focus"]) button.addEventListener(kind, () => E.hooks.pointed?.(bid));
      button.addEventListener("focus", () => rove(button));
      row.append(el("td", {}, button));
    }
    body.append(row);
  }
  picker.replaceChildren(el("table", {}, el("thead", {}, head), body));
  picker.scrollTop = 0;
  const cells = [...picker.querySelectorAll(".bid-cell")];
  rove(cells.find((c) => c.getAttribute("aria-disabled") === "false") || cells[0]);
}

// The grid is one Tab stop (a roving tabindex): the arrows move between its cells, Home and End
// go to the ends of a row (with Ctrl, of the grid), Page Up and Down five rows, Enter or Space
// picks. Greyed cells take the focus too: their label says "not allowed", and picking one says
// why (asked only then: one question to the server per arrow press would be a flood).

/** Make `cell` the grid's one Tab stop. */
function rove(cell) {
  if (!cell) return;
  for (const other of $("bid-picker").querySelectorAll(".bid-cell")) other.tabIndex = other === cell ? 0 : -1;
}

/** The cell `key` moves to from `cell`, or null (a key the grid does not use). */
function cellAfter(cell, key, ctrl) {
  const rows = [...$("bid-picker").querySelectorAll("tbody tr")].map((tr) => [...tr.querySelectorAll(".bid-cell")]);
  const r = rows.findIndex((row) => row.includes(cell));
  if (r < 0) return null;
  const c = rows[r].indexOf(cell);
  const at = (row, col) => rows[Math.max(0, Math.min(rows.length - 1, row))]?.[col] ?? null;
  const last = rows[r].length - 1;
  const moves = {
    ArrowLeft: () => rows[r][Math.max(0, c - 1)],
    ArrowRight: () => rows[r][Math.min(last, c + 1)],
    ArrowUp: () => at(r - 1, c),
    ArrowDown: () => at(r + 1, c),
    PageUp: () => at(r - 5, c),
    PageDown: () => at(r + 5, c),
    Home: () => (ctrl ? rows[0][0] : rows[r][0]),
    End: () => (ctrl ? rows[rows.length - 1].at(-1) : rows[r][last]),
  };
  return moves[key]?.() ?? null;
}

function gridKey(event) {
  const cell = event.target.closest?.(".bid-cell");
  if (!cell || event.altKey || event.metaKey) return;
  const next = cellAfter(cell, event.key, event.ctrlKey);
  if (!next) return;
  event.preventDefault();
  rove(next);
  next.focus();
}

function pickCell(bid, ok) {
  if (!ok) {
    E.hooks.explain(bid);
    return;
  }
  const b = parseBid(bid);
  E.face = b.face;
  E.quantity = b.quantity;
  closeSheet();
  $("bid-explain").textContent = "";
  renderChoice();
  $("bid-send").focus({ preventScroll: true });
}

function openSheet() {
  const sheet = $("bid-sheet");
  if (!sheet.hidden || $("bid-area").hidden) return;
  // The explanations follow the grid into the sheet while it is open.
  $("bid-sheet-explain-slot").append($("bid-explain"));
  sheet.hidden = false;
  holdFocus(sheet);
  $("bid-grid-toggle").setAttribute("aria-expanded", "true");
  document.body.style.overflow = "hidden";
  const first = sheet.querySelector('.bid-cell[aria-pressed="true"]') || sheet.querySelector('.bid-cell[aria-disabled="false"]');
  rove(first);
  first?.scrollIntoView({ block: "center" });
  (first || $("bid-sheet-close")).focus({ preventScroll: true });
}

/** Close the grid: the focus goes back to what opened it (the G key opens it from anywhere:
 * then to its button, or the turn's first control). */
export function closeSheet() {
  const sheet = $("bid-sheet");
  if (sheet.hidden) return;
  sheet.hidden = true;
  $("bid-grid-toggle").setAttribute("aria-expanded", "false");
  $("bid-area").after($("bid-explain"));
  document.body.style.overflow = "";
  releaseFocus(sheet, (opener) => [opener, $("bid-grid-toggle"), turnControl()]);
}

/** The first control of my turn: the face the quick entry opens on (a legal one), else the
 * first legal face, else the first call or choice shown. Null: nothing to do now. */
export function turnControl() {
  if ($("actions").hidden) return null;
  const faces = $("bid-area").hidden ? [] : [...$("bid-faces").querySelectorAll(".face-pick")];
  const legal = faces.filter((b) => b.getAttribute("aria-disabled") === "false");
  const pressed = legal.find((b) => b.getAttribute("aria-pressed") === "true");
  const calls = ["action-open", "action-closed", "action-call", "action-spot-on", "action-pass", "action-doubt-pass"];
  return [pressed, legal[0], $("bid-send"), ...calls.map($)].find(usable) ?? null;
}

// ------------------------------------------------------------------------- typing

function typedError(text, code) {
  const box = $("bid-text-error");
  box.textContent = text;
  box.dataset.code = code;
  $("bid-text").setAttribute("aria-invalid", text ? "true" : "false");
}

function submitTyped(event) {
  event.preventDefault();
  const input = $("bid-text");
  const text = input.value.trim();
  if (!text) {
    typedError(t("bid.type_empty"), "empty");
    input.focus();
    return;
  }
  if (E.hooks.pending()) return;
  E.typed = text;
  typedError("", "");
  if (!E.hooks.explain(text, { quiet: true })) E.typed = null;
}

/** The server's answer to an `explain` this module sent for typed text: play it if legal.
 *  True when the frame was that answer. */
export function typedAnswer(frame) {
  if (E.typed == null || frame.action !== E.typed) return false;
  E.typed = null;
  if (frame.legal) {
    $("bid-text").value = "";
    typedError("", "");
    E.hooks.act(frame.action);
    return true;
  }
  // The verdict and the engine's reason, both in the page's language.
  const problem = frame.reason ? wordReason(frame.reason) : t("game.not_allowed");
  typedError(t("bid.type_refused", { text: frame.action, problem }), "illegal");
  return true;
}

/** An `error` frame while typed text awaits its answer is the answer: show it by the field.
 *  True when it was. */
export function typedRefused(frame) {
  if (E.typed == null) return false;
  const text = E.typed;
  E.typed = null;
  if (frame.code === "unknown_action") typedError(t("bid.type_unknown", { text }), frame.code);
  else typedError(wordError(frame), frame.code);
  $("bid-text").focus({ preventScroll: true });
  return true;
}

// ------------------------------------------------------------------------- keys

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
  if (typingIn(event.target) || !$("reveal").hidden || $("actions").hidden) return;
  const key = event.key.toLowerCase();
  if (!$("bid-sheet").hidden) {
    if (key === "escape" || key === "g") {
      event.preventDefault();
      closeSheet();
    }
    return;
  }
  const id = CALL_KEYS[key];
  if (id) {
    const button = $(id);
    if (button && !button.hidden && !button.disabled) {
      event.preventDefault();
      button.click();
    }
    return;
  }
  if (key === "b" && !$("bid-type").hidden) {
    event.preventDefault();
    $("bid-text").focus();
  } else if (key === "g" && !$("bid-area").hidden) {
    event.preventDefault();
    openSheet();
  }
}

/** Put each call button's key beside its label (kbd), and say it to assistive technology. */
export function markKeys() {
  for (const [key, id] of Object.entries(CALL_KEYS)) {
    const button = $(id);
    if (!button || button.hidden) continue;
    button.setAttribute("aria-keyshortcuts", key.toUpperCase());
    if (!button.querySelector("kbd")) button.append(el("kbd", { "aria-hidden": "true" }, key.toUpperCase()));
  }
}

// ------------------------------------------------------------------------- the page

/** Wire the controls once. hooks: act(action), explain(action, {quiet}) → sent?, pending(),
 *  view(). */
export function initBidEntry(hooks) {
  E.hooks = hooks;
  $("bid-less").addEventListener("click", () => step(-1));
  $("bid-more").addEventListener("click", () => step(+1));
  for (const id of ["bid-less", "bid-more"]) {
    const dir = id === "bid-more" ? +1 : -1;
    $(id).addEventListener("focus", () => {
      if ($(id).getAttribute("aria-disabled") === "true") step(dir);
    });
  }
  $("bid-send").addEventListener("click", () => {
    const bid = chosen();
    if (bid) E.hooks.act(bid);
  });
  $("bid-grid-toggle").addEventListener("click", openSheet);
  $("bid-sheet-close").addEventListener("click", closeSheet);
  $("bid-sheet").addEventListener("click", (e) => {
    if (e.target === $("bid-sheet")) closeSheet();
  });
  $("bid-picker").addEventListener("keydown", gridKey);
  $("bid-type").addEventListener("submit", submitTyped);
  $("bid-text").addEventListener("input", () => typedError("", ""));
  document.addEventListener("keydown", onKey);
}

/** Forget the choice (a new game). */
export function resetBidEntry() {
  E.face = null;
  E.quantity = null;
  E.key = "";
  E.typed = null;
}

/** Draw the bid entry for the view: rebuilt when the legal actions or the language change,
 *  otherwise only the choice and the pending state are refreshed. */
export function renderBidEntry(v, game) {
  const hasBids = legalBids(v).length > 0;
  $("bid-grid-toggle").hidden = !hasBids;
  if (!hasBids) {
    closeSheet();
    return;
  }
  const key = `${game}|${v.turn}|${lang()}|${(v.legal || []).join(",")}`;
  if (key !== E.key) {
    const fresh = !E.key.startsWith(`${game}|${v.turn}|`);
    E.key = key;
    if (fresh) $("bid-explain").textContent = "";
    // Keep the face and quantity through a language change if they are still legal.
    const keep = E.face != null && quantitiesOf(v, E.face).includes(E.quantity) && !fresh;
    if (!keep) {
      E.face = firstFace(v);
      E.quantity = E.face == null ? null : quantitiesOf(v, E.face)[0];
    }
    buildFaces(v);
    buildGrid(v);
  }
  renderChoice();
}
