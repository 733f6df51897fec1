// glossary.js — the glossary (/learn/glossary): the words of the game, each with an anchor
// (#calzo; a few also under another name, #spot-on) that other pages link a word to.
//
// The entries are in the page itself, so a link's anchor exists before any script runs; the
// words are put in the page's language here, after which the entry asked for is scrolled to
// again (the words change the page's height) and marked.
//
// Test hooks: main#glossary-main data-state (loading | ready); .glossary-entry[id] dt, dd;
// .glossary-entry.target (the entry the address names).

import "/static/pwa.js";
import { onLangChange } from "/static/i18n.js";
import { startPage } from "/static/ui.js";

function showTarget() {
  for (const entry of document.querySelectorAll(".glossary-entry.target")) entry.classList.remove("target");
  const id = decodeURIComponent(location.hash.slice(1));
  const found = id ? document.getElementById(id) : null;
  const entry = found ? found.closest(".glossary-entry") : null;
  if (!entry) return;
  entry.classList.add("target");
  entry.scrollIntoView({ block: "start" });
}

async function main() {
  showTarget();
  window.addEventListener("hashchange", showTarget);
  onLangChange(showTarget);
  document.getElementById("glossary-main").dataset.state = "ready";
}

startPage(main);
