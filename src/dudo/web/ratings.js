// ratings.js — the leaderboard of a rule family (GET /ratings and /ratings/<family>, data from
// GET /api/ratings/<family>), and the words and numbers the profile page shares with it.
//
// Test hooks:
//   main#ratings-main     data-state (loading | ready), data-family, data-count
//   #family-tabs > a.family-tab[data-family][aria-current="page" on the one shown]
//   #ratings-rows > tr.rating-row[data-rater][data-rank][data-rating] (the rating to one
//                   decimal, as shown): td.rank, td.name > a[href="/players/<rater>"],
//                   td.rating, td.games
//   #ratings-empty        shown when the family has no rated player yet

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

/** A rating as shown everywhere: one decimal, in the page's language. */
export function ratingText(value) {
  return new Intl.NumberFormat(lang(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value);
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
let rows = [];
let myId = null;

function tabs() {
  return FAMILIES.map((f) =>
    el(
      "a",
      {
        class: "family-tab",
        href: `/ratings/${f}`,
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
      dataset: { rater: r.rater, rank: index + 1, rating: r.rating.toFixed(1) },
    },
    el("td", { class: "num rank" }, countText(index + 1)),
    el(
      "td",
      { class: "name" },
      el("a", { href: profileHref(r.rater) }, raterName(r.rater, r.name)),
      mine ? el("span", { class: "muted small" }, ` ${t("ratings.you")}`) : null,
    ),
    el("td", { class: "num rating" }, ratingText(r.rating)),
    el("td", { class: "num games" }, countText(r.games)),
  );
}

function render() {
  $("family-tabs").replaceChildren(...tabs());
  $("ratings-caption").textContent = t("ratings.caption", { family: familyName(family) });
  $("ratings-rows").replaceChildren(...rows.map(row));
  $("ratings-table").hidden = rows.length === 0;
  const empty = $("ratings-empty");
  empty.textContent = t("ratings.empty", { family: familyName(family) });
  empty.hidden = rows.length > 0;
  const main = $("ratings-main");
  main.dataset.family = family;
  main.dataset.count = String(rows.length);
  main.dataset.state = "ready";
}

async function main() {
  const match = location.pathname.match(/^\/ratings\/([a-z-]+)\/?$/);
  family = match && FAMILIES.includes(match[1]) ? match[1] : "dudo";
  const [board, me] = await Promise.all([
    api(`/api/ratings/${family}`),
    playerKey() ? api("/api/players/me").catch(() => null) : null,
  ]);
  rows = board.ratings || [];
  myId = me?.id ?? null;
  render();
  onLangChange(render);
}

if (document.getElementById("ratings-main")) startPage(main);
