// replay.js — step-by-step replay of a finished game (GET /games/<id>), every die shown.
// Data: GET /api/games/<id>/replay → {record, start: {events, state}, steps: [{player,
// action, events, state}], chat_hidden, chat: [message]}; `state` is the spectator view plus `hands` (every player's dice);
// the chat comes only to those who played the game (the player key api.js sends), else chat_hidden.
//
// Test hooks:
//   main#replay-main  data-state (loading | ready | missing), data-step (0 = the start),
//                     data-steps (number of actions)
//   #replay-step      "Round r · step k/n" (data-step, data-steps, data-round)
//   #replay-slider    range 0..n
//   #replay-first, #replay-prev, #replay-next, #replay-last; keys ←/→, Home/End
//   #replay-play (space), #replay-speed, the jumps to calls and rounds: see replaynav.js
//   #replay-action    who did what (data-player, data-action)
//   #replay-events    li[data-type] narrated events of this step (a Revealed event shows
//                     every hand, dice that counted marked .counted)
//   #replay-hands     li[data-player][data-to-move] with .rname, .rcount (data-count) and
//                     .dice > .die[data-face]
//   #replay-round, #replay-standing, #lang-select, #toast
//   #replay-chat      the game's chat up to this step: see replaychat.js
//   The step is kept in the URL hash (#step=12).
//   #replay-fair: the fair-dice check (fair.js).
//   #replay-download  the record as a file (shown once the game is found)

import "/static/pwa.js";
import { api, ApiError, recordDownload } from "/static/api.js";
import { actionNode, bidNode, dieEl, renderDice } from "/static/dice.js";
import { checkFairCard, renderFairCard } from "/static/fair.js";
import { actionText, onLangChange, parseBid, t, wordError } from "/static/i18n.js";
import { countsForReveal, narrateEvent } from "/static/narrate.js";
import { renderReplayChat } from "/static/replaychat.js";
import { Autoplay, landmarks, nextMark, prevMark, savedSpeed, showPlaying } from "/static/replaynav.js";
import { presetName } from "/static/rules.js";
import { el, startPage } from "/static/ui.js";

const $ = (id) => document.getElementById(id);
const gameId = decodeURIComponent(location.pathname.split("/")[2] || "");

let data = null;
let names = [];
let deleted = []; // players who deleted their account: the record keeps no name of theirs
let step = 0;
let marks = { calls: [], rounds: [] };
let autoplay = null;

function nameOf(p) {
  if (p != null && deleted.includes(p)) return t("player.deleted");
  return p == null ? "?" : names[p] ?? `#${p + 1}`;
}

function frames() {
  // Frame 0 is the start of the game; frame k is after the k-th action.
  return [
    { player: null, action: null, events: data.start?.events || [], state: data.start?.state || data.start || {} },
    ...(data.steps || []),
  ];
}

function handsOf(state) {
  if (Array.isArray(state.hands)) return state.hands;
  if (Array.isArray(state.seen_dice)) return state.seen_dice.map((h) => h || []);
  return [];
}

function countsOf(state, hands) {
  if (Array.isArray(state.dice_counts)) return state.dice_counts;
  if (Array.isArray(state.counts)) return state.counts;
  return hands.map((h) => h.length);
}

function revealBlock(e) {
  const list = el("ul", { class: "replay-hands" });
  (e.hands || []).forEach((hand, p) => {
    if (!hand || !hand.length) return;
    const dice = el("div", { class: "dice" });
    for (const [index, face] of hand.entries()) {
      const counted = e.bid ? countsForReveal(e, p, index) : p === e.passer;
      const die = dieEl(face, { counted, size: "small" });
      if (e.bid && !counted) die.classList.add("dim");
      dice.append(die);
    }
    list.append(el("li", { dataset: { player: p } }, el("span", { class: "rname" }, nameOf(p)), dice));
  });
  return list;
}

