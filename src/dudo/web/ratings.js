// ratings.js — the leaderboard of a rule family (GET /ratings and /ratings/<family>, data from
// GET /api/ratings/<family>), and the words and numbers the profile page shares with it. The
// numbers are the server's shown ratings (docs/ratings.md); nothing here computes one. People
// whose rating is provisional are left out unless "Show provisional players" is ticked (the
// address then ends in ?provisional=1).
//
// Test hooks:
//   main#ratings-main     data-state (loading | ready), data-family, data-count, data-hidden
//   #family-tabs > a.family-tab[data-family][aria-current="page" on the one shown]
//   #show-provisional     the checkbox; #provisional-hidden says how many are hidden
//   #ratings-rows > tr.rating-row[data-rater][data-rank][data-rating][data-provisional]:
//                   td.rank, td.name > a[href="/players/<rater>"], td.rating (the number, and
//                   span.provisional-mark "?" with its meaning as a title), td.games
//   #ratings-empty        shown when the family has no rated player yet
//   #provisional-legend   what "?" means, shown when a row has one

import "/static/pwa.js";
import { api, playerKey } from "/static/api.js";
import { lang, onLangChange, t } from "/static/i18n.js";
import { el, startPage } from "/static/ui.js";

export const FAMILIES = ["dudo", "perudo", "cacho", "liars-dice"];
const BOT = "bot:";

/** A rater's name as a person reads it: a player's own name, or a bot's level in words. */
export function raterName(rater, name) {
  if (rater.startsWith(BOT)) return t(`bot.${rater.slice(BOT.length)}`);
  return name ?? t("player.deleted");
}

export function profileHref(rater) {
  // "bot:hard" keeps its colon: a readable address, and a valid path as it is.
  return `/players/${encodeURIComponent(rater).replace("%3A", ":")}`;
}

/** A rating as shown everywhere: a whole number written without grouping, as chess ratings
 *  are (1500), in the page's language. */
export function ratingText(value) {
  return new Intl.NumberFormat(lang(), { maximumFractionDigits: 0, useGrouping: false }).format(value);
}

/** What a provisional rating's "?" means: fewer than `games` rated games. */
export function provisionalText(games) {
  return t("ratings.provisional", { count: games, n: countText(games) });
}

/** A rating's number, with "?" after it when provisional: the mark's meaning is its tooltip,
 *  and a screen reader hears the meaning rather than a bare question mark. */
export function ratingNodes(value, provisional, games) {
  if (!provisional) return [ratingText(value)];
  const words = provisionalText(games);
  return [
    ratingText(value),
    el("span", { class: "provisional-mark", title: words, "aria-hidden": "true" }, "?"),
    el("span", { class: "sr-only" }, ` (${words})`),
  ];
}

/** The line that says what "?" means, for under a list of ratings. */
export function provisionalLegend(games) {
  return [el("span", { class: "provisional-mark", "aria-hidden": "true" }, "?"), " ", provisionalText(games)];
}

export function countText(value) {
  return new Intl.NumberFormat(lang()).format(value);
}

/** A finished game's date and time (Unix seconds), in the page's language. */
export function dateText(seconds) {
  if (seconds == null) return "";
  return new Intl.DateTimeFormat(lang(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(seconds * 1000));
}

export function familyName(family) {
  return t(`family.${family}`);
}

const $ = (id) => document.getElementById(id);
let family = "dudo";
let board = { ratings: [], hidden: 0, provisional_games: 10 };
let showProvisional = false;
let myId = null;

function boardHref(f) {
  return `/ratings/${f}${showProvisional ? "?provisional=1" : ""}`;
}

function tabs() {
  return FAMILIES.map((f) =>
    el(
      "a",
      {
        class: "family-tab",
        href: boardHref(f),
        dataset: { family: f },
        "aria-current": f === family ? "page" : null,
      },
      familyName(f),
    ),
  );
}

function row(r, index) {
  const mine = myId !== null && r.rater === myId;
  return el(
    "tr",
    {
      class: mine ? "rating-row mine" : "rating-row",
      dataset: { rater: r.rater, rank: index + 1, rating: r.rating, provisional: r.provisional ? "1" : "0" },
    },
    el("td", { class: "num rank" }, countText(index + 1)),
    el(
      "td",
      { class: "name" },
      el("a", { href: profileHref(r.rater) }, raterName(r.rater, r.name)),
      mine ? el("span", { class: "muted small" }, ` ${t("ratings.you")}`) : null,
    ),
    el("td", { class: "num rating" }, ...ratingNodes(r.rating, r.provisional, board.provisional_games)),
    el("td", { class: "num games" }, countText(r.games)),
  );
}

function render() {
  const rows = board.ratings || [];
  $("family-tabs").replaceChildren(...tabs());
  $("ratings-caption").textContent = t("ratings.caption", { family: familyName(family) });
  $("ratings-rows").replaceChildren(...rows.map(row));
  $("ratings-table").hidden = rows.length === 0;
  const empty = $("ratings-empty");
  empty.textContent = t("ratings.empty", { family: familyName(family) });
  empty.hidden = rows.length > 0;
  $("show-provisional").checked = showProvisional;
  const hidden = $("provisional-hidden");
  hidden.textContent = board.hidden ? t("ratings.hidden", { count: board.hidden, n: countText(board.hidden) }) : "";
  hidden.hidden = !board.hidden;
  const legend = $("provisional-legend");
  legend.replaceChildren(...provisionalLegend(board.provisional_games));
  legend.hidden = !rows.some((r) => r.provisional);
  const main = $("ratings-main");
  main.dataset.family = family;
  main.dataset.count = String(rows.length);
  main.dataset.hidden = String(board.hidden || 0);
  main.dataset.state = "ready";
}

function fetchBoard() {
  return api(`/api/ratings/${family}${showProvisional ? "?provisional=1" : ""}`);
}

async function reload() {
  $("ratings-main").dataset.state = "loading";
  board = await fetchBoard();
  render();
}

async function main() {
  const match = location.pathname.match(/^\/ratings\/([a-z-]+)\/?$/);
  family = match && FAMILIES.includes(match[1]) ? match[1] : "dudo";
  showProvisional = new URLSearchParams(location.search).get("provisional") === "1";
  const [found, me] = await Promise.all([fetchBoard(), playerKey() ? api("/api/players/me").catch(() => null) : null]);
  board = found;
  myId = me?.id ?? null;
  render();
  onLangChange(render);
  $("show-provisional").addEventListener("change", (event) => {
    showProvisional = event.target.checked;
    // The address keeps the choice, so a reload or a shared link shows the same list.
    history.replaceState(null, "", boardHref(family));
    reload();
  });
}

if (document.getElementById("ratings-main")) startPage(main);
