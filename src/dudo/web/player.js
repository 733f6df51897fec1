// player.js — this browser's player: made on the first visit, shown in the top bar, and the
// "you" dialog (rename, one-time code for another device, a code from another device,
// password, sign in, the player's devices and "sign out other devices", export, delete).
// docs/protocol.md, "Players".
//
// The key lives in localStorage "dudo.player.key" (api.js sends it as Authorization: Player
// with every request that has no seat token, so tables created or joined here are the player's
// seats). On a table page (/t/CODE) where this browser has no seat token, the module asks the
// server for the player's seat there (POST /api/tables/CODE/seat) before the page starts, so a
// player takes their seat back from any device holding the key.
//
// Markup (made here, inside the top bar):
//   #you-button        the player's name; opens #you-dialog
//   #you-dialog        #you-profile (the link to the player's profile page),
//                      #you-name/#you-rename, #you-code-button/#you-code/#you-code-help,
//                      #you-claim/#you-claim-button, #you-old-password (shown when a password
//                      is set), #you-password/#you-password-button,
//                      #you-login-name/#you-login-password/#you-login-button,
//                      #you-devices > li[data-current] (.device-name, .device-used),
//                      #you-signout-password (shown when a password is set), #you-signout,
//                      #you-export,
//                      #you-delete/#you-delete-confirm, #you-error, #you-status

import { api, forgetSeatToken, playerIsKnown, playerKey, saveSeatToken, seatToken } from "/static/api.js";
import { applyI18n, faceNaming, lang, onLangChange, setFaceNaming, t, wordError } from "/static/i18n.js";
import { el } from "/static/ui.js";

const KEY = "dudo.player.key";
const NAME = "dudo.player.name";
// Set while the player has the name the server made up ("Dudo 4821"): the first name typed
// into a form here (kept as "dudo.name") then becomes the player's name.
const AUTO = "dudo.player.auto";
// A typed name the server refused for the player (another player's): not asked for again.
const REFUSED = "dudo.player.refused";

let me = null; // {id, name, password}
let codeTimer = null;

