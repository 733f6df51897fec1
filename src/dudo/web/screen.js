// screen.js — the shared screen (GET /t/<CODE>/screen): a laptop or a TV at the table shows the
// game in large type, for a room to read. It watches as a spectator (hello with no token, even
// in a browser holding a seat of this table), so it only ever gets the spectator's view: no
// hidden die. Before the game it shows the link to open and its QR code; in the game the seats
// in play order with their dice face down, whose cups are still to roll (a real table), the
// standing bid if one was entered, the obliging round, the staged reveal (tablereveal.js, as on
// the table page) and the log; at the end the winner.
//
// Test hooks (ids unless noted):
//   main#screen-main     data-status (loading|lobby|playing|over|broken|missing), data-phase
//                        (lobby | view.phase), data-round (view.round), data-real (true|false),
//                        data-game (the game's id), data-events (events received this game)
//   #conn-status         data-status, as on the table page (socket.js)
//   Head:    #screen-code, #screen-kind (a real table), #screen-round, #screen-status
//            (data-waiting = players still to roll, comma-separated), #screen-obliging
//            (data-visibility), #screen-broken, #screen-missing (no such table)
//   Lobby:   #screen-lobby, #screen-link (the address phones open), #screen-qr (its QR code),
//            #screen-local-only (phones cannot open it), #screen-seated > li[data-seat],
//            #screen-open-seats
//   Game:    #screen-players > li[data-player][data-count][data-to-move][data-waiting][data-out]
//            [data-winner] (.pname .nm, .ptags .badge, .pdice > .die: face-down dice have
//            data-face="?", .pcount = the count), #screen-standing (data-bid, data-bidder;
//            .standing-bid .bid), #screen-round-bids > li[data-player][data-action],
//            #screen-over (data-winner = the winner's name), #screen-winner,
//            #screen-log > li[data-seq][data-type]
//   Reveal:  as on the table page (table.js: #reveal with data-stage, data-count, data-bid,
//            #reveal-hands > li[data-player] > .dice > .die.counted, #reveal-count,
//            #reveal-outcomes), plus #screen-reveal-waiting (the next round's cups still to
//            roll). It closes by itself: at a real table once every cup of the next round has
//            rolled, online at the next round's first bid, and the game's last one
//            OVER_HOLD_MS after it opened, for the winner to show.

import "/static/pwa.js";
import { onLangChange, t } from "/static/i18n.js";
import { TableSocket } from "/static/socket.js";
import { startPage } from "/static/ui.js";
import { $, S, inGame, nameOf, status, takeTable } from "/static/tablestate.js";
import { bindReveal, followEvent, renderReveal } from "/static/tablereveal.js";
import { appendLog, rebuildLog, renderScreen, waitingCups } from "/static/screenview.js";

const OVER_HOLD_MS = 5000;
let missing = null; // the no_table error frame, when the code is nobody's
let overTimer = null;

// ---------------------------------------------------------------------------- frames

function onUpdate(frame) {
  if (frame.newGame) {
    S.events = [];
    S.claim = null;
    S.reveal = null;
    $("screen-log").replaceChildren();
  }
  S.game = frame.game;
  if (frame.view) {
    S.view = frame.view;
    S.names = frame.view.names || S.names;
  }
  for (const e of frame.events) {
    S.events.push(e);
    followEvent(e);
  }
  appendLog(frame.events);
  render();
}

function onFrame(frame) {
  switch (frame.type) {
    case "welcome":
      S.welcomed = true;
      break;
    case "table":
      missing = null;
      if (takeTable(frame.table)) render();
      break;
    case "update":
      onUpdate(frame);
      break;
    case "error":
      if (frame.code === "no_table") {
        S.table = null;
        missing = frame;
        render();
      }
      break;
    default:
      break; // chat and the rest are for the people at the table
  }
}

function onSocketStatus(value) {
  const badge = $("conn-status");
  badge.dataset.status = value;
  badge.textContent = value === "open" ? "" : t(`conn.${value}`);
}

// ---------------------------------------------------------------------------- the reveal

/** Close the reveal when the table has moved on: nobody is at a TV's controls to close it. */
function settleReveal() {
  const r = S.reveal;
  if (!r || r.dismissed || !S.view) return;
  if (S.view.winner != null) {
    if (!overTimer) {
      overTimer = setTimeout(() => {
        overTimer = null;
        if (S.reveal === r) r.dismissed = true;
        render();
      }, OVER_HOLD_MS);
    }
    return;
  }
  // A real table: the next round's cups have all rolled, so everyone has seen it.
  if (S.table?.real && r.roundOver && S.table.real.round === S.view.round && !waitingCups().length) {
    r.dismissed = true;
  }
}

function renderRevealWaiting() {
  const line = $("screen-reveal-waiting");
  const waiting = S.reveal?.roundOver ? waitingCups() : [];
  line.hidden = !waiting.length;
  line.textContent = waiting.length
    ? t("screen.shake_waiting", { names: waiting.map(nameOf).join(", "), count: waiting.length })
    : "";
}

// ---------------------------------------------------------------------------- rendering

function render() {
  settleReveal();
  const main = $("screen-main");
  const game = inGame();
  const v = S.view;
  main.dataset.status = S.table ? status() : missing ? "missing" : "loading";
  main.dataset.phase = game ? v.phase : S.table ? "lobby" : "loading";
  main.dataset.round = game ? String(v.round) : "";
  main.dataset.real = String(!!S.table?.real);
  main.dataset.game = S.game == null ? "" : String(S.game);
  main.dataset.events = String(S.events.length);
  main.classList.toggle("in-game", game);
  renderScreen(missing);
  renderRevealWaiting();
  renderReveal();
}

function pageTitle() {
  return `${t("screen.title")} ${S.code}`;
}

async function main() {
  if (!S.code) {
    location.replace("/");
    return;
  }
  document.title = pageTitle();
  bindReveal();
  onLangChange(() => {
    document.title = pageTitle();
    onSocketStatus(S.socket ? S.socket.status : "idle");
    rebuildLog();
    render();
  });
  // Always a spectator: a seat token this browser may hold for the table stays unused.
  S.token = null;
  S.socket = new TableSocket(S.code, { token: null, onFrame, onStatus: onSocketStatus });
  S.socket.connect();
  render();
}

startPage(main);
