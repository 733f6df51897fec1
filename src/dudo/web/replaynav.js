// replaynav.js — the replay's landmarks and its autoplay: where the calls and the rounds are
// among its frames, the jumps to them, and a timer that steps on at the chosen speed.
//
// A frame is a call when its events show the dice (Revealed: a call, a spot-on, a doubted
// pass); a frame starts a round when its events hold RoundStarted (frame 0 starts the first).
// In the record both happen in the same action, so a call's frame is also the next round's
// start (the last call ends the game instead).
//
// Test hooks (replay.js wires them):
//   main#replay-main  data-playing (true | false), data-calls / data-rounds (the frame numbers,
//                     comma-separated)
//   #replay-play      aria-pressed; #replay-play-word says Play or Pause
//   #replay-speed     0.5 | 1 | 2 (kept in localStorage "dudo.replaySpeed")
//   #replay-prev-call, #replay-next-call, #replay-prev-round, #replay-next-round

import { t } from "/static/i18n.js";

/** Milliseconds between two steps at 1× (a step a second reads comfortably). */
export const STEP_MS = 1000;
const SPEED_KEY = "dudo.replaySpeed";
export const SPEEDS = ["0.5", "1", "2"];

/** The frames that are calls and those that start a round, in order. */
export function landmarks(frames) {
  const calls = [];
  const rounds = [];
  frames.forEach((frame, index) => {
    const types = (frame.events || []).map((e) => e.type);
    if (types.includes("Revealed")) calls.push(index);
    if (types.includes("RoundStarted")) rounds.push(index);
  });
  return { calls, rounds };
}

/** The first mark after ``step`` (null: none). */
export function nextMark(marks, step) {
  return marks.find((m) => m > step) ?? null;
}

/** The last mark before ``step`` (null: none). */
export function prevMark(marks, step) {
  let found = null;
  for (const m of marks) if (m < step) found = m;
  return found;
}

export function savedSpeed() {
  let value = null;
  try {
    value = localStorage.getItem(SPEED_KEY);
  } catch {
    value = null; // storage refused (private mode): the default speed
  }
  return SPEEDS.includes(value) ? value : "1";
}

export function saveSpeed(value) {
  try {
    localStorage.setItem(SPEED_KEY, value);
  } catch {
    // storage refused: the speed holds for this visit only
  }
}

/**
 * The autoplay: ``advance()`` steps once and says whether there is a step after it;
 * ``changed(playing)`` is told when it starts or stops. One timer at a time, re-armed after
 * each step so a change of speed takes effect at the next step.
 */
export class Autoplay {
  constructor(advance, changed) {
    this.advance = advance;
    this.changed = changed;
    this.timer = null;
    this.speed = Number(savedSpeed());
  }

  get playing() {
    return this.timer !== null;
  }

  setSpeed(value) {
    this.speed = Number(value) || 1;
    saveSpeed(String(value));
  }

  arm() {
    this.timer = setTimeout(() => {
      if (this.advance()) this.arm();
      else this.stop();
    }, STEP_MS / this.speed);
  }

  start() {
    if (this.playing) return;
    this.arm();
    this.changed(true);
  }

  stop() {
    if (this.timer !== null) clearTimeout(this.timer);
    const was = this.playing;
    this.timer = null;
    if (was) this.changed(false);
  }

  toggle() {
    if (this.playing) this.stop();
    else this.start();
  }
}

/** The play button's word, state and name for the autoplay's state. */
export function showPlaying(button, word, main, playing) {
  main.dataset.playing = String(playing);
  button.setAttribute("aria-pressed", String(playing));
  word.textContent = t(playing ? "replay.pause" : "replay.play");
  word.dataset.i18n = playing ? "replay.pause" : "replay.play";
  button.dataset.i18nAriaLabel = playing ? "replay.pause_aria" : "replay.play_aria";
  button.setAttribute("aria-label", t(button.dataset.i18nAriaLabel));
  button.querySelector(".play-icon").textContent = playing ? "❚❚" : "▶";
}
