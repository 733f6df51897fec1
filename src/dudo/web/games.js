// games.js — recent finished games (GET /games, data from GET /api/games), filtered.
//
// The filters are the page's query, as the API takes them (/games?mine=1&rated=1&preset=perudo
// asks /api/games?mine=1&rated=1&preset=perudo): a filtered list can be shared and reloaded.
// "Mine" is this browser's player's games (api.js sends its key); a browser with no player yet
// has played none.
//
// Test hooks:
//   main#games-main  data-state (loading | ready | refused), data-count, data-query (the
//                    filters asked, as a query string)
//   #games-filters   #games-mine, #games-rated (checkboxes), #games-preset (select: "" = all)
//   #games-none      shown when filters find nothing (#games-clear: the list unfiltered); on a
//                    refused filter #games-none-text words the server's error
//   #games-list > li > a.game-link[href="/games/<id>"][data-game=<id>][data-stood-in=true|false]
//                    (.g-title players, .g-winner, .g-meta: preset, rounds, who a bot played
//                    for, date)
//                    + a.game-download[href="/api/games/<id>/record?download=1"] (the record
//                    as a file, dudo-<id>.json)
//   #games-empty     shown when there are none
//   #lang-select, #toast

import "/static/pwa.js";
import { api, ApiError, recordDownload } from "/static/api.js";
import { lang, onLangChange, t, wordError } from "/static/i18n.js";
import { presetName } from "/static/rules.js";
import { el, startPage } from "/static/ui.js";

const $ = (id) => document.getElementById(id);
let games = [];
let refused = null; // the server's refusal of the filters asked (a bad value in the URL)
let asked = 0; // the latest request: an older answer arriving late is dropped

/** The filters of the page's query the API takes, as they are written there. */
const FILTERS = ["mine", "rated", "preset", "family"];

function filtersOfUrl() {
  const query = new URLSearchParams(location.search);
  const out = new URLSearchParams();
  for (const name of FILTERS) if (query.has(name)) out.set(name, query.get(name));
  return out;
}

function filtersOfForm() {
  const out = new URLSearchParams();
  if ($("games-mine").checked) out.set("mine", "1");
  if ($("games-rated").checked) out.set("rated", "1");
  if ($("games-preset").value) out.set("preset", $("games-preset").value);
  const family = new URLSearchParams(location.search).get("family");
  if (family) out.set("family", family); // no control of its own: kept as the link gave it
  return out;
}

function showFilters(filters) {
  const yes = (name) => ["1", "true"].includes((filters.get(name) || "").toLowerCase());
  $("games-mine").checked = yes("mine");
  $("games-rated").checked = yes("rated");
  const preset = filters.get("preset") || "";
  const select = $("games-preset");
  if (preset && ![...select.options].some((o) => o.value === preset)) {
    select.append(el("option", { value: preset }, preset)); // unknown: the server says so
  }
  select.value = preset;
}

async function presetOptions() {
  let names = [];
  try {
    names = ((await api("/api/presets")).presets || []).map((p) => p.name);
  } catch {
    names = []; // the select keeps "All rules" and whatever the link asked
  }
  const select = $("games-preset");
  for (const name of names) {
    if (![...select.options].some((o) => o.value === name)) {
      select.append(el("option", { value: name, dataset: { preset: name } }, presetName(name)));
    }
  }
}

function namePresets() {
  for (const option of $("games-preset").options) {
    if (option.dataset.preset) option.textContent = presetName(option.dataset.preset);
  }
}

async function load(filters) {
  const mine = asked + 1;
  asked = mine;
  const query = new URLSearchParams(filters);
  query.set("limit", "50");
  $("games-main").dataset.state = "loading";
  $("games-main").dataset.query = filters.toString();
  let found = [];
  let problem = null;
  try {
    found = (await api(`/api/games?${query}`)).games || [];
  } catch (err) {
    // "Mine" before this browser has a player: it has played no game.
    if (!(err instanceof ApiError && err.status === 401 && filters.has("mine"))) {
      if (!(err instanceof ApiError && err.status === 400)) throw err;
      problem = err;
    }
  }
  if (mine !== asked) return;
  games = found;
  refused = problem;
  render();
}

export function dateText(value) {
  if (value == null) return "";
  let date;
  if (typeof value === "number") date = new Date(value < 1e12 ? value * 1000 : value);
  else date = new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return new Intl.DateTimeFormat(lang(), { dateStyle: "medium", timeStyle: "short" }).format(date);
}

function render() {
  const list = $("games-list");
  list.replaceChildren(
    ...games.map((g) =>
      el(
        "li",
        {},
        el(
          "a",
          {
            class: "game-link",
            href: `/games/${g.id}`,
            dataset: { game: g.id, stoodIn: (g.stood_in || []).length ? "true" : "false" },
          },
          el("span", { class: "g-title" }, (g.players || []).map((n) => n ?? t("player.deleted")).join(" · ")),
          g.winner ? el("span", { class: "g-winner" }, t("games.winner", { name: g.winner })) : null,
          el(
            "span",
            { class: "g-meta muted small" },
            [
              presetName(g.preset),
              t("games.rounds", { count: g.rounds ?? 0 }),
              // A game where a bot played for someone is not a plain result of theirs.
              (g.stood_in || []).length ? t("games.stood_in", { names: g.stood_in.join(", ") }) : "",
              dateText(g.finished),
            ]
              .filter(Boolean)
              .join(" · "),
          ),
        ),
        el(
          "a",
          { class: "button small game-download", href: recordDownload(g.id), dataset: { game: g.id } },
          t("games.download"),
        ),
      ),
    ),
  );
  const filtered = filtersOfUrl().toString() !== "";
  $("games-empty").hidden = games.length > 0 || filtered;
  $("games-none").hidden = games.length > 0 || !filtered;
  $("games-none-text").textContent = refused ? wordError(refused) : t("games.empty_filtered");
  $("games-main").dataset.state = refused ? "refused" : "ready";
  $("games-main").dataset.count = String(games.length);
}

function filterChanged() {
  const filters = filtersOfForm();
  const query = filters.toString();
  history.replaceState(null, "", query ? `/games?${query}` : "/games");
  load(filters);
}

async function main() {
  const filters = filtersOfUrl();
  showFilters(filters);
  await Promise.all([presetOptions(), load(filters)]);
  showFilters(filters);
  $("games-filters").addEventListener("change", filterChanged);
  $("games-filters").addEventListener("submit", (e) => e.preventDefault());
  onLangChange(() => {
    namePresets();
    render();
  });
}

startPage(main);
