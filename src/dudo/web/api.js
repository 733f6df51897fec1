// api.js — fetch helpers for the dudo HTTP API (docs/protocol.md, "HTTP").
//
// A request without a seat token carries this browser's player key (Authorization: Player), so
// a table created or joined from here is the player's seat.
//
// api(path, {method, body, token}) resolves to the parsed JSON answer, or throws an
// ApiError carrying the HTTP status, the server's English `detail`, and the `code` and
// `params` that i18n.js wordError() words in the page's language.

/** Where a finished game's record downloads as a file, dudo-<id>.json (the server answers it
 * with Content-Disposition: attachment; the same path without ?download=1 answers inline). */
export function recordDownload(gameId) {
  return `/api/games/${encodeURIComponent(gameId)}/record?download=1`;
}

export class ApiError extends Error {
  constructor(status, detail, code = null, params = {}) {
    super(detail);
    this.name = "ApiError";
    this.status = status;
    this.detail = detail;
    this.code = code;
    this.params = params || {};
  }
}

/** The server's `detail` as one line of text (FastAPI's 422 gives a list of problems). */
export function detailText(detail) {
  if (detail == null) return "";
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) {
    return detail
      .map((d) => {
        if (d && typeof d === "object") {
          const where = Array.isArray(d.loc) ? d.loc.filter((x) => x !== "body").join(".") : "";
          return where ? `${where}: ${d.msg}` : String(d.msg ?? JSON.stringify(d));
        }
        return String(d);
      })
      .join("; ");
  }
  if (typeof detail === "object" && detail.message) return String(detail.message);
  return JSON.stringify(detail);
}

export async function api(path, { method = "GET", body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  else if (playerKey()) {
    headers.Authorization = `Player ${playerKey()}`; // seats become the player's
    const device = deviceId();
    if (device) headers["X-Dudo-Device"] = device; // the player's list of devices shows it
  }
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
  } catch (err) {
    throw new ApiError(0, `network error: ${err.message || err}`, "network");
  }
  let data = null;
  const text = await response.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = { detail: text.slice(0, 300) };
    }
  }
  if (!response.ok) {
    const detail = data && data.detail !== undefined ? detailText(data.detail) : response.statusText;
    const code = data && typeof data.code === "string" ? data.code : null;
    throw new ApiError(response.status, detail || `HTTP ${response.status}`, code, data?.params);
  }
  return data;
}

let markPlayerKnown;
const playerKnown = new Promise((resolve) => {
  markPlayerKnown = resolve;
});

/** player.js calls this once this browser's player is known (made, or checked with the server). */
export function playerIsKnown() {
  markPlayerKnown();
}

/** Resolves once this browser's player is known (or after `ms`, if it never is): a request
 * that seats this browser (Play now, a new table) must carry the player's key, or a rated
 * table would refuse it and a click right after the page loads would land elsewhere. */
export function untilPlayerKnown(ms = 5000) {
  return Promise.race([playerKnown, new Promise((resolve) => setTimeout(resolve, ms))]);
}

/** This browser's player key (player.js makes and keeps it), or null. */
export function playerKey() {
  try {
    return localStorage.getItem("dudo.player.key");
  } catch {
    return null;
  }
}

/** This browser's device id (random, made once; it names no one): the player's devices are
 * listed by it. Null without storage. */
export function deviceId() {
  try {
    let id = localStorage.getItem("dudo.device");
    if (!id) {
      const bytes = crypto.getRandomValues(new Uint8Array(12));
      id = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_");
      localStorage.setItem("dudo.device", id);
    }
    return id;
  } catch {
    return null;
  }
}

/** The seat token kept for a table code, or null. */
export function seatToken(code) {
  try {
    return localStorage.getItem(`dudo.seat.${code}`);
  } catch {
    return null;
  }
}

export function saveSeatToken(code, token) {
  try {
    localStorage.setItem(`dudo.seat.${code}`, token);
    // When this browser sat down there ("Your tables" on the first page shows it).
    localStorage.setItem(`dudo.seated.${code}`, new Date().toISOString());
    localStorage.removeItem(`dudo.gone.${code}`);
  } catch {
    /* private mode: the seat lasts this page only */
  }
}

export function forgetSeatToken(code) {
  try {
    localStorage.removeItem(`dudo.seat.${code}`);
    localStorage.removeItem(`dudo.seated.${code}`);
    localStorage.removeItem(`dudo.gone.${code}`);
  } catch {
    /* nothing to forget */
  }
}

/** When this browser took its seat at table ``code`` (a Date), or null if it does not know. */
export function seatedAt(code) {
  try {
    const text = localStorage.getItem(`dudo.seated.${code}`);
    const when = text ? new Date(text) : null;
    return when && !Number.isNaN(when.getTime()) ? when : null;
  } catch {
    return null;
  }
}

/** Whether the server said table ``code`` is gone: it is not asked again, since every unknown
 * code an address looks up counts against its limit (docs/limits.md, lookups_burst). */
export function tableGone(code) {
  try {
    return localStorage.getItem(`dudo.gone.${code}`) === "1";
  } catch {
    return false;
  }
}

export function markTableGone(code) {
  try {
    localStorage.setItem(`dudo.gone.${code}`, "1");
  } catch {
    /* no storage: the page asks again next time */
  }
}

/** Every table code this browser holds a seat token for. */
export function knownTables() {
  const codes = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key && key.startsWith("dudo.seat.")) codes.push(key.slice("dudo.seat.".length));
    }
  } catch {
    /* no storage */
  }
  return codes.sort();
}
