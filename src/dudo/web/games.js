// games.js — recent finished games (GET /games, data from GET /api/games).
//
// Test hooks:
//   main#games-main  data-state (loading | ready), data-count
//   #games-list > li > a.game-link[href="/games/<id>"][data-game=<id>][data-stood-in=true|false]
//                    (.g-title players, .g-winner, .g-meta: preset, rounds, who a bot played
//                    for, date)
//                    + a.game-download[href="/api/games/<id>/record?download=1"] (the record
//                    as a file, dudo-<id>.json)
//   #games-empty     shown when there are none
//   #lang-select, #toast

import "/static/pwa.js";
import { api, recordDownload } from "/static/api.js";
import { lang, onLangChange, t } from "/static/i18n.js";
import { presetName } from "/static/rules.js";
import { el, startPage } from "/static/ui.js";

const $ = (id) => document.getElementById(id);
let games = [];

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
  $("games-empty").hidden = games.length > 0;
  $("games-main").dataset.state = "ready";
  $("games-main").dataset.count = String(games.length);
}

async function main() {
  const data = await api("/api/games?limit=50");
  games = data.games || [];
  render();
  onLangChange(render);
}

startPage(main);