function store(key, value) {
  try {
    if (value == null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    /* private mode: the player lasts this page only */
  }
}

function remembered(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Keep a player's key and name in this browser (after creating, a code or a sign-in). */
function keep(answer) {
  store(KEY, answer.key);
  store(NAME, answer.name);
  me = { id: answer.id, name: answer.name, password: !!answer.password };
}

/** This browser's player: checked with the server, or made when there is none (or the server
 * no longer knows the key: the account was deleted). */
async function ensurePlayer() {
  if (playerKey()) {
    try {
      me = await api("/api/players/me");
      store(NAME, me.name);
      await adoptTypedName();
      return;
    } catch (err) {
      if (err.status !== 401) return; // the server is away: keep the key and try next time
      store(KEY, null);
    }
  }
  const wanted = remembered("dudo.name");
  try {
    keep(await api("/api/players", { method: "POST", body: wanted ? { name: wanted } : {} }));
    store(AUTO, wanted ? null : "1");
  } catch (err) {
    if (err.code === "player_name_taken" || err.code?.startsWith("name_")) {
      keep(await api("/api/players", { method: "POST", body: {} }));
      store(AUTO, "1");
    }
  }
}

/** A player still named by the server takes the name typed into a form here, once: a name
 * another player has (or one the rules refuse) leaves the made-up name, for the "you" dialog. */
async function adoptTypedName() {
  const typed = remembered("dudo.name");
  if (!typed || typed === remembered(REFUSED)) return;
  await takeName(typed).catch(() => {});
}

/** Rename a player whose name is still the made-up one to `name`; resolves to the player's
 * name (unchanged when the name is theirs already, or the player chose one). A refusal (the
 * name is another player's, or the rules refuse it) rejects with the server's ApiError, and
 * that name is not asked for again; the server being away rejects too. */
async function takeName(name) {
  if (!me || !remembered(AUTO) || name === me.name) return me?.name ?? null;
  try {
    me = await api("/api/players/me", { method: "PATCH", body: { name } });
  } catch (err) {
    if (err.status >= 400 && err.status < 500) store(REFUSED, name);
    throw err;
  }
  store(NAME, me.name);
  store(AUTO, null);
  store(REFUSED, null);
  render();
  return me.name;
}

/**
 * A person sat down at a table under `name` (typed into the join form): a player still named
 * by the server ("Dudo 4821") is renamed to it at once, so the top bar and the player's profile
 * say it without a reload. Resolves to null when nothing needs saying, or to the words of why
 * the player keeps another name (the name is another player's), in the page's language.
 */
export async function satDownAs(name) {
  try {
    await takeName(name);
    return null;
  } catch (err) {
    if (err.status === 0 || err.status >= 500) return null; // the next page load tries again
    if (err.code !== "player_name_taken") return wordError(err);
    return t("player.name_kept", { seat: name, name: me?.name ?? "" });
  }
}

/** On a table page, the seat this player holds there, if this browser has no token for it. */
async function takeBackSeat() {
  const match = location.pathname.match(/^\/t\/([A-Za-z0-9]+)/);
  if (!match || !playerKey()) return;
  const code = match[1].toUpperCase();
  if (seatToken(code)) return;
  try {
    const answer = await api(`/api/tables/${encodeURIComponent(code)}/seat`, { method: "POST" });
    // No seat of this player here (null): the page offers to join or watch.
    if (answer.token) saveSeatToken(answer.code, answer.token);
  } catch {
    /* no such table, or the server is away: the page says so */
  }
}

// ------------------------------------------------------------------------------ the dialog

const $ = (id) => document.getElementById(id);

function field(id, labelKey, attrs = {}) {
  return el(
    "label",
    { class: "you-field" },
    el("span", { "data-i18n": labelKey }, t(labelKey)),
    el("input", { id, type: "text", autocomplete: "off", ...attrs }),
  );
}

function button(id, key, attrs = {}) {
  return el("button", { id, type: "button", "data-i18n": key, ...attrs }, t(key));
}

function section(headingKey, ...children) {
  return el(
    "section",
    { class: "you-section" },
    el("h3", { "data-i18n": headingKey }, t(headingKey)),
    ...children,
  );
}

/** How English names the faces: by number, or the traditional nicknames (shown in English
 * only: Spanish and Italian names are the same either way). */
function facesSection() {
  const option = (value, key) => el("option", { value, "data-i18n": key }, t(key));
  const part = section(
    "player.faces_heading",
    el(
      "label",
      { class: "you-field" },
      el("span", { "data-i18n": "player.faces_label" }, t("player.faces_label")),
      el(
        "select",
        { id: "you-faces" },
        option("usual", "player.faces_usual"),
        option("traditional", "player.faces_traditional"),
      ),
    ),
  );
  part.id = "you-faces-section";
  return part;
}

function buildDialog() {
  const dialog = el(
    "dialog",
    { id: "you-dialog", class: "you-dialog", "aria-labelledby": "you-heading" },
    el(
      "div",
      { class: "you-head" },
      el("h2", { id: "you-heading", "data-i18n": "player.heading" }, t("player.heading")),
      button("you-close", "player.close", { class: "small" }),
    ),
    el("p", { class: "muted small", "data-i18n": "player.intro" }, t("player.intro")),
    el("p", {}, el("a", { id: "you-profile", href: "/ratings", "data-i18n": "player.profile_link" }, t("player.profile_link"))),
    el("p", { id: "you-error", class: "error-text", role: "alert", hidden: true }),
    el("p", { id: "you-status", class: "you-status", role: "status" }),
    el(
      "form",
      { id: "you-rename-form", class: "you-row" },
      field("you-name", "player.name_label", { maxlength: 32, autocomplete: "nickname" }),
      button("you-rename", "player.rename", { type: "submit" }),
    ),
    section(
      "player.device_heading",
      button("you-code-button", "player.code_button"),
      el("p", { id: "you-code", class: "you-code", hidden: true }),
      el("p", { id: "you-code-help", class: "muted small", hidden: true }),
      el(
        "form",
        { id: "you-claim-form", class: "you-row" },
        field("you-claim", "player.claim_label", {
          maxlength: 12,
          autocapitalize: "characters",
          spellcheck: "false",
        }),
        button("you-claim-button", "player.claim_button", { type: "submit" }),
      ),
    ),
    section(
      "player.password_heading",
      el("p", { id: "you-password-on", class: "muted small", "data-i18n": "player.password_on", hidden: true }),
      el(
        "form",
        { id: "you-password-form", class: "you-row" },
        field("you-old-password", "player.old_password_label", {
          type: "password",
          autocomplete: "current-password",
          maxlength: 128,
        }),
        field("you-password", "player.password_label", { type: "password", autocomplete: "new-password", maxlength: 128 }),
        button("you-password-button", "player.password_button", { type: "submit" }),
      ),
      el("p", { class: "muted small you-login-intro", "data-i18n": "player.login_heading" }, t("player.login_heading")),
      el(
        "form",
        { id: "you-login-form", class: "you-row" },
        field("you-login-name", "player.login_name", { autocomplete: "username", maxlength: 32 }),
        field("you-login-password", "player.login_password", {
          type: "password",
          autocomplete: "current-password",
          maxlength: 128,
        }),
        button("you-login-button", "player.login_button", { type: "submit" }),
      ),
    ),
    facesSection(),
    section(
      "player.devices_heading",
      el("p", { class: "muted small", "data-i18n": "player.devices_intro" }, t("player.devices_intro")),
      el("ul", { id: "you-devices", class: "you-devices" }),
      el("p", { class: "muted small", "data-i18n": "player.signout_help" }, t("player.signout_help")),
      el(
        "form",
        { id: "you-signout-form", class: "you-row" },
        field("you-signout-password", "player.signout_password", {
          type: "password",
          autocomplete: "current-password",
          maxlength: 128,
        }),
        button("you-signout", "player.signout_button", { type: "submit", class: "danger" }),
      ),
    ),
    section(
      "player.data_heading",
      el(
        "div",
        { class: "you-row" },
        button("you-export", "player.export"),
        button("you-delete", "player.delete", { class: "danger" }),
      ),
      el(
        "div",
        { id: "you-delete-ask", class: "you-confirm", hidden: true },
        el("p", { "data-i18n": "player.delete_ask" }, t("player.delete_ask")),
        el(
          "div",
          { class: "you-row" },
          button("you-delete-confirm", "player.delete_confirm", { class: "danger" }),
          button("you-delete-cancel", "player.cancel"),
        ),
      ),
    ),
  );
  return dialog;
}

function say(text) {
  $("you-error").hidden = true;
  $("you-status").textContent = text;
}

function fail(err) {
  $("you-status").textContent = "";
  const box = $("you-error");
  box.textContent = wordError(err);
  box.hidden = false;
}

/** Run one request of the dialog: its refusal shown in the dialog, in the page's language. */
async function attempt(job) {
  try {
    await job();
  } catch (err) {
    fail(err);
  }
}

function render() {
  for (const id of ["you-button", "you-dialog"]) if ($(id)) applyI18n($(id));
  const name = me?.name || remembered(NAME) || "";
  const label = $("you-button-name");
  if (label) label.textContent = name;
  const dialog = $("you-dialog");
  if (!dialog) return;
  if (document.activeElement !== $("you-name")) $("you-name").value = name;
  $("you-password-on").hidden = !me?.password;
  // Asked for only when there is a password (the field's label says "if one is set").
  $("you-old-password").closest("label").hidden = !me?.password;
  $("you-signout-password").closest("label").hidden = !me?.password;
  renderDevices();
  $("you-faces-section").hidden = lang() !== "en";
  $("you-faces").value = faceNaming();
  const profile = $("you-profile");
  profile.hidden = !me?.id;
  if (me?.id) profile.href = `/players/${encodeURIComponent(me.id)}`;
}

let devices = []; // the last GET /api/players/me/devices

function deviceItem(d) {
  const name =
    d.browser && d.system ? t("player.device_label", { browser: d.browser, system: d.system }) : d.browser || d.system || t("player.device_unknown");
  const when = new Intl.DateTimeFormat(lang(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(d.last_used * 1000));
  return el(
    "li",
    { dataset: { current: String(d.current) } },
    el("span", { class: "device-name" }, d.current ? `${name} (${t("player.device_current")})` : name),
    el("span", { class: "device-used muted small" }, t("player.device_last_used", { when })),
  );
}

function renderDevices() {
  const list = $("you-devices");
  if (list) list.replaceChildren(...devices.map(deviceItem));
}

async function loadDevices() {
  if (!playerKey()) return;
  try {
    devices = (await api("/api/players/me/devices")).devices;
  } catch {
    devices = []; // the server is away: the list stays empty, the rest of the dialog works
  }
  renderDevices();
}

/** A new key for this browser: every other copy of the old one, and its seat tokens, stop
 * working; this browser keeps its seats with their new tokens, and the page reloads on them. */
async function signOutOthers() {
  const password = $("you-signout-password").value;
  const answer = await api("/api/players/me/sign-out-others", {
    method: "POST",
    body: me?.password ? { password } : {},
  });
  $("you-signout-password").value = "";
  keep({ ...answer, password: me?.password });
  for (const { code, token } of answer.tables) saveSeatToken(code, token);
  say(t("player.signout_done"));
  await loadDevices();
  setTimeout(() => location.reload(), 600);
}

function stopCode() {
  clearInterval(codeTimer);
  codeTimer = null;
  $("you-code").hidden = true;
  $("you-code-help").hidden = true;
}

async function showCode() {
  const answer = await api("/api/players/me/code", { method: "POST" });
  const code = $("you-code");
  code.textContent = `${answer.code.slice(0, 4)} ${answer.code.slice(4)}`;
  code.dataset.code = answer.code;
  code.hidden = false;
  const help = $("you-code-help");
  const minutes = Math.round(answer.seconds / 60);
  help.textContent = t("player.code_help", { count: minutes });
  help.hidden = false;
  say("");
  clearInterval(codeTimer);
  const ends = Date.now() + answer.seconds * 1000;
  codeTimer = setInterval(() => {
    if (Date.now() >= ends) stopCode();
  }, 1000);
}

async function download() {
  const data = await api("/api/players/me/export");
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: "application/json" });
  const link = el("a", { href: URL.createObjectURL(blob), download: `dudo-player-${data.profile.id}.json` });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  say(t("player.exported"));
}

/** A key received for this player (a code, a sign-in): the player's seats come to this
 * browser (their tokens, so "Your tables" lists them), and the page reloads to show them. */
async function arrived(answer) {
  store("dudo.name", answer.name); // the name forms follow the player now here
  store(AUTO, null);
  keep(answer);
  render();
  say(t("player.welcome", { name: answer.name }));
  try {
    const { tables } = await api("/api/players/me/tables");
    for (const { code } of tables) {
      const seat = await api(`/api/tables/${encodeURIComponent(code)}/seat`, { method: "POST" });
      if (seat.token) saveSeatToken(seat.code, seat.token);
    }
  } catch {
    /* a table page still takes its seat back when opened */
  }
  setTimeout(() => location.reload(), 600);
}

function wire(dialog) {
  $("you-close").addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => {
    stopCode();
    $("you-delete-ask").hidden = true;
  });
  $("you-rename-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    attempt(async () => {
      const before = me?.name;
      me = await api("/api/players/me", { method: "PATCH", body: { name: $("you-name").value } });
      if (remembered("dudo.name") === before) store("dudo.name", me.name);
      store(NAME, me.name);
      store(AUTO, null);
      render();
      say(t("player.renamed", { name: me.name }));
    });
  });
  $("you-faces").addEventListener("change", (e) => setFaceNaming(e.target.value));
  $("you-code-button").addEventListener("click", () => attempt(showCode));
  $("you-claim-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    attempt(async () => {
      const answer = await api("/api/players/claim", { method: "POST", body: { code: $("you-claim").value } });
      $("you-claim").value = "";
      await arrived(answer);
    });
  });
  $("you-password-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    attempt(async () => {
      const body = { password: $("you-password").value };
      if (me?.password) body.old_password = $("you-old-password").value;
      me = await api("/api/players/me/password", { method: "POST", body });
      $("you-password").value = "";
      $("you-old-password").value = "";
      render();
      say(t("player.password_set"));
    });
  });
  $("you-login-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    attempt(async () => {
      const answer = await api("/api/players/login", {
        method: "POST",
        body: { name: $("you-login-name").value, password: $("you-login-password").value },
      });
      $("you-login-password").value = "";
      await arrived(answer);
    });
  });
  $("you-signout-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    attempt(signOutOthers);
  });
  $("you-export").addEventListener("click", () => attempt(download));
  $("you-delete").addEventListener("click", () => {
    $("you-delete-ask").hidden = false;
    $("you-delete-confirm").focus();
  });
  $("you-delete-cancel").addEventListener("click", () => {
    $("you-delete-ask").hidden = true;
  });
  $("you-delete-confirm").addEventListener("click", () =>
    attempt(async () => {
      // The seats the account held are given up with it: their tokens are forgotten here too,
      // so "Your tables" no longer lists them.
      const { tables } = await api("/api/players/me/tables");
      await api("/api/players/me", { method: "DELETE" });
      for (const { code } of tables) forgetSeatToken(code);
      store(KEY, null);
      store(NAME, null);
      // The name is free again: the new player made here must not take it back by itself.
      store("dudo.name", null);
      me = null;
      $("you-delete-ask").hidden = true;
      await ensurePlayer(); // this browser goes on as a new player
      render();
      say(t("player.deleted_done"));
    }),
  );
}

