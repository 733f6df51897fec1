// chat.js — the table's chat panel: messages, quick phrases and emotes, free text, mute, the
// host's switch (docs/protocol.md, "Chat").
//
// Everything a person wrote is put on the page with textContent, never as markup: a name or a
// message holding HTML shows as typed. Quick phrases travel as codes and are worded here in
// the reader's language (chat.phrase.<code>). Muting is this browser's and mutes the person:
// each seated speaker's message carries `who`, an identity at the table that stays theirs in
// any seat; the people (or the spectators) a reader muted are kept in localStorage
// "dudo.chat.mute.<CODE>" as "who:<who>" (messages stored before `who` existed: "seat:N").
//
// table.js calls:
//   chatRender(ctx)   after each render, ctx = {table, seat, host, inGame, send, token}
//   chatFrame(frame)  for the frames chat and chat_history, and errors with for: "chat"
//                     (true when the frame was the chat's)
//
// DOM: details#chat[data-on] (open: the panel shows; closed by default on phones) > summary
// (#chat-unread: messages that came while it was closed), #chat-off, #chat-note (spectators:
// who reads them), ol#chat-log > li[data-seq][data-channel][data-seat][data-who] (.chat-name,
// .chat-text; data-phrase for quick phrases), #chat-status (the host switched the chat off or
// on), #chat-phrases > button[data-phrase],
// form#chat-form (#chat-text, #chat-send), #chat-error, details#chat-mute > input
// [data-mute="who:W" | "seat:N" | "spectators"] (the people heard so far, by their latest
// name), button#chat-switch (host only).

import { api } from "/static/api.js";
import { onLangChange, t, wordError } from "/static/i18n.js";
import { el } from "/static/ui.js";

const PHRASES = ["dudo", "nice_bluff", "good_game", "good_luck", "well_played", "oops", "hurry", "rematch"];
const EMOTES = ["laugh", "clap", "think", "wow", "cool", "sad"];
const KEEP = 200; // messages kept on the page
const MAX_TEXT = 200;

const C = {
  ctx: null,
  panel: null,
  messages: [],
  on: true,
  unread: 0,
  muted: new Set(),
  code: null,
  lastText: "",
  mine: new Set(), // the `who` of this reader's own messages: never muted, never offered
  seen: false, // a table was shown: a change of the switch after it is news
};

const $ = (id) => document.getElementById(id);

function muteKey() {
  return `dudo.chat.mute.${C.code}`;
}

function loadMuted() {
  try {
    const list = JSON.parse(localStorage.getItem(muteKey()) || "[]");
    C.muted = new Set(Array.isArray(list) ? list.filter((x) => typeof x === "string") : []);
  } catch {
    C.muted = new Set();
  }
}

function saveMuted() {
  try {
    localStorage.setItem(muteKey(), JSON.stringify([...C.muted]));
  } catch {
    /* no storage: muted for this page only */
  }
}

function authorKey(message) {
  if (message.seat == null) return "spectators";
  return message.who ? `who:${message.who}` : `seat:${message.seat}`;
}

function isMine(message) {
  if (message.who && C.mine.has(message.who)) return true;
  return C.ctx != null && message.seat != null && message.seat === C.ctx.seat && message.channel === "players";
}

function isMuted(message) {
  if (isMine(message)) return false; // nobody mutes themselves
  return C.muted.has(authorKey(message));
}

/** Remember this reader's own `who` (from a message said from their seat now). */
function noteMine(message) {
  if (message.who && C.ctx && message.seat != null && message.seat === C.ctx.seat) C.mine.add(message.who);
}

// ---------------------------------------------------------------------------- building

