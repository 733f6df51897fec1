// realcup.js — the phone as a cup at a real table: its dice under a closed cup, lifted only
// while pressed and held (a pointer or a finger; Space held on the keyboard) so a neighbour
// cannot glance; the shake, by its button always, and by moving the phone where the browser
// allows it (DeviceMotionEvent, in a secure context; iOS asks the person first, from a tap:
// #real-motion); and the shake's rattle (Web Audio, made here: no sound files) and vibration,
// each with an off switch kept in localStorage ("dudo.real.sound", "dudo.real.vibrate": "on" |
// "off", on by default). What the cup holds and whether it may be lifted is the page's to say
// (realplay.js, from the view and table.real); this module only draws and listens.
//
// Test hooks:
//   #real-cup         data-lifted ("true" while held open), data-shaken, data-can-lift,
//                     data-count (dice in the cup), data-shakes (how many shakes it played)
//   #real-cup-dice    the dice, drawn only while lifted: .die[data-face] (face-down "?" when
//                     this round hides them from their owner: an open or closed obliging round)
//   #real-cup-cover   the closed cup (#real-cup-count, #real-cup-label)
//   #real-shake, #real-motion, #real-sound, #real-vibrate (checkboxes)

import { dieEl } from "/static/dice.js";
import { t } from "/static/i18n.js";

const $ = (id) => document.getElementById(id);
const SOUND = "dudo.real.sound";
const VIBRATE = "dudo.real.vibrate";
// A shake: three jolts beyond THRESHOLD (m/s², gravity left out) within WINDOW_MS.
const THRESHOLD = 13;
const JOLTS = 3;
const WINDOW_MS = 900;
// Two shakes closer than this are one (a double tap, a long shake).
const SHAKE_GAP_MS = 700;

const C = {
  onShake: () => {},
  cup: { count: 0, faces: null, canLift: false, shaken: false, mustShake: false, note: "" },
  lifted: false,
  shakes: 0,
  lastShake: 0,
  jolts: [],
  motion: "off", // off | ask (iOS: a tap must allow it) | on | denied | none
  audio: null,
  noise: null,
};

// ---------------------------------------------------------------------------- switches

export function switchOn(key) {
  try {
    return localStorage.getItem(key) !== "off";
  } catch {
    return true;
  }
}

function setSwitch(key, on) {
  try {
    localStorage.setItem(key, on ? "on" : "off");
  } catch {
    /* no storage: the choice lasts while the page is open */
  }
}

// ---------------------------------------------------------------------------- sound

/** Open (or wake) the audio context: from a tap, as browsers allow sound only after one. */
function wakeAudio() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context || !switchOn(SOUND)) return null;
  try {
    if (!C.audio) C.audio = new Context();
    if (C.audio.state === "suspended") C.audio.resume().catch(() => {});
  } catch {
    C.audio = null;
  }
  return C.audio;
}

/** A short burst of noise that dies away fast: one die hitting the cup. */
function clickBuffer(ctx) {
  if (C.noise) return C.noise;
  const length = Math.floor(ctx.sampleRate * 0.045);
  const buffer = ctx.createBuffer(1, length, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < length; i++) data[i] = (Math.random() * 2 - 1) * Math.exp(-i / (length / 7));
  C.noise = buffer;
  return buffer;
}

/** The rattle of dice in a cup: a dozen clicks at random pitches over half a second. */
function rattle() {
  const ctx = switchOn(SOUND) ? wakeAudio() : null;
  if (!ctx || ctx.state !== "running") return;
  const buffer = clickBuffer(ctx);
  const start = ctx.currentTime + 0.01;
  for (let i = 0; i < 12; i++) {
    const source = ctx.createBufferSource();
    source.buffer = buffer;
    source.playbackRate.value = 0.7 + Math.random() * 0.8;
    const filter = ctx.createBiquadFilter();
    filter.type = "bandpass";
    filter.frequency.value = 1400 + Math.random() * 2600;
    filter.Q.value = 2.5;
    const volume = ctx.createGain();
    volume.gain.value = 0.35 + Math.random() * 0.35;
    source.connect(filter).connect(volume).connect(ctx.destination);
    source.start(start + i * 0.045 + Math.random() * 0.025);
  }
}

function buzz() {
  if (!switchOn(VIBRATE) || typeof navigator.vibrate !== "function") return;
  try {
    navigator.vibrate([35, 30, 35, 30, 60]);
  } catch {
    /* not allowed here */
  }
}

// ---------------------------------------------------------------------------- the shake

/** The cup shakes (its button, or the phone moved): drawn, heard and felt, then told. */
function shake(how) {
  const now = Date.now();
  if (now - C.lastShake < SHAKE_GAP_MS) return;
  C.lastShake = now;
  C.shakes += 1;
  const cup = $("real-cup");
  cup.dataset.shakes = String(C.shakes);
  cup.classList.remove("shaking");
  void cup.offsetWidth; // restart the animation
  cup.classList.add("shaking");
  rattle();
  buzz();
  C.onShake(how);
}

function onMotion(event) {
  // Only while the cup asks for it: a phone carried about must not roll by itself.
  if (!C.cup.mustShake) return;
  const a = event.acceleration;
  let strength;
  if (a && a.x != null) strength = Math.hypot(a.x || 0, a.y || 0, a.z || 0);
  else {
    const g = event.accelerationIncludingGravity;
    if (!g || g.x == null) return;
    strength = Math.abs(Math.hypot(g.x || 0, g.y || 0, g.z || 0) - 9.81);
  }
  if (strength < THRESHOLD) return;
  const now = Date.now();
  C.jolts = [...C.jolts.filter((at) => now - at < WINDOW_MS), now];
  if (C.jolts.length >= JOLTS) {
    C.jolts = [];
    shake("motion");
  }
}

