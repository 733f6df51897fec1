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
//            #add-bot-button, #start-button, #lobby-wait, #rules-list (dt/dd[data-option])
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
//            (/games/<id>), #rematch-button (host), #rematch-wait; the people, their score
//            and Ready/Leave: see people.js. Lobby: #leave-table. Avatars: see avatar.js.
//   Hints:   #lobby-hints; #learner and #learner-review (in #game-over): see learner.js
//   Chat:    details#chat (beside the feed in a game, after the lobby before one): see chat.js
//   Feed:    #events > li[data-seq][data-type] (aria-live)
//   Other:   #toast (server error frames, data-kind), #lang-select

import "/static/pwa.js";
// First: a player's seat here is taken back before the page reads its seat token.
import { satDownAs } from "/static/player.js";
import { ApiError, api, forgetSeatToken, saveSeatToken, seatToken } from "/static/api.js";
import { bidNode, dieEl, renderDice } from "/static/dice.js";
import {
  closeSheet,
  initBidEntry,
  markKeys,
  renderBidEntry,
  resetBidEntry,
  turnControl,
  typedAnswer,
  typedRefused,
} from "/static/bidentry.js";
import { focusTurn, holdFocus, releaseFocus } from "/static/focus.js";
import {
  actionText,
  callWord,
  lang,
  onLangChange,
  parseBid,
  t,
  tNodes,
  wordError,
  wordReason,
} from "/static/i18n.js";
import { showFillClock } from "/static/fillclock.js";
import { fairReconnected, renderFairLine, sendClientSeed } from "/static/fair.js";
import { chatFrame, chatRender } from "/static/chat.js";
import { learnerBid, learnerFrame, learnerRender } from "/static/learner.js";
import { countsForReveal, handName, narrateEvent } from "/static/narrate.js";
import { avatar } from "/static/avatar.js";
import { renderRematch, renderScores } from "/static/people.js";
import { renderRatingChanges } from "/static/ratingchange.js";
import { botLevelLabel, presetSummary, renderRulesList } from "/static/rules.js";
import { TableSocket } from "/static/socket.js";
import { cueEnabled, markTab, primeAudio, setCueEnabled, turnCue } from "/static/turncue.js";
import { el, fillRememberedName, rememberName, startPage, toast } from "/static/ui.js";

const $ = (id) => document.getElementById(id);

const code = decodeURIComponent(location.pathname.split("/")[2] || "")
  .trim()
  .toUpperCase();

const S = {
  code,
  token: seatToken(code),
  seat: null,
  player: null,
  host: false,
  welcomed: false,
  table: null,
  view: null,
  game: null,
  deadline: null,
  names: [],
  events: [], // every event of the current game, in order (re-narrated on a language change)
  claim: null, // the Called / SpotOnClaimed / PassDoubted the next reveal decides
  reveal: null, // {event, claim, outcomes: [], roundOver, dismissed}
  pending: false,
  pendingTimer: null,
  presets: null,
  botLevels: ["random", "easy"],
  autoNotice: null, // the action the timer played for me, shown until I act or dismiss it
  wasMyTurn: false,
  focusedTurn: null, // "game|turn" of my latest turn (its start moved the focus, or chose not to)
  turnCues: 0,
};
let socket = null;

// ---------------------------------------------------------------------------- helpers

function nameOf(player) {
  if (player == null) return "?";
  return S.names[player] ?? `#${player + 1}`;
}

function seatOfPlayer(player) {
  return S.table?.seats?.find((s) => s.player === player) || null;
}

function status() {
  return S.table?.status || "loading";
}

function inGame() {
  return S.view != null && (status() === "playing" || status() === "over");
}

function myTurn() {
  const v = S.view;
  return !!v && v.viewer != null && v.to_move === v.viewer && v.phase !== "over";
}

// ---------------------------------------------------------------------------- narration

const narrate = (e) => narrateEvent(e, nameOf);

const FEED_LIMIT = 300;

function feedItem(e) {
  return el("li", { dataset: { seq: e.seq, type: e.type } }, narrate(e));
}

function appendFeed(events) {
  const feed = $("events");
  const nearBottom = feed.scrollHeight - feed.scrollTop - feed.clientHeight < 60;
  for (const e of events) feed.append(feedItem(e));
  while (feed.children.length > FEED_LIMIT) feed.firstElementChild.remove();
  if (nearBottom || events.length > 3) feed.scrollTop = feed.scrollHeight;
}

