// cup.js — the dice cup (GET /cup), docs/rules.md section 5: roll, remove one die, add one die,
// hide/show, new game. The cup lives on the server; its id and token are kept in
// localStorage "dudo.cup" as {"id", "token"} (a new cup is made when absent, 404 or 401).
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

import { ApiError, api } from "/static/api.js";
import { onLangChange, t } from "/static/i18n.js";
import { dieEl } from "/static/dice.js";
import { startPage, toast } from "/static/ui.js";

const $ = (id) => document.getElementById(id);
const KEY = "dudo.cup";

let saved = null; // {id, token}
let cup = null; // {count, dice, hidden, max_dice}
let busy = false;

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
  cup = answer.cup;
}

async function loadCup() {
  saved = loadSaved();
  if (!saved) {
    await newCup();
    return;
  }
  try {
    const answer = await api(`/api/cups/${encodeURIComponent(saved.id)}`, { token: saved.token });
    cup = answer.cup;
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 401)) await newCup();
    else throw err;
  }
}

async function op(name) {
  if (busy) return;
  busy = true;
  setButtons();
  try {
    let answer;
    try {
      answer = await api(`/api/cups/${encodeURIComponent(saved.id)}/${name}`, {
        method: "POST",
        token: saved.token,
      });
    } catch (err) {
      if (!(err instanceof ApiError && (err.status === 404 || err.status === 401))) throw err;
      await newCup(); // the server forgot this cup: start a new one and try again
      answer = await api(`/api/cups/${encodeURIComponent(saved.id)}/${name}`, {
        method: "POST",
        token: saved.token,
      });
    }
    cup = answer.cup;
    render(name === "roll");
  } catch (err) {
    toast(err.detail || err.message, "error");
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
