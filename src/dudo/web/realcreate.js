// realcreate.js — the start page's "Real table": friends around one table, every phone a cup,
// bids said aloud, the program the referee (docs/protocol.md, "A real table"). Its button opens
// the create form (folded away until asked for, as "Create a table" does) in real-table mode:
// the name, the rules and house rules as for any table, the number of phones (the seats, 2–8)
// and the seating (as the rules say, or as the friends sit, put in order by the host in the
// lobby); no bots, timers, countdown, hints, public or rated
// table. The table is created with `real: true`; the seating chosen waits in localStorage
// "dudo.real.seating.<CODE>" ("roll" | "sit") for the table page's lobby.
//
// Test hooks:
//   #real-start                     the entry's button (also: the page opened as /#real)
//   #create-form                    data-mode="real" | "online"
//   #create-real-note, #create-online   the real-table note and its way back to an online table
//   #create-real-seating            input[name=create-seating] value "roll" | "sit"
//   .online-only / .real-only       the parts of the form each mode shows

import { t } from "/static/i18n.js";
import { valueLabel } from "/static/rules.js";

const $ = (id) => document.getElementById(id);

let real = false;
let rules = () => ({}); // the rules the form would create the table with (index.js)

export function realMode() {
  return real;
}

/** Show the form in real-table mode (true) or for an online table (false). */
export function setRealMode(on) {
  real = !!on;
  $("create-form").dataset.mode = real ? "real" : "online";
  for (const node of document.querySelectorAll("#create-form .online-only")) node.hidden = real;
  for (const node of document.querySelectorAll("#create-form .real-only")) node.hidden = !real;
  renderRealCreate();
}

/** The words that depend on the mode and on the rules chosen (after each render of the form). */
export function renderRealCreate() {
  $("create-heading").textContent = real ? t("index.real_form_heading") : t("create.heading");
  $("create-seats-label").textContent = real ? t("real.phones_label") : t("create.seats");
  $("create-button").textContent = real ? t("index.real_create") : t("create.button");
  const seating = rules().seating ?? "roll";
  $("create-seating-roll-text").textContent = t("real.seating_rules", { how: valueLabel(seating) });
}

/** The request of a real table, from the online form's `body`: no bots, timers or listing. */
export function realBody(body) {
  return { name: body.name, preset: body.preset, options: body.options, seats: body.seats, real: true };
}

/** Keep the seating chosen for table `code`, for its lobby. */
export function rememberSeating(code) {
  const sit = $("create-seating-sit").checked;
  try {
    localStorage.setItem(`dudo.real.seating.${code}`, sit ? "sit" : "roll");
  } catch {
    /* no storage: the lobby starts on the rules' seating */
  }
}

/** Show the create form (folded away until asked for) in real-table mode or not. */
export function openCreate(inReal) {
  setRealMode(inReal);
  $("create-section").classList.remove("folded");
  $("create-section").scrollIntoView({ block: "start" });
  $("create-name").focus({ preventScroll: true });
}

function openReal() {
  openCreate(true);
}

/** Wire the entry and the way back; `effectiveRules()` gives the rules the form holds. */
export function bindRealCreate(effectiveRules) {
  rules = effectiveRules;
  $("real-start").addEventListener("click", openReal);
  // A link to the form's own address: it opens the form even before this script has run.
  $("create-open").addEventListener("click", (event) => {
    event.preventDefault();
    history.replaceState(null, "", "#create-section");
    openCreate(false);
  });
  $("create-online").addEventListener("click", () => {
    setRealMode(false);
    $("create-name").focus({ preventScroll: true });
  });
  setRealMode(location.hash === "#real");
  if (real) openReal();
  else if (location.hash === "#create-section") openCreate(false);
}