function listenToMotion() {
  if (C.motion === "on") return;
  window.addEventListener("devicemotion", onMotion);
  C.motion = "on";
}

/** Listen to the phone's motion where it can be heard: the sensors need a secure page (https,
 * or this computer itself), and iOS a tap that allows them (#real-motion). */
function startMotion() {
  if (typeof DeviceMotionEvent === "undefined" || !window.isSecureContext) {
    C.motion = "none";
  } else if (typeof DeviceMotionEvent.requestPermission === "function") {
    // Offered on touch screens only: a computer has no motion to give.
    C.motion = matchMedia("(any-pointer: coarse)").matches ? "ask" : "none";
  } else {
    listenToMotion();
  }
}

async function askForMotion() {
  try {
    const answer = await DeviceMotionEvent.requestPermission();
    if (answer === "granted") listenToMotion();
    else C.motion = "denied";
  } catch {
    C.motion = "denied";
  }
  drawCup();
}

// ---------------------------------------------------------------------------- lifting

function lift(open) {
  const next = open && C.cup.canLift;
  if (next === C.lifted) return;
  C.lifted = next;
  drawCup();
}

function bindHold(cup) {
  if (window.PointerEvent) {
    cup.addEventListener("pointerdown", (e) => {
      if (e.button > 0) return;
      lift(true);
      try {
        cup.setPointerCapture(e.pointerId); // the finger may slide: the cup stays up till it lifts
      } catch {
        /* a pointer the browser no longer tracks: it was released already */
      }
    });
    for (const kind of ["pointerup", "pointercancel", "lostpointercapture"]) cup.addEventListener(kind, () => lift(false));
  } else {
    cup.addEventListener("touchstart", () => lift(true), { passive: true });
    for (const kind of ["touchend", "touchcancel"]) cup.addEventListener(kind, () => lift(false));
  }
  // A long press opens no menu over the dice.
  cup.addEventListener("contextmenu", (e) => e.preventDefault());
  cup.addEventListener("keydown", (e) => {
    if ((e.key === " " || e.key === "Enter") && !e.repeat) {
      e.preventDefault();
      lift(true);
    }
  });
  cup.addEventListener("keyup", (e) => {
    if (e.key === " " || e.key === "Enter") lift(false);
  });
  cup.addEventListener("blur", () => lift(false));
  // Space held anywhere the keys do nothing else lifts it too.
  document.addEventListener("keydown", (e) => {
    if (e.key === " " && !e.repeat && document.activeElement === document.body && !$("real-panel").hidden) {
      e.preventDefault();
      lift(true);
    }
  });
  document.addEventListener("keyup", (e) => e.key === " " && document.activeElement === document.body && lift(false));
  document.addEventListener("visibilitychange", () => document.hidden && lift(false));
}

// ---------------------------------------------------------------------------- drawing

function drawDice(box) {
  const { faces, count } = C.cup;
  box.replaceChildren();
  if (!C.lifted) return; // covered: nothing under the cup to glance at, nor to read aloud
  const shown = faces || [];
  for (const face of shown) box.append(dieEl(face, { size: "big" }));
  for (let i = shown.length; i < count; i++) box.append(dieEl(null, { size: "big" }));
}

function drawCup() {
  const { count, canLift, shaken, note } = C.cup;
  if (!canLift) C.lifted = false;
  const cup = $("real-cup");
  cup.dataset.lifted = String(C.lifted);
  cup.dataset.shaken = String(shaken);
  cup.dataset.canLift = String(canLift);
  cup.dataset.count = String(count);
  cup.setAttribute("aria-pressed", String(C.lifted));
  drawDice($("real-cup-dice"));
  $("real-cup-cover").hidden = C.lifted;
  $("real-cup-count").textContent = t("game.dice_count", { count });
  const label = canLift ? t("real.cup_hold") : t("real.cup_shake_first");
  $("real-cup-label").textContent = label;
  cup.setAttribute("aria-label", C.lifted ? t("real.cup_lifted", { count }) : `${t("real.cup_closed", { count })} ${label}`);
  $("real-cup-help").textContent = note;
  $("real-cup-help").hidden = !note;
  $("real-motion").hidden = C.motion !== "ask" || !C.cup.mustShake; // asked when it is of use
  // The shake asked for stands out; once shaken it may still rattle, quietly.
  $("real-shake").classList.toggle("primary", C.cup.mustShake);
  $("real-sound").checked = switchOn(SOUND);
  $("real-vibrate").checked = switchOn(VIBRATE);
}

/** Draw the cup: `count` dice, their `faces` (null: hidden from me this round), whether it may
 * be lifted (`canLift`: shaken this round), `mustShake` (the round waits for it) and a `note`. */
export function renderCup(cup) {
  C.cup = cup;
  drawCup();
}

/** Wire the cup once; `onShake(how)` hears every shake ("button" | "motion"). */
export function bindCup({ onShake }) {
  C.onShake = onShake;
  const cup = $("real-cup");
  bindHold(cup);
  cup.addEventListener("animationend", () => cup.classList.remove("shaking"));
  $("real-shake").addEventListener("click", () => {
    wakeAudio();
    shake("button");
  });
  $("real-motion").addEventListener("click", askForMotion);
  $("real-sound").addEventListener("change", (e) => {
    setSwitch(SOUND, e.target.checked);
    if (e.target.checked) wakeAudio();
  });
  $("real-vibrate").addEventListener("change", (e) => setSwitch(VIBRATE, e.target.checked));
  // Browsers allow sound only after a tap on the page: any tap wakes it.
  document.addEventListener("pointerdown", () => !$("real-panel").hidden && wakeAudio(), { passive: true });
  startMotion();
}
