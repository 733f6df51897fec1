// lobby.js — the open public tables on the start page, kept live over /ws/lobby, "Play now",
// and the create form's public/countdown fields (docs/protocol.md, "The lobby").
//
// The socket sends `lobby_full` (every card, with a version) once, then `lobby` diffs whose
// version grows by one each; a gap (a frame missed) means reconnecting for a full list again.
//
// Test hooks:
//   #lobby-list            li.lobby-card[data-code][data-preset] per open public table:
//                            .lobby-preset, .lobby-host, .lobby-seats, .lobby-bots (li per
//                            bot level), .lobby-countdown[data-deadline] (ms), a.lobby-join
//   #lobby-empty           shown when no card matches the filter
//   #lobby-filter          <select>: "" (every preset) or a preset name
//   #lobby-live            the feed's state (data-state="open" once the list is live)
//   #play-name, #play-preset, #play-now, #play-error   "Play now": the seat's token goes to
//                            localStorage "dudo.seat.<CODE>" and the page goes to /t/<CODE>
//   #create-public, #create-fill-seconds, #create-fill-level   (read by createFields())

import { api, saveSeatToken, untilPlayerKnown } from "/static/api.js";
import { onLangChange, t, wordError } from "/static/i18n.js";
import { botLevelLabel, presetName } from "/static/rules.js";
import { el, fillRememberedName, rememberName, toast } from "/static/ui.js";

const $ = (id) => document.getElementById(id);
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
  filter: "",
};

/** What the create form adds to its request: public or private, and the countdown. */
export function createFields() {
  const seconds = Number($("create-fill-seconds")?.value);
  return {
    public: !!$("create-public")?.checked,
    rated: !!$("create-rated")?.checked,
    fill_seconds: Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds) : 0,
    fill_level: $("create-fill-level")?.value || "easy",
  };
}

/** "0:42": minutes and seconds left until ``deadline`` (ms since the epoch). */
export function clockText(deadline) {
  const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}

/** The words of a countdown to ``deadline`` (ms), for the lobby card and the table page. */
export function countdownText(deadline, level) {
  if (deadline - Date.now() <= 0) return t("hall.starting");
  return t("hall.countdown", { time: clockText(deadline), level: botLevelLabel(level || "easy") });
}

function cardEl(card) {
  const bots = card.bots.length
    ? el("ul", { class: "lobby-bots" }, ...card.bots.map((b) => el("li", { class: "chip" }, botLevelLabel(b))))
    : el("p", { class: "lobby-bots muted small" }, t("hall.no_bots"));
  const badges = [];
  if (card.rated) badges.push(el("span", { class: "badge gold lobby-rated" }, t("hall.rated")));
  if (card.house_rules > 0) badges.push(el("span", { class: "badge" }, t("hall.house_rules", { count: card.house_rules })));
  if (card.hints) badges.push(el("span", { class: "badge blue" }, t("create.hints")));
  badges.push(
    el(
      "span",
      { class: "badge" },
      card.turn_seconds > 0 ? t("lobby.turn_seconds", { n: card.turn_seconds }) : t("lobby.no_timer"),
    ),
  );
  const countdown = el("p", { class: "lobby-countdown", hidden: card.fill_deadline == null });
  if (card.fill_deadline != null) {
    countdown.dataset.deadline = String(card.fill_deadline);
    countdown.dataset.level = card.fill_level || "easy";
    countdown.textContent = countdownText(card.fill_deadline, card.fill_level);
  }
  const seats = el(
    "span",
    { class: "lobby-seats" },
    t("hall.seats", { taken: card.taken, seats: card.seats }),
    " · ",
    el("strong", {}, t("hall.free", { count: card.free })),
  );
  return el(
    "li",
    { class: "lobby-card", "data-code": card.code, "data-preset": card.preset },
    el(
      "div",
      { class: "lobby-card-head" },
      el("span", { class: "lobby-preset badge gold" }, presetName(card.preset)),
      el("span", { class: "lobby-host" }, t("hall.host", { name: card.host || "—" })),
    ),
    seats,
    bots,
    el("div", { class: "lobby-badges" }, ...badges),
    countdown,
    el(
      "a",
      {
        class: "button primary lobby-join",
        href: `/t/${encodeURIComponent(card.code)}`,
        "aria-label": t("hall.join_label", { preset: presetName(card.preset), name: card.host || "—" }),
      },
      t("hall.join"),
    ),
  );
}