function render() {
  const all = frames();
  const last = all.length - 1;
  step = Math.max(0, Math.min(step, last));
  const frame = all[step];
  const state = frame.state || {};
  const main = $("replay-main");
  main.dataset.step = String(step);
  main.dataset.steps = String(last);

  const label = $("replay-step");
  label.dataset.step = String(step);
  label.dataset.steps = String(last);
  label.dataset.round = String(state.round ?? 1);
  label.textContent = t("replay.position", { round: state.round ?? 1, k: step, n: last });
  $("replay-slider").max = String(last);
  $("replay-slider").value = String(step);
  $("replay-first").disabled = $("replay-prev").disabled = step === 0;
  $("replay-next").disabled = $("replay-last").disabled = step === last;
  $("replay-prev-call").disabled = prevMark(marks.calls, step) === null;
  $("replay-next-call").disabled = nextMark(marks.calls, step) === null;
  $("replay-prev-round").disabled = prevMark(marks.rounds, step) === null;
  $("replay-next-round").disabled = nextMark(marks.rounds, step) === null;

  const action = $("replay-action");
  action.replaceChildren();
  if (frame.action == null) {
    action.removeAttribute("data-player");
    action.removeAttribute("data-action");
    action.append(t("replay.game_starts"));
  } else {
    action.dataset.player = String(frame.player);
    action.dataset.action = frame.action;
    const b = parseBid(frame.action);
    action.append(
      el("span", {}, `${nameOf(frame.player)}:`),
      actionNode(frame.action),
    );
    if (b && b.reveal) action.append(el("span", { class: "muted" }, actionText(frame.action)));
  }

  const events = $("replay-events");
  events.replaceChildren(
    ...(frame.events || []).map((e) => {
      const item = el("li", { dataset: { type: e.type, seq: e.seq } }, narrateEvent(e, nameOf));
      if (e.type === "Revealed") item.append(revealBlock(e));
      return item;
    }),
  );

  const hands = handsOf(state);
  const counts = countsOf(state, hands);
  $("replay-round").textContent = state.round != null ? t("game.round", { n: state.round }) : "";
  const standing = $("replay-standing");
  standing.replaceChildren();
  if (state.standing_bid) {
    standing.append(bidNode(state.standing_bid), el("span", { class: "muted" }, nameOf(state.bidder)));
  }
  if (state.obliging) {
    standing.append(
      el("span", { class: "badge blue" }, t("game.obliging_banner", {
        name: nameOf(state.obliger),
        mode: t(`vis.${state.visibility ?? "choose"}`),
      })),
    );
  }
  const order = Array.isArray(state.order) && state.order.length ? state.order : names.map((_, i) => i);
  const list = $("replay-hands");
  list.replaceChildren();
  for (const p of order) {
    const hand = hands[p] || [];
    const count = counts[p] ?? hand.length;
    const dice = renderDice(el("div", { class: "dice" }), hand, { size: "small" });
    const winner = state.winner === p;
    list.append(
      el(
        "li",
        { dataset: { player: p, toMove: String(state.to_move === p) } },
        el(
          "span",
          { class: "rname" },
          nameOf(p),
          " ",
          el("span", { class: "rcount badge", dataset: { count } }, t("game.dice_count", { count })),
          winner ? el("span", { class: "badge gold" }, t("replay.winner")) : null,
        ),
        count ? dice : el("span", { class: "muted" }, t("game.out")),
      ),
    );
  }
  renderReplayChat(data.chat, step, last, data.chat_hidden === true);
  if (location.hash !== `#step=${step}`) history.replaceState(null, "", `#step=${step}`);
}

function go(to) {
  step = to;
  render();
}

function jump(to) {
  if (to !== null) go(to);
}