function rebuildFeed() {
  const feed = $("events");
  feed.replaceChildren(...S.events.slice(-FEED_LIMIT).map(feedItem));
  feed.scrollTop = feed.scrollHeight;
}

// ---------------------------------------------------------------------------- events

/** Follow one new event: claims, reveals and their outcomes. */
function followEvent(e) {
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
        socket.token = null;
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
      sendClientSeed(frame.table, S.seat, (f) => !!socket?.send(f));
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
      if (!typedRefused(frame)) toast(wordError(frame), "error");
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
  if (socket) {
    socket.setToken(S.token);
    return;
  }
  socket = new TableSocket(S.code, { token: S.token, onFrame, onStatus: onSocketStatus });
  socket.connect();
}

// ---------------------------------------------------------------------------- acting

function clearPending() {
  S.pending = false;
  clearTimeout(S.pendingTimer);
}

function act(action) {
  if (!S.view || S.pending) return;
  if (!socket || !socket.send({ type: "act", action, turn: S.view.turn })) {
    toast(t("conn.not_sent"), "error");
    return;
  }
  S.pending = true;
  S.autoNotice = null;
  S.pendingTimer = setTimeout(() => {
    S.pending = false;
    renderActions();
  }, 8000);
  renderActions();
}

/** Ask the server whether `action` is legal now and why not; `quiet`: without saying so in
 *  #bid-explain (typed text answers by its field). True when the frame was sent. */
function explain(action, { quiet = false } = {}) {
  if (!quiet) {
    const box = $("bid-explain");
    box.dataset.legal = "";
    box.dataset.action = action;
    box.textContent = t("game.explaining", { bid: actionText(action) });
  }
  if (!socket || !socket.send({ type: "explain", action })) {
    toast(t("conn.not_sent"), "error");
    return false;
  }
  return true;
}

