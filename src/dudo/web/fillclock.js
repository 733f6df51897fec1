// fillclock.js — on the table page: the lobby's countdown (bots take the free seats and the
// game starts when it runs out) ticking live, and whether the table is public or private.
//
// Test hooks: #fill-clock (hidden when no countdown runs; data-deadline in ms), #table-kind
// (data-public and data-rated: "true" | "false").

import { t } from "/static/i18n.js";
import { countdownText } from "/static/lobby.js";

let shown = null;
let ticking = null;

function draw() {
  const clock = document.getElementById("fill-clock");
  const kind = document.getElementById("table-kind");
  const table = shown;
  if (kind) {
    kind.dataset.public = String(!!table?.public);
    kind.dataset.rated = String(!!table?.rated);
    const which = table?.rated ? "hall.rated_table" : table?.public ? "hall.public_table" : "hall.private_table";
    kind.textContent = table ? t(which) : "";
  }
  if (!clock) return;
  const deadline = table?.status === "lobby" ? table.fill_deadline : null;
  clock.hidden = deadline == null;
  if (deadline == null) {
    delete clock.dataset.deadline;
    return;
  }
  clock.dataset.deadline = String(deadline);
  clock.textContent = countdownText(deadline, table.fill_level);
}

/** Show ``table``'s (a `table` frame's) countdown and kind; the clock then ticks by itself
 * (and follows the page's language within a second). */
export function showFillClock(table) {
  shown = table;
  draw();
  if (ticking == null) ticking = setInterval(draw, 1000);
}
