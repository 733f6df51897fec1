// table.js — the table page (GET /t/<CODE>): join or watch, the lobby, the game.
//
// Test hooks (ids unless noted):
//   main#table-main          data-status (loading|lobby|playing|over|broken|missing), data-phase
//                            (lobby | view.phase: bidding, choose_visibility, over),
//                            data-turn (view.turn), data-to-move (player number or ""),
//                            data-seat / data-player (mine, or "" when watching)
//   #conn-status             data-status: connecting | open | offline | refused | gone
//   Joining: #join-panel, #join-name, #join-button, #watch-button, #join-closed
//   Lobby:   #lobby, #table-code, #invite-link (full URL), #copy-invite,
//            #seat-list > li[data-seat][data-kind=human|bot|open] with
//            button.remove-seat[data-seat] (host only), #host-controls, #bot-level,
//            #add-bot-button, #start-button, #lobby-wait, #rules-details (folded on a
//            phone, open on a desktop) with #rules-list (dt/dd[data-option]) and #rules-house-count
//            In a game the lobby card moves into <details id="table-details">.
//   Game:    #players > li[data-player][data-to-move][data-me][data-out] (.pname, .pcount
//            .num = dice count, .pdice = dice this viewer sees of that player),
//            #round-label, #status (data-my-turn="true" on my turn; #timer inside when a
//            deadline is set), #standing-bid (.bid[data-bid]), #history > li[data-player]
//            [data-action], #my-dice > .die[data-face] (face-down dice: data-face="?",
//            class face-down), #my-dice-note, #obliging-banner (data-visibility),
//            #autoplay-banner with #take-back, #spectator-banner, #saving-banner (the
//            server is retrying a write the database did not take), #broken-banner (the
//            table could not be resumed after a restart: main data-status="broken"),
//            #auto-notice (the timer played for me: data-action = the action, #auto-notice-
//            text, #auto-notice-dismiss)
//   Turn:    document.title starts with the turn marker and link[rel=icon] is
//            /static/favicon-turn.svg while it is my turn; #sound-toggle (checkbox, in
//            #cue-pref, shown to players); main data-turn-cues counts the turn cues given
//   Acting:  #actions (shown when I have a legal action): the quick entry, the full grid in
//            #bid-sheet and the typing field (hooks in bidentry.js: #bid-faces, #bid-less,
//            #bid-more, #bid-quantity, #bid-send[data-action], #bid-grid-toggle, #bid-picker >
//            button.bid-cell[data-bid], #bid-text, #bid-text-error); greyed choices are
//            aria-disabled="true" (Playwright: click them with force=True) and answer in
//            #bid-explain (data-legal="false", data-action). #action-call, #action-spot-on,
//            #action-pass, #action-doubt-pass, #action-open, #action-closed (hidden unless
//            legal). All carry data-action.
//   Reveal:  #reveal (dialog over the page: dismiss it before clicking anything else;
//            data-bid, data-count, data-claim, data-losers = names),
//            #reveal-hands > li[data-player] > .dice > .die (.counted = matched the bid),
//            #reveal-count, #reveal-verdict, #reveal-outcomes, #reveal-dismiss, #reveal-skip.
//            It plays in stages, data-stage on #reveal: lift (the hands appear), count (the
//            counted dice light up, .lit, as #reveal-count-number counts), verdict, done. Under
//            prefers-reduced-motion it opens at done. A dismissed reveal is remembered in
//            localStorage "dudo.reveal.<CODE>" ({game, seq}) so a reload does not show it again.
//            While shown it holds the focus and the page behind is inert (focus.js); closed,
//            the focus goes to my turn's first control, else its opener, else #events.
//   Over:    #game-over (data-winner = winner's name), #winner-name, #replay-link
//            (/games/<id>), #record-link (the record as a file), #rematch-button (host),
//            #rematch-wait; the people, their score and Ready/Leave: see people.js.
//            Lobby: #leave-table. Avatars: see avatar.js.
//   Hints:   #lobby-hints; #learner and #learner-review (in #game-over): see learner.js
//   Chat:    details#chat (beside the feed in a game, after the lobby before one): see chat.js
//   Feed:    #events > li[data-seq][data-type] (aria-live)
//   Other:   #toast (server error frames, data-kind), #lang-select
//   Real:    a real table (table.real not null: every phone a cup): the lobby's invite, QR and
//            seating in reallobby.js; the cup, its calls and the host's play-on in realplay.js,
//            realcup.js and realcalls.js
//
// The page's parts: tablestate.js (what it knows), tableseats.js (joining, the lobby card,
// the host's commands), tableview.js (the game, the banners, the feed), tableacts.js (my moves),
// tablereveal.js (the reveal), and at a real table reallobby.js and realplay.js; this module
// follows the socket's frames and draws them all.

