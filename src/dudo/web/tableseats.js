// tableseats.js — the table page around the seats: the panel to take a seat or watch, the lobby
// card (code, invite link, seats, host controls, rules), the host's commands and Ready (over
// HTTP), and leaving the table. In a game the lobby card moves into #table-details. The hooks
// are listed in table.js.

import { ApiError, api, forgetSeatToken, saveSeatToken } from "/static/api.js";
import { satDownAs } from "/static/player.js";
import { lang, t, wordError } from "/static/i18n.js";
import { renderFairLine } from "/static/fair.js";
import { avatar } from "/static/avatar.js";
import { renderScores } from "/static/people.js";
import { botLevelLabel, presetName, presetSummary, renderRulesList } from "/static/rules.js";
import { $, S, inGame, status, takeTable } from "/static/tablestate.js";
import { el, rememberName, toast } from "/static/ui.js";

// The page's render and connect, given by bindSeats.
const page = { render: () => {}, connect: () => {}, startBody: () => undefined };

// ---------------------------------------------------------------------------- rendering

export function renderJoin() {
  const panel = $("join-panel");
  const st = status();
  const waitingForWelcome = !!S.token && !S.welcomed;
  const show =
    S.table != null && S.seat == null && !waitingForWelcome && !(inGame() && S.socket && st === "playing");
  panel.hidden = !show;
  if (!show) return;
  const open = (S.table.seats || []).filter((s) => s.kind === "open").length;
  const canJoin = st !== "playing" && st !== "broken" && open > 0;
  $("join-form").hidden = !canJoin;
  $("join-closed").hidden = canJoin || st === "broken"; // the broken banner says why
  $("join-closed").textContent = st === "playing" ? t("join.started") : t("join.full");
  $("join-info").textContent = t("join.info", {
    code: S.table.code,
    preset: presetName(S.table.preset),
    open,
    count: open, // "1 posto libero", "2 posti liberi"
    seats: S.table.seats.length,
  });
  $("watch-button").hidden = !!S.socket;
}

function seatItem(seat) {
  const me = seat.seat === S.seat;
  const item = el("li", { dataset: { seat: seat.seat, kind: seat.kind } });
  item.append(el("span", { class: "seat-num" }, String(seat.seat + 1)));
  if (seat.kind === "open") {
    item.append(el("span", { class: "seat-name" }, t("lobby.open_seat")));
    return item;
  }
  item.append(
    avatar(seat.name, seat.seat),
    el("span", {
      class: `dot${seat.kind === "bot" || seat.connected ? " on" : ""}`,
      title: seat.kind === "bot" || seat.connected ? t("lobby.online") : t("lobby.offline"),
    }),
    el("span", { class: "seat-name" }, seat.name || "?"),
  );
  // The badges stay together: on a narrow row they take the next line as one group.
  const badges = el("span", { class: "seat-badges" });
  if (seat.host) badges.append(el("span", { class: "badge gold" }, t("lobby.host")));
  if (me) badges.append(el("span", { class: "badge blue" }, t("lobby.you")));
  if (seat.kind === "bot") badges.append(el("span", { class: "badge" }, botLevelLabel(seat.level)));
  if (seat.autoplay) badges.append(el("span", { class: "badge red" }, t("lobby.autoplay")));
  if (badges.childElementCount) item.append(badges);
  const playing = status() === "playing";
  const inThisGame = seat.player != null;
  // A bot plays on to the end, and nobody is removed from a rated game once it started (the
  // server refuses: it would place them last).
  const staysInGame = playing && inThisGame && (seat.kind === "bot" || S.table?.rated);
  const removable = S.host && !seat.host && status() !== "broken" && !staysInGame;
  if (removable) {
    const label = seat.kind === "bot" ? t("lobby.remove_bot") : t("lobby.kick");
    item.append(
      el(
        "button",
        {
          type: "button",
          class: "remove-seat small danger",
          dataset: { seat: seat.seat },
          "aria-label": `${label}: ${seat.name}`,
          onclick: () => hostCall("DELETE", `/seats/${seat.seat}`),
        },
        label,
      ),
    );
  }
  return item;
}