function render() {
  const list = $("lobby-list");
  if (!list) return;
  const cards = [...feed.cards.values()]
    .filter((c) => !feed.filter || c.preset === feed.filter)
    .sort((a, b) => b.taken - a.taken);
  list.replaceChildren(...cards.map(cardEl));
  const empty = $("lobby-empty");
  empty.hidden = cards.length > 0 || feed.version < 0;
  empty.textContent = feed.filter ? t("hall.empty_filtered") : t("hall.empty");
}

function tick() {
  for (const node of document.querySelectorAll(".lobby-countdown[data-deadline]")) {
    node.textContent = countdownText(Number(node.dataset.deadline), node.dataset.level);
  }
}

function setLive(state) {
  const live = $("lobby-live");
  if (!live) return;
  live.dataset.state = state;
  live.textContent = state === "open" ? t("hall.live") : t("conn.connecting");
}

function onFrame(frame) {
  if (frame.type === "lobby_full") {
    feed.cards = new Map(frame.tables.map((c) => [c.code, c]));
    feed.version = frame.version;
    render();
  } else if (frame.type === "lobby") {
    if (frame.version !== feed.version + 1) {
      feed.ws?.close(); // a frame was missed: the next connection brings the whole list
      return;
    }
    feed.version = frame.version;
    for (const code of frame.removed) feed.cards.delete(code);
    for (const card of frame.changed) feed.cards.set(card.code, card);
    render();
  }
}

function connect() {
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

async function playNow(event) {
  event.preventDefault();
  const error = $("play-error");
  error.hidden = true;
  const name = $("play-name").value.trim();
  if (!name) {
    error.textContent = t("create.need_name");
    error.hidden = false;
    $("play-name").focus();
    return;
  }
  rememberName(name);
  const button = $("play-now");
  button.disabled = true;
  try {
    await untilPlayerKnown();
    const seated = await api("/api/lobby/play", {
      method: "POST",
      body: { name, preset: $("play-preset").value },
    });
    saveSeatToken(seated.code, seated.token);
    location.assign(seated.url || `/t/${seated.code}`);
  } catch (err) {
    error.textContent = wordError(err);
    error.hidden = false;
    toast(wordError(err), "error");
    button.disabled = false;
  }
}

function fillPresets(presets, preset) {
  const names = presets.map((p) => p.name);
  const play = $("play-preset");
  const keep = play.value || preset;
  play.replaceChildren(...names.map((n) => el("option", { value: n }, presetName(n))));
  play.value = names.includes(keep) ? keep : names[0];
  const filter = $("lobby-filter");
  filter.replaceChildren(
    el("option", { value: "" }, t("hall.all_presets")),
    ...names.map((n) => el("option", { value: n }, presetName(n))),
  );
  filter.value = feed.filter;
}

function fillLevels(levels) {
  const select = $("create-fill-level");
  if (!select) return;
  const keep = select.value || (levels.includes("easy") ? "easy" : levels[0]);
  select.replaceChildren(...levels.map((l) => el("option", { value: l }, botLevelLabel(l))));
  select.value = keep;
}

/** Start the lobby part of the page; ``data`` is GET /api/presets's answer. */
export function startLobby(data) {
  const presets = data.presets || [];
  const levels = Array.isArray(data.bot_levels) && data.bot_levels.length ? data.bot_levels : ["easy"];
  fillRememberedName($("play-name"));
  fillPresets(presets, data.default);
  fillLevels(levels);
  $("lobby-filter").addEventListener("change", (e) => {
    feed.filter = e.target.value;
    render();
  });
  $("play-preset").addEventListener("change", (e) => {
    // Choosing the rules to play also shows the open tables of those rules.
    feed.filter = e.target.value;
    $("lobby-filter").value = feed.filter;
    render();
  });
  $("play-now-form").addEventListener("submit", playNow);
  onLangChange(() => {
    fillPresets(presets, data.default);
    fillLevels(levels);
    setLive(feed.ws?.readyState === 1 ? "open" : "connecting");
    render();
  });
  setInterval(tick, 1000);
  connect();
}