import "/static/pwa.js";
// First: a player's seat here is taken back before the page reads its seat token.
import "/static/player.js";
import { api, forgetSeatToken } from "/static/api.js";
import { initBidEntry, resetBidEntry, turnControl, typedAnswer, typedRefused } from "/static/bidentry.js";
import { focusTurn } from "/static/focus.js";
import { onLangChange, t, wordError } from "/static/i18n.js";
import { showFillClock } from "/static/fillclock.js";
import { fairReconnected, sendClientSeed } from "/static/fair.js";
import { chatFrame, chatRender } from "/static/chat.js";
import { learnerBid, learnerFrame, learnerRender } from "/static/learner.js";
import { TableSocket } from "/static/socket.js";
import { cueEnabled, markTab, primeAudio, setCueEnabled, turnCue } from "/static/turncue.js";
import { fillRememberedName, startPage, toast } from "/static/ui.js";
import { $, S, inGame, myTurn, send, status, takeTable } from "/static/tablestate.js";
import { act, bindActs, clearPending, explain, showExplain } from "/static/tableacts.js";
import { bindReveal, followEvent, renderReveal } from "/static/tablereveal.js";
import { bindSeats, loadTable, renderJoin, renderLobby } from "/static/tableseats.js";
import { bindRealLobby, renderRealLobby, startBody } from "/static/reallobby.js";
import { pickerRefused } from "/static/realcalls.js";
import { bindReal, renderReal } from "/static/realplay.js";
import { appendFeed, rebuildFeed, renderBanners, renderGame, tick } from "/static/tableview.js";

// ---------------------------------------------------------------------------- frames

function onUpdate(frame) {
  if (frame.newGame) {
    S.events = [];
    S.claim = null;
    S.reveal = null;
    S.autoNotice = null;
    resetBidEntry();
    $("events").replaceChildren();
  }
  S.game = frame.game;
  if (frame.view) {
    S.view = frame.view;
    S.names = frame.view.names || S.names;
  }
  S.deadline = frame.deadline ?? null;
  // Older servers send no `auto`; a stand-in's moves have the autoplay banner instead.
  const auto = frame.auto;
  if (auto && auto.why === "timer" && auto.player === frame.view?.viewer && auto.player != null) {
    S.autoNotice = auto.action;
  }
  for (const e of frame.events) {
    S.events.push(e);
    followEvent(e);
  }
  appendFeed(frame.events);
  clearPending();
  render();
}

function onFrame(frame) {
  switch (frame.type) {
    case "welcome":
      S.welcomed = true;
      S.seat = frame.seat;
      S.player = frame.player;
      S.host = !!frame.host;
      fairReconnected();
      if (S.token && frame.seat == null) {
        // The token is not good here any more (kicked, or another table's): watch on.
        forgetSeatToken(S.code);
        S.token = null;
        S.socket.token = null;
      }
      render();
      break;
    case "table":
      if (!takeTable(frame.table)) break;
      showFillClock(frame.table);
      if (S.seat != null) {
        const mine = frame.table.seats?.[S.seat];
        if (mine && mine.kind !== "human") S.seat = null; // kicked: a bot plays the seat now
      }
      sendClientSeed(frame.table, S.seat, send);
      render();
      break;
    case "update":
      onUpdate(frame);
      break;
    case "explain":
      if (!typedAnswer(frame)) showExplain(frame);
      break;
    case "hints":
    case "odds":
    case "suggest":
    case "review":
      learnerFrame(frame);
      break;
    case "chat":
    case "chat_history":
      chatFrame(frame);
      break;
    case "error":
      if (frame.for === "chat" && chatFrame(frame)) break; // shown in the chat panel
      if (frame.for && learnerFrame(frame)) break; // a hint refused: the learner panel's
      clearPending();
      if (!pickerRefused(frame) && !typedRefused(frame)) toast(wordError(frame), "error");
      if (frame.code === "no_table") {
        S.table = null;
        $("table-main").dataset.status = "missing";
      }
      render();
      break;
    default:
      break;
  }
}

function onSocketStatus(value) {
  const badge = $("conn-status");
  badge.dataset.status = value;
  badge.textContent = value === "open" ? "" : t(`conn.${value}`);
}

function connect() {
  if (S.socket) {
    S.socket.setToken(S.token);
    return;
  }
  S.socket = new TableSocket(S.code, { token: S.token, onFrame, onStatus: onSocketStatus });
  S.socket.connect();
}

// ---------------------------------------------------------------------------- rendering

