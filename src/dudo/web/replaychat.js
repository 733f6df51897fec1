// replaychat.js — the chat of a finished game on its replay page: the messages said up to the
// step shown (a message said after k actions appears from step k on; those said once the game
// was over, at the last step), both channels, every text put on the page as text.
//
// The server sends a game's chat only to those who sat in it (docs/protocol.md, "Chat");
// anyone else gets chat_hidden and reads a note saying so.
//
// replay.js calls renderReplayChat(messages, step, steps, hidden) after each render.
//
// DOM: section#replay-chat[data-hidden] > ol#replay-chat-log > li[data-seq][data-channel]
// [data-turn] (.chat-name, .chat-text, .chat-tag "after the game"), #replay-chat-empty,
// #replay-chat-hidden (the chat is not shown to this reader).

import { t } from "/static/i18n.js";
import { el } from "/static/ui.js";

function section() {
  let box = document.getElementById("replay-chat");
  if (box) return box;
  box = el(
    "section",
    { id: "replay-chat", class: "card", "aria-labelledby": "replay-chat-heading" },
    el("h2", { id: "replay-chat-heading" }),
    el("ol", { id: "replay-chat-log", class: "chat-log" }),
    el("p", { id: "replay-chat-empty", class: "muted small" }),
    el("p", { id: "replay-chat-hidden", class: "muted small", hidden: true }),
  );
  document.getElementById("replay-main").append(box);
  return box;
}

function line(message, steps) {
  const li = el("li", {
    class: `chat-line seat-color-${message.seat == null ? "none" : message.seat % 8}`,
    dataset: { seq: String(message.seq), channel: message.channel, turn: String(message.turn) },
  });
  const name = el("span", { class: "chat-name" });
  name.textContent = message.seat == null ? t("chat.spectator") : message.name || `#${message.seat + 1}`;
  const text = el("span", { class: "chat-text" });
  text.textContent = message.phrase ? t(`chat.phrase.${message.phrase}`) : (message.text ?? "");
  li.append(name, " ", text);
  if (message.turn >= steps) li.append(" ", el("span", { class: "chat-tag", text: `(${t("replay.chat_after")})` }));
  return li;
}

export function renderReplayChat(messages, step, steps, hidden = false) {
  const list = Array.isArray(messages) ? messages : [];
  if (!list.length && !hidden) return; // a game nobody talked in: no panel
  const box = section();
  box.querySelector("h2").textContent = t("replay.chat");
  box.dataset.hidden = String(hidden);
  const note = document.getElementById("replay-chat-hidden");
  note.textContent = t("replay.chat_hidden");
  note.hidden = !hidden;
  if (hidden) {
    document.getElementById("replay-chat-log").replaceChildren();
    document.getElementById("replay-chat-empty").hidden = true;
    return;
  }
  const shown = list.filter((m) => m.turn <= step);
  const log = document.getElementById("replay-chat-log");
  log.replaceChildren(...shown.map((m) => line(m, steps)));
  log.scrollTop = log.scrollHeight;
  const empty = document.getElementById("replay-chat-empty");
  empty.textContent = t("replay.chat_empty");
  empty.hidden = shown.length > 0;
}