function showExplain(frame) {
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

// A table snapshot replaces the one shown only if it is not older: an HTTP answer that comes
// after a newer socket frame (a reload, a host command) must not put the page back in time.
function takeTable(table) {
  if (S.table && S.table.version != null && table.version != null && table.version < S.table.version) {
    return false;
  }
  S.table = table;
  return true;
}

async function hostCall(method, path, body) {
  try {
    const table = await api(`/api/tables/${encodeURIComponent(S.code)}${path}`, {
      method,
      body,
      token: S.token,
    });
    if (table && table.code && takeTable(table)) render();
  } catch (err) {
    toast(wordError(err), "error");
  }
}

/** Give up my seat (in the lobby or after a game): I watch on, and can join again. */
async function leaveTable() {
  try {
    const table = await api(`/api/tables/${encodeURIComponent(S.code)}/leave`, {
      method: "POST",
      token: S.token,
    });
    forgetSeatToken(S.code);
    S.token = null;
    S.seat = null;
    S.host = false;
    if (socket) socket.token = null; // a reconnection watches
    if (table && table.code) takeTable(table);
    render();
    toast(t("people.left"), "ok", 2500);
  } catch (err) {
    toast(wordError(err), "error");
  }
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
  renderReveal();
  renderTurnCues();
  learnerRender({ table: S.table, view: S.view, game: S.game, seat: S.seat, send: (f) => !!socket?.send(f) });
  chatRender({ table: S.table, seat: S.seat, host: S.host, inGame: game, token: S.token, send: (f) => !!socket?.send(f) });
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

function renderJoin() {
  const panel = $("join-panel");
  const st = status();
  const waitingForWelcome = !!S.token && !S.welcomed;
  const show =
    S.table != null && S.seat == null && !waitingForWelcome && !(inGame() && socket && st === "playing");
  panel.hidden = !show;
  if (!show) return;
  const open = (S.table.seats || []).filter((s) => s.kind === "open").length;
  const canJoin = st !== "playing" && st !== "broken" && open > 0;
  $("join-form").hidden = !canJoin;
  $("join-closed").hidden = canJoin || st === "broken"; // the broken banner says why
  $("join-closed").textContent = st === "playing" ? t("join.started") : t("join.full");
  $("join-info").textContent = t("join.info", {
    code: S.table.code,
    preset: S.table.preset,
    open,
    count: open, // "1 posto libero", "2 posti liberi"
    seats: S.table.seats.length,
  });
  $("watch-button").hidden = !!socket;
}

function seatItem(seat) {
  const me = seat.seat === S.seat;
  const item = el("li", { dataset: { seat: seat.seat, kind: seat.kind } });
  item.append(el("span", { class: "seat-num" }, String(seat.seat + 1)));
  if (seat.kind === "open") {
    item.append(el("span", { class: "seat-name" }, t("lobby.open_seat")));
    return item;
  }
  item.append(
    avatar(seat.name, seat.seat),
    el("span", {
      class: `dot${seat.kind === "bot" || seat.connected ? " on" : ""}`,
      title: seat.kind === "bot" || seat.connected ? t("lobby.online") : t("lobby.offline"),
    }),
    el("span", { class: "seat-name" }, seat.name || "?"),
  );
  // The badges stay together: on a narrow row they take the next line as one group.
  const badges = el("span", { class: "seat-badges" });
  if (seat.host) badges.append(el("span", { class: "badge gold" }, t("lobby.host")));
  if (me) badges.append(el("span", { class: "badge blue" }, t("lobby.you")));
  if (seat.kind === "bot") badges.append(el("span", { class: "badge" }, botLevelLabel(seat.level)));
  if (seat.autoplay) badges.append(el("span", { class: "badge red" }, t("lobby.autoplay")));
  if (badges.childElementCount) item.append(badges);
  const playing = status() === "playing";
  const inThisGame = seat.player != null;
  // A bot plays on to the end, and nobody is removed from a rated game once it started (the
  // server refuses: it would place them last).
  const staysInGame = playing && inThisGame && (seat.kind === "bot" || S.table?.rated);
  const removable = S.host && !seat.host && status() !== "broken" && !staysInGame;
  if (removable) {
    const label = seat.kind === "bot" ? t("lobby.remove_bot") : t("lobby.kick");
    item.append(
      el(
        "button",
        {
          type: "button",
          class: "remove-seat small danger",
          dataset: { seat: seat.seat },
          "aria-label": `${label}: ${seat.name}`,
          onclick: () => hostCall("DELETE", `/seats/${seat.seat}`),
        },
        label,
      ),
    );
  }
  return item;
}

function renderLobby() {
  const card = $("lobby");
  const tb = S.table;
  card.hidden = !tb;
  if (!tb) return;
  $("table-code").textContent = tb.code;
  const url = `${location.origin}/t/${tb.code}`;
  const link = $("invite-link");
  link.href = url;
  link.textContent = url;
  $("seat-list").replaceChildren(...(tb.seats || []).map(seatItem));
  $("spectator-count").textContent = tb.spectators
    ? t("lobby.spectators", { count: tb.spectators })
    : "";
  const st = tb.status;
  $("host-controls").hidden = !S.host || st === "playing" || st === "broken";
  $("start-button").hidden = st !== "lobby";
  const filled = (tb.seats || []).filter((s) => s.kind !== "open").length;
  const open = (tb.seats || []).length - filled;
  $("start-button").disabled = filled < 2;
  $("add-bot-controls").hidden = open === 0;
  $("lobby-wait").hidden = S.host || st !== "lobby" || S.seat == null;
  $("leave-table").hidden = st !== "lobby" || S.seat == null;
  renderScores(tb);
  renderFairLine(tb);
  const levels = $("bot-level");
  if (levels.options.length !== S.botLevels.length || levels.dataset.lang !== lang()) {
    const chosen = levels.value;
    levels.replaceChildren(...S.botLevels.map((l) => el("option", { value: l }, botLevelLabel(l))));
    levels.value = S.botLevels.includes(chosen) ? chosen : S.botLevels.includes("easy") ? "easy" : S.botLevels[0];
    levels.dataset.lang = lang();
  }
  $("rules-preset").textContent = tb.preset;
  const preset = S.presets?.presets?.find((p) => p.name === tb.preset);
  $("rules-summary-text").textContent = presetSummary(preset);
  renderRulesList(
    $("rules-list"),
    tb.rules || {},
    new Set(Object.keys(tb.house_rules || {})),
    S.presets?.options?.map((o) => o.name),
  );
  $("timer-info").textContent = [
    tb.turn_seconds ? t("lobby.turn_seconds", { n: tb.turn_seconds }) : t("lobby.no_timer"),
    tb.grace_seconds != null ? t("lobby.grace_seconds", { n: tb.grace_seconds }) : "",
    tb.reveal_seconds ? t("lobby.reveal_seconds", { n: tb.reveal_seconds }) : "",
  ]
    .filter(Boolean)
    .join(" · ");
  $("lobby-hints").textContent = t(tb.hints ? "lobby.hints_on" : "lobby.hints_off");
}

function renderBanners() {
  const mine = S.seat != null ? S.table?.seats?.[S.seat] : null;
  $("autoplay-banner").hidden = !(mine && mine.autoplay && status() === "playing");
  $("spectator-banner").hidden = !(socket && S.welcomed && S.seat == null && inGame());
  $("saving-banner").hidden = S.table?.store !== "retrying";
  $("broken-banner").hidden = status() !== "broken";
  const notice = $("auto-notice");
  notice.hidden = !(S.autoNotice && inGame() && S.seat != null);
  notice.dataset.action = S.autoNotice ?? "";
  $("auto-notice-text").textContent = S.autoNotice
    ? t("turn.timer_played", { action: actionText(S.autoNotice) })
    : "";
  const v = S.view;
  const banner = $("obliging-banner");
  if (inGame() && v.obliging && v.phase !== "over") {
    banner.hidden = false;
    const mode = v.visibility ?? "choose";
    banner.dataset.visibility = mode;
    banner.textContent = t("game.obliging_banner", {
      name: nameOf(v.obliger),
      mode: t(`vis.${mode}`),
    });
  } else {
    banner.hidden = true;
    banner.dataset.visibility = "";
  }
  const box = $("banners");
  box.hidden = [...box.children].every((child) => child.hidden);
}

function countDots(n) {
  const box = el("span", { class: "pcount", "aria-label": t("game.dice_count", { count: n }) });
  for (let i = 0; i < Math.min(n, 5); i++) box.append(el("span", { class: "cup-die", "aria-hidden": "true" }));
  box.append(el("span", { class: "num" }, String(n)));
  return box;
}

function renderPlayers() {
  const v = S.view;
  const list = $("players");
  list.replaceChildren();
  const order = v.order && v.order.length ? v.order : [...Array(v.players).keys()];
  for (const p of order) {
    const count = v.dice_counts[p] ?? 0;
    const seat = seatOfPlayer(p);
    const item = el("li", {
      dataset: {
        player: p,
        toMove: String(v.to_move === p),
        me: String(v.viewer === p),
        out: String(count === 0),
      },
    });
    const name = el(
      "span",
      { class: "pname" },
      avatar(nameOf(p), seat ? seat.seat : (v.seats?.[p] ?? p), 22),
      el("span", { class: "nm" }, nameOf(p)),
    );
    if (v.viewer === p) name.append(el("span", { class: "badge blue" }, t("lobby.you")));
    // A bot's level beside its name, as in the lobby.
    if (seat && seat.kind === "bot") {
      name.append(el("span", { class: "badge" }, seat.level ? botLevelLabel(seat.level) : t("lobby.bot")));
    }
    if (seat && seat.kind === "human" && !seat.connected) {
      name.append(el("span", { class: "badge red" }, t("lobby.offline")));
    }
    item.append(name, countDots(count));
    const tags = el("div", { class: "ptags" });
    if (v.to_move === p && v.phase !== "over") {
      tags.append(el("span", { class: "badge gold" }, v.phase === "choose_visibility" ? t("game.choosing") : t("game.to_move")));
      if (S.deadline) tags.append(el("span", { class: "timer ptimer", dataset: { deadline: S.deadline } }));
    }
    if (v.bidder === p && v.standing_bid) tags.append(el("span", { class: "badge" }, t("game.bidder")));
    if ((v.passed || []).includes(p)) tags.append(el("span", { class: "badge blue" }, callWord("pass")));
    if (v.obliger === p && v.obliging) tags.append(el("span", { class: "badge blue" }, t("game.obliger")));
    if (seat && seat.autoplay) tags.append(el("span", { class: "badge red" }, t("lobby.autoplay")));
    if (count === 0) tags.append(el("span", { class: "badge" }, t("game.out")));
    item.append(tags);
    // Dice of this player the viewer can see: an open round, or dice set aside face up.
    if (p !== v.viewer && count > 0) {
      const seen = v.seen_dice?.[p];
      const dice = el("div", { class: "pdice dice" });
      if (seen && seen.length) {
        const aside = v.set_aside?.[p] || [];
        renderDice(dice, seen, { hiddenCount: Math.max(0, count - seen.length), size: "small" });
        markSetAside(dice, seen, aside);
      }
      item.append(dice);
    }
    list.append(item);
  }
  $("round-label").textContent = t("game.round", { n: v.round });
}

/** Mark the last dice of `shown` that are set aside (reveal-and-reroll). */
function markSetAside(container, shown, aside) {
  if (!aside || !aside.length) return;
  const dice = [...container.querySelectorAll(".die")];
  const start = shown.length - aside.length;
  for (let i = start; i < shown.length; i++) dice[i]?.classList.add("set-aside");
}

function renderStatus() {
  const v = S.view;
  const box = $("status");
  box.replaceChildren();
  const mine = myTurn();
  box.dataset.myTurn = String(mine);
  let text;
  if (v.phase === "over" || v.winner != null) text = t("status.over", { name: nameOf(v.winner) });
  else if (mine && v.phase === "choose_visibility") text = t("status.my_choice");
  else if (mine) text = t("status.my_turn");
  else if (v.phase === "choose_visibility") text = t("status.choosing", { name: nameOf(v.to_move) });
  else text = t("status.waiting", { name: nameOf(v.to_move) });
  box.append(el("span", { class: "grow", id: "status-text" }, text));
  if (S.deadline && v.phase !== "over") {
    box.append(el("span", { class: "timer", id: "timer", dataset: { deadline: S.deadline } }));
  }
  tick();
}

function renderStanding() {
  const v = S.view;
  const box = $("standing-bid");
  box.replaceChildren();
  if (v.standing_bid) {
    box.append(tNodes("game.standing_by", { bid: bidNode(v.standing_bid), name: nameOf(v.bidder) }));
    if (v.passer != null) box.append(el("span", { class: "badge blue" }, t("game.passed_by", { name: nameOf(v.passer) })));
  } else if (v.phase !== "over") {
    box.append(el("span", { class: "muted" }, t("game.no_bid", { name: nameOf(v.opener) })));
  }
  const history = $("history");
  history.replaceChildren(
    ...(v.round_actions || []).map(([p, action]) => {
      const b = parseBid(action);
      return el(
        "li",
        { dataset: { player: p, action } },
        el("span", { class: "who" }, nameOf(p)),
        b ? bidNode(action) : el("strong", {}, callWord(action)),
      );
    }),
  );
}

function renderMyDice() {
  const v = S.view;
  const card = $("my-dice-card");
  const note = $("my-dice-note");
  const count = v.viewer == null ? 0 : (v.dice_counts[v.viewer] ?? 0);
  // A spectator has no dice, nor has a player who is out once the game is over.
  if (v.viewer == null || (count === 0 && v.phase === "over")) {
    card.hidden = true;
    return;
  }
  card.hidden = false;
  const box = $("my-dice");
  const aside = v.set_aside?.[v.viewer] || [];
  note.hidden = true;
  if (count === 0 && v.phase !== "over") {
    box.replaceChildren();
    note.hidden = false;
    note.textContent = t("game.you_are_out");
    return;
  }
  if (v.my_dice == null) {
    renderDice(box, aside, { hiddenCount: Math.max(0, count - aside.length), size: "big" });
    markSetAside(box, aside, aside);
    if (v.phase === "bidding" && v.obliging) {
      note.hidden = false;
      note.textContent = v.visibility === "open" ? t("game.open_round_note") : t("game.closed_round_note");
    } else if (v.phase === "choose_visibility") {
      note.hidden = false;
      note.textContent = t("game.choose_note");
    }
    return;
  }
  const shown = [...v.my_dice, ...aside];
  renderDice(box, shown, { size: "big" });
  markSetAside(box, shown, aside);
}

function renderActions() {
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

function renderGameOver() {
  const v = S.view;
  const box = $("game-over");
  const over = v.winner != null || status() === "over";
  box.hidden = !over;
  if (!over) {
    box.removeAttribute("data-winner");
    return;
  }
  const winner = v.winner != null ? nameOf(v.winner) : "";
  box.dataset.winner = winner;
  $("winner-name").textContent = winner ? t("over.wins", { name: winner }) : "";
  $("replay-link").href = `/games/${S.game}`;
  renderRematch(S.table, S.seat, S.host, status() === "over");
  renderRatingChanges(S.table, S.seat);
}

function renderGame() {
  renderPlayers();
  renderStatus();
  renderGameOver();
  renderStanding();
  renderMyDice();
  renderActions();
}

// ---- the reveal

const REVEAL_STAGES = ["lift", "count", "verdict", "done"];
const LIFT_MS = 700;
const VERDICT_MS = 900;
let revealTimer = null;

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

function renderReveal() {
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

// ---- the clock

function tick() {
  for (const node of document.querySelectorAll(".timer[data-deadline]")) {
    const left = Math.max(0, Number(node.dataset.deadline) - Date.now());
    const secs = Math.ceil(left / 1000);
    node.textContent = `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}`;
    node.classList.toggle("urgent", secs <= 10);
    node.setAttribute("aria-label", t("game.time_left", { n: secs }));
  }
}

// ---------------------------------------------------------------------------- start

async function loadTable() {
  try {
    takeTable(await api(`/api/tables/${encodeURIComponent(S.code)}`));
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      $("table-main").dataset.status = "missing";
      $("join-panel").hidden = false;
      $("join-heading").textContent = t("join.no_table", { code: S.code });
      $("join-form").hidden = true;
      $("watch-button").hidden = true;
      $("join-closed").hidden = false;
      $("join-closed").replaceChildren(el("a", { href: "/" }, t("join.back_home")));
      return false;
    }
    throw err;
  }
}

async function join(event) {
  event.preventDefault();
  const name = $("join-name").value.trim();
  if (!name) {
    toast(t("create.need_name"), "error");
    $("join-name").focus();
    return;
  }
  rememberName(name);
  $("join-button").disabled = true;
  try {
    const answer = await api(`/api/tables/${encodeURIComponent(S.code)}/join`, {
      method: "POST",
      body: { name },
    });
    saveSeatToken(S.code, answer.token);
    S.token = answer.token;
    S.seat = answer.seat;
    connect();
    // A player still named by the server takes the name they sat down under, now: the top
    // bar and their profile follow without a reload (or a toast says why not).
    satDownAs(name).then((why) => why && toast(why, "info", 9000));
  } catch (err) {
    toast(wordError(err), "error");
    await loadTable().catch(() => {});
    render();
  } finally {
    $("join-button").disabled = false;
  }
}

function bindControls() {
  $("join-form").addEventListener("submit", join);
  $("watch-button").addEventListener("click", () => {
    connect();
    render();
  });
  $("copy-invite").addEventListener("click", async () => {
    const url = $("invite-link").href;
    try {
      await navigator.clipboard.writeText(url);
      toast(t("lobby.copied"), "ok", 2000);
    } catch {
      const range = document.createRange();
      range.selectNodeContents($("invite-link"));
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      toast(t("lobby.copy_manually"), "info");
    }
  });
  $("add-bot-button").addEventListener("click", () => hostCall("POST", "/bots", { level: $("bot-level").value }));
  $("start-button").addEventListener("click", () => hostCall("POST", "/start"));
  $("rematch-button").addEventListener("click", () => hostCall("POST", "/rematch"));
  $("ready-button").addEventListener("click", () =>
    hostCall("POST", "/ready", { ready: $("ready-button").dataset.ready !== "true" }),
  );
  $("leave-button").addEventListener("click", leaveTable);
  $("leave-table").addEventListener("click", leaveTable);
  $("take-back").addEventListener("click", () => {
    if (!socket || !socket.send({ type: "take_back" })) toast(t("conn.not_sent"), "error");
  });
  for (const id of ["action-call", "action-spot-on", "action-pass", "action-doubt-pass", "action-open", "action-closed"]) {
    $(id).addEventListener("click", () => act($(id).dataset.action));
  }
  $("reveal-dismiss").addEventListener("click", () => {
    if (S.reveal) {
      S.reveal.dismissed = true;
      rememberReveal(S.reveal.event);
    }
    clearTimeout(revealTimer);
    revealTimer = null;
    renderReveal();
  });
  $("reveal-skip").addEventListener("click", skipReveal);
  initBidEntry({ act, explain, pending: () => S.pending, view: () => S.view, pointed: learnerBid });
  $("reveal").addEventListener("click", (e) => {
    if (e.target === $("reveal")) $("reveal-dismiss").click();
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !$("reveal").hidden) $("reveal-dismiss").click();
  });
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
    onSocketStatus(socket ? socket.status : "idle");
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
  S.presets = await api("/api/presets").catch(() => null);
  if (Array.isArray(S.presets?.bot_levels) && S.presets.bot_levels.length) S.botLevels = S.presets.bot_levels;
  if (S.token) {
    connect();
    // Show the table at once; the socket's table frame follows.
    await loadTable().catch(() => {});
    render();
    return;
  }
  if (await loadTable()) render();
}

startPage(main);
