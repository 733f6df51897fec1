// cup.js — the dice cup (GET /cup), docs/rules.md section 5: roll, remove one die, add one die,
// hide/show, new game. The cup lives on the server; its id and token are kept in
// localStorage "dudo.cup" as {"id", "token"} (a new cup is made when absent, 404 or 401).
//
// Offline (the service worker keeps this page): every cup the server sends is copied to
// localStorage "dudo.cup.local" as {"cup", "local"}. When the server cannot be reached the
// cup goes on from that copy on this phone ("local": true), with the same rules as the
// server's cup (dudo.cup), and says so in #cup-offline. It stays local, across reloads,
// until "New game" reaches the server again: the faces the player has seen are never
// replaced behind their back by the server's older ones.
//
// Test hooks:
//   main#cup-main   data-state (loading | ready), data-count, data-hidden ("true"/"false"),
//                   data-rolled ("true" once the dice have been rolled)
//   #cup-dice       .die children with data-face (face-down placeholders before the first
//                   roll: data-face="?"); class "shake" while the roll animation runs
//   #cup-cover      the cover shown over the dice while hidden (click: show)
//   #cup-count      "5 dice" text; data-count
//   #cup-roll, #cup-remove, #cup-add, #cup-hide (toggles hide/show; data-hidden),
//   #cup-new, #lang-select, #toast
//   #cup-offline    the "offline" notice, shown while the cup lives on this phone;
//                   main#cup-main data-local="true" then
//   #cup-offline-start  why the cup opened: the installed app started with no connection
//                   (the service worker sends its start page here as /cup?offline=start)

import "/static/pwa.js";
import { ApiError, api } from "/static/api.js";
import { onLangChange, t, wordError } from "/static/i18n.js";
import { dieEl } from "/static/dice.js";
import { startPage, toast } from "/static/ui.js";

const $ = (id) => document.getElementById(id);
const KEY = "dudo.cup";
const LOCAL_KEY = "dudo.cup.local";
const MAX_DICE = 5;
const OFFLINE_START = new URLSearchParams(location.search).get("offline") === "start";

let saved = null; // {id, token}
let cup = null; // {count, dice, hidden, max_dice}
let local = false; // true while the cup lives on this phone only
let busy = false;

/** The server could not be reached (no network, or the server is down or overloaded). */
function unreachable(err) {
  return err instanceof ApiError && (err.status === 0 || err.status >= 500);
}

function loadLocal() {
  try {
    const data = JSON.parse(localStorage.getItem(LOCAL_KEY) || "null");
    const c = data && data.cup;
    const max = c && c.max_dice;
    if (
      Number.isInteger(max) && max >= 1 && max <= MAX_DICE &&
      Number.isInteger(c.count) && c.count >= 0 && c.count <= max &&
      Array.isArray(c.dice) && (c.dice.length === 0 || c.dice.length === c.count) &&
      c.dice.every((f) => Number.isInteger(f) && f >= 1 && f <= 6) &&
      typeof c.hidden === "boolean"
    ) {
      return { cup: { count: c.count, dice: c.dice, hidden: c.hidden, max_dice: max }, local: !!data.local };
    }
  } catch {
    /* broken entry: no copy */
  }
  return null;
}

function saveLocal() {
  try {
    localStorage.setItem(LOCAL_KEY, JSON.stringify({ cup, local }));
  } catch {
    /* no storage: the copy lasts this page only */
  }
}

/** A die face 1..6 from the browser's cryptographic randomness (no modulo bias). */
function randomFace() {
  const byte = new Uint8Array(1);
  do crypto.getRandomValues(byte);
  while (byte[0] >= 252); // 252 = 42 * 6
  return (byte[0] % 6) + 1;
}

/** The server's cup actions (dudo.cup.Cup), done on this phone; null when impossible. */
function localAction(c, name) {
  const rolled = c.dice.length > 0;
  switch (name) {
    case "roll":
      return c.count ? { ...c, dice: Array.from({ length: c.count }, randomFace) } : null;
    case "remove":
      return c.count ? { ...c, count: c.count - 1, dice: c.dice.slice(0, -1) } : null;
    case "add":
      // Only the new die is rolled, and only once the cup has been rolled.
      if (c.count >= c.max_dice) return null;
      return { ...c, count: c.count + 1, dice: rolled ? [...c.dice, randomFace()] : [] };
    case "hide":
      return { ...c, hidden: true };
    case "show":
      return { ...c, hidden: false };
    case "new":
      return { ...c, count: c.max_dice, dice: [] };
    default:
      return null;
  }
}

/** Go on with the cup on this phone, from the last copy (or a full cup when there is none). */
function goLocal() {
  if (!cup) cup = loadLocal()?.cup ?? { count: MAX_DICE, dice: [], hidden: false, max_dice: MAX_DICE };
  local = true;
  saveLocal();
}

/** A cup answer from the server: show it and keep a copy for offline use. */
function fromServer(serverCup) {
  cup = serverCup;
  local = false;
  saveLocal();
}

