// live.js — the public games in progress, as the lobby feed lists them (lobbyfeed.js): on the
// first page the one or two with the most people, on /watch all of them. Each opens the
// table's page as a spectator (/t/CODE?watch).
//
// Test hooks:
//   #live-list             li.live-card[data-code][data-preset] per game: .live-preset,
//                            .live-players (li per player: .live-name, .live-dice[data-dice]),
//                            .live-round, a.live-watch
//   #live-empty            shown when no public game is being played
//   #live-more             (first page) the link to /watch, with how many games there are

import { cards, loaded } from "/static/lobbyfeed.js";
import { t } from "/static/i18n.js";
import { botLevelLabel, presetName } from "/static/rules.js";
import { el } from "/static/ui.js";

function playerEl(player) {
  const out = player.dice === 0;
  const level = player.bot ? botLevelLabel(player.bot) : null;
  return el(
    "li",
    { class: `live-player${out ? " out" : ""}${level ? " bot" : ""}`, title: level || player.name },
    el("span", { class: "live-name" }, player.name),
    " ",
    el(
      "span",
      { class: "live-dice badge", dataset: { dice: String(player.dice) } },
      out ? t("live.out") : t("live.dice", { count: player.dice }),
    ),
  );
}

function liveEl(card) {
  const badges = [el("span", { class: "live-preset badge gold" }, presetName(card.preset))];
  if (card.rated) badges.push(el("span", { class: "badge gold" }, t("hall.rated")));
  if (card.house_rules > 0) badges.push(el("span", { class: "badge" }, t("hall.house_rules", { count: card.house_rules })));
  badges.push(el("span", { class: "live-round muted small" }, t("live.round", { n: card.round })));
  const watch = el(
    "a",
    {
      class: "button small live-watch",
      href: `/t/${encodeURIComponent(card.code)}?watch`,
      "aria-label": t("live.watch_label", { preset: presetName(card.preset), names: card.players.map((p) => p.name).join(", ") }),
    },
    t("live.watch"),
  );
  return el(
    "li",
    { class: "live-card", dataset: { code: card.code, preset: card.preset } },
    el("div", { class: "lobby-card-head" }, ...badges, watch),
    el("ul", { class: "live-players" }, ...card.players.map(playerEl)),
  );
}

/** The games with the most people first, then the most players. */
function ordered() {
  const people = (c) => c.players.filter((p) => !p.bot).length;
  return cards("playing").sort((a, b) => people(b) - people(a) || b.players.length - a.players.length);
}

/** Fill #live-list with at most ``most`` games (all when null); #live-more links the rest. */
export function renderLive(most = null) {
  const list = document.getElementById("live-list");
  if (!list) return;
  const games = ordered();
  const shown = most == null ? games : games.slice(0, most);
  list.replaceChildren(...shown.map(liveEl));
  const empty = document.getElementById("live-empty");
  if (empty) {
    empty.hidden = games.length > 0 || !loaded();
    empty.textContent = t("live.empty");
  }
  const more = document.getElementById("live-more");
  if (more) {
    more.hidden = games.length <= shown.length;
    more.textContent = t("live.more", { count: games.length });
  }
}
