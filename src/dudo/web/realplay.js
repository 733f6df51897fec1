// realplay.js — a game at a real table, on a phone: the cup (realcup.js) with what it holds and
// when it may be lifted, the prompt above it ("Shake your cup", who still has to, who speaks),
// the calls (realcalls.js), entering my bid (optional: the quick entry of bidentry.js on my
// turn, the picker out of turn), the obliger's open/closed choice (the #actions card), the
// seating roll at the game's start on every phone, and the notice when the game waits for a
// cup whose phone is away, with the host's "Play on" for it (shake and choose for that phone).
// A player out of dice, a spectator and a finished game get the table's usual view, no cup.
// It reads S (the view, table.real) and draws; the rules stay the engine's.
//
// Test hooks:
//   main#table-main      class real-table at a real table, cup-phone while this phone is a cup
//   #real-panel          the cup and its controls (hooks in realcup.js and realcalls.js)
//   #real-prompt         data-prompt = shake | wait | choose | speak; what the round waits for
//   #real-enter          "Enter my bid" (aria-expanded: the quick entry shown, on my turn)
//   #real-rolls          the seating roll (round 1, before a bid): #real-rolls-list >
//                        li[data-roll] > .real-roll[data-player] .die, #real-rolls-order,
//                        #real-rolls-ok
//   #real-away           the game waits for a cup whose phone is away: li[data-player] with
//                        (host only) button.real-play-on[data-player] (shakes for that phone)
//                        and button.real-choose-for[data-player][data-action=open|closed]

import { dieEl } from "/static/dice.js";
import { lang, t } from "/static/i18n.js";
import { bindCalls, closePicker, openPicker, renderCalls } from "/static/realcalls.js";
import { bindCup, renderCup } from "/static/realcup.js";
import { $, S, inGame, myTurn, nameOf, narrate, seatOfPlayer, send, status } from "/static/tablestate.js";
import { el, toast } from "/static/ui.js";

const R = {
  entering: null, // "game|turn" of my turn whose quick entry was opened ("Enter my bid")
  rollsSeen: null, // the game whose seating roll was put away
  topFor: null, // the game the page was scrolled to its top for
  render: () => {}, // the page's
};

// ---------------------------------------------------------------------------- the round

/** table.real, when it speaks of the view's round (a new round's table frame follows the
 * update that starts it: until then its cups are the last round's). */
function cups() {
  const real = S.table?.real;
  const v = S.view;
  if (!real || !v || real.round !== v.round) return null;
  return real;
}

function waiting() {
  return cups()?.waiting ?? seatedPlayers();
}

function seatedPlayers() {
  const v = S.view;
  return [...Array(v.players).keys()].filter((p) => (v.dice_counts[p] ?? 0) > 0);
}

function iShook() {
  return !!cups()?.shaken.includes(S.view.viewer);
}

/** Every cup of the round has rolled: the round is played (and called). */
function allShaken() {
  const real = cups();
  return !!real && real.waiting.length === 0;
}

/** "Bo, Cy y Ana": the names as a list in the page's language. */
function names(players) {
  const all = players.map(nameOf);
  try {
    return new Intl.ListFormat(lang(), { type: "conjunction" }).format(all);
  } catch {
    return all.join(", ");
  }
}

/** This phone is a cup now: a player with dice, in a game being played. */
function isCup() {
  const v = S.view;
  return (
    inGame() && status() === "playing" && v.viewer != null && v.phase !== "over" && (v.dice_counts[v.viewer] ?? 0) > 0
  );
}

// ---------------------------------------------------------------------------- the cup

function cupNote(v) {
  if (v.my_dice != null) return "";
  if (v.phase === "choose_visibility") return t("game.choose_note");
  return v.visibility === "open" ? t("game.open_round_note") : t("game.closed_round_note");
}

function drawCup() {
  const v = S.view;
  const me = v.viewer;
  const aside = v.set_aside?.[me] || [];
  const shaken = iShook();
  renderCup({
    count: v.dice_counts[me] ?? 0,
    faces: v.my_dice == null ? null : [...v.my_dice, ...aside],
    canLift: shaken,
    shaken,
    mustShake: !shaken,
    note: cupNote(v),
  });
}

function prompt() {
  const v = S.view;
  if (!iShook()) return ["shake", t("real.shake_prompt")];
  const others = waiting().filter((p) => p !== v.viewer);
  if (others.length) return ["wait", t("real.waiting_cups", { names: names(others), count: others.length })];
  if (v.phase === "choose_visibility") {
    return ["choose", myTurn() ? t("status.my_choice") : t("status.choosing", { name: nameOf(v.to_move) })];
  }
  const spoken = (v.round_actions || []).some(([, action]) => action !== "open" && action !== "closed");
  if (!spoken) return ["speak", t("real.speak_open", { name: nameOf(v.opener) })];
  return ["speak", t("real.speak_on")];
}

function drawPrompt() {
  const [kind, text] = prompt();
  const box = $("real-prompt");
  box.dataset.prompt = kind;
  if (box.textContent !== text) box.textContent = text;
}

/** The #actions card at a real table: the obliger's choice, and the quick entry on my turn
 * when I chose to enter my bid; its calls are the big buttons' (they say whose bid). */