function loadSaved() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || "null");
    if (data && typeof data.id === "string" && typeof data.token === "string") return data;
  } catch {
    /* broken entry: make a new cup */
  }
  return null;
}

async function newCup() {
  const answer = await api("/api/cups", { method: "POST" });
  saved = { id: answer.id, token: answer.token };
  try {
    localStorage.setItem(KEY, JSON.stringify(saved));
  } catch {
    /* the cup lasts this page only */
  }
  fromServer(answer.cup);
}

async function loadCup() {
  const copy = loadLocal();
  if (copy && copy.local) {
    cup = copy.cup; // the cup went on offline: it stays on this phone until a new game
    local = true;
    return;
  }
  saved = loadSaved();
  try {
    if (!saved) {
      await newCup();
      return;
    }
    try {
      const answer = await api(`/api/cups/${encodeURIComponent(saved.id)}`, { token: saved.token });
      fromServer(answer.cup);
    } catch (err) {
      if (err instanceof ApiError && (err.status === 404 || err.status === 401)) await newCup();
      else throw err;
    }
  } catch (err) {
    if (!unreachable(err)) throw err;
    goLocal();
  }
}

async function serverOp(name) {
  if (!saved) await newCup();
  try {
    return await api(`/api/cups/${encodeURIComponent(saved.id)}/${name}`, {
      method: "POST",
      token: saved.token,
    });
  } catch (err) {
    if (!(err instanceof ApiError && (err.status === 404 || err.status === 401))) throw err;
    await newCup(); // the server forgot this cup: start a new one and try again
    return api(`/api/cups/${encodeURIComponent(saved.id)}/${name}`, {
      method: "POST",
      token: saved.token,
    });
  }
}

async function op(name) {
  if (busy) return;
  busy = true;
  setButtons();
  try {
    // A local cup tries the server again only for a new game, which loses no faces.
    if (!local || name === "new") {
      try {
        const answer = await serverOp(name);
        if (local && answer.cup.hidden !== cup.hidden) {
          answer.cup = (await serverOp(cup.hidden ? "hide" : "show")).cup; // keep it covered
        }
        fromServer(answer.cup);
        render(name === "roll");
        return;
      } catch (err) {
        if (!unreachable(err)) throw err;
        goLocal();
      }
    }
    const next = localAction(cup, name);
    if (next) {
      cup = next;
      saveLocal();
    }
    render(name === "roll");
  } catch (err) {
    toast(wordError(err), "error");
  } finally {
    busy = false;
    setButtons();
  }
}

function setButtons() {
  const max = cup?.max_dice ?? 5;
  const count = cup?.count ?? 0;
  $("cup-roll").disabled = busy || count === 0;
  $("cup-remove").disabled = busy || count === 0;
  $("cup-add").disabled = busy || count >= max;
  $("cup-hide").disabled = busy;
  $("cup-new").disabled = busy;
}

function render(rolled = false) {
  if (!cup) return;
  const main = $("cup-main");
  const dice = $("cup-dice");
  main.dataset.state = "ready";
  main.dataset.count = String(cup.count);
  main.dataset.hidden = String(!!cup.hidden);
  main.dataset.rolled = String((cup.dice || []).length > 0);
  main.dataset.local = String(local);
  $("cup-offline").hidden = !local;
  // Sent here by the service worker: the app was opened with no connection to its start page.
  $("cup-offline-start").hidden = !(local && OFFLINE_START);
  dice.replaceChildren();
  const shown = cup.dice || [];
  for (const face of shown) dice.append(dieEl(face, { size: "huge" }));
  for (let i = shown.length; i < cup.count; i++) dice.append(dieEl(null, { size: "huge" }));
  if (rolled) {
    dice.classList.remove("shake");
    void dice.offsetWidth; // restart the animation
    dice.classList.add("shake");
    if (navigator.vibrate) navigator.vibrate(80);
  }
  $("cup-cover").hidden = !cup.hidden;
  dice.setAttribute("aria-hidden", String(!!cup.hidden));
  const count = $("cup-count");
  count.dataset.count = String(cup.count);
  count.textContent = shown.length || !cup.count
    ? t("cup.count", { count: cup.count })
    : `${t("cup.count", { count: cup.count })} · ${t("cup.not_rolled")}`;
  const hide = $("cup-hide");
  hide.dataset.hidden = String(!!cup.hidden);
  hide.textContent = cup.hidden ? t("cup.show") : t("cup.hide");
  setButtons();
}

async function main() {
  await loadCup();
  render();
  $("cup-roll").addEventListener("click", () => op("roll"));
  $("cup-remove").addEventListener("click", () => op("remove"));
  $("cup-add").addEventListener("click", () => op("add"));
  $("cup-hide").addEventListener("click", () => op(cup && cup.hidden ? "show" : "hide"));
  $("cup-new").addEventListener("click", () => op("new"));
  const cover = $("cup-cover");
  cover.addEventListener("click", () => op("show"));
  cover.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      op("show");
    }
  });
  $("cup-dice").addEventListener("animationend", () => $("cup-dice").classList.remove("shake"));
  onLangChange(() => render());
}

startPage(main);
