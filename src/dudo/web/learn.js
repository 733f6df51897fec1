// learn.js — "How to play": /learn (the game in five steps, and the rule families to choose
// from) and /learn/<family> (the family's preset explained in short sections with pictures of
// dice). Every sentence about a rule is chosen, and every number in it filled, from the
// preset's rule values (GET /api/presets), and a section whose rule the preset lacks (calzo,
// paso, the obliging round) is left out; learnrules.js makes the worked examples.
//
// Test hooks:
//   main#learn-main         data-state (loading | ready), data-family ("" on the overview)
//   section.learn-section   [data-section = steps | families | need | goal | turn | raise |
//                           aces | call | calzo | paso | obligo | end]
//   p.learn-rule[data-rule] a sentence made from a rule option (data-rule: the option's name)
//   li.learn-example        [data-standing="3x4"][data-bid="4x4"][data-ok=true|false]
//                           [data-context=normal|same_face]: a bid tried after another
//   figure.learn-count      [data-bid][data-hands="52163,55422,..."][data-count]
//   figure.learn-hand       [data-hand=full_house|...][data-dice="33355"]: a pass hand
//   a.learn-family[data-family] (overview), a.learn-tutorial, a.learn-play, a.learn-glossary

import "/static/pwa.js";
import { api } from "/static/api.js";
import { onLangChange, t, tNodes } from "/static/i18n.js";
import { bidNode, dieEl } from "/static/dice.js";
import {
  FAMILIES,
  PASS_HAND_EXAMPLES,
  RAISE_TRIES,
  TABLE_HANDS,
  aceExamples,
  countFor,
  countingDice,
  familyOf,
  raises,
  raisesSameFace,
  usesAceArithmetic,
} from "/static/learnrules.js";
import { el, startPage } from "/static/ui.js";

const $ = (id) => document.getElementById(id);
let presets = [];
let family = "";

// ---- small pieces ------------------------------------------------------------------------

/** A word of the game linked to its entry in the glossary. */
function gloss(id, key = `learn.word.${id}`) {
  return el("a", { class: "gloss", href: `/learn/glossary#${id}` }, t(key));
}

function words() {
  return {
    dudo: gloss("dudo"),
    calzo: gloss("calzo"),
    paso: gloss("paso"),
    doubt_pass: gloss("dudo-el-paso", "learn.word.doubt_pass"),
    obligo: gloss("obligo"),
    cup: gloss("cacho", "learn.word.cup"),
    aces: gloss("aces"),
  };
}

function para(key, params = {}, rule = null) {
  const attrs = rule ? { class: "learn-rule", dataset: { rule } } : {};
  return el("p", attrs, tNodes(key, { ...words(), ...params }));
}

function dice(faces, { size, counted, dim } = {}) {
  const row = el("div", { class: "learn-dice" });
  faces.forEach((face, i) => {
    const die = dieEl(face, { size, counted: counted ? counted[i] : false });
    if (dim && dim(i)) die.classList.add("dim");
    row.append(die);
  });
  return row;
}

const bidText = ([q, f]) => `${q}x${f}`;

function example(standing, bid, ok, context = "normal") {
  const verdict = ok ? `✓ ${t("learn.raise_ok")}` : `✗ ${t("learn.raise_no")}`;
  return el(
    "li",
    {
      class: "learn-example",
      dataset: { standing: bidText(standing), bid: bidText(bid), ok: String(ok), context },
    },
    bidNode(bid),
    el("span", { class: ok ? "verdict ok" : "verdict no" }, verdict),
  );
}

/** "After [bid]:" and the bids tried after it, each marked a raise or not. */
function examples(standing, tries, context = "normal", head = "learn.after") {
  return el(
    "div",
    { class: "learn-examples" },
    el("p", {}, tNodes(head, { bid: bidNode(standing) })),
    el("ul", {}, tries.map(([bid, ok]) => example(standing, bid, ok, context))),
  );
}

/** Every player's dice shown for a bid, the dice that count for it marked. */
function countPicture(rules, bid, captionKey = "learn.count.caption") {
  const [, face] = bid;
  const marks = countingDice(rules, TABLE_HANDS, face);
  const count = countFor(rules, TABLE_HANDS, face);
  return el(
    "figure",
    {
      class: "learn-count",
      dataset: { bid: bidText(bid), hands: TABLE_HANDS.map((h) => h.join("")).join(","), count },
    },
    TABLE_HANDS.map((hand, i) =>
      el(
        "div",
        { class: "learn-seat" },
        el("span", { class: "muted small" }, t("learn.player", { n: i + 1 })),
        dice(hand, { size: "small", counted: marks[i] }),
      ),
    ),
    el("figcaption", {}, tNodes(captionKey, { bid: bidNode(bid), count })),
  );
}

function section(id, ...children) {
  return el(
    "section",
    { class: "card learn-section", id: `learn-${id}`, dataset: { section: id }, "aria-labelledby": `learn-${id}-h` },
    el("h2", { id: `learn-${id}-h` }, t(`learn.section.${id}`)),
    ...children,
  );
}

