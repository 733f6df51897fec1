// screenview.js — what the shared screen draws from the table page's state (tablestate.js S):
// the header (code, round, whose cups are still to roll, whose turn), the lobby (the link to
// open, its QR code, who sat down), the seats in play order with their dice face down, the
// standing bid and the round's bids, the winner, and the log. The screen is a spectator: the
// only dice it can draw face up are those the server shows everyone (set aside by
// reveal-and-reroll); a reveal is tablereveal.js's. The hooks are listed in screen.js.

import { api } from "/static/api.js";
import { avatar } from "/static/avatar.js";
import { bidNode, renderDice } from "/static/dice.js";
import { callWord, parseBid, t, tNodes, wordError } from "/static/i18n.js";
import { $, S, inGame, nameOf, narrate, seatOfPlayer, status } from "/static/tablestate.js";
import { el } from "/static/ui.js";

const LOG_LIMIT = 200;
// How the host lets the phones on the same network open the table (docs/protocol.md, invite).
const LISTEN_EVERYWHERE = "dudo serve --host 0.0.0.0";

// ---------------------------------------------------------------------------- the log

function logItem(e) {
  return el("li", { dataset: { seq: e.seq, type: e.type } }, narrate(e));
}

export function appendLog(events) {
  const log = $("screen-log");
  for (const e of events) log.append(logItem(e));
  while (log.children.length > LOG_LIMIT) log.firstElementChild.remove();
}

export function rebuildLog() {
  $("screen-log").replaceChildren(...S.events.slice(-LOG_LIMIT).map(logItem));
}

/** Nobody scrolls a TV: the newest line stays in view, once the page around it is drawn. */
function logToEnd() {
  const log = $("screen-log");
  log.scrollTop = log.scrollHeight;
}

// ---------------------------------------------------------------------------- the table

/** The players whose cup has still to roll this round (a real table; none online). The table
 * frame of a new round follows its update: until it comes, it speaks of the round before. */
export function waitingCups() {
  const real = S.table?.real;
  const v = S.view;
  if (!real || !v || real.round !== v.round || v.winner != null) return [];
  return real.waiting || [];
}

/** The seats in the order they play: ``order`` runs clockwise from the first opener. */
function playOrder(v) {
  const order = v.order?.length ? v.order : [...Array(v.players).keys()];
  if (S.table?.rules?.direction !== "counterclockwise") return order;
  return [...order.slice(0, 1), ...order.slice(1).reverse()];
}

function names(players) {
  return players.map(nameOf).join(", ");
}

function statusText() {
  const v = S.view;
  if (!inGame()) return "";
  if (v.winner != null) return t("status.over", { name: nameOf(v.winner) });
  const waiting = waitingCups();
  if (waiting.length) return t("screen.shake_waiting", { names: names(waiting), count: waiting.length });
  if (v.phase === "choose_visibility") return t("status.choosing", { name: nameOf(v.to_move) });
  // At a real table bids are said aloud: the program does not know whose turn it is.
  if (S.table?.real) return t("screen.bids_aloud");
  return t("status.waiting", { name: nameOf(v.to_move) });
}

function renderHead() {
  const v = S.view;
  const game = inGame();
  $("screen-code").textContent = S.table?.code ?? S.code;
  const kind = $("screen-kind");
  kind.hidden = !S.table?.real;
  kind.textContent = t("screen.real_table");
  const round = $("screen-round");
  round.hidden = !game || v.winner != null;
  round.textContent = game ? t("game.round", { n: v.round }) : "";
  const line = $("screen-status");
  line.textContent = statusText();
  line.dataset.waiting = waitingCups().join(",");
  const banner = $("screen-obliging");
  const obliging = game && v.obliging && v.phase !== "over" && v.winner == null;
  banner.hidden = !obliging;
  banner.dataset.visibility = obliging ? (v.visibility ?? "choose") : "";
  banner.textContent = obliging
    ? t("game.obliging_banner", { name: nameOf(v.obliger), mode: t(`vis.${v.visibility ?? "choose"}`) })
    : "";
  $("screen-broken").hidden = status() !== "broken";
}

// ---------------------------------------------------------------------------- the lobby

let invite = null; // the answer of GET /api/tables/CODE/invite, once asked
let inviteAsked = false;

async function loadInvite() {
  inviteAsked = true;
  const code = S.table.code;
  try {
    invite = await api(`/api/tables/${encodeURIComponent(code)}/invite`);
  } catch {
    // The server says nothing better: this page's own address is the table's.
    invite = { url: `${location.origin}/t/${code}`, local_only: false };
  }
  renderLobby();
}

function seatedItem(seat) {
  const item = el(
    "li",
    { dataset: { seat: seat.seat, kind: seat.kind } },
    avatar(seat.name, seat.seat, 40),
    el("span", { class: "seat-name" }, seat.name || "?"),
  );
  if (seat.host) item.append(el("span", { class: "badge gold" }, t("lobby.host")));
  if (seat.kind === "human" && !seat.connected) item.append(el("span", { class: "badge red" }, t("lobby.offline")));
  return item;
}