/** The autoplay's controls: the play button (space), the speed, and the end that stops it. */
function wireAutoplay(last) {
  const main = $("replay-main");
  autoplay = new Autoplay(
    () => {
      go(step + 1);
      return step < last();
    },
    (playing) => {
      showPlaying($("replay-play"), $("replay-play-word"), main, playing);
      // Read out each step while playing would talk over itself: the position is read when
      // the replay stops.
      $("replay-step").setAttribute("aria-live", playing ? "off" : "polite");
    },
  );
  showPlaying($("replay-play"), $("replay-play-word"), main, false);
  $("replay-speed").value = savedSpeed();
  $("replay-speed").addEventListener("change", (e) => autoplay.setSpeed(e.target.value));
  $("replay-play").addEventListener("click", () => {
    if (!autoplay.playing && step >= last()) go(0); // played to the end: from the start again
    autoplay.toggle();
  });
}

async function main() {
  try {
    data = await api(`/api/games/${encodeURIComponent(gameId)}/replay`);
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 422)) {
      $("replay-main").dataset.state = "missing";
      $("replay-info").replaceChildren(
        el("span", { class: "error-text" }, wordError(err)),
        " ",
        el("a", { href: "/games" }, t("replay.back")),
      );
      return;
    }
    throw err;
  }
  names = (data.record?.players || []).map((p, i) => (p.name || "").trim() || `#${i + 1}`);
  deleted = data.record?.meta?.deleted || [];
  const rec = data.record || {};
  $("replay-title").textContent = t("replay.title_game", { id: gameId });
  $("replay-download").href = recordDownload(gameId);
  $("replay-download").hidden = false;
  const winner = rec.result?.winner;
  $("replay-info").textContent = [
    names.join(" · "),
    presetName(rec.preset),
    winner != null ? t("games.winner", { name: nameOf(winner) }) : "",
    rec.result?.rounds != null ? t("games.rounds", { count: rec.result.rounds }) : "",
    (rec.meta?.stood_in || []).length
      ? t("games.stood_in", { names: rec.meta.stood_in.map((p) => nameOf(p)).join(", ") })
      : "",
  ]
    .filter(Boolean)
    .join(" — ");
  const m = /step=(\d+)/.exec(location.hash);
  step = m ? Number(m[1]) : 0;
  marks = landmarks(frames());
  $("replay-main").dataset.calls = marks.calls.join(",");
  $("replay-main").dataset.rounds = marks.rounds.join(",");
  $("replay-main").dataset.state = "ready";
  render();
  const lastCard = $("replay-main").lastElementChild;
  checkFairCard(rec, lastCard, nameOf);

  const last = () => frames().length - 1;
  $("replay-first").addEventListener("click", () => go(0));
  $("replay-prev").addEventListener("click", () => go(step - 1));
  $("replay-next").addEventListener("click", () => go(step + 1));
  $("replay-last").addEventListener("click", () => go(last()));
  $("replay-prev-call").addEventListener("click", () => jump(prevMark(marks.calls, step)));
  $("replay-next-call").addEventListener("click", () => jump(nextMark(marks.calls, step)));
  $("replay-prev-round").addEventListener("click", () => jump(prevMark(marks.rounds, step)));
  $("replay-next-round").addEventListener("click", () => jump(nextMark(marks.rounds, step)));
  $("replay-slider").addEventListener("input", (e) => go(Number(e.target.value)));
  wireAutoplay(last);
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement) return; // the slider steps by itself
    if (e.target instanceof HTMLSelectElement) return;
    if (e.key === " " && !(e.target instanceof HTMLButtonElement)) $("replay-play").click();
    else if (e.key === "ArrowRight") go(step + 1);
    else if (e.key === "ArrowLeft") go(step - 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(last());
    else return;
    e.preventDefault();
  });
  window.addEventListener("hashchange", () => {
    const m2 = /step=(\d+)/.exec(location.hash);
    if (m2 && Number(m2[1]) !== step) go(Number(m2[1]));
  });
  onLangChange(() => {
    render();
    showPlaying($("replay-play"), $("replay-play-word"), $("replay-main"), autoplay.playing);
    renderFairCard(rec, lastCard, nameOf);
  });
}

startPage(main);
