// lobby.js — the first page's ways to play at once: a game against bots that starts at once,
// "Play now" with people (the fullest open public table, or a new one), the open public tables
// kept live by the lobby feed (lobbyfeed.js) and the games in progress (live.js); and the create
// form's public/countdown fields.
//
// Test hooks:
//   #lobby-list            li.lobby-card[data-code][data-preset] per open public table:
//                            .lobby-preset, .lobby-host, .lobby-seats, .lobby-bots (li per
//                            bot level), .lobby-countdown[data-deadline] (ms), a.lobby-join
//   #lobby-empty           shown when no card matches the filter
//   #lobby-filter          <select>: "" (every preset) or a preset name
//   #play-name, #play-preset, #play-error   the player's name and rules for both ways below
//   #bots-level, #bots-rated, #play-bots    a game against bots of that level, rated or not,
//                            that starts at once
//   #play-now               "Play now" with people: the seat's token goes to localStorage
//                            "dudo.seat.<CODE>" and the page goes to /t/<CODE>
//   #create-public, #create-fill-seconds, #create-fill-level   (read by createFields())

import { api, saveSeatToken, untilPlayerKnown } from "/static/api.js";
import { onLangChange, t, wordError } from "/static/i18n.js";
import { cards, connect, loaded, onCards, showLive } from "/static/lobbyfeed.js";
import { renderLive } from "/static/live.js";
import { botLevelLabel, presetName } from "/static/rules.js";
import { el, fillRememberedName, rememberName, toast } from "/static/ui.js";

const $ = (id) => document.getElementById(id);

// The games in progress the first page shows (the rest are on /watch).
const LIVE_ON_FIRST_PAGE = 2;

const view = { filter: "" };

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
  // The filter is worth its room only when there are tables to filter.
  $("lobby-filter").closest("label").hidden = cards("waiting").length === 0 && !view.filter;
  const shown = cards("waiting")
    .filter((c) => !view.filter || c.preset === view.filter)
    .sort((a, b) => b.taken - a.taken);
  list.replaceChildren(...shown.map(cardEl));
  const empty = $("lobby-empty");
  empty.hidden = shown.length > 0 || !loaded();
  empty.textContent = view.filter ? t("hall.empty_filtered") : t("hall.empty");
  renderLive(LIVE_ON_FIRST_PAGE);
}

function tick() {
  for (const node of document.querySelectorAll(".lobby-countdown[data-deadline]")) {
    node.textContent = countdownText(Number(node.dataset.deadline), node.dataset.level);
  }
}

/** The name typed for both ways of playing at once, or null (the error shown, focus put). */
function playName() {
  const error = $("play-error");
  error.hidden = true;
  const name = $("play-name").value.trim();
  if (!name) {
    error.textContent = t("create.need_name");
    error.hidden = false;
    $("play-name").focus();
    return null;
  }
  rememberName(name);
  return name;
}

/** Send the request of ``button`` and go to the table it seats the player at. */
async function seatBy(button, path, body) {
  const error = $("play-error");
  button.disabled = true;
  try {
    await untilPlayerKnown();
    const seated = await api(path, { method: "POST", body });
    saveSeatToken(seated.code, seated.token);
    location.assign(seated.url || `/t/${seated.code}`);
  } catch (err) {
    error.textContent = wordError(err);
    error.hidden = false;
    toast(wordError(err), "error");
    button.disabled = false;
  }
}

async function playNow(event) {
  event.preventDefault();
  const name = playName();
  if (name) await seatBy($("play-now"), "/api/lobby/play", { name, preset: $("play-preset").value });
}

async function playBots() {
  const name = playName();
  if (!name) return;
  await seatBy($("play-bots"), "/api/lobby/bots", {
    name,
    preset: $("play-preset").value,
    level: $("bots-level").value,
    rated: $("bots-rated").checked,
  });
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
  filter.value = view.filter;
}

function fillLevels(levels, ratedLevels) {
  const select = $("create-fill-level");
  if (select) {
    const keep = select.value || (levels.includes("easy") ? "easy" : levels[0]);
    select.replaceChildren(...levels.map((l) => el("option", { value: l }, botLevelLabel(l))));
    select.value = keep;
  }
  // A rated game against bots offers the levels a rated table seats.
  const bots = $("bots-level");
  const offered = $("bots-rated").checked ? ratedLevels : levels;
  const keep = offered.includes(bots.value) ? bots.value : offered.includes("medium") ? "medium" : offered[0];
  bots.replaceChildren(...offered.map((l) => el("option", { value: l }, botLevelLabel(l))));
  bots.value = keep;
}

/** Start the lobby part of the page; ``data`` is GET /api/presets's answer. */
export function startLobby(data) {
  const presets = data.presets || [];
  const levels = Array.isArray(data.bot_levels) && data.bot_levels.length ? data.bot_levels : ["easy"];
  const ratedLevels = Array.isArray(data.rated_bot_levels) && data.rated_bot_levels.length ? data.rated_bot_levels : levels;
  fillRememberedName($("play-name"));
  fillPresets(presets, data.default);
  fillLevels(levels, ratedLevels);
  $("lobby-filter").addEventListener("change", (e) => {
    view.filter = e.target.value;
    render();
  });
  $("play-preset").addEventListener("change", (e) => {
    // Choosing the rules to play also shows the open tables of those rules.
    view.filter = e.target.value;
    $("lobby-filter").value = view.filter;
    render();
  });
  $("bots-rated").addEventListener("change", () => fillLevels(levels, ratedLevels));
  $("play-bots").addEventListener("click", playBots);
  $("play-now-form").addEventListener("submit", playNow);
  onLangChange(() => {
    fillPresets(presets, data.default);
    fillLevels(levels, ratedLevels);
    showLive();
    render();
  });
  onCards(render);
  setInterval(tick, 1000);
  connect();
}
