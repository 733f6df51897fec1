// index.js — the start page (GET /): play at once (lobby.js), watch (live.js), create a table
// (the form folded away until asked for), join one by code, and the tables you sit at.
//
// Test hooks:
//   #create-name            display name of the host
//   #create-preset          preset <select> (values: preset names from GET /api/presets)
//   #preset-summary         the chosen preset's summary
//   #house-rules            <details> with the house-rules editor #house-rules-editor:
//                             one .option-row[data-option=NAME] per option, holding a <select
//                             class="opt-input" data-option=NAME> (values are JSON: "true",
//                             "\"any_face\"", "3", "null") or, for list options (pass_hands),
//                             checkboxes input.opt-check[data-option=NAME][value=HAND];
//                             rows sit in section.opt-group[data-group] under h3 headings;
//                             .opt-name label, .opt-desc description; .option-row.changed
//                             marks a house rule, with .opt-changed and .opt-preset (the
//                             preset's value) shown; #reset-rules resets
//   #house-rules-count      "N changed", or "as the preset"
//   #rules-summary          <dl> of the full resulting rule set (dt/dd[data-option], .house)
//   #create-seats           seats <select> (2–8, limited by the rules' max_players)
//   #bots-list              bot rows: .bot-row[data-index] with select.bot-level and
//                             button.bot-remove; #add-bot-row adds one
//   #create-turn-seconds    turn timer seconds (0 = none)
//   #create-grace-seconds   grace seconds
//   #create-hints           checkbox: hints for learners (odds, the hard bot's move, the review)
//   #create-rated           checkbox: a rated table (ticks #create-public, clears #create-hints
//                             and holds both while ticked)
//   #create-button          submit; on success the token goes to localStorage
//                             "dudo.seat.<CODE>" and the page goes to /t/<CODE>
//   #create-error           the server's complaint, if any
//   #join-code, #join-code-button   go to /t/<CODE>
//   #my-tables-list         li.my-table[data-code][data-status] per table this browser holds a
//                             seat at (the latest six): a.table-link, .my-table-status (waiting,
//                             playing, over, or gone: then .my-table-forget), .my-table-date
//   the open tables, "Play now" and #create-public, #create-fill-*: see lobby.js
//   the Real table entry and the form's real-table mode: see realcreate.js
//   #lang-select, #toast

import "/static/pwa.js";
import {
  api,
  forgetSeatToken,
  knownTables,
  markTableGone,
  saveSeatToken,
  seatedAt,
  tableGone,
  untilPlayerKnown,
} from "/static/api.js";
import { dieEl } from "/static/dice.js";
import { createFields, startLobby } from "/static/lobby.js";
import { lang, onLangChange, t, wordError } from "/static/i18n.js";
import { bindRealCreate, realBody, realMode, rememberSeating, renderRealCreate } from "/static/realcreate.js";
import {
  botLevelLabel,
  groupLabel,
  groupOptions,
  optionDescription,
  optionLabel,
  presetName,
  presetSummary,
  renderRulesList,
  sameValue,
  valueLabel,
} from "/static/rules.js";
import { el, fillRememberedName, rememberName, startPage, toast } from "/static/ui.js";

const $ = (id) => document.getElementById(id);

const state = {
  presets: [],
  options: [], // [{name, values}]
  botLevels: ["random", "easy"],
  ratedBotLevels: ["easy"], // the levels a rated table seats (GET /api/presets)
  ratedFillLevel: "medium", // the level a rated table's countdown seats, whatever is asked
  preset: "dudo",
  overrides: {}, // option -> value differing from the preset
  bots: ["easy"],
  seats: 4,
};

function presetByName(name) {
  return state.presets.find((p) => p.name === name) || state.presets[0];
}

function effectiveRules() {
  const base = presetByName(state.preset)?.rules || {};
  return { ...base, ...state.overrides };
}

