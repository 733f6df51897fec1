// i18n.js — UI language (en/es/it), UI strings and the server's face and call names.
//
// UI strings live in /static/i18n/<lang>.json (one key set in every language); face names and
// call words come from the server (GET /api/i18n/<lang>), never from this file. The choice is
// kept in localStorage "dudo.lang" and defaults to the browser's language when it is es or it.
// English faces are named by number (twos, threes…) unless the player chose the traditional
// nicknames (ducks, trains…): localStorage "dudo.faces" = "traditional" asks the server for
// /api/i18n/<lang>?faces=traditional (the player menu sets it: setFaceNaming).
//
// Markup hooks: data-i18n="key" (text), data-i18n-placeholder, data-i18n-aria-label,
// data-i18n-title. The language <select> is #lang-select on every page.
//
// The server says nothing a person reads in words of its own: refusals and reasons come as a
// code with parameters (docs/protocol.md, "Error codes"), worded here by wordError()/wordReason()
// from the keys error.<code> and reason.<code>.

export const LANGUAGES = ["en", "es", "it"];

let current = "en";
let strings = {};
let english = {};
let server = null; // {faces: {"1": {one, many}}, calls: {call: "dudo", ...}}
const listeners = [];
const cache = new Map();

async function getJson(url) {
  if (cache.has(url)) return cache.get(url);
  const promise = fetch(url, { headers: { Accept: "application/json" } }).then((r) => {
    if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
    return r.json();
  });
  cache.set(url, promise);
  try {
    return await promise;
  } catch (err) {
    cache.delete(url);
    throw err;
  }
}

export function detectLang() {
  let stored = null;
  try {
    stored = localStorage.getItem("dudo.lang");
  } catch {
    /* no storage */
  }
  if (LANGUAGES.includes(stored)) return stored;
  const nav = (navigator.language || "en").slice(0, 2).toLowerCase();
  return nav === "es" || nav === "it" ? nav : "en";
}

export function lang() {
  return current;
}

const FACES_KEY = "dudo.faces";

/** How the faces are named: "usual" (numbers in English) or "traditional" (ducks, trains…). */
export function faceNaming() {
  try {
    return localStorage.getItem(FACES_KEY) === "traditional" ? "traditional" : "usual";
  } catch {
    return "usual";
  }
}

/** Name the faces ``naming``'s way from now on, and redraw the page's words with them. */
export async function setFaceNaming(naming) {
  try {
    if (naming === "traditional") localStorage.setItem(FACES_KEY, naming);
    else localStorage.removeItem(FACES_KEY);
  } catch {
    /* no storage: the choice holds until the page is left */
  }
  await load(current, naming);
  applyI18n(document);
  for (const fn of listeners) fn(current);
}

async function load(code, naming = faceNaming()) {
  const words = naming === "traditional" ? `/api/i18n/${code}?faces=traditional` : `/api/i18n/${code}`;
  const [ui, en, srv] = await Promise.all([
    getJson(`/static/i18n/${code}.json`),
    getJson("/static/i18n/en.json"),
    getJson(words).catch(() => null),
  ]);
  current = code;
  strings = ui;
  english = en;
  server = srv;
  document.documentElement.lang = code;
}

/** load(code), tried again after a moment when a fetch fails (a busy or restarting
 * server): without its strings a page would show bare keys. */
async function loadPatiently(code, attempts) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await load(code);
      return true;
    } catch (err) {
      console.warn("i18n:", err);
      if (attempt >= attempts) return false;
      await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
    }
  }
}

/** Load the chosen language, bind #lang-select and translate the page's static text. */
export async function initI18n() {
  const code = detectLang();
  if (!(await loadPatiently(code, 3)) && code !== "en") await loadPatiently("en", 3);
  const select = document.getElementById("lang-select");
  if (select) {
    select.value = current;
    select.addEventListener("change", () => setLang(select.value));
  }
  applyI18n(document);
}

export async function setLang(code) {
  if (!LANGUAGES.includes(code)) return;
  try {
    localStorage.setItem("dudo.lang", code);
  } catch {
    /* no storage */
  }
  await load(code);
  const select = document.getElementById("lang-select");
  if (select) select.value = code;
  applyI18n(document);
  for (const fn of listeners) fn(code);
}

export function onLangChange(fn) {
  listeners.push(fn);
}

export function has(key) {
  return key in strings || key in english;
}

function lookup(key, params) {
  if (params && typeof params.count === "number") {
    const plural = `${key}_${params.count === 1 ? "one" : "other"}`;
    if (plural in strings) return strings[plural];
    if (plural in english) return english[plural];
  }
  if (key in strings) return strings[key];
  if (key in english) return english[key];
  return key;
}

/** The UI string `key` with {placeholders} filled from `params`. */
export function t(key, params = {}) {
  return lookup(key, params).replace(/\{(\w+)\}/g, (m, name) =>
    name in params ? String(params[name]) : m,
  );
}

