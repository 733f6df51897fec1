// avatar.js — each seat's colour and a small generated avatar for a name.
//
// Colours: seat N is painted with the CSS variable --seat-(N mod 8) of app.css's :root (the one
// place the palette lives, so a theme can change it). Avatars are inline SVG built here from a
// hash of the name: the initials on the seat's colour over a mirrored pattern of tiles, so the
// same name always looks the same and no outside resource is fetched. They are decorative
// (aria-hidden): the name beside them is the label.
//
// Test hooks: svg.avatar[data-seat][data-initials][data-pattern] (the pattern's bits).

const SVG = "http://www.w3.org/2000/svg";
export const SEAT_COLOURS = 8;

/** The CSS colour of a seat. */
export function seatColour(seat) {
  const n = Number.isInteger(seat) ? ((seat % SEAT_COLOURS) + SEAT_COLOURS) % SEAT_COLOURS : 0;
  return `var(--seat-${n})`;
}

/** A 32-bit FNV-1a hash of a text (its UTF-16 units): small, fast and the same everywhere. */
export function nameHash(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** One or two letters for a name: the first of its first two words, upper-cased. */
export function initials(name) {
  const words = String(name || "?").trim().split(/\s+/).filter(Boolean);
  const letters = words.slice(0, 2).map((w) => Array.from(w)[0] || "");
  return (letters.join("") || "?").toLocaleUpperCase();
}

function node(tag, attrs) {
  const n = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  return n;
}

/** An avatar <svg> for `name` at `seat` (size in CSS pixels). */
export function avatar(name, seat, size = 28) {
  const text = initials(name);
  const hash = nameHash(String(name || ""));
  // A 4x4 grid mirrored left to right: 8 tiles of the hash decide it; its lowest bits also
  // pick which of two shades the tiles take, so neighbours of one colour differ.
  const pattern = hash & 0xff;
  const shade = (hash >>> 8) & 1 ? "rgba(0, 0, 0, 0.2)" : "rgba(255, 255, 255, 0.28)";
  const id = `av-${seat}-${hash.toString(36)}`;
  const svg = node("svg", {
    class: "avatar",
    viewBox: "0 0 32 32",
    width: size,
    height: size,
    "aria-hidden": "true",
    focusable: "false",
  });
  svg.dataset.seat = String(seat);
  svg.dataset.initials = text;
  svg.dataset.pattern = String(pattern);
  const clip = node("clipPath", { id });
  clip.append(node("circle", { cx: 16, cy: 16, r: 16 }));
  svg.append(clip);
  const disc = node("circle", { cx: 16, cy: 16, r: 16 });
  disc.style.fill = seatColour(seat);
  svg.append(disc);
  const tiles = node("g", { "clip-path": `url(#${id})` });
  tiles.style.fill = shade;
  for (let row = 0; row < 4; row++) {
    for (let col = 0; col < 2; col++) {
      if (!((pattern >> (row * 2 + col)) & 1)) continue;
      tiles.append(node("rect", { x: col * 8, y: row * 8, width: 8, height: 8 }));
      tiles.append(node("rect", { x: 24 - col * 8, y: row * 8, width: 8, height: 8 }));
    }
  }
  svg.append(tiles);
  const label = node("text", {
    x: 16,
    y: 16,
    "text-anchor": "middle",
    "dominant-baseline": "central",
    "font-size": text.length > 1 ? 13 : 16,
    "font-weight": 800,
  });
  label.style.fill = "var(--avatar-ink)";
  label.textContent = text;
  svg.append(label);
  return svg;
}