function build() {
  const phrases = el(
    "div",
    { id: "chat-phrases", class: "chat-phrases", role: "group", "aria-label": t("chat.quick"), "data-i18n-aria-label": "chat.quick" },
    ...PHRASES.map((code) =>
      el("button", { type: "button", class: "small chat-phrase", dataset: { phrase: code }, onclick: () => say({ phrase: code }) }),
    ),
  );
  const emotes = el(
    "div",
    { id: "chat-emotes", class: "chat-emotes", role: "group", "aria-label": t("chat.emotes"), "data-i18n-aria-label": "chat.emotes" },
    ...EMOTES.map((code) =>
      el("button", { type: "button", class: "small chat-emote", dataset: { phrase: code }, onclick: () => say({ phrase: code }) }),
    ),
  );
  const input = el("input", {
    id: "chat-text",
    type: "text",
    maxlength: MAX_TEXT,
    autocomplete: "off",
    enterkeyhint: "send",
    "aria-describedby": "chat-error",
  });
  const form = el(
    "form",
    { id: "chat-form", class: "chat-form", novalidate: true },
    el("label", { for: "chat-text", class: "sr-only", "data-i18n": "chat.message" }),
    input,
    el("button", { type: "submit", id: "chat-send", "data-i18n": "chat.send" }),
  );
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = input.value.trim();
    if (!text) {
      showError(t("error.chat_empty"));
      return;
    }
    if (say({ text })) {
      C.lastText = text;
      input.value = "";
    }
  });
  const mute = el(
    "details",
    { id: "chat-mute", class: "chat-mute" },
    el("summary", { "data-i18n": "chat.mute_heading" }),
    el("p", { class: "muted small", "data-i18n": "chat.mute_help" }),
    el("ul", { id: "chat-mute-list", class: "chat-mute-list" }),
  );
  const panel = el(
    "details",
    { id: "chat", class: "card chat" },
    el(
      "summary",
      { class: "chat-summary" },
      el("span", { "data-i18n": "chat.heading" }),
      el("span", { id: "chat-unread", class: "chat-unread", hidden: true }),
    ),
    el("p", { id: "chat-off", class: "muted small", "data-i18n": "chat.off", hidden: true }),
    el("p", { id: "chat-status", class: "muted small", role: "status" }),
    el("p", { id: "chat-note", class: "muted small", "data-i18n": "chat.spectator_note", hidden: true }),
    el("ol", {
      id: "chat-log",
      class: "chat-log",
      "aria-live": "polite",
      "aria-relevant": "additions",
      "aria-label": t("chat.heading"),
      "data-i18n-aria-label": "chat.heading",
      tabindex: "0",
    }),
    el("p", { id: "chat-empty", class: "muted small", "data-i18n": "chat.empty" }),
    phrases,
    emotes,
    form,
    el("p", { id: "chat-error", class: "error-text", "aria-live": "assertive" }),
    mute,
    el("button", { type: "button", id: "chat-switch", class: "ghost small", hidden: true, onclick: switchChat }),
  );
  // Open beside the game on a wide screen; folded on a phone, where the move comes first.
  panel.open = window.matchMedia("(min-width: 900px)").matches;
  panel.addEventListener("toggle", () => {
    if (panel.open) {
      C.unread = 0;
      renderUnread();
      scrollLog();
    }
  });
  C.panel = panel;
  onLangChange(() => {
    word();
    renderLog();
    renderControls();
  });
  return panel;
}

/** The words of the panel in the page's language (the data-i18n texts and the buttons). */
function word() {
  const panel = C.panel;
  for (const node of panel.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of panel.querySelectorAll("[data-i18n-aria-label]")) {
    node.setAttribute("aria-label", t(node.dataset.i18nAriaLabel));
  }
  panel.querySelector("#chat-text").setAttribute("placeholder", t("chat.placeholder"));
  for (const button of panel.querySelectorAll(".chat-phrase")) {
    button.textContent = t(`chat.phrase.${button.dataset.phrase}`);
  }
  for (const button of panel.querySelectorAll(".chat-emote")) {
    button.textContent = t(`chat.phrase.${button.dataset.phrase}`);
    button.setAttribute("aria-label", t(`chat.label.${button.dataset.phrase}`));
    button.title = t(`chat.label.${button.dataset.phrase}`);
  }
  renderUnread();
}

// ---------------------------------------------------------------------------- the log

function messageText(message) {
  if (message.phrase) return t(`chat.phrase.${message.phrase}`);
  return message.text ?? "";
}

function authorName(message) {
  return message.seat == null ? t("chat.spectator") : message.name || `#${message.seat + 1}`;
}

function messageItem(message) {
  const li = el("li", {
    class: `chat-line seat-color-${message.seat == null ? "none" : message.seat % 8}`,
    dataset: {
      seq: String(message.seq),
      channel: message.channel,
      seat: message.seat == null ? "" : String(message.seat),
      who: message.who || "",
    },
  });
  if (message.phrase) li.dataset.phrase = message.phrase;
  const name = el("span", { class: "chat-name" });
  name.textContent = authorName(message); // a name is text, whatever it holds
  li.append(name);
  if (message.channel === "spectators" && message.seat == null && C.ctx?.seat != null) {
    li.append(" ", el("span", { class: "chat-tag", text: `(${t("chat.from_spectators")})` }));
  }
  const text = el("span", { class: "chat-text" });
  text.textContent = messageText(message); // never markup
  if (message.phrase && EMOTES.includes(message.phrase)) text.title = t(`chat.label.${message.phrase}`);
  li.append(" ", text);
  return li;
}

function scrollLog() {
  const log = $("chat-log");
  if (log) log.scrollTop = log.scrollHeight;
}

function renderLog() {
  const log = $("chat-log");
  if (!log) return;
  const shown = C.messages.filter((m) => !isMuted(m));
  log.replaceChildren(...shown.map(messageItem));
  $("chat-empty").hidden = shown.length > 0;
  scrollLog();
}

function renderUnread() {
  const badge = $("chat-unread");
  if (!badge) return;
  badge.hidden = C.unread === 0;
  badge.textContent = String(C.unread);
  badge.setAttribute("aria-label", t("chat.unread", { count: C.unread }));
}

