// ui.js — small DOM helpers shared by every page: element builder, the #toast, page start-up.

import { initI18n, wordError } from "/static/i18n.js";

/** el("button", {id: "x", class: "a b", dataset: {seat: 1}, onclick: fn}, "text", node) */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value == null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "text") node.textContent = value;
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child == null || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

let toastTimer = null;

/** Show a transient message in #toast (kind: "info" | "error" | "ok"). */
export function toast(message, kind = "info", ms = 4500) {
  const box = document.getElementById("toast");
  if (!box) return;
  box.textContent = message;
  box.dataset.kind = kind;
  box.hidden = false;
  box.classList.add("show");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    box.classList.remove("show");
    box.hidden = true;
  }, ms);
}

/** Start a page: translations first, then the page's own code. */
export async function startPage(main) {
  await initI18n();
  const box = document.getElementById("toast");
  if (box) {
    box.addEventListener("click", () => {
      box.classList.remove("show");
      box.hidden = true;
    });
  }
  try {
    await main();
  } catch (err) {
    console.error(err);
    // A refusal of the server in the page's language; anything else as it is.
    toast(err && err.name === "ApiError" ? wordError(err) : String(err.message || err), "error", 8000);
  }
}

export function show(node, visible) {
  if (node) node.hidden = !visible;
}

/** Remember the name a person typed into a form, for the next form (and the player's name). */
export function rememberName(name) {
  try {
    localStorage.setItem("dudo.name", name);
  } catch {
    /* no storage: the next form starts empty */
  }
}

/** Fill a name field with the remembered name, unless the person typed one while the page was
 * still loading (that one is kept). */
export function fillRememberedName(input) {
  try {
    if (!input.value) input.value = localStorage.getItem("dudo.name") || "";
  } catch {
    /* no storage */
  }
}
