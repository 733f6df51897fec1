// lobbyfeed.js — the lobby's live feed over /ws/lobby (docs/protocol.md, "The lobby"): the
// cards of the open public tables (status "waiting") and of the public games in progress
// (status "playing"), kept up to date for the pages that show them.
//
// The socket sends `lobby_full` (every card, with a version) once, then `lobby` diffs whose
// version grows by one each; a gap (a frame missed) means reconnecting for a full list again.
//
// Test hooks:
//   #lobby-live            the feed's state (data-state="open" once the list is live)

import { t } from "/static/i18n.js";

const BACKOFF_START_MS = 250;
const BACKOFF_CAP_MS = 5000;
const PING_MS = 25000;

const feed = {
  cards: new Map(), // code -> card, in the order the server listed them
  version: -1,
  ws: null,
  delay: BACKOFF_START_MS,
  retry: null,
  ping: null,
  listeners: [],
};

/** The cards of one status ("waiting" or "playing"), in the order the server listed them. */
export function cards(status) {
  return [...feed.cards.values()].filter((c) => (c.status || "waiting") === status);
}

/** Whether the first whole list has come (before it, an empty list means nothing yet). */
export function loaded() {
  return feed.version >= 0;
}

/** Run ``listener`` after every change of the cards. */
export function onCards(listener) {
  feed.listeners.push(listener);
}

/** Word the feed's state again (after a change of language). */
export function showLive() {
  setLive(feed.ws?.readyState === 1 ? "open" : "connecting");
}

function changed() {
  for (const listener of feed.listeners) listener();
}

function setLive(state) {
  const live = document.getElementById("lobby-live");
  if (!live) return;
  live.dataset.state = state;
  live.textContent = state === "open" ? t("hall.live") : t("conn.connecting");
}

function onFrame(frame) {
  if (frame.type === "lobby_full") {
    feed.cards = new Map(frame.tables.map((c) => [c.code, c]));
    feed.version = frame.version;
    changed();
  } else if (frame.type === "lobby") {
    if (frame.version !== feed.version + 1) {
      feed.ws?.close(); // a frame was missed: the next connection brings the whole list
      return;
    }
    feed.version = frame.version;
    for (const code of frame.removed) feed.cards.delete(code);
    for (const card of frame.changed) feed.cards.set(card.code, card);
    changed();
  }
}

/** Open the feed (once per page). */
export function connect() {
  clearTimeout(feed.retry);
  setLive("connecting");
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  let ws;
  try {
    ws = new WebSocket(`${scheme}://${location.host}/ws/lobby`);
  } catch {
    scheduleReconnect();
    return;
  }
  feed.ws = ws;
  ws.addEventListener("open", () => {
    feed.delay = BACKOFF_START_MS;
    setLive("open");
    clearInterval(feed.ping);
    feed.ping = setInterval(() => ws.readyState === 1 && ws.send('{"type":"ping"}'), PING_MS);
  });
  ws.addEventListener("message", (e) => {
    try {
      onFrame(JSON.parse(e.data));
    } catch (err) {
      console.warn("lobby frame:", err);
    }
  });
  ws.addEventListener("close", () => {
    if (feed.ws !== ws) return;
    clearInterval(feed.ping);
    feed.version = -1;
    scheduleReconnect();
  });
}

function scheduleReconnect() {
  setLive("connecting");
  feed.retry = setTimeout(connect, feed.delay);
  feed.delay = Math.min(BACKOFF_CAP_MS, feed.delay * 2);
}
