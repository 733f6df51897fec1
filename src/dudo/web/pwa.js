// pwa.js — registers the service worker (/sw.js) so the site can be installed and the dice
// cup works offline after one visit. Imported by every page's module; failing to register
// (an old browser, a private window, plain http on another host) only loses the offline cup.

if ("serviceWorker" in navigator) {
  // The worker is served from the site root so that its scope covers /cup and /static/.
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((err) => {
    console.warn("service worker:", err);
  });
}