function links() {
  return el(
    "nav",
    { class: "card learn-links", "aria-label": t("learn.links_label") },
    el("a", { class: "button primary learn-tutorial", href: "/tutorial" }, t("learn.tutorial")),
    el("a", { class: "button learn-play", href: "/#play-section" }, t("learn.play")),
    el("a", { class: "button learn-glossary", href: "/learn/glossary" }, t("learn.glossary")),
  );
}

// ---- the overview --------------------------------------------------------------------------

function steps() {
  const lost = dice([4, 2, 6, 6, 3], { dim: (i) => i === 4 });
  const pictures = [
    el(
      "div",
      { class: "learn-pair" },
      el("div", { class: "learn-seat" }, el("span", { class: "muted small" }, t("learn.yours")), dice([2, 4, 4, 1, 6])),
      el("div", { class: "learn-seat" }, el("span", { class: "muted small" }, t("learn.theirs")), dice([null, null, null, null, null], { size: "small" })),
    ),
    el("div", { class: "learn-pair" }, bidNode([3, 4])),
    el("div", { class: "learn-pair" }, bidNode([3, 4]), el("span", { class: "arrow", "aria-hidden": "true" }, "→"), bidNode([4, 4]), el("span", { class: "muted" }, t("learn.or")), el("strong", { class: "learn-call" }, t("learn.word.dudo"))),
    countPicture({ aces_wild: true, wild_needs_natural: false }, [4, 4], "learn.count.step"),
    el("div", { class: "learn-pair" }, lost),
  ];
  return section(
    "steps",
    el(
      "ol",
      { class: "learn-steps" },
      pictures.map((picture, i) => el("li", {}, para(`learn.step${i + 1}`), picture)),
    ),
  );
}

function familyChoices() {
  return section(
    "families",
    el(
      "ul",
      { class: "learn-families" },
      FAMILIES.map((f) =>
        el(
          "li",
          {},
          el("a", { class: "learn-family", href: `/learn/${f}`, dataset: { family: f } }, t(`family.${f}`)),
          el("p", { class: "muted small" }, t(`learn.blurb.${f}`)),
        ),
      ),
    ),
  );
}

function overview() {
  document.title = t("learn.title");
  return [
    el("section", { class: "card learn-head" }, el("h1", {}, t("learn.heading")), para("learn.intro")),
    steps(),
    familyChoices(),
    links(),
  ];
}

// ---- a family's sections -----------------------------------------------------------------------

function need(r) {
  const players = r.max_players
    ? para("learn.need.players_range", { min: r.min_players, max: r.max_players }, "max_players")
    : para("learn.need.players_min", { min: r.min_players }, "min_players");
  return section(
    "need",
    players,
    para("learn.need.dice", { dice: r.dice_per_player }, "dice_per_player"),
    dice([2, 4, 4, 1, 6].slice(0, r.dice_per_player)),
  );
}

function turn(r) {
  const direction = t(`learn.direction.${r.direction}`);
  return section(
    "turn",
    para("learn.turn.shake"),
    para(`learn.turn.seating_${r.seating}`, { direction }, "seating"),
    para("learn.turn.bid", { bid: bidNode([3, 4]), quantity: 3 }),
    para("learn.turn.next"),
  );
}

function raise(r) {
  // In the fixed order the aces have a place of their own: two more tries show it.
  const bids = r.raise_mode === "index" ? [...RAISE_TRIES, [4, 1], [3, 1]] : RAISE_TRIES;
  const tries = bids.map((bid) => [bid, raises(r, [3, 4], bid)]);
  const mode = r.raise_mode === "index" ? `index_${r.aces_rank}` : r.raise_mode;
  return section("raise", para(`learn.raise.${mode}`, {}, "raise_mode"), examples([3, 4], tries));
}

function aceRules(r) {
  if (!usesAceArithmetic(r)) return [];
  const ex = aceExamples(r);
  const tried = (list) => list.map((e) => [e.bid, e.ok]);
  return [
    el("h3", {}, t("learn.aces.switch")),
    para("learn.aces.to", { rule: t(`learn.aces.to_${r.aces_to}`) }, "aces_to"),
    examples(ex.to[0].standing, tried(ex.to)),
    para("learn.aces.from", { rule: t(`learn.aces.from_${r.aces_from}`) }, "aces_from"),
    examples(ex.from[0].standing, tried(ex.from)),
    para("learn.aces.to_aces"),
  ];
}

function aces(r) {
  if (!r.aces_wild) return null;
  return section(
    "aces",
    para("learn.aces.wild", { ace: dieEl(1, { size: "mini" }) }, "aces_wild"),
    r.wild_needs_natural ? para("learn.aces.natural", {}, "wild_needs_natural") : null,
    countPicture(r, [4, 5]),
    ...aceRules(r),
    para(`learn.aces.open_${r.open_on_aces}`, {}, "open_on_aces"),
  );
}