function optionNames() {
  const names = state.options.map((o) => o.name);
  for (const name of Object.keys(presetByName(state.preset)?.rules || {})) {
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

function coerce(text) {
  const word = String(text).trim();
  if (word === "true") return true;
  if (word === "false") return false;
  if (word === "none" || word === "null") return null;
  return /^-?\d+$/.test(word) ? Number(word) : word;
}

/** The values an option takes, from GET /api/presets `options[].values` (a list, or the
 * server's description: "a | b", "comma-separated subset of x, y (or none)", "an integer from
 * 2 to 6", "an integer, or none for no limit"). */
function optionValues(name) {
  const meta = state.options.find((o) => o.name === name);
  if (meta && Array.isArray(meta.choices)) return meta.choices;
  const raw = meta ? meta.values : null;
  if (Array.isArray(raw)) return raw;
  const text = typeof raw === "string" ? raw : "";
  const subset = /subset of (.*?)(?:\s*\(|$)/.exec(text);
  if (subset) return subset[1].split(",").map((s) => s.trim()).filter(Boolean);
  if (text.includes("|")) return text.split("|").map(coerce);
  const range = /from (\d+) to (\d+)/.exec(text);
  const values = [];
  if (/none/.test(text)) values.push(null);
  const [lo, hi] = range ? [Number(range[1]), Number(range[2])] : [2, 8];
  for (let n = lo; n <= hi; n++) values.push(n);
  return values;
}

function setOption(name, value) {
  const base = presetByName(state.preset)?.rules || {};
  if (sameValue(base[name], value)) delete state.overrides[name];
  else state.overrides[name] = value;
  renderEditorMarks();
  renderSummary();
  renderSeats();
}

// ---- presets and house rules ------------------------------------------------------------

function renderPresets() {
  const select = $("create-preset");
  select.replaceChildren(
    ...state.presets.map((p) => el("option", { value: p.name }, presetName(p.name))),
  );
  select.value = state.preset;
  $("preset-summary").textContent = presetSummary(presetByName(state.preset));
}

function renderEditor() {
  const box = $("house-rules-editor");
  box.replaceChildren();
  const rules = effectiveRules();
  for (const [group, names] of groupOptions(optionNames())) {
    const heading = el("h3", { class: "opt-group-heading", id: `opt-group-${group}` }, groupLabel(group));
    const section = el("section", { class: "opt-group", dataset: { group }, "aria-labelledby": heading.id }, heading);
    for (const name of names) section.append(optionRow(name, rules[name]));
    box.append(section);
  }
  renderEditorMarks();
}

/** One option: its label, a plain-words description, the control, and (once changed) a
 * "changed" cue with the preset's value, so a house rule never rests on colour alone. */
function optionRow(name, value) {
  const values = optionValues(name);
  const text = el(
    "div",
    { class: "opt-text" },
    el(
      "span",
      { class: "opt-name", id: `opt-label-${name}` },
      optionLabel(name),
      el("span", { class: "opt-changed badge gold", hidden: true }, t("create.changed_mark")),
    ),
    el("span", { class: "opt-desc muted small", id: `opt-desc-${name}` }, optionDescription(name)),
    el("span", { class: "opt-preset small", hidden: true }),
  );
  const aria = { "aria-labelledby": `opt-label-${name}`, "aria-describedby": `opt-desc-${name}` };
  let control;
  if (Array.isArray(value) || name === "pass_hands") {
    // A set option: one checkbox per member.
    const members = [];
    for (const v of values.flat()) if (v != null && !members.includes(String(v))) members.push(String(v));
    for (const v of value || []) if (!members.includes(String(v))) members.push(String(v));
    control = el("div", { class: "checks", role: "group", ...aria });
    for (const member of members) {
      const box = el("input", {
        type: "checkbox",
        class: "opt-check",
        value: member,
        dataset: { option: name },
      });
      box.checked = (value || []).map(String).includes(member);
      box.addEventListener("change", () => {
        const chosen = [...control.querySelectorAll("input.opt-check")]
          .filter((c) => c.checked)
          .map((c) => c.value);
        setOption(name, chosen);
      });
      control.append(el("label", { class: "inline" }, box, valueLabel(member)));
    }
  } else {
    const choices = [...values];
    if (!choices.some((v) => sameValue(v, value))) choices.unshift(value);
    control = el("select", { class: "opt-input", dataset: { option: name }, ...aria });
    for (const v of choices) {
      control.append(el("option", { value: JSON.stringify(v) }, valueLabel(v)));
    }
    control.value = JSON.stringify(choices.find((v) => sameValue(v, value)));
    control.addEventListener("change", () => setOption(name, JSON.parse(control.value)));
  }
  return el("div", { class: "option-row", dataset: { option: name } }, text, control);
}

function renderEditorMarks() {
  const changed = Object.keys(state.overrides);
  const base = presetByName(state.preset)?.rules || {};
  for (const row of document.querySelectorAll("#house-rules-editor .option-row")) {
    const name = row.dataset.option;
    const on = changed.includes(name);
    row.classList.toggle("changed", on);
    row.querySelector(".opt-changed").hidden = !on;
    const note = row.querySelector(".opt-preset");
    note.hidden = !on;
    note.textContent = on ? t("create.preset_value", { value: valueLabel(base[name]) }) : "";
  }
  // The heading says what the section holds even while it is closed.
  $("house-rules-count").textContent = changed.length
    ? t("create.changed", { count: changed.length })
    : t("create.house_rules_same");
  $("house-rules-count").classList.toggle("gold", changed.length > 0);
}

function renderSummary() {
  renderRulesList(
    $("rules-summary"),
    effectiveRules(),
    new Set(Object.keys(state.overrides)),
    optionNames(),
  );
}

// ---- seats and bots ---------------------------------------------------------------------

function seatLimits() {
  const rules = effectiveRules();
  const max = Math.min(8, Number.isInteger(rules.max_players) ? rules.max_players : 8);
  const min = Math.max(2, Number.isInteger(rules.min_players) ? rules.min_players : 2);
  return { min, max: Math.max(min, max) };
}

function renderSeats() {
  const { min, max } = seatLimits();
  state.seats = Math.min(Math.max(state.seats, min), max);
  const select = $("create-seats");
  select.replaceChildren();
  for (let n = min; n <= max; n++) select.append(el("option", { value: n }, String(n)));
  select.value = String(state.seats);
  if (state.bots.length > state.seats - 1) state.bots = state.bots.slice(0, state.seats - 1);
  renderBots();
  renderRealCreate(); // the seating the rules give
}

function renderBots() {
  const list = $("bots-list");
  list.replaceChildren();
  state.bots.forEach((level, i) => {
    const select = el("select", {
      class: "bot-level",
      "aria-label": t("create.bot_level", { n: i + 1 }),
      dataset: { index: i },
    });
    for (const l of levelsOffered()) select.append(el("option", { value: l }, botLevelLabel(l)));
    select.value = level;
    select.addEventListener("change", () => {
      state.bots[i] = select.value;
    });
    const remove = el(
      "button",
      {
        type: "button",
        class: "bot-remove small",
        "aria-label": t("create.remove_bot", { n: i + 1 }),
        onclick: () => {
          state.bots.splice(i, 1);
          renderBots();
        },
      },
      "✕",
    );
    list.append(
      el("div", { class: "bot-row", dataset: { index: i } }, el("span", { class: "badge" }, t("create.bot_n", { n: i + 1 })), select, remove),
    );
  });
  const full = state.bots.length >= state.seats - 1;
  $("add-bot-row").disabled = full;
  if (!state.bots.length) list.append(el("p", { class: "muted small" }, t("create.no_bots")));
}

// ---- submit -----------------------------------------------------------------------------

function numberField(id, fallback) {
  const value = Number($(id).value);
  return Number.isFinite(value) && value >= 0 ? value : fallback;
}

async function create(event) {
  event.preventDefault();
  const error = $("create-error");
  error.hidden = true;
  const name = $("create-name").value.trim();
  if (!name) {
    error.textContent = t("create.need_name");
    error.hidden = false;
    $("create-name").focus();
    return;
  }
  rememberName(name);
  const online = {
    name,
    preset: state.preset,
    options: { ...state.overrides },
    seats: state.seats,
    bots: [...state.bots],
    turn_seconds: numberField("create-turn-seconds", 60),
    grace_seconds: numberField("create-grace-seconds", 30),
    hints: $("create-hints").checked,
    ...createFields(), // public or private, and the countdown
  };
  const real = realMode();
  const body = real ? realBody(online) : online;
  const button = $("create-button");
  button.disabled = true;
  try {
    await untilPlayerKnown();
    const answer = await api("/api/tables", { method: "POST", body });
    saveSeatToken(answer.code, answer.token);
    if (real) rememberSeating(answer.code);
    location.assign(answer.url || `/t/${answer.code}`);
  } catch (err) {
    error.textContent = wordError(err);
    error.hidden = false;
    toast(wordError(err), "error");
    button.disabled = false;
  }
}

// The tables "Your tables" shows, the latest first; each is asked for its state once a page.
const MY_TABLES_SHOWN = 6;
const tableStates = new Map(); // code -> GET /api/tables/CODE's answer, or "gone"

function myTables() {
  const codes = knownTables().map((code) => ({ code, at: seatedAt(code) }));
  codes.sort((a, b) => (b.at?.getTime() ?? 0) - (a.at?.getTime() ?? 0) || a.code.localeCompare(b.code));
  return codes.slice(0, MY_TABLES_SHOWN);
}

/** "Game in progress", "Waiting for players", "Game over", or "Closed" (the server forgot it). */
function tableStatus(state) {
  if (state === "gone") return t("mytables.gone");
  if (!state) return "";
  if (state.status === "playing") return t("mytables.playing", { preset: presetName(state.preset) });
  if (state.status === "over") return t("mytables.over", { preset: presetName(state.preset) });
  return t("mytables.waiting", { preset: presetName(state.preset) });
}

function dateText(when) {
  if (!when) return "";
  const today = new Date().toDateString() === when.toDateString();
  const format = today ? { hour: "2-digit", minute: "2-digit" } : { day: "numeric", month: "short" };
  const text = new Intl.DateTimeFormat(lang(), format).format(when);
  return today ? t("mytables.today", { time: text }) : text;
}

function renderMyTables() {
  const tables = myTables();
  const list = $("my-tables-list");
  list.replaceChildren(
    ...tables.map(({ code, at }) => {
      const state = tableStates.get(code);
      const gone = state === "gone";
      const item = el(
        "li",
        { class: "my-table", dataset: { code, status: gone ? "gone" : state?.status || "" } },
        gone
          ? el("span", { class: "table-link code" }, code)
          : el("a", { class: "table-link code", href: `/t/${encodeURIComponent(code)}` }, code),
        el("span", { class: "my-table-status" }, tableStatus(state)),
        el("time", { class: "my-table-date muted small", datetime: at ? at.toISOString() : "" }, dateText(at)),
      );
      if (gone) {
        item.append(
          el(
            "button",
            {
              type: "button",
              class: "small my-table-forget",
              "aria-label": t("mytables.forget_label", { code }),
              onclick: () => {
                forgetSeatToken(code);
                renderMyTables();
              },
            },
            t("mytables.forget"),
          ),
        );
      }
      return item;
    }),
  );
  $("my-tables").hidden = tables.length === 0;
}

async function loadMyTables() {
  await Promise.all(
    myTables().map(async ({ code }) => {
      if (tableGone(code)) {
        tableStates.set(code, "gone");
        return;
      }
      try {
        tableStates.set(code, await api(`/api/tables/${encodeURIComponent(code)}`));
      } catch (err) {
        if (err && err.status === 404) {
          tableStates.set(code, "gone");
          markTableGone(code);
        }
      }
    }),
  );
  renderMyTables();
}

function renderAll() {
  renderPresets();
  renderEditor();
  renderSummary();
  renderSeats();
  renderMyTables();
}

// The bot levels the form offers: a rated table's allowed ones when "rated" is ticked.
function levelsOffered() {
  return $("create-rated").checked ? state.ratedBotLevels : state.botLevels;
}

// A rated table is public and has no hints: ticking "rated" sets both, and holds them. Its
// bots are of the levels a rated table seats, and its countdown's level is the site's.
function holdRatedRules() {
  const rated = $("create-rated").checked;
  if (rated) {
    $("create-public").checked = true;
    $("create-hints").checked = false;
    const fallback = state.ratedBotLevels.includes("easy") ? "easy" : state.ratedBotLevels[0];
    state.bots = state.bots.map((level) => (state.ratedBotLevels.includes(level) ? level : fallback));
  }
  $("create-public").disabled = rated;
  $("create-hints").disabled = rated;
  const fill = $("create-fill-level");
  if (fill) {
    if (rated) {
      fill.dataset.chosen = fill.dataset.chosen || fill.value;
      fill.value = state.ratedFillLevel;
    } else if (fill.dataset.chosen) {
      fill.value = fill.dataset.chosen;
      delete fill.dataset.chosen;
    }
    fill.disabled = rated;
  }
  renderBots();
}

async function main() {
  const hero = $("hero-dice");
  for (const f of [1, 2, 3, 4, 5, 6]) hero.append(dieEl(f, { decorative: true, size: "small" }));
  fillRememberedName($("create-name"));
  // Wired before the first fetch, and applied once, so a box ticked while the page loads counts.
  $("create-rated").addEventListener("change", holdRatedRules);
  holdRatedRules();

  const data = await api("/api/presets");
  state.presets = data.presets || [];
  state.options = data.options || [];
  if (Array.isArray(data.bot_levels) && data.bot_levels.length) state.botLevels = data.bot_levels;
  if (Array.isArray(data.rated_bot_levels) && data.rated_bot_levels.length) state.ratedBotLevels = data.rated_bot_levels;
  if (data.rated_fill_level) state.ratedFillLevel = data.rated_fill_level;
  state.preset = data.default || state.presets[0]?.name || "dudo";
  state.bots = [state.botLevels.includes("easy") ? "easy" : state.botLevels[0]];
  startLobby(data);
  holdRatedRules(); // again, now that the levels and the countdown's choices are known

  $("create-preset").addEventListener("change", (e) => {
    state.preset = e.target.value;
    state.overrides = {};
    renderAll();
  });
  $("reset-rules").addEventListener("click", () => {
    state.overrides = {};
    renderEditor();
    renderSummary();
    renderSeats();
  });
  $("create-seats").addEventListener("change", (e) => {
    state.seats = Number(e.target.value);
    if (state.bots.length > state.seats - 1) state.bots = state.bots.slice(0, state.seats - 1);
    renderBots();
  });
  $("add-bot-row").addEventListener("click", () => {
    if (state.bots.length < state.seats - 1) {
      state.bots.push(state.botLevels.includes("easy") ? "easy" : state.botLevels[0]);
      renderBots();
    }
  });
  $("create-form").addEventListener("submit", create);
  bindRealCreate(effectiveRules);
  $("join-code-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const code = $("join-code").value.trim().toUpperCase().replace(/[^A-Z0-9]/g, "");
    if (!code) {
      toast(t("joincode.need_code"), "error");
      return;
    }
    location.assign(`/t/${encodeURIComponent(code)}`);
  });
  onLangChange(renderAll);
  renderAll();
  loadMyTables();
}

startPage(main);
