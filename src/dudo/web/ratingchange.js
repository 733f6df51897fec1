// ratingchange.js — on the table page after a rated game: every rater's new rating and how
// much it moved, the viewer's first, with a link to the family's leaderboard. The numbers are
// the server's shown ratings (table JSON "rating_changes"); nothing is computed here but the
// difference. Bots of one level share the level's rating, so they are one row, named by the
// level and marked as the level's rating (never the same number twice, like a bug).
//
// Test hooks: #rating-changes (hidden unless the last game was rated and its result is
// stored), li.rating-change[data-seat][data-seats][data-level for a bot level][data-trend]
// with .rating-name, .rating-level (a bot level's note), .rating-after (the number, and
// span.provisional-mark "?" while provisional) and .rating-delta, li.me for the viewer's
// seat, #rating-board-link.

import { lang, t } from "/static/i18n.js";
import { countText, ratingNodes } from "/static/ratings.js";
import { botLevelLabel } from "/static/rules.js";
import { el } from "/static/ui.js";

function signed(value) {
  return new Intl.NumberFormat(lang(), { maximumFractionDigits: 0, signDisplay: "exceptZero" }).format(value);
}

/** One row per rater: a person's seat alone, or every seat of one bot level together. */
function byRater(seats) {
  const rows = [];
  const levels = new Map();
  for (const change of seats) {
    const shared = change.level ? levels.get(change.level) : null;
    if (shared) {
      shared.seats.push(change.seat);
      continue;
    }
    const row = { ...change, seats: [change.seat] };
    rows.push(row);
    if (change.level) levels.set(change.level, row);
  }
  return rows;
}

function rowName(row, table) {
  if (!row.level) return [el("span", { class: "rating-name" }, table.seats?.[row.seat]?.name || "?")];
  const n = row.seats.length;
  return [
    el("span", { class: "rating-name" }, botLevelLabel(row.level)),
    el(
      "span",
      { class: "rating-level muted small", title: t("ratings.bot_level") },
      t("over.rating_level", { count: n, n: countText(n) }),
    ),
  ];
}

/** Show ``table``'s rating changes (or hide the box); ``mySeat`` is the viewer's seat. */
export function renderRatingChanges(table, mySeat) {
  const box = document.getElementById("rating-changes");
  if (!box) return;
  const changes = table?.rating_changes;
  box.hidden = !changes || !changes.seats?.length;
  if (box.hidden) {
    box.replaceChildren();
    return;
  }
  const family = t(`family.${changes.family}`);
  const mine = (row) => row.seats.includes(mySeat);
  const rows = byRater(changes.seats).sort((a, b) => mine(b) - mine(a));
  const list = el(
    "ul",
    { class: "rating-change-list" },
    ...rows.map((row) => {
      const delta = row.after - row.before;
      const trend = delta > 0 ? "up" : delta < 0 ? "down" : "same";
      return el(
        "li",
        {
          class: `rating-change${mine(row) ? " me" : ""}`,
          dataset: { seat: row.seat, seats: row.seats.join(" "), trend, ...(row.level ? { level: row.level } : {}) },
        },
        el("span", { class: "rating-who" }, ...rowName(row, table)),
        el("span", { class: "rating-after" }, ...ratingNodes(row.after, row.provisional, changes.provisional_games)),
        el("span", { class: "rating-delta", "aria-label": t("over.rating_delta", { change: signed(delta) }) }, signed(delta)),
      );
    }),
  );
  box.replaceChildren(
    el("h3", {}, t("over.ratings", { family })),
    list,
    el(
      "a",
      { id: "rating-board-link", class: "small", href: `/ratings/${encodeURIComponent(changes.family)}` },
      t("over.rating_board"),
    ),
  );
}
