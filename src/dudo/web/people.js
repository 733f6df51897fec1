// people.js — the people at a table between games: the running score, who is ready for the
// rematch, and each person's own Ready and Leave buttons. The table page (tableseats.js,
// tableview.js) calls these with the table JSON (GET /api/tables/<code>, or the socket's
// table frame); nothing here decides a rule: the server says who is ready (bots always are),
// who is host and what the score is.
//
// Test hooks (in #game-over): #rematch-panel, #rematch-seats > li[data-seat][data-kind]
//   [data-ready] (.avatar, .rs-name, .rs-score[data-wins][data-played], .rs-state),
//   #ready-button (data-ready = mine), #leave-button, #rematch-button (host; disabled until
//   everyone is ready), #rematch-reason (why it is disabled). Score lines: #score-line (lobby
//   card) and #players-score (players card): "Ana 2 · Bo 1", empty before a game ends.

import { avatar } from "/static/avatar.js";
import { t } from "/static/i18n.js";
import { el } from "/static/ui.js";

const $ = (id) => document.getElementById(id);

/** People and bots seated now (open seats have nobody). */
function seated(table) {
  return (table?.seats || []).filter((s) => s.kind !== "open");
}

/** "Ana 2 · Bo 1": games won at this table, once a game has been played ("" before). */
export function scoreLine(table) {
  const people = seated(table);
  if (!people.some((s) => s.played > 0)) return "";
  const scores = people.map((s) => `${s.name} ${s.wins}`).join(" · ");
  return t("people.score_line", { scores });
}

/** The names of the people seated who have not said they are ready. */
export function notReady(table) {
  return seated(table)
    .filter((s) => !s.ready)
    .map((s) => s.name);
}

function scoreText(seat) {
  return `${t("people.wins", { count: seat.wins })} ${t("people.played", { count: seat.played })}`;
}

function seatRow(seat, mine) {
  const state = seat.ready ? t("people.ready") : t("people.waiting");
  return el(
    "li",
    { dataset: { seat: seat.seat, kind: seat.kind, ready: String(!!seat.ready), me: String(mine) } },
    avatar(seat.name, seat.seat),
    el("span", { class: "rs-name" }, seat.name || "?"),
    el("span", { class: "rs-score", dataset: { wins: seat.wins, played: seat.played } }, scoreText(seat)),
    el("span", { class: `badge rs-state ${seat.ready ? "green" : ""}` }, state),
  );
}

/**
 * The game-over panel's people part. `me` is my seat number (null: watching), `host` whether
 * I am the host, `over` whether the table's game is over (not a new one being started).
 */
export function renderRematch(table, me, host, over) {
  const panel = $("rematch-panel");
  panel.hidden = !table;
  if (!table) return;
  $("rematch-seats").replaceChildren(...seated(table).map((s) => seatRow(s, s.seat === me)));
  const mine = me == null ? null : table.seats?.[me];
  const person = over && mine != null && mine.kind === "human";
  const ready = $("ready-button");
  ready.hidden = !person;
  $("leave-button").hidden = !person;
  $("ready-hint").hidden = !person || !!mine.ready;
  if (person) {
    ready.dataset.ready = String(!!mine.ready);
    ready.setAttribute("aria-pressed", String(!!mine.ready));
    ready.textContent = mine.ready ? t("people.not_ready_button") : t("people.ready_button");
    ready.classList.toggle("primary", !mine.ready);
  }
  const rematch = $("rematch-button");
  const reason = $("rematch-reason");
  const waiting = notReady(table);
  const canStart = host && over;
  rematch.hidden = !canStart;
  rematch.disabled = canStart && waiting.length > 0;
  reason.hidden = !canStart || waiting.length === 0;
  reason.textContent = waiting.length
    ? t("people.waiting_for", { count: waiting.length, names: waiting.join(", ") })
    : "";
  $("rematch-wait").hidden = canStart || !over;
}

/** The score lines of the lobby card and the players card. */
export function renderScores(table) {
  const line = scoreLine(table);
  for (const id of ["score-line", "players-score"]) {
    const box = $(id);
    if (!box) continue;
    box.textContent = line;
    box.hidden = !line;
  }
}