function renderLobby() {
  const show = status() === "lobby";
  $("screen-lobby").hidden = !show;
  if (!show) return;
  if (!inviteAsked) loadInvite();
  const link = $("screen-link");
  const qr = $("screen-qr");
  if (invite) {
    link.href = invite.url;
    link.textContent = invite.url.replace(/^https?:\/\//, "");
    const local = $("screen-local-only");
    local.hidden = !invite.local_only;
    local.replaceChildren(tNodes("screen.local_only", { command: el("code", {}, LISTEN_EVERYWHERE) }));
    if (!qr.getAttribute("src")) qr.src = `/t/${encodeURIComponent(S.table.code)}/qr.svg`;
    qr.hidden = false;
  }
  qr.alt = t("screen.qr_alt");
  const seats = S.table.seats || [];
  const seated = seats.filter((s) => s.kind !== "open");
  $("screen-seated").replaceChildren(...seated.map(seatedItem));
  const open = seats.length - seated.length;
  $("screen-open-seats").hidden = open === 0;
  $("screen-open-seats").textContent = t("screen.open_seats", { count: open });
}

// ---------------------------------------------------------------------------- the game

function seatRow(v, p, waiting) {
  const count = v.dice_counts[p] ?? 0;
  const seat = seatOfPlayer(p);
  const real = !!S.table?.real;
  const toMove = v.to_move === p && v.winner == null && (!real || v.phase === "choose_visibility");
  const item = el("li", {
    dataset: {
      player: p,
      count,
      toMove: String(toMove),
      waiting: String(waiting.includes(p)),
      out: String(count === 0),
      winner: String(v.winner === p),
    },
  });
  const name = el(
    "span",
    { class: "pname" },
    avatar(nameOf(p), seat ? seat.seat : (v.seats?.[p] ?? p), 44),
    el("span", { class: "nm" }, nameOf(p)),
  );
  const tags = el("span", { class: "ptags" });
  if (waiting.includes(p)) tags.append(el("span", { class: "badge gold" }, t("screen.to_shake")));
  if (toMove) tags.append(el("span", { class: "badge gold" }, v.phase === "choose_visibility" ? t("game.choosing") : t("game.to_move")));
  if (v.opener === p && !v.standing_bid && v.winner == null && count) tags.append(el("span", { class: "badge" }, t("screen.opens")));
  if (v.obliger === p && v.obliging && v.winner == null && count) tags.append(el("span", { class: "badge blue" }, t("game.obliger")));
  if (seat && seat.kind === "human" && !seat.connected && count) tags.append(el("span", { class: "badge red" }, t("lobby.offline")));
  if (count === 0) tags.append(el("span", { class: "badge" }, t("game.out")));
  // Face down but for what everyone sees (dice set aside face up): never a hidden die.
  const shown = v.seen_dice?.[p] || [];
  const dice = renderDice(el("span", { class: "dice pdice" }), shown, { hiddenCount: Math.max(0, count - shown.length) });
  const number = el("span", { class: "pcount", "aria-label": t("game.dice_count", { count }) }, String(count));
  item.append(name, tags, dice, number);
  return item;
}

function roundBid([p, action]) {
  // A bid said aloud and only told to the program at a call is "said 5x3" in the round.
  const said = action.startsWith("said ");
  const bid = parseBid(said ? action.slice(5) : action);
  const item = el("li", { dataset: { player: p, action } }, el("span", { class: "who" }, nameOf(p)));
  if (bid) item.append(bidNode(bid));
  else item.append(el("strong", {}, callWord(action)));
  if (said) item.append(el("span", { class: "said" }, t("screen.said")));
  return item;
}

function renderStanding(v) {
  const box = $("screen-standing");
  box.replaceChildren();
  box.dataset.bid = v.standing_bid ?? "";
  box.dataset.bidder = v.bidder ?? "";
  if (v.standing_bid) {
    box.append(
      el("span", { class: "standing-bid" }, bidNode(v.standing_bid)),
      el("span", { class: "standing-by" }, t("screen.bid_by", { name: nameOf(v.bidder) })),
    );
    if (v.passer != null) box.append(el("span", { class: "badge blue" }, t("game.passed_by", { name: nameOf(v.passer) })));
  } else if (v.winner == null) {
    const key = S.table?.real ? "screen.no_bid_real" : "game.no_bid";
    box.append(el("span", { class: "muted" }, t(key, { name: nameOf(v.opener) })));
  }
  // The obliger's open or closed choice is the banner's; the chips are what was bid or called.
  const said = (v.round_actions || []).filter(([, action]) => action !== "open" && action !== "closed");
  $("screen-round-bids").replaceChildren(...said.map(roundBid));
}

function renderBoard() {
  const game = inGame();
  $("screen-board").hidden = !game;
  if (!game) return;
  const v = S.view;
  const waiting = waitingCups();
  $("screen-players").replaceChildren(...playOrder(v).map((p) => seatRow(v, p, waiting)));
  const over = v.winner != null;
  $("screen-over").hidden = !over;
  $("screen-over").dataset.winner = over ? nameOf(v.winner) : "";
  $("screen-winner").textContent = over ? t("over.wins", { name: nameOf(v.winner) }) : "";
  $("screen-bid-card").hidden = over;
  renderStanding(v);
}

/** The page as the state says now. `missing`: the server's refusal when there is no table. */
export function renderScreen(missing = null) {
  const box = $("screen-missing");
  box.hidden = !missing;
  box.textContent = missing ? wordError(missing) : "";
  renderHead();
  renderLobby();
  renderBoard();
  logToEnd();
}