/** A head and shoulders, in the text's gold. */
function personIcon() {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  for (const [k, v] of Object.entries({ class: "you-icon", viewBox: "0 0 20 20", width: "20", height: "20", "aria-hidden": "true" })) {
    svg.setAttribute(k, v);
  }
  const head = document.createElementNS(ns, "circle");
  for (const [k, v] of Object.entries({ cx: "10", cy: "6.5", r: "4", fill: "currentColor" })) head.setAttribute(k, v);
  const body = document.createElementNS(ns, "path");
  body.setAttribute("d", "M2.5 19c0-4.2 3.4-7 7.5-7s7.5 2.8 7.5 7z");
  body.setAttribute("fill", "currentColor");
  svg.append(head, body);
  return svg;
}

function mount() {
  const bar = document.querySelector(".topbar");
  if (!bar || $("you-button")) return;
  document.head.append(el("link", { rel: "stylesheet", href: "/static/player.css" }));
  const dialog = buildDialog();
  const open = el(
    "button",
    { id: "you-button", type: "button", class: "you-button", "aria-haspopup": "dialog" },
    personIcon(),
    el("span", { class: "you-word", "data-i18n": "nav.you" }, t("nav.you")),
    el("span", { id: "you-button-name", class: "you-name" }),
  );
  open.addEventListener("click", () => {
    render();
    say("");
    dialog.showModal();
    loadDevices();
  });
  const lang = bar.querySelector(".lang");
  bar.insertBefore(open, lang);
  document.body.append(dialog);
  wire(dialog);
  render();
  onLangChange(() => {
    render();
    stopCode();
  });
}

await ensurePlayer();
playerIsKnown();
await takeBackSeat();
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mount);
else mount();
