// tableview.js — the game as the table page shows it: the players and their dice counts, whose
// turn and its clock, the standing bid and the round's bids, my dice, the banners over the
// page, the end of the game (winner, replay link, rematch and ratings: people.js,
// ratingchange.js) and the feed of what happened. It only draws S; the hooks are listed in
// table.js.

import { recordDownload } from "/static/api.js";
import { actionNode, bidNode, renderDice } from "/static/dice.js";
import { actionText, callWord, t, tNodes } from "/static/i18n.js";
import { avatar } from "/static/avatar.js";
import { renderRematch } from "/static/people.js";
import { renderRatingChanges } from "/static/ratingchange.js";
import { botLevelLabel } from "/static/rules.js";
import { $, S, inGame, myTurn, nameOf, narrate, seatOfPlayer, status } from "/static/tablestate.js";
import { renderActions } from "/static/tableacts.js";
import { el } from "/static/ui.js";

// ---------------------------------------------------------------------------- the feed

const FEED_LIMIT = 300;

function feedItem(e) {
  return el("li", { dataset: { seq: e.seq, type: e.type } }, narrate(e));
}

export function appendFeed(events) {
  const feed = $("events");
  const nearBottom = feed.scrollHeight - feed.scrollTop - feed.clientHeight < 60;
  for (const e of events) feed.append(feedItem(e));
  while (feed.children.length > FEED_LIMIT) feed.firstElementChild.remove();
  if (nearBottom || events.length > 3) feed.scrollTop = feed.scrollHeight;
}

export function rebuildFeed() {
  const feed = $("events");
  feed.replaceChildren(...S.events.slice(-FEED_LIMIT).map(feedItem));
  feed.scrollTop = feed.scrollHeight;
}

// ---------------------------------------------------------------------------- the game

export function renderBanners() {
  const mine = S.seat != null ? S.table?.seats?.[S.seat] : null;
  $("autoplay-banner").hidden = !(mine && mine.autoplay && status() === "playing");
  $("spectator-banner").hidden = !(S.socket && S.welcomed && S.seat == null && inGame());
  $("saving-banner").hidden = S.table?.store !== "retrying";
  $("broken-banner").hidden = status() !== "broken";
  const notice = $("auto-notice");
  notice.hidden = !(S.autoNotice && inGame() && S.seat != null);
  notice.dataset.action = S.autoNotice ?? "";
  $("auto-notice-text").textContent = S.autoNotice
    ? t("turn.timer_played", { action: actionText(S.autoNotice) })
    : "";
  const v = S.view;
  const banner = $("obliging-banner");
  if (inGame() && v.obliging && v.phase !== "over") {
    banner.hidden = false;
    const mode = v.visibility ?? "choose";
    banner.dataset.visibility = mode;
    banner.textContent = t("game.obliging_banner", {
      name: nameOf(v.obliger),
      mode: t(`vis.${mode}`),
    });
  } else {
    banner.hidden = true;
    banner.dataset.visibility = "";
  }
  const box = $("banners");
  box.hidden = [...box.children].every((child) => child.hidden);
}

function countDots(n) {
  const box = el("span", { class: "pcount", "aria-label": t("game.dice_count", { count: n }) });
  for (let i = 0; i < Math.min(n, 5); i++) box.append(el("span", { class: "cup-die", "aria-hidden": "true" }));
  box.append(el("span", { class: "num" }, String(n)));
  return box;
}

function renderPlayers() {
  const v = S.view;
  const list = $("players");
  list.replaceChildren();
  const order = v.order && v.order.length ? v.order : [...Array(v.players).keys()];
  for (const p of order) {
    const count = v.dice_counts[p] ?? 0;
    const seat = seatOfPlayer(p);
    const item = el("li", {
      dataset: {
        player: p,
        toMove: String(v.to_move === p),
        me: String(v.viewer === p),
        out: String(count === 0),
      },
    });
    const name = el(
      "span",
      { class: "pname" },
      avatar(nameOf(p), seat ? seat.seat : (v.seats?.[p] ?? p), 22),
      el("span", { class: "nm" }, nameOf(p)),
    );
    if (v.viewer === p) name.append(el("span", { class: "badge blue" }, t("lobby.you")));
    // A bot's level beside its name, as in the lobby.
    if (seat && seat.kind === "bot") {
      name.append(el("span", { class: "badge" }, seat.level ? botLevelLabel(seat.level) : t("lobby.bot")));
    }
    if (seat && seat.kind === "human" && !seat.connected) {
      name.append(el("span", { class: "badge red" }, t("lobby.offline")));
    }
    item.append(name, countDots(count));
    const tags = el("div", { class: "ptags" });
    if (v.to_move === p && v.phase !== "over") {
      tags.append(el("span", { class: "badge gold" }, v.phase === "choose_visibility" ? t("game.choosing") : t("game.to_move")));
      if (S.deadline) tags.append(el("span", { class: "timer ptimer", dataset: { deadline: S.deadline } }));
    }
    if (v.bidder === p && v.standing_bid) tags.append(el("span", { class: "badge" }, t("game.bidder")));
    if ((v.passed || []).includes(p)) tags.append(el("span", { class: "badge blue" }, callWord("pass")));
    if (v.obliger === p && v.obliging) tags.append(el("span", { class: "badge blue" }, t("game.obliger")));
    if (seat && seat.autoplay) tags.append(el("span", { class: "badge red" }, t("lobby.autoplay")));
    if (count === 0) tags.append(el("span", { class: "badge" }, t("game.out")));
    item.append(tags);
    // Dice of this player the viewer can see: an open round, or dice set aside face up.
    if (p !== v.viewer && count > 0) {
      const seen = v.seen_dice?.[p];
      const dice = el("div", { class: "pdice dice" });
      if (seen && seen.length) {
        const aside = v.set_aside?.[p] || [];
        renderDice(dice, seen, { hiddenCount: Math.max(0, count - seen.length), size: "small" });
        markSetAside(dice, seen, aside);
      }
      item.append(dice);
    }
    list.append(item);
  }
  $("round-label").textContent = t("game.round", { n: v.round });
}

