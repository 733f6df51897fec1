// rules.js — rule options in words: labels for options and values, and the rule-set list.

import { has, t } from "/static/i18n.js";
import { el } from "/static/ui.js";

// The editor's sections, in the order a player meets the rules; every option of
// engine/rules.py OPTION_NAMES sits in one of them (an unknown one goes to the last).
export const OPTION_GROUPS = [
  ["bidding", ["raise_mode", "reveal_reroll"]],
  ["aces", ["aces_wild", "wild_needs_natural", "aces_rank", "aces_to", "aces_from", "open_on_aces"]],
  ["calls", ["loss", "cruzado", "spot_on", "spot_on_reward", "spot_on_threshold", "spot_on_min_players"]],
  ["pass", ["pass_hands", "pass_min_players", "pass_allows_spot_on"]],
  ["oblige", ["oblige", "oblige_min_players", "oblige_face_change", "oblige_visibility"]],
  ["table", ["seating", "direction", "next_opener", "min_players", "max_players", "faces", "dice_per_player"]],
];

/** `names` split into [[group, [name...]]...], in OPTION_GROUPS order, empty groups left out. */
export function groupOptions(names) {
  const groups = OPTION_GROUPS.map(([group, members]) => [group, members.filter((n) => names.includes(n))]);
  const known = new Set(OPTION_GROUPS.flatMap(([, members]) => members));
  groups[groups.length - 1][1].push(...names.filter((n) => !known.has(n)));
  return groups.filter(([, members]) => members.length);
}

export function groupLabel(group) {
  return has(`optgroup.${group}`) ? t(`optgroup.${group}`) : group;
}

/** A preset in one sentence in the page's language; the server's English summary otherwise. */
export function presetSummary(preset) {
  if (!preset) return "";
  return has(`preset.${preset.name}`) ? t(`preset.${preset.name}`) : preset.summary || "";
}

/** A preset's name for people (``preset_name.<id>``), or its id when the catalogue has none;
 * the id stays the value a form sends. */
export function presetName(id) {
  return id && has(`preset_name.${id}`) ? t(`preset_name.${id}`) : id || "";
}

export function optionDescription(name) {
  return has(`optdesc.${name}`) ? t(`optdesc.${name}`) : "";
}

export function optionLabel(name) {
  return has(`opt.${name}`) ? t(`opt.${name}`) : name;
}

export function valueLabel(value) {
  if (value === true) return t("val.true");
  if (value === false) return t("val.false");
  if (value == null) return t("val.none");
  if (Array.isArray(value)) return value.length ? value.map(valueLabel).join(", ") : t("val.empty");
  const key = `val.${value}`;
  return typeof value === "string" && has(key) ? t(key) : String(value);
}

export function sameValue(a, b) {
  const norm = (v) => (Array.isArray(v) ? JSON.stringify([...v].map(String).sort()) : JSON.stringify(v));
  return norm(a) === norm(b);
}

/** Fill a <dl> with every option of `rules`; options in `changed` (a Set) are house rules. */
export function renderRulesList(dl, rules, changed = new Set(), order = null) {
  dl.replaceChildren();
  const names = order && order.length ? order.filter((n) => n in rules) : Object.keys(rules || {});
  for (const name of Object.keys(rules || {})) if (!names.includes(name)) names.push(name);
  for (const name of names) {
    const house = changed.has(name);
    dl.append(
      el("dt", { class: house ? "house" : null, title: optionDescription(name) || null, dataset: { option: name } }, optionLabel(name)),
      el("dd", { class: house ? "house" : null, dataset: { option: name } }, valueLabel(rules[name])),
    );
  }
}

/** A bot level in words ("easy" → "Easy bot"), or the level itself. */
export function botLevelLabel(level) {
  return has(`bot.${level}`) ? t(`bot.${level}`) : level;
}
