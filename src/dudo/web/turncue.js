// turncue.js — telling a player it is their turn when they look elsewhere: the tab's title and
// favicon, and (if they ask for it) a short sound and a vibration when their turn starts.
//
// The sound is made here with the Web Audio API (no sound files). Browsers let a page play
// sound only after a click on it, so the audio context is opened by the toggle's click
// (primeAudio) and resumed on later clicks. The choice is kept in localStorage "dudo.turn_cue".

const KEY = "dudo.turn_cue";
const ICON = "/static/favicon.svg";
const TURN_ICON = "/static/favicon-turn.svg";

let audio = null;

export function cueEnabled() {
  try {
    return localStorage.getItem(KEY) === "on";
  } catch {
    return false; // no storage: off, the default
  }
}

export function setCueEnabled(on) {
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch {
    /* no storage: the choice lasts for this page only */
  }
  if (on) primeAudio();
}

/** Open (or wake) the audio context; call it from a click so the browser allows sound. */
export function primeAudio() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  try {
    if (!audio) audio = new Context();
    if (audio.state === "suspended") audio.resume().catch(() => {});
  } catch {
    audio = null; // no sound on this browser; the title and favicon still tell
  }
}

/** Two short rising notes. */
function chime() {
  if (!audio || audio.state !== "running") return;
  const start = audio.currentTime + 0.01;
  [660, 880].forEach((pitch, i) => {
    const at = start + i * 0.16;
    const tone = audio.createOscillator();
    const volume = audio.createGain();
    tone.type = "sine";
    tone.frequency.value = pitch;
    // A quick fade in and out, so the notes do not click.
    volume.gain.setValueAtTime(0.0001, at);
    volume.gain.exponentialRampToValueAtTime(0.2, at + 0.02);
    volume.gain.exponentialRampToValueAtTime(0.0001, at + 0.14);
    tone.connect(volume).connect(audio.destination);
    tone.start(at);
    tone.stop(at + 0.15);
  });
}

/** The player's turn has just started: sound and vibration, if they asked for them. True
 * when the cue was given. */
export function turnCue() {
  if (!cueEnabled()) return false;
  try {
    chime();
  } catch {
    /* sound failed: the vibration and the title still tell */
  }
  if (typeof navigator.vibrate === "function") {
    try {
      navigator.vibrate([90, 60, 90]);
    } catch {
      /* not allowed here */
    }
  }
  return true;
}

/** Mark the tab (title and favicon) while it is this page's turn; `title` is the plain title
 * and `marked` the title with the turn marker, in the page's language. */
export function markTab(mine, title, marked) {
  const text = mine ? marked : title;
  if (document.title !== text) document.title = text;
  const icon = document.querySelector('link[rel="icon"]');
  const href = mine ? TURN_ICON : ICON;
  if (icon && icon.getAttribute("href") !== href) icon.setAttribute("href", href);
}
