// profile.js — a player's or a bot level's profile (GET /players/<rater>, data from
// GET /api/players/<rater>/profile): finished games and wins, a rating chart per rule family,
// games and win rate by preset, the latest games (each a link to its replay) and the raters met
// most often (each a link to their profile).
//
// Test hooks:
//   main#profile-main   data-state (loading | ready | missing), data-rater
//   #profile-name, #profile-bot (shown for a bot), #profile-error (a refusal, in words)
//   #profile-games, #profile-wins, #profile-rate
//   #profile-ratings > section.family-rating[data-family][data-provisional] (h3,
//                      .family-rating-value with span.provisional-mark "?" while provisional,
//                      p.provisional-note saying what it means, figure.rating-chart: see
//                      ratingchart.js)
//   #profile-preset-rows > tr[data-preset] (td.games, td.wins, td.rate)
//   #profile-recent > li > a.game-link[href="/games/<id>"][data-game][data-place]
//   #profile-opponent-rows > tr[data-rater] (td.name > a, td.games, td.ahead)

import "/static/pwa.js";
import { api } from "/static/api.js";
import { lang, onLangChange, t, wordError } from "/static/i18n.js";
import { el, startPage } from "/static/ui.js";
import {
  countText,
  dateText,
  FAMILIES,
  familyName,
  profileHref,
  provisionalLegend,
  raterName,
  ratingNodes,
} from "/static/ratings.js";
import { ratingChart } from "/static/ratingchart.js";
import { presetName } from "/static/rules.js";

const $ = (id) => document.getElementById(id);
let profile = null;

function percent(part, whole) {
  if (!whole) return "–";
  return new Intl.NumberFormat(lang(), { style: "percent", maximumFractionDigits: 0 }).format(part / whole);
}

function ratingsSection() {
  const box = $("profile-ratings");
  const families = FAMILIES.filter((f) => profile.ratings[f]);
  const sections = families.map((f) => {
    const r = profile.ratings[f];
    return el(
      "section",
      { class: "family-rating", dataset: { family: f, provisional: r.provisional ? "1" : "0" }, "aria-labelledby": `rating-${f}` },
      el(
        "div",
        { class: "family-rating-head" },
        el("h3", { id: `rating-${f}` }, el("a", { href: `/ratings/${f}` }, familyName(f))),
        el("span", { class: "family-rating-value" }, ...ratingNodes(r.rating, r.provisional, profile.provisional_games)),
        el("span", { class: "muted small" }, t("profile.rated_games", { count: r.games, n: countText(r.games) })),
      ),
      // A tooltip is out of reach on a phone: the mark's meaning is also written under it.
      r.provisional ? el("p", { class: "muted small provisional-note" }, ...provisionalLegend(profile.provisional_games)) : null,
    );
  });
  box.replaceChildren(...sections);
  // Each chart is drawn at its section's width, so its words keep their size on a phone.
  sections.forEach((section, i) => {
    const points = profile.ratings[families[i]].history.map((h) => ({ rating: h.rating, place: h.place }));
    const style = getComputedStyle(section);
    const inner = section.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    if (points.length) section.append(ratingChart(families[i], points, inner));
  });
  $("profile-no-ratings").hidden = families.length > 0;
}

function recentItem(g) {
  const result =
    g.place === 1 ? t("profile.won") : g.place ? t("profile.place", { place: countText(g.place), players: countText(g.players) }) : t("profile.no_place");
  return el(
    "li",
    {},
    el(
      "a",
      { class: "game-link", href: `/games/${g.game}`, dataset: { game: g.game, place: g.place ?? "" } },
      el("span", { class: g.place === 1 ? "g-title g-winner" : "g-title" }, result),
      el(
        "span",
        { class: "g-meta muted small" },
        [t("profile.game", { id: g.game }), presetName(g.preset), g.rated ? t("profile.rated") : "", g.left_early ? t("profile.left_early") : "", dateText(g.finished)]
          .filter(Boolean)
          .join(" · "),
      ),
    ),
  );
}

function render() {
  if (!profile) return;
  const name = raterName(profile.rater, profile.name);
  $("profile-name").textContent = name;
  document.title = t("profile.title_name", { name });
  $("profile-bot").hidden = profile.name !== null;
  $("profile-games").textContent = countText(profile.games);
  $("profile-wins").textContent = countText(profile.wins);
  $("profile-rate").textContent = percent(profile.wins, profile.games);
  ratingsSection();
  $("profile-preset-rows").replaceChildren(
    ...profile.by_preset.map((p) =>
      el(
        "tr",
        { dataset: { preset: p.preset } },
        el("td", {}, presetName(p.preset)),
        el("td", { class: "num games" }, countText(p.games)),
        el("td", { class: "num wins" }, countText(p.wins)),
        el("td", { class: "num rate" }, percent(p.wins, p.games)),
      ),
    ),
  );
  $("profile-presets").hidden = profile.by_preset.length === 0;
  $("profile-no-games").hidden = profile.by_preset.length > 0;
  $("profile-recent").replaceChildren(...profile.recent.map(recentItem));
  // With no game at all "By rules" says so; an empty list under it would say nothing.
  document.querySelector(".profile-recent-card").hidden = profile.recent.length === 0;
  $("profile-opponent-rows").replaceChildren(
    ...profile.opponents.map((o) =>
      el(
        "tr",
        { dataset: { rater: o.rater } },
        el("td", { class: "name" }, el("a", { href: profileHref(o.rater) }, raterName(o.rater, o.name))),
        el("td", { class: "num games" }, countText(o.games)),
        el("td", { class: "num ahead" }, countText(o.wins_against)),
      ),
    ),
  );
  $("profile-opponents").hidden = profile.opponents.length === 0;
  $("profile-no-opponents").hidden = profile.opponents.length > 0;
  $("profile-main").dataset.state = "ready";
}

async function main() {
  const rater = decodeURIComponent(location.pathname.replace(/^\/players\//, "").replace(/\/$/, ""));
  $("profile-main").dataset.rater = rater;
  try {
    profile = await api(`/api/players/${encodeURIComponent(rater)}/profile`);
  } catch (err) {
    if (err.status !== 404) throw err;
    // Nobody by this id (or a deleted account): said on the page, in its language.
    const main = $("profile-main");
    main.dataset.state = "missing";
    $("profile-name").dataset.i18n = "ratings.name";
    $("profile-name").textContent = t("ratings.name");
    for (const section of main.querySelectorAll("section.card:not(.profile-head)")) section.hidden = true;
    $("profile-stats").hidden = true;
    const box = $("profile-error");
    box.textContent = wordError(err);
    box.hidden = false;
    onLangChange(() => {
      box.textContent = wordError(err);
    });
    return;
  }
  render();
  onLangChange(render);
  let resizing = null;
  addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(ratingsSection, 150);
  });
}

startPage(main);
