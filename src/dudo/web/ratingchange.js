// ratingchange.js — on the table page after a rated game: every rated seat's new rating and
// how much it moved, the viewer's first, with a link to the family's leaderboard. The numbers
// are the server's (table JSON "rating_changes"); nothing is computed here but the difference.
//
// Test hooks: #rating-changes (hidden unless the last game was rated and its result is
// stored), li.rating-change[data-seat] with .rating-after and .rating-delta, li.me for the
// viewer's seat, #rating-board-link.

import { lang, t } from "/static/i18n.js";
import { el } from "/static/ui.js";

function oneDecimal(value, signed = false) {
  return new Intl.NumberFormat(lang(), {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
    ...(signed ? { signDisplay: "exceptZero" } : {}),
  }).format(value);
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
  const rows = [...changes.seats].sort((a, b) => (b.seat === mySeat) - (a.seat === mySeat));
  const list = el(
    "ul",
    { class: "rating-change-list" },
    ...rows.map((change) => {
      const seat = table.seats?.[change.seat];
      const delta = change.after - change.before;
      const trend = delta > 0.05 ? "up" : delta < -0.05 ? "down" : "same";
      return el(
        "li",
        { class: `rating-change${change.seat === mySeat ? " me" : ""}`, dataset: { seat: change.seat, trend } },
        el("span", { class: "rating-name" }, seat?.name || "?"),
        el("span", { class: "rating-after" }, oneDecimal(change.after)),
        el(
          "span",
          { class: "rating-delta", "aria-label": t("over.rating_delta", { change: oneDecimal(delta, true) }) },
          oneDecimal(delta, true),
        ),
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