export function renderLobby() {
  const card = $("lobby");
  const tb = S.table;
  card.hidden = !tb;
  if (!tb) return;
  $("table-code").textContent = tb.code;
  const url = `${location.origin}/t/${tb.code}`;
  const link = $("invite-link");
  link.href = url;
  link.textContent = url;
  $("seat-list").replaceChildren(...(tb.seats || []).map(seatItem));
  $("spectator-count").textContent = tb.spectators
    ? t("lobby.spectators", { count: tb.spectators })
    : "";
  const st = tb.status;
  $("host-controls").hidden = !S.host || st === "playing" || st === "broken";
  $("start-button").hidden = st !== "lobby";
  const filled = (tb.seats || []).filter((s) => s.kind !== "open").length;
  const open = (tb.seats || []).length - filled;
  $("start-button").disabled = filled < 2;
  $("add-bot-controls").hidden = open === 0;
  $("lobby-wait").hidden = S.host || st !== "lobby" || S.seat == null;
  $("leave-table").hidden = st !== "lobby" || S.seat == null;
  renderScores(tb);
  renderFairLine(tb);
  const levels = $("bot-level");
  if (levels.options.length !== S.botLevels.length || levels.dataset.lang !== lang()) {
    const chosen = levels.value;
    levels.replaceChildren(...S.botLevels.map((l) => el("option", { value: l }, botLevelLabel(l))));
    levels.value = S.botLevels.includes(chosen) ? chosen : S.botLevels.includes("easy") ? "easy" : S.botLevels[0];
    levels.dataset.lang = lang();
  }
  $("rules-preset").textContent = presetName(tb.preset);
  const preset = S.presets?.presets?.find((p) => p.name === tb.preset);
  $("rules-summary-text").textContent = presetSummary(preset);
  renderRulesList(
    $("rules-list"),
    tb.rules || {},
    new Set(Object.keys(tb.house_rules || {})),
    S.presets?.options?.map((o) => o.name),
  );
  // The whole option list is folded on a phone (the seats and the chat come first); the
  // closed summary still says how many house rules the table plays.
  const house = Object.keys(tb.house_rules || {}).length;
  $("rules-house-count").hidden = house === 0;
  $("rules-house-count").textContent = house ? t("create.changed", { count: house }) : "";
  $("timer-info").textContent = [
    tb.turn_seconds ? t("lobby.turn_seconds", { n: tb.turn_seconds }) : t("lobby.no_timer"),
    tb.grace_seconds != null ? t("lobby.grace_seconds", { n: tb.grace_seconds }) : "",
    tb.reveal_seconds ? t("lobby.reveal_seconds", { n: tb.reveal_seconds }) : "",
  ]
    .filter(Boolean)
    .join(" · ");
  $("lobby-hints").textContent = t(tb.hints ? "lobby.hints_on" : "lobby.hints_off");
}

// ---------------------------------------------------------------------------- commands

async function hostCall(method, path, body) {
  try {
    const table = await api(`/api/tables/${encodeURIComponent(S.code)}${path}`, {
      method,
      body,
      token: S.token,
    });
    if (table && table.code && takeTable(table)) page.render();
  } catch (err) {
    toast(wordError(err), "error");
  }
}

/** Give up my seat (in the lobby or after a game): I watch on, and can join again. */
async function leaveTable() {
  try {
    const table = await api(`/api/tables/${encodeURIComponent(S.code)}/leave`, {
      method: "POST",
      token: S.token,
    });
    forgetSeatToken(S.code);
    S.token = null;
    S.seat = null;
    S.host = false;
    if (S.socket) S.socket.token = null; // a reconnection watches
    if (table && table.code) takeTable(table);
    page.render();
    toast(t("people.left"), "ok", 2500);
  } catch (err) {
    toast(wordError(err), "error");
  }
}

export async function loadTable() {
  try {
    takeTable(await api(`/api/tables/${encodeURIComponent(S.code)}`));
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      $("table-main").dataset.status = "missing";
      $("join-panel").hidden = false;
      $("join-heading").textContent = t("join.no_table", { code: S.code });
      $("join-form").hidden = true;
      $("watch-button").hidden = true;
      $("join-closed").hidden = false;
      $("join-closed").replaceChildren(el("a", { href: "/" }, t("join.back_home")));
      return false;
    }
    throw err;
  }
}

async function join(event) {
  event.preventDefault();
  const name = $("join-name").value.trim();
  if (!name) {
    toast(t("create.need_name"), "error");
    $("join-name").focus();
    return;
  }
  rememberName(name);
  $("join-button").disabled = true;
  try {
    const answer = await api(`/api/tables/${encodeURIComponent(S.code)}/join`, {
      method: "POST",
      body: { name },
    });
    saveSeatToken(S.code, answer.token);
    S.token = answer.token;
    S.seat = answer.seat;
    page.connect();
    // A player still named by the server takes the name they sat down under, now: the top
    // bar and their profile follow without a reload (or a toast says why not).
    satDownAs(name).then((why) => why && toast(why, "info", 9000));
  } catch (err) {
    toast(wordError(err), "error");
    await loadTable().catch(() => {});
    page.render();
  } finally {
    $("join-button").disabled = false;
  }
}

async function copyInvite() {
  const url = $("invite-link").href;
  try {
    await navigator.clipboard.writeText(url);
    toast(t("lobby.copied"), "ok", 2000);
  } catch {
    const range = document.createRange();
    range.selectNodeContents($("invite-link"));
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    toast(t("lobby.copy_manually"), "info");
  }
}

/** Joining, watching, the invite, the host's commands, Ready and Leave; `render` and `connect`
 *  are the page's, `startBody` the body of the host's Start (a real table's seating order). */
export function bindSeats({ render, connect, startBody }) {
  page.render = render;
  page.connect = connect;
  // Beside the seats on a wide screen there is room for every option: open from the start.
  if (window.matchMedia("(min-width: 900px)").matches) $("rules-details").open = true;
  if (startBody) page.startBody = startBody;
  $("join-form").addEventListener("submit", join);
  $("watch-button").addEventListener("click", () => {
    connect();
    render();
  });
  $("copy-invite").addEventListener("click", copyInvite);
  $("add-bot-button").addEventListener("click", () => hostCall("POST", "/bots", { level: $("bot-level").value }));
  $("start-button").addEventListener("click", () => hostCall("POST", "/start", page.startBody()));
  $("rematch-button").addEventListener("click", () => hostCall("POST", "/rematch"));
  $("ready-button").addEventListener("click", () =>
    hostCall("POST", "/ready", { ready: $("ready-button").dataset.ready !== "true" }),
  );
  $("leave-button").addEventListener("click", leaveTable);
  $("leave-table").addEventListener("click", leaveTable);
}
