// rules.js — rule options in words: labels for options and values, and the rule-set list.

import { has, t } from "/static/i18n.js";
import { el } from "/static/ui.js";

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
      el("dt", { class: house ? "house" : null, title: name, dataset: { option: name } }, optionLabel(name)),
      el("dd", { class: house ? "house" : null, dataset: { option: name } }, valueLabel(rules[name])),
    );
  }
}

/** A bot level in words ("easy" → "Easy bot"), or the level itself. */
export function botLevelLabel(level) {
  return has(`bot.${level}`) ? t(`bot.${level}`) : level;
}