function add(message) {
  noteMine(message);
  C.messages.push(message);
  if (C.messages.length > KEEP) C.messages.splice(0, C.messages.length - KEEP);
  if (isMuted(message)) return;
  const log = $("chat-log");
  if (!log) return;
  log.append(messageItem(message));
  while (log.childElementCount > KEEP) log.firstElementChild.remove();
  $("chat-empty").hidden = true;
  scrollLog();
  renderControls(); // a new speaker may be muted from now on
  if (!C.panel.open && !isMine(message)) {
    C.unread += 1;
    renderUnread();
  }
}

// ---------------------------------------------------------------------------- sending

function showError(text) {
  const box = $("chat-error");
  if (box) box.textContent = text;
}

function say(frame) {
  showError("");
  if (!C.ctx || !C.ctx.send({ type: "chat", ...frame })) {
    showError(t("conn.not_sent"));
    return false;
  }
  return true;
}

async function switchChat() {
  if (!C.ctx || !C.ctx.host) return;
  try {
    await api(`/api/tables/${encodeURIComponent(C.code)}/chat`, { method: "POST", body: { on: !C.on }, token: C.ctx.token });
  } catch (err) {
    showError(wordError(err));
  }
}

// ---------------------------------------------------------------------------- controls

function renderControls() {
  const ctx = C.ctx;
  if (!ctx || !C.panel) return;
  C.panel.dataset.on = String(C.on);
  $("chat-off").hidden = C.on;
  for (const node of C.panel.querySelectorAll("#chat-phrases button, #chat-emotes button, #chat-form input, #chat-form button")) {
    node.disabled = !C.on;
  }
  // A spectator is told who reads them while a game is played.
  $("chat-note").hidden = !(ctx.seat == null && ctx.table?.status === "playing");
  const host = $("chat-switch");
  host.hidden = !ctx.host;
  host.textContent = t(C.on ? "chat.switch_off" : "chat.switch_on");
  renderMuteList();
}

function renderMuteList() {
  const list = $("chat-mute-list");
  // The people heard so far, each once under their latest name, whatever seat they spoke from.
  const people = new Map();
  for (const message of C.messages) {
    if (message.seat == null || isMine(message)) continue;
    people.set(authorKey(message), authorName(message));
  }
  const choices = [
    ...[...people].map(([key, label]) => ({ key, label })),
    { key: "spectators", label: t("chat.mute_spectators") },
  ];
  const signature = JSON.stringify(choices);
  if (list.dataset.signature === signature) return;
  list.dataset.signature = signature;
  list.replaceChildren(
    ...choices.map(({ key, label }) => {
      const box = el("input", { type: "checkbox", dataset: { mute: key } });
      box.checked = C.muted.has(key);
      box.addEventListener("change", () => {
        if (box.checked) C.muted.add(key);
        else C.muted.delete(key);
        saveMuted();
        renderLog();
      });
      const name = el("span");
      name.textContent = label;
      return el("li", {}, el("label", {}, box, " ", name));
    }),
  );
}

/** Put the panel where it belongs: beside the feed in a game, after the lobby before one. */
function place(ctx) {
  const panel = C.panel;
  if (ctx.inGame) {
    const feed = $("col-feed");
    const details = $("table-details");
    if (panel.parentElement !== feed) {
      if (details && details.parentElement === feed) details.before(panel);
      else feed.append(panel);
    }
  } else {
    const main = $("table-main");
    if (panel.parentElement !== main) main.append(panel);
  }
}

// ---------------------------------------------------------------------------- table.js

export function chatRender(ctx) {
  if (!ctx.table) return;
  if (!C.panel) {
    C.code = ctx.table.code;
    loadMuted();
    build();
    C.ctx = ctx;
    place(ctx);
    word();
    renderLog();
  }
  C.ctx = ctx;
  const on = ctx.table.chat !== false;
  if (on !== C.on) {
    const wasOn = C.on;
    C.on = on;
    if (C.seen) $("chat-status").textContent = t(wasOn ? "chat.turned_off" : "chat.turned_on");
  }
  C.seen = true;
  place(ctx);
  renderControls();
}

export function chatFrame(frame) {
  if (frame.type === "chat_history") {
    C.messages = Array.isArray(frame.messages) ? frame.messages.slice(-KEEP) : [];
    C.messages.forEach(noteMine);
    if (typeof frame.on === "boolean") C.on = frame.on;
    renderLog();
    renderControls();
    return true;
  }
  if (frame.type === "chat") {
    if (frame.message) add(frame.message);
    return true;
  }
  if (frame.type === "error" && frame.for === "chat") {
    showError(wordError(frame));
    const input = $("chat-text");
    if (input && !input.value && C.lastText) input.value = C.lastText; // keep what was typed
    return true;
  }
  return false;
}