/** Mark the last dice of `shown` that are set aside (reveal-and-reroll). */
function markSetAside(container, shown, aside) {
  if (!aside || !aside.length) return;
  const dice = [...container.querySelectorAll(".die")];
  const start = shown.length - aside.length;
  for (let i = start; i < shown.length; i++) dice[i]?.classList.add("set-aside");
}

function renderStatus() {
  const v = S.view;
  const box = $("status");
  box.replaceChildren();
  const mine = myTurn();
  box.dataset.myTurn = String(mine);
  let text;
  if (v.phase === "over" || v.winner != null) text = t("status.over", { name: nameOf(v.winner) });
  else if (mine && v.phase === "choose_visibility") text = t("status.my_choice");
  else if (mine) text = t("status.my_turn");
  else if (v.phase === "choose_visibility") text = t("status.choosing", { name: nameOf(v.to_move) });
  else text = t("status.waiting", { name: nameOf(v.to_move) });
  box.append(el("span", { class: "grow", id: "status-text" }, text));
  if (S.deadline && v.phase !== "over") {
    box.append(el("span", { class: "timer", id: "timer", dataset: { deadline: S.deadline } }));
  }
  tick();
}

function renderStanding() {
  const v = S.view;
  const box = $("standing-bid");
  box.replaceChildren();
  if (v.standing_bid) {
    box.append(tNodes("game.standing_by", { bid: bidNode(v.standing_bid), name: nameOf(v.bidder) }));
    if (v.passer != null) box.append(el("span", { class: "badge blue" }, t("game.passed_by", { name: nameOf(v.passer) })));
  } else if (v.phase !== "over") {
    box.append(el("span", { class: "muted" }, t("game.no_bid", { name: nameOf(v.opener) })));
  }
  const history = $("history");
  history.replaceChildren(
    ...(v.round_actions || []).map(([p, action]) =>
      el("li", { dataset: { player: p, action } }, el("span", { class: "who" }, nameOf(p)), actionNode(action)),
    ),
  );
}

function renderMyDice() {
  const v = S.view;
  const card = $("my-dice-card");
  const note = $("my-dice-note");
  const count = v.viewer == null ? 0 : (v.dice_counts[v.viewer] ?? 0);
  // A spectator has no dice, nor has a player who is out once the game is over.
  if (v.viewer == null || (count === 0 && v.phase === "over")) {
    card.hidden = true;
    return;
  }
  card.hidden = false;
  const box = $("my-dice");
  const aside = v.set_aside?.[v.viewer] || [];
  note.hidden = true;
  if (count === 0 && v.phase !== "over") {
    box.replaceChildren();
    note.hidden = false;
    note.textContent = t("game.you_are_out");
    return;
  }
  if (v.my_dice == null) {
    renderDice(box, aside, { hiddenCount: Math.max(0, count - aside.length), size: "big" });
    markSetAside(box, aside, aside);
    if (v.phase === "bidding" && v.obliging) {
      note.hidden = false;
      note.textContent = v.visibility === "open" ? t("game.open_round_note") : t("game.closed_round_note");
    } else if (v.phase === "choose_visibility") {
      note.hidden = false;
      note.textContent = t("game.choose_note");
    }
    return;
  }
  const shown = [...v.my_dice, ...aside];
  renderDice(box, shown, { size: "big" });
  markSetAside(box, shown, aside);
}

function renderGameOver() {
  const v = S.view;
  const box = $("game-over");
  const over = v.winner != null || status() === "over";
  box.hidden = !over;
  if (!over) {
    box.removeAttribute("data-winner");
    return;
  }
  const winner = v.winner != null ? nameOf(v.winner) : "";
  box.dataset.winner = winner;
  $("winner-name").textContent = winner ? t("over.wins", { name: winner }) : "";
  $("replay-link").href = `/games/${S.game}`;
  $("record-link").href = recordDownload(S.game);
  renderRematch(S.table, S.seat, S.host, status() === "over");
  renderRatingChanges(S.table, S.seat);
}

export function renderGame() {
  renderPlayers();
  renderStatus();
  renderGameOver();
  renderStanding();
  renderMyDice();
  renderActions();
}

// ---------------------------------------------------------------------------- the clock

export function tick() {
  for (const node of document.querySelectorAll(".timer[data-deadline]")) {
    const left = Math.max(0, Number(node.dataset.deadline) - Date.now());
    const secs = Math.ceil(left / 1000);
    node.textContent = `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}`;
    node.classList.toggle("urgent", secs <= 10);
    node.setAttribute("aria-label", t("game.time_left", { n: secs }));
  }
}
