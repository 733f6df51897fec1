// sw.js — the service worker (served at /sw.js so that its scope is the whole site).
//
// It makes the dice cup (/cup) work offline after one visit, and the installed app open on it
// when offline:
//   - on install it stores what the cup page needs: the page, its CSS, its JS modules, the
//     UI strings and the icons;
//   - the cup page and those files are fetched from the network first, and from the store only
//     when the network fails, so an online phone always gets the current release;
//   - the app's start page (/, the manifest's start_url) comes from the network; when that
//     fails, the worker sends the browser to /cup?offline=start (stored, and it says why it
//     opened): an installed app started offline shows a page that works, not the browser's
//     error page, and never a stored copy of a home page whose tables need the server;
//   - every other page, the API (/api/) and the table sockets (/ws/) go straight to the network
//     and are never stored: seat tokens and game state must never be served stale.
//
// The server replaces the version below with a hash of the web client's files, so a release
// that changes any of them installs a new worker, which refills a new store and drops the old.

const VERSION = "__DUDO_WEB_VERSION__";
const CACHE = `dudo-cup-${VERSION}`;
const PREFIX = "dudo-cup-";

// What /cup loads: cup.js and the modules it imports (api, i18n, dice, ui, pwa), the top bar's
// player.js, the UI strings of every language (the language can change offline), the icons and
// the manifest.
const PRECACHE = [
  "/cup",
  "/static/app.css",
  "/static/cup.js",
  "/static/pwa.js",
  "/static/api.js",
  "/static/player.js",
  "/static/i18n.js",
  "/static/dice.js",
  "/static/ui.js",
  "/static/i18n/en.json",
  "/static/i18n/es.json",
  "/static/i18n/it.json",
  "/static/favicon.svg",
  "/static/apple-touch-icon.png",
  "/static/icon-192.png",
  "/static/icon-512.png",
  "/static/icon-maskable-512.png",
  "/manifest.webmanifest",
];
const STORED = new Set(PRECACHE);
// The manifest's start_url, and where it leads offline.
const START = "/";
const OFFLINE_START = "/cup?offline=start";

self.addEventListener("install", (event) => {
  // cache: "reload" skips the browser's HTTP cache, so the store holds this release's files.
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(PRECACHE.map((url) => new Request(url, { cache: "reload" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  // Drop the stores of older releases, then take charge of the pages already open.
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys.filter((key) => key.startsWith(PREFIX) && key !== CACHE).map((key) => caches.delete(key)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin === self.location.origin && url.pathname === START && request.mode === "navigate") {
    event.respondWith(startPage(request));
    return;
  }
  // Not handled (the browser goes to the network as if there were no worker): other origins,
  // /api/ and /ws/, and every page or file the cup does not need.
  if (url.origin !== self.location.origin || !STORED.has(url.pathname)) return;
  event.respondWith(networkFirst(request, url.pathname));
});

async function networkFirst(request, path) {
  try {
    const response = await fetch(request);
    if (response.ok) {
      // Keep the newest copy under the bare path (a query string must not make a new entry).
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(path, copy));
    }
    return response;
  } catch (err) {
    const stored = await caches.match(path, { cacheName: CACHE });
    if (stored) return stored;
    throw err;
  }
}

/** The start page from the network; without one, a redirect to the cup, which works offline. */
async function startPage(request) {
  try {
    return await fetch(request);
  } catch {
    return Response.redirect(new URL(OFFLINE_START, self.location.origin).href, 302);
  }
}