/** Like t(), but parameters may be DOM nodes (a bid with its die icon, ...): a fragment. */
export function tNodes(key, params = {}) {
  const fragment = document.createDocumentFragment();
  const parts = lookup(key, params).split(/\{(\w+)\}/);
  parts.forEach((part, i) => {
    if (i % 2 === 0) {
      if (part) fragment.append(part);
      return;
    }
    const value = params[part];
    if (value instanceof Node) fragment.append(value);
    else fragment.append(value === undefined ? `{${part}}` : String(value));
  });
  return fragment;
}

export function applyI18n(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-placeholder]")) {
    node.setAttribute("placeholder", t(node.dataset.i18nPlaceholder));
  }
  for (const node of root.querySelectorAll("[data-i18n-aria-label]")) {
    node.setAttribute("aria-label", t(node.dataset.i18nAriaLabel));
  }
  for (const node of root.querySelectorAll("[data-i18n-title]")) {
    node.setAttribute("title", t(node.dataset.i18nTitle));
  }
  const title = document.querySelector("title[data-i18n-page]");
  if (title) document.title = t(title.dataset.i18nPage);
}

/** The server's name of a face ("cuadra", plural "cuadras"); the digit if unknown. */
export function faceName(face, plural = false) {
  const names = server && server.faces && server.faces[String(face)];
  if (!names) return String(face);
  return (plural ? names.many : names.one) || String(face);
}

/** The server's word for a call ("dudo", "calzo", ...), or the canonical action. */
export function callWord(action) {
  return (server && server.calls && server.calls[action]) || action;
}

/** Parse "3x4" or "3x4 reveal 4,4" into {quantity, face, reveal}; null when not a bid. */
export function parseBid(text) {
  if (Array.isArray(text)) return { quantity: text[0], face: text[1], reveal: null };
  const m = /^\s*(\d+)\s*x\s*(\d+)(?:\s+reveal\s+([\d,\s]+))?\s*$/i.exec(String(text ?? ""));
  if (!m) return null;
  const reveal = m[3] ? m[3].split(",").map((s) => Number(s.trim())).filter(Boolean) : null;
  return { quantity: Number(m[1]), face: Number(m[2]), reveal };
}

/** "said 5x3" or "said 5x3 pass", a bid said aloud at a real table (by the player the round's
 * list names; with "pass": that player passed on it): {bid, passed}, or null. */
export function parseSaid(text) {
  const m = /^\s*said\s+(\d+x\d+)(\s+pass)?\s*$/i.exec(String(text ?? ""));
  return m ? { bid: m[1], passed: !!m[2] } : null;
}

/** A bid as plain text: "3 × cuadras". */
export function bidText(bid) {
  const b = typeof bid === "object" && !Array.isArray(bid) && bid !== null ? bid : parseBid(bid);
  if (!b) return String(bid);
  return `${b.quantity} × ${faceName(b.face, b.quantity !== 1)}`;
}

/** Any action as plain text: bids as "3 × cuadras", calls as the server's call words. */
export function actionText(action) {
  const b = parseBid(action);
  if (b) {
    const base = bidText(b);
    return b.reveal ? `${base} (${t("reveal.short", { dice: b.reveal.join(", ") })})` : base;
  }
  const said = parseSaid(action);
  if (said) {
    const key = said.passed ? "real.said_pass" : "real.said_bid";
    return t(key, { bid: bidText(said.bid), word: callWord("pass") });
  }
  return callWord(action);
}

// Parameters of a server reason that are bids ("3x4") or dice ("4,4"), worded like the rest
// of the page; a face is named. Names, numbers and codes pass as they are.
const BID_PARAMS = new Set(["bid", "new", "standing"]);

function wordParams(params) {
  const out = {};
  for (const [name, value] of Object.entries(params || {})) {
    if (BID_PARAMS.has(name) && parseBid(value)) out[name] = bidText(value);
    else if (name === "face" && Number.isInteger(value)) out[name] = faceName(value);
    else if (name === "dice" && typeof value === "string") out[name] = value.split(",").join(", ");
    else if (name === "option" && has(`opt.${value}`)) out[name] = t(`opt.${value}`);
    else out[name] = value;
  }
  return out;
}

/** An engine reason `{code, params}` (why a move is not allowed) in the page's language. */
export function wordReason(reason) {
  if (!reason || !reason.code) return t("error.illegal");
  const key = `reason.${reason.code}`;
  return has(key) || has(`${key}_other`) ? t(key, wordParams(reason.params)) : t("error.illegal");
}

/** A server refusal in the page's language: an HTTP answer (ApiError) or a WebSocket error
 * frame, each `{code, params, reason}`. A refused move is worded by its engine reason; an
 * unknown code by a general sentence, never the server's English. */
export function wordError(err) {
  if (!err) return t("error.refused");
  if (err.reason && err.reason.code) return wordReason(err.reason);
  const key = `error.${err.code}`;
  if (err.code && (has(key) || has(`${key}_other`))) return t(key, wordParams(err.params));
  return t("error.refused");
}
