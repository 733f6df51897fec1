// fair.js — provably fair dice in the browser (scheme "dudo-fair-1", docs/protocol.md).
//
// At a table: a seated person's page sends its own random client seed (Web Crypto
// getRandomValues, hex) once it has seen the next game's commitment, and again after a
// reconnection if the table does not list its seat among those that sent one; a line in the
// lobby card shows the commitment, and the game's link to its check once the secret is out.
// In a replay: the commitment, the seeds and the revealed secret, and every chance outcome of
// the record recomputed here (SubtleCrypto SHA-256 and HMAC-SHA256), not taken on trust.
//
// Test hooks: #fair-line (table page; data-state next | game | over);
//   #replay-fair (replay page) data-state checking | verified | differs | none | unsupported,
//   #fair-commitment, #fair-seeds > li, #fair-secret, #fair-result, #fair-differences > li
//   [data-index].

import { t } from "/static/i18n.js";
import { el } from "/static/ui.js";

const SCHEME = "dudo-fair-1";
const $ = (id) => document.getElementById(id);

// ------------------------------------------------------------------------ at a table

let mine = { commitment: null, seed: null, sentAt: 0 };

function randomHex(bytes) {
  const values = crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(values, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Send this seat's client seed for the next game if the table still lacks it. */
export function sendClientSeed(table, seat, send) {
  const next = table?.fair?.next;
  if (!next || seat == null || table.seats?.[seat]?.kind !== "human") return;
  if (next.seeded.includes(seat)) return;
  if (mine.commitment !== next.commitment) {
    mine = { commitment: next.commitment, seed: randomHex(16), sentAt: 0 };
  }
  // Not again while the answer to the last one may still be on its way.
  if (Date.now() - mine.sentAt < 3000) return;
  if (send({ type: "seed", seed: mine.seed })) mine.sentAt = Date.now();
}

/** After a reconnection the seed is sent again at once if the table lost it. */
export function fairReconnected() {
  mine.sentAt = 0;
}

function short(hex) {
  return `${hex.slice(0, 12)}…`;
}

/** The fair-dice line of the lobby card. */
export function renderFairLine(table) {
  const card = $("lobby");
  if (!card) return;
  let line = $("fair-line");
  if (!line) {
    line = el("p", { id: "fair-line", class: "muted small fair-line" });
    card.append(line);
  }
  const fair = table?.fair;
  const game = fair?.game;
  line.replaceChildren();
  if (game && game.secret && table.status === "over") {
    line.dataset.state = "over";
    line.append(
      t("fair.line_over"),
      " ",
      el("a", { href: `/games/${encodeURIComponent(game.game)}` }, t("fair.check")),
    );
  } else if (game && table.status === "playing") {
    line.dataset.state = "game";
    line.title = game.commitment;
    line.append(t("fair.line_game", { commitment: short(game.commitment) }));
  } else if (fair?.next) {
    line.dataset.state = "next";
    line.title = fair.next.commitment;
    line.append(t("fair.line_next", { commitment: short(fair.next.commitment) }));
  }
  line.hidden = !line.childNodes.length;
}

// ------------------------------------------------------------------------ the scheme

function hexBytes(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function bytesHex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The scheme's byte stream: HMAC-SHA256(secret, "dudo-fair-1|" + seeds + "|" + counter). */
class FairStream {
  constructor(key, seeds) {
    this.key = key;
    this.prefix = `${SCHEME}|${seeds.join(",")}|`;
    this.counter = 0;
    this.block = new Uint8Array(0);
    this.at = 0;
  }

  async byte() {
    if (this.at >= this.block.length) {
      const message = new TextEncoder().encode(this.prefix + String(this.counter));
      this.block = new Uint8Array(await crypto.subtle.sign("HMAC", this.key, message));
      this.counter += 1;
      this.at = 0;
    }
    const b = this.block[this.at];
    this.at += 1;
    return b;
  }

  /** 0..n-1, each equally likely: a byte in the uneven tail is skipped. */
  async below(n) {
    const limit = 256 - (256 % n);
    for (;;) {
      const b = await this.byte();
      if (b < limit) return b % n;
    }
  }

  async roll(count, faces) {
    const out = [];
    for (let i = 0; i < count; i += 1) out.push((await this.below(faces)) + 1);
    return out;
  }

  async order(players) {
    const seats = Array.from({ length: players }, (_, i) => i);
    for (let i = players - 1; i > 0; i -= 1) {
      const j = await this.below(i + 1);
      [seats[i], seats[j]] = [seats[j], seats[i]];
    }
    return seats;
  }
}

/** Check a record's dice: {state, count, differences: [{index, kind, expected, found}]}. */
export async function verifyRecord(record) {
  const fair = record?.meta?.fair;
  if (!fair || fair.scheme !== SCHEME || !/^[0-9a-f]{64}$/.test(fair.secret || "")) {
    return { state: "none", count: 0, differences: [] };
  }
  if (!globalThis.crypto?.subtle) return { state: "unsupported", count: 0, differences: [] };
  const secret = hexBytes(fair.secret);
  const differences = [];
  const digest = bytesHex(await crypto.subtle.digest("SHA-256", secret));
  if (digest !== fair.commitment) {
    differences.push({ index: null, kind: "commitment", expected: fair.commitment, found: digest });
  }
  const key = await crypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const stream = new FairStream(key, fair.seeds || []);
  const faces = record.rules?.faces ?? 6;
  const chance = record.chance || [];
  for (const [index, entry] of chance.entries()) {
    const kind = entry.order ? "order" : "roll";
    const found = entry.order || entry.roll || [];
    const expected = kind === "order" ? await stream.order(found.length) : await stream.roll(found.length, faces);
    if (expected.join(" ") !== found.join(" ")) {
      differences.push({ index, kind, expected: expected.join(" "), found: found.join(" ") });
    }
  }
  return { state: differences.length ? "differs" : "verified", count: chance.length, differences };
}

// ------------------------------------------------------------------------ in a replay

function differenceText(d) {
  if (d.kind === "commitment") return t("fair.bad_commitment");
  const key = d.kind === "order" ? "fair.bad_order" : "fair.bad_roll";
  return t(key, { n: d.index + 1, expected: d.expected, found: d.found });
}

/** The replay's fair-dice card, after `after`; re-rendered in the page's language. */
export function renderFairCard(record, after, nameOf) {
  let card = $("replay-fair");
  if (!card) {
    card = el("section", { id: "replay-fair", class: "card fair-card", "aria-labelledby": "fair-heading" });
    after.after(card);
  }
  const fair = record?.meta?.fair;
  const result = card.result;
  card.dataset.state = result ? result.state : fair ? "checking" : "none";
  const heading = el("h2", { id: "fair-heading" }, t("fair.heading"));
  if (!fair) {
    card.replaceChildren(heading, el("p", { id: "fair-result", class: "muted" }, t("fair.none")));
    return;
  }
  const seeds = (fair.seeds || []).map((seed, p) =>
    el("li", { dataset: { player: p } }, el("span", { class: "rname" }, nameOf(p)), " ",
      seed ? el("code", {}, seed) : el("span", { class: "muted" }, t("fair.no_value"))),
  );
  let verdict;
  if (!result) verdict = el("p", { id: "fair-result", class: "muted" }, t("fair.checking"));
  else if (result.state === "verified") {
    verdict = el("p", { id: "fair-result", class: "fair-ok" }, "✔ ", t("fair.verified", { count: result.count }));
  } else if (result.state === "unsupported") {
    verdict = el("p", { id: "fair-result", class: "error-text" }, t("fair.unsupported"));
  } else if (result.state === "none") {
    verdict = el("p", { id: "fair-result", class: "muted" }, t("fair.none"));
  } else {
    verdict = el("p", { id: "fair-result", class: "error-text" }, "✘ ", t("fair.differs", { count: result.differences.length }));
  }
  const list = el("ul", { id: "fair-differences", class: "fair-differences" },
    ...(result?.differences || []).slice(0, 20).map((d) =>
      el("li", { dataset: { index: d.index ?? "commitment" } }, differenceText(d))),
  );
  card.replaceChildren(
    heading,
    verdict,
    list,
    el("dl", { class: "fair-data" },
      el("dt", {}, t("fair.commitment")), el("dd", {}, el("code", { id: "fair-commitment" }, fair.commitment)),
      el("dt", {}, t("fair.values")), el("dd", {}, el("ul", { id: "fair-seeds" }, ...seeds)),
      el("dt", {}, t("fair.secret")), el("dd", {}, el("code", { id: "fair-secret" }, fair.secret || "")),
    ),
    el("p", { class: "muted small" }, t("fair.how")),
  );
}

/** Check the record, then show the verdict in the card. */
export async function checkFairCard(record, after, nameOf) {
  renderFairCard(record, after, nameOf);
  if (!record?.meta?.fair) return;
  let result;
  try {
    result = await verifyRecord(record);
  } catch {
    result = { state: "unsupported", count: 0, differences: [] };
  }
  $("replay-fair").result = result;
  renderFairCard(record, after, nameOf);
}
