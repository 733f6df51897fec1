// watch.js — /watch: every public game in progress, live (lobbyfeed.js, drawn by live.js).
//
// Test hooks: #live-list, #live-empty (see live.js), #lobby-live (see lobbyfeed.js)

import "/static/pwa.js";
import { onLangChange } from "/static/i18n.js";
import { connect, onCards, showLive } from "/static/lobbyfeed.js";
import { renderLive } from "/static/live.js";
import { startPage } from "/static/ui.js";

function main() {
  onCards(() => renderLive());
  onLangChange(() => {
    showLive();
    renderLive();
  });
  renderLive();
  connect();
}

startPage(main);
