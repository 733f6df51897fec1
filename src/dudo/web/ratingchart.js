// ratingchart.js — a rater's rating history as an inline SVG line chart (x: the rated game's
// number, y: the rating shown after it), with its summary for screen readers and a visually
// hidden table of its points.
//
// Markup: figure.rating-chart[data-family][data-points]
//           svg[role="img"][aria-label] > title, g.grid, path.chart-line, circle.chart-point
//             [data-n][data-rating] (one per rated game), text.tick, text.axis-title
//           div.sr-only > table (caption; one row per point: rated game, place, rating)

import { t } from "/static/i18n.js";
import { el } from "/static/ui.js";
import { countText, familyName, ratingText } from "/static/ratings.js";

const NS = "http://www.w3.org/2000/svg";
const HEIGHT = 210;
const PAD = { left: 48, right: 14, top: 14, bottom: 44 };

function svg(tag, attrs = {}, text = null) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text != null) node.textContent = text;
  return node;
}

/** A round step (1, 2 or 5 times a power of ten) giving about `count` intervals over `span`. */
function niceStep(span, count) {
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const scaled = raw / power;
  return (scaled <= 1 ? 1 : scaled <= 2 ? 2 : scaled <= 5 ? 5 : 10) * power;
}

/** The words a screen reader says for the whole chart. */
export function chartSummary(family, points) {
  const n = points.length;
  const first = ratingText(points[0].rating);
  const last = ratingText(points[n - 1].rating);
  return t("profile.chart_label", { count: n, n: countText(n), family: familyName(family), first, last });
}

/** The chart of `points` ([{rating, place}], oldest first; at least one) `width` pixels wide. */
export function ratingChart(family, points, width) {
  const w = Math.max(260, Math.round(width));
  const plotW = w - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const values = points.map((p) => p.rating);
  let low = Math.min(...values);
  let high = Math.max(...values);
  // At least 20 points tall: a flat history still gets whole-number ticks around it.
  if (high - low < 20) {
    const pad = (20 - (high - low)) / 2;
    low -= pad;
    high += pad;
  }
  const step = niceStep(high - low, 4);
  low = Math.floor(low / step) * step;
  high = Math.ceil(high / step) * step;
  const n = points.length;
  const x = (i) => PAD.left + (n === 1 ? plotW / 2 : (i * plotW) / (n - 1));
  const y = (v) => PAD.top + plotH - ((v - low) / (high - low)) * plotH;
  // Ratings are whole numbers, and so are the steps between ticks (at least 5 points).
  const tickText = (v) => ratingText(Math.round(v) || 0);
  const summary = chartSummary(family, points);
  const chart = svg("svg", {
    class: "chart",
    role: "img",
    "aria-label": summary,
    viewBox: `0 0 ${w} ${HEIGHT}`,
    width: w,
    height: HEIGHT,
  });
  chart.append(svg("title", {}, summary));
  const grid = svg("g", { class: "grid" });
  for (let v = low; v <= high + step / 2; v += step) {
    grid.append(svg("line", { x1: PAD.left, x2: w - PAD.right, y1: y(v), y2: y(v) }));
    grid.append(svg("text", { class: "tick", x: PAD.left - 6, y: y(v) + 4, "text-anchor": "end" }, tickText(v)));
  }
  // Game numbers: the first, the last and round ones between, never crowded.
  const every = Math.max(1, Math.ceil(n / Math.max(1, Math.floor(plotW / 48))));
  for (let i = 0; i < n; i += 1) {
    const number = i + 1;
    if (number === 1 || number === n || (number % every === 0 && n - number >= every / 2)) {
      grid.append(svg("text", { class: "tick", x: x(i), y: PAD.top + plotH + 16, "text-anchor": "middle" }, countText(number)));
    }
  }
  chart.append(grid);
  chart.append(
    svg("text", { class: "axis-title", x: PAD.left + plotW / 2, y: HEIGHT - 6, "text-anchor": "middle" }, t("profile.axis_x")),
    svg(
      "text",
      { class: "axis-title", x: 0, y: 0, "text-anchor": "middle", transform: `translate(13 ${PAD.top + plotH / 2}) rotate(-90)` },
      t("profile.axis_y"),
    ),
  );
  const line = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)} ${y(p.rating).toFixed(1)}`).join(" ");
  chart.append(svg("path", { class: "chart-line", d: line }));
  points.forEach((p, i) => {
    chart.append(svg("circle", { class: "chart-point", cx: x(i), cy: y(p.rating), r: n > 40 ? 2.5 : 4, "data-n": i + 1, "data-rating": p.rating }));
  });
  // In a hidden box: a table grows to its content whatever width it is given.
  const table = el(
    "table",
    {},
    el("caption", {}, t("profile.points_caption", { family: familyName(family) })),
    el(
      "thead",
      {},
      el("tr", {}, ...["profile.axis_x", "profile.point_place", "profile.axis_y"].map((k) => el("th", { scope: "col" }, t(k)))),
    ),
    el(
      "tbody",
      {},
      points.map((p, i) => el("tr", {}, el("td", {}, countText(i + 1)), el("td", {}, countText(p.place)), el("td", {}, ratingText(p.rating)))),
    ),
  );
  return el("figure", { class: "rating-chart", dataset: { family, points: n } }, chart, el("div", { class: "sr-only" }, table));
}