function render() {
  // The host role can pass on: the table says whose it is, and the controls follow at once.
  const wasHost = S.host;
  if (S.table && S.seat != null) S.host = !!S.table.seats?.[S.seat]?.host;
  if (S.welcomed && S.host && !wasHost) toast(t("people.now_host"), "ok");
  const main = $("table-main");
  const st = status();
  const game = inGame();
  const v = S.view;
  main.dataset.status = S.table ? st : main.dataset.status === "missing" ? "missing" : "loading";
  main.dataset.phase = game ? v.phase : S.table ? "lobby" : "loading";
  main.dataset.turn = game ? String(v.turn) : "";
  main.dataset.toMove = game && v.to_move != null ? String(v.to_move) : "";
  main.dataset.seat = S.seat == null ? "" : String(S.seat);
  main.dataset.player = game && v.viewer != null ? String(v.viewer) : "";
  main.classList.toggle("in-game", game);
  main.classList.toggle("in-lobby", !game);

  renderJoin();
  renderLobby();
  renderRealLobby();
  for (const id of ["status", "col-players", "col-center", "col-feed"]) $(id).hidden = !game;
  // The feed is useful as soon as there are events, even in the lobby after a game.
  if (game) {
    const details = $("table-details-body");
    if ($("lobby").parentElement !== details) details.append($("lobby"));
    renderGame();
  } else if ($("lobby").parentElement !== main) {
    $("join-panel").after($("lobby"));
  }
  renderBanners();
  renderReal();
  renderReveal();
  renderTurnCues();
  learnerRender({ table: S.table, view: S.view, game: S.game, seat: S.seat, send });
  chatRender({ table: S.table, seat: S.seat, host: S.host, inGame: game, token: S.token, send });
}

function pageTitle() {
  return `${t("table.title")} ${S.code}`;
}

/** The tab's title and favicon follow my turn; its start gets the sound and vibration. */
function renderTurnCues() {
  const mine = inGame() && status() === "playing" && myTurn();
  markTab(mine, pageTitle(), t("turn.tab_title", { title: pageTitle() }));
  if (mine && !S.wasMyTurn && turnCue()) {
    S.turnCues += 1;
    $("table-main").dataset.turnCues = String(S.turnCues);
  }
  S.wasMyTurn = mine;
  // Each turn of mine starts with the focus on its first control, once: not while typing (nor
  // later, when the typing stops); a reveal over the table gives it when it closes.
  const turn = mine ? `${S.game}|${S.view.turn}` : null;
  if (turn && turn !== S.focusedTurn) {
    S.focusedTurn = turn;
    focusTurn(turnControl());
  }
  const pref = $("cue-pref");
  pref.hidden = S.seat == null;
  const home = inGame() ? $("players") : $("lobby-wait");
  if (pref.previousElementSibling !== home) home.after(pref);
}

// ---------------------------------------------------------------------------- start

function bindControls() {
  bindSeats({ render, connect, startBody });
  bindRealLobby();
  bindReal({ render });
  $("take-back").addEventListener("click", () => {
    if (!send({ type: "take_back" })) toast(t("conn.not_sent"), "error");
  });
  bindActs();
  initBidEntry({ act, explain, pending: () => S.pending, view: () => S.view, pointed: learnerBid });
  bindReveal();
  setInterval(tick, 250);
  $("auto-notice-dismiss").addEventListener("click", () => {
    S.autoNotice = null;
    renderBanners();
  });
  const cue = $("sound-toggle");
  cue.checked = cueEnabled();
  cue.addEventListener("change", () => setCueEnabled(cue.checked));
  // Browsers allow sound only after a click on the page: any click wakes the audio.
  document.addEventListener("pointerdown", () => cueEnabled() && primeAudio(), { passive: true });
  onLangChange(() => {
    document.title = pageTitle();
    onSocketStatus(S.socket ? S.socket.status : "idle");
    rebuildFeed();
    render();
  });
}

async function main() {
  bindControls();
  if (!S.code) {
    location.replace("/");
    return;
  }
  document.title = pageTitle();
  fillRememberedName($("join-name"));
  // The presets and the table are asked for together: a game against bots starts at once.
  const presets = api("/api/presets").catch(() => null);
  const table = S.token ? null : loadTable();
  S.presets = await presets;
  if (Array.isArray(S.presets?.bot_levels) && S.presets.bot_levels.length) S.botLevels = S.presets.bot_levels;
  if (S.token) {
    connect();
    // Show the table at once; the socket's table frame follows.
    await loadTable().catch(() => {});
    render();
    return;
  }
  if (!(await table)) return;
  // Opened from the list of games being played (/t/CODE?watch): watch at once.
  if (new URLSearchParams(location.search).has("watch")) connect();
  render();
}

startPage(main);