function adjustActions() {
  const v = S.view;
  const box = $("actions");
  const enter = $("real-enter");
  const entering = R.entering === `${S.game}|${v.turn}` && (v.legal_bids || []).length > 0 && myTurn();
  enter.hidden = !(allShaken() && v.phase === "bidding");
  enter.setAttribute("aria-expanded", String(entering));
  if (box.hidden) return;
  const legal = v.legal || [];
  const choosing = legal.includes("open") || legal.includes("closed");
  box.hidden = !(choosing || entering);
  for (const id of ["action-call", "action-spot-on", "action-doubt-pass", "bid-keys"]) $(id).hidden = true;
}

/** "Enter my bid": on my turn the quick entry opens (or closes) for this turn; at any other
 * moment the picker, whose bid the server takes as said aloud. */
function enterBid() {
  const v = S.view;
  if (myTurn() && (v.legal_bids || []).length) {
    const turn = `${S.game}|${v.turn}`;
    R.entering = R.entering === turn ? null : turn;
    R.render();
    if (R.entering) $("bid-send").focus({ preventScroll: true });
    return;
  }
  openPicker("bid");
}

function onShake() {
  if (!isCup() || iShook()) return; // a second shake rolls nothing new: the dice are dealt
  if (!send({ type: "shake" })) toast(t("conn.not_sent"), "error");
  else $("real-prompt").textContent = t("real.shaking");
}

// ---------------------------------------------------------------------------- the seating roll

function rollItem(e, index) {
  const rolls = (e.rolls || []).map(([p, value]) =>
    el("span", { class: "real-roll", dataset: { player: p } }, el("span", { class: "nm" }, nameOf(p)), dieEl(value, { size: "small" })),
  );
  const label = index === 0 ? t("real.roll_first") : t("real.roll_again");
  return el("li", { dataset: { roll: index } }, el("span", { class: "real-roll-label" }, label), ...rolls);
}

function drawRolls() {
  const box = $("real-rolls");
  const v = S.view;
  const rolls = S.events.filter((e) => e.type === "SeatingRolled");
  const decided = S.events.find((e) => e.type === "SeatingDecided");
  const fresh = v.round === 1 && !(v.round_actions || []).length && v.phase !== "over";
  box.hidden = !(rolls.length && fresh && R.rollsSeen !== S.game);
  if (box.hidden) return;
  $("real-rolls-list").replaceChildren(...rolls.map(rollItem));
  const order = $("real-rolls-order");
  order.replaceChildren();
  if (decided) order.append(narrate(decided));
}

// ---------------------------------------------------------------------------- a phone away

function away(p) {
  const seat = seatOfPlayer(p);
  return !!seat && seat.kind === "human" && !seat.connected;
}

function playOn(p, frame) {
  if (!send({ ...frame, player: p })) toast(t("conn.not_sent"), "error");
}

function awayItem(p, shake, choose) {
  const v = S.view;
  const name = nameOf(p);
  const item = el("li", { dataset: { player: p } }, el("span", { class: "grow" }, shake ? t("real.away_cup", { name }) : t("real.away_choose", { name })));
  if (!S.host || p === v.viewer) return item;
  if (shake) {
    const button = el("button", { type: "button", class: "small real-play-on", dataset: { player: p } }, t("real.play_on", { name }));
    button.addEventListener("click", () => playOn(p, { type: "shake" }));
    item.append(button);
  }
  if (choose) {
    for (const action of ["open", "closed"]) {
      const label = t(`real.choose_for_${action}`, { name });
      const button = el("button", { type: "button", class: "small real-choose-for", dataset: { player: p, action } }, label);
      button.addEventListener("click", () => playOn(p, { type: "act", action, turn: S.view.turn }));
      item.append(button);
    }
  }
  return item;
}

function drawAway() {
  const box = $("real-away");
  const v = S.view;
  const live = inGame() && status() === "playing" && v.phase !== "over";
  const items = [];
  if (live) {
    const shakers = cups()?.waiting ?? [];
    for (const p of seatedPlayers()) {
      const shake = shakers.includes(p);
      const choose = v.phase === "choose_visibility" && v.to_move === p;
      if ((shake || choose) && away(p)) items.push(awayItem(p, shake, choose));
    }
  }
  box.hidden = items.length === 0;
  box.replaceChildren(...(items.length ? [el("ul", { class: "real-away-list" }, ...items)] : []));
}

// ---------------------------------------------------------------------------- the page

/** Draw the real table's game parts (after tableview.js drew the table's usual ones). */
export function renderReal() {
  const main = $("table-main");
  const real = S.table?.real != null && inGame();
  const cup = real && isCup();
  main.classList.toggle("real-table", S.table?.real != null);
  main.classList.toggle("cup-phone", cup);
  $("real-panel").hidden = !cup;
  if (!cup) closePicker(); // its call was played, and this phone has no cup any more
  if (!real) {
    $("real-rolls").hidden = true;
    $("real-away").hidden = true;
    $("real-enter").hidden = true;
    return;
  }
  drawRolls();
  drawAway();
  const box = $("banners");
  box.hidden = [...box.children].every((child) => child.hidden);
  if (!cup) return;
  if (R.topFor !== S.game) {
    R.topFor = S.game; // the game starts with the cup in view, not where the lobby ended
    window.scrollTo(0, 0);
  }
  $("my-dice-card").hidden = true; // the cup holds them
  drawCup();
  drawPrompt();
  renderCalls(allShaken());
  adjustActions();
}

/** Wire the real table's controls once; `render` redraws the page. */
export function bindReal({ render }) {
  R.render = render;
  bindCup({ onShake });
  bindCalls();
  $("real-enter").addEventListener("click", enterBid);
  $("real-rolls-ok").addEventListener("click", () => {
    R.rollsSeen = S.game;
    R.render();
  });
}
