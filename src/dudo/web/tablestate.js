// tablestate.js — what the table page knows: the table, this browser's seat and token, the
// game's view and events, the socket; and the questions every part of the page asks of it
// (whose name, which seat, in a game or not, my turn or not). The page's modules (table.js,
// tableseats.js, tableview.js, tableacts.js, tablereveal.js) share the one state object S.

// First: a player's seat here is taken back before the page reads its seat token.
import "/static/player.js";
import { seatToken } from "/static/api.js";
import { narrateEvent } from "/static/narrate.js";

export const $ = (id) => document.getElementById(id);

const code = decodeURIComponent(location.pathname.split("/")[2] || "")
  .trim()
  .toUpperCase();

export const S = {
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
  socket: null, // the TableSocket, once this page joined or watches
};

export function nameOf(player) {
  if (player == null) return "?";
  return S.names[player] ?? `#${player + 1}`;
}

export function seatOfPlayer(player) {
  return S.table?.seats?.find((s) => s.player === player) || null;
}

export function status() {
  return S.table?.status || "loading";
}

export function inGame() {
  return S.view != null && (status() === "playing" || status() === "over");
}

export function myTurn() {
  const v = S.view;
  return !!v && v.viewer != null && v.to_move === v.viewer && v.phase !== "over";
}

export const narrate = (e) => narrateEvent(e, nameOf);

/** Send a frame on the table's socket; false when there is none or it is not open. */
export function send(frame) {
  return !!S.socket?.send(frame);
}

// A table snapshot replaces the one shown only if it is not older: an HTTP answer that comes
// after a newer socket frame (a reload, a host command) must not put the page back in time.
export function takeTable(table) {
  if (S.table && S.table.version != null && table.version != null && table.version < S.table.version) {
    return false;
  }
  S.table = table;
  return true;
}
