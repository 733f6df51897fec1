// reallobby.js — the lobby of a real table (friends around one table, every phone a cup): the
// link the phones open (GET /api/tables/CODE/invite: the laptop's address on the Wi-Fi, not
// "localhost") and its QR code (/t/CODE/qr.svg), a hint when only this computer can open it,
// the phones joined so far, and the host's seating: as the rules say (by roll, most presets)
// or as the friends sit, the host putting the phones in order clockwise, sent with Start as
// {"order": [seat, ...]}. The start page leaves the host's first choice in localStorage
// "dudo.real.seating.<CODE>".
//
// Test hooks:
//   #real-invite (shown at a real table) > #real-qr (img), #real-local (the hint when the link
//   reaches this computer only: data-reason = "loopback" | "no-network"); #invite-link holds
//   the invitation's URL (data-source="invite" once the server named it)
//   #real-phones    "2 of 3 phones joined" (data-joined, data-seats)
//   #real-seating   (host, lobby) #real-seating-roll / #real-seating-sit (radios),
//                   #real-order > li[data-seat] with button.order-up / button.order-down

import { api } from "/static/api.js";
import { t, tNodes } from "/static/i18n.js";
import { valueLabel } from "/static/rules.js";
import { $, S } from "/static/tablestate.js";
import { el } from "/static/ui.js";

const L = {
  invite: null, // GET /api/tables/CODE/invite's answer
  asked: null, // the code it was asked for
  mode: null, // "roll" | "sit"
  order: [], // the seats, clockwise as the host put them
};

export function isReal() {
  return S.table?.real != null;
}

async function loadInvite(code) {
  L.asked = code;
  try {
    L.invite = await api(`/api/tables/${encodeURIComponent(code)}/invite`);
  } catch {
    L.invite = null; // the page's own address stays in the link
    L.asked = null;
    return;
  }
  renderRealLobby();
}

function renderInvite(tb) {
  if (L.asked !== tb.code) loadInvite(tb.code);
  const qr = $("real-qr");
  const src = `/t/${encodeURIComponent(tb.code)}/qr.svg`;
  if (qr.getAttribute("src") !== src) qr.src = src;
  qr.alt = t("real.qr_alt", { code: tb.code });
  $("real-screen").href = `/t/${encodeURIComponent(tb.code)}/screen`;
  const link = $("invite-link");
  if (L.invite?.url) {
    link.href = L.invite.url;
    link.textContent = L.invite.url;
    link.dataset.source = "invite";
  }
  const hint = $("real-local");
  hint.hidden = !L.invite?.local_only;
  if (hint.hidden) return;
  const noNetwork = !(L.invite.addresses || []).length;
  hint.dataset.reason = noNetwork ? "no-network" : "loopback";
  const command = el("code", {}, "dudo serve --host 0.0.0.0");
  hint.replaceChildren(tNodes("real.local_only", { command }));
  if (noNetwork) hint.append(" ", t("real.no_network"));
}

function renderPhones(tb) {
  const seats = tb.seats || [];
  const joined = seats.filter((s) => s.kind !== "open").length;
  const line = $("real-phones");
  line.hidden = false;
  line.dataset.joined = String(joined);
  line.dataset.seats = String(seats.length);
  line.textContent = t("real.phones_joined", { count: joined, seats: seats.length });
}

/** The seating chosen: the host's latest, else the start page's, else the rules'. */
function seatingMode(code) {
  if (L.mode) return L.mode;
  try {
    return localStorage.getItem(`dudo.real.seating.${code}`) === "sit" ? "sit" : "roll";
  } catch {
    return "roll";
  }
}

function setMode(mode) {
  L.mode = mode;
  try {
    localStorage.setItem(`dudo.real.seating.${S.code}`, mode);
  } catch {
    /* no storage: the choice lasts while the page is open */
  }
  renderRealLobby();
}

/** The filled seats in the host's order: newcomers at the end, those who left taken out. */
function currentOrder(tb) {
  const filled = (tb.seats || []).filter((s) => s.kind !== "open").map((s) => s.seat);
  L.order = [...L.order.filter((seat) => filled.includes(seat)), ...filled.filter((seat) => !L.order.includes(seat))];
  return L.order;
}

function move(index, step) {
  const order = L.order;
  const to = index + step;
  if (to < 0 || to >= order.length) return;
  [order[index], order[to]] = [order[to], order[index]];
  renderRealLobby();
  $("real-order").querySelector(`li[data-seat="${order[to]}"] .order-${step < 0 ? "up" : "down"}`)?.focus();
}

function orderItem(tb, seat, index, count) {
  const name = tb.seats[seat]?.name || "?";
  const button = (dir, label, disabled) =>
    el(
      "button",
      {
        type: "button",
        class: `small order-${dir}`,
        "aria-label": t(label, { name }),
        disabled,
        onclick: () => move(index, dir === "up" ? -1 : 1),
      },
      dir === "up" ? "↑" : "↓",
    );
  return el(
    "li",
    { dataset: { seat } },
    el("span", { class: "order-num" }, String(index + 1)),
    el("span", { class: "order-name" }, name),
    button("up", "real.order_up", index === 0),
    button("down", "real.order_down", index === count - 1),
  );
}

function renderSeating(tb) {
  const box = $("real-seating");
  box.hidden = !(S.host && tb.status === "lobby");
  if (box.hidden) return;
  const mode = seatingMode(tb.code);
  $("real-seating-roll").checked = mode === "roll";
  $("real-seating-sit").checked = mode === "sit";
  $("real-seating-roll-text").textContent = t("real.seating_rules", { how: valueLabel(tb.rules?.seating ?? "roll") });
  const list = $("real-order");
  list.hidden = mode !== "sit";
  $("real-order-help").hidden = list.hidden;
  if (list.hidden) return;
  const order = currentOrder(tb);
  list.replaceChildren(...order.map((seat, i) => orderItem(tb, seat, i, order.length)));
}

/** Draw the real table's parts of the lobby card (after tableseats.js drew the rest). */
export function renderRealLobby() {
  const tb = S.table;
  const real = isReal();
  $("real-invite").hidden = !real;
  $("real-phones").hidden = !real;
  $("real-seating").hidden = true;
  if (!real) return;
  $("add-bot-controls").hidden = true; // a real table has no bots
  $("seats-heading").textContent = t("real.phones_heading");
  renderInvite(tb);
  renderPhones(tb);
  renderSeating(tb);
  if (!$("join-panel").hidden) $("join-button").textContent = t("real.join_button");
}

/** The body of the host's Start: the order the friends sit in, when the host chose it. */
export function startBody() {
  if (!isReal() || seatingMode(S.code) !== "sit") return undefined;
  return { order: currentOrder(S.table) };
}

export function bindRealLobby() {
  $("real-seating-roll").addEventListener("change", () => setMode("roll"));
  $("real-seating-sit").addEventListener("change", () => setMode("sit"));
}