function call(r) {
  // A bid the table does not hold (the aces' picture above shows one that holds).
  const bid = [6, 6];
  const count = countFor(r, TABLE_HANDS, bid[1]);
  const held = count >= bid[0];
  return section(
    "call",
    para("learn.call.how"),
    para("learn.call.false"),
    para("learn.call.held"),
    r.loss === "difference" ? para("learn.call.loss_difference", {}, "loss") : null,
    countPicture(r, bid, held ? "learn.call.example_held" : "learn.call.example_false"),
  );
}

function calzo(r) {
  if (!r.spot_on) return null;
  const face = 5;
  const bid = [countFor(r, TABLE_HANDS, face), face];
  return section(
    "calzo",
    para("learn.calzo.how", {}, "spot_on"),
    para(`learn.calzo.${r.spot_on_reward}`, { dice: r.dice_per_player }, "spot_on_reward"),
    para("learn.calzo.wrong"),
    r.spot_on_threshold !== "none" ? para(`learn.calzo.${r.spot_on_threshold}`, {}, "spot_on_threshold") : null,
    r.spot_on_min_players > 2 ? para("learn.calzo.min_players", { count: r.spot_on_min_players }, "spot_on_min_players") : null,
    countPicture(r, bid, "learn.calzo.example"),
  );
}

function paso(r) {
  if (!r.pass_hands.length) return null;
  const hands = Object.keys(PASS_HAND_EXAMPLES).filter((h) => r.pass_hands.includes(h));
  return section(
    "paso",
    para("learn.paso.how", { dice: r.dice_per_player }, "pass_hands"),
    el(
      "div",
      { class: "learn-hands" },
      hands.map((h) =>
        el(
          "figure",
          { class: "learn-hand", dataset: { hand: h, dice: PASS_HAND_EXAMPLES[h].join("") } },
          dice(PASS_HAND_EXAMPLES[h], { size: "small" }),
          el("figcaption", {}, t(`hand.${h}`)),
        ),
      ),
    ),
    para("learn.paso.own_face"),
    para("learn.paso.next"),
    r.pass_allows_spot_on ? para("learn.paso.calzo", {}, "pass_allows_spot_on") : null,
    para("learn.paso.bluff"),
    para("learn.paso.limits"),
    r.pass_min_players > 2 ? para("learn.paso.min_players", { count: r.pass_min_players }, "pass_min_players") : null,
  );
}

function obligo(r) {
  if (!r.oblige) return null;
  const standing = [2, 4];
  const tries = [[3, 4], [2, 5], [3, 2]].map((bid) => [bid, raisesSameFace(standing, bid)]);
  const visibility = r.oblige_visibility === "normal" ? null : para(`learn.obligo.${r.oblige_visibility}`, {}, "oblige_visibility");
  return section(
    "obligo",
    para("learn.obligo.how"),
    dice([3]),
    para("learn.obligo.round"),
    para("learn.obligo.once"),
    para(`learn.obligo.face_${r.oblige_face_change}`, {}, "oblige_face_change"),
    examples(standing, tries, "same_face", "learn.obligo.after"),
    visibility,
    r.oblige_min_players > 2 ? para("learn.obligo.min_players", { count: r.oblige_min_players }, "oblige_min_players") : null,
  );
}

function end(r) {
  return section(
    "end",
    para(`learn.end.${r.next_opener}`, {}, "next_opener"),
    para("learn.end.out"),
    dice([6, 6, 3, 1, 2], { dim: (i) => i > 0 }),
  );
}

function familyPage() {
  const preset = presets.find((p) => p.name === family);
  const r = preset.rules;
  const name = t(`family.${family}`);
  document.title = t("learn.title_family", { family: name });
  const variants = presets.filter((p) => p.name !== family && familyOf(p.name) === family);
  const others = FAMILIES.filter((f) => f !== family).map((f) =>
    el("a", { class: "learn-chip learn-family", href: `/learn/${f}`, dataset: { family: f } }, t(`family.${f}`)),
  );
  return [
    el(
      "section",
      { class: "card learn-head" },
      el("h1", {}, t("learn.heading_family", { family: name })),
      para("learn.preset_note", { preset: t(`preset_name.${family}`) }),
      variants.length
        ? el("p", { class: "muted small" }, t("learn.variants", { names: variants.map((p) => t(`preset_name.${p.name}`)).join(", ") }))
        : null,
      el("p", {}, el("a", { href: "/learn" }, t("learn.back"))),
    ),
    need(r),
    section("goal", para("learn.goal")),
    turn(r),
    raise(r),
    aces(r),
    call(r),
    calzo(r),
    paso(r),
    obligo(r),
    end(r),
    links(),
    el("nav", { class: "card learn-others", "aria-label": t("learn.others") }, el("h2", {}, t("learn.others")), el("div", { class: "learn-chips" }, others)),
  ];
}

function render() {
  const main = $("learn-main");
  main.replaceChildren(...(family ? familyPage() : overview()).filter(Boolean));
  main.dataset.family = family;
  main.dataset.state = "ready";
}

async function main() {
  const match = location.pathname.match(/^\/learn\/([a-z-]+)\/?$/);
  family = match && FAMILIES.includes(match[1]) ? match[1] : "";
  presets = (await api("/api/presets")).presets;
  render();
  onLangChange(render);
}

if (document.getElementById("learn-main")) startPage(main);
