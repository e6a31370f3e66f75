// The evaluation graph: the game's static evaluation of every position, from
// the first player's point of view, with the AIs' search scores as dots.
// Values are squashed (tanh) so one huge number does not flatten the rest;
// proven results (|v| >= 5e8) sit on the top or bottom edge.

const SVGNS = "http://www.w3.org/2000/svg";
const PROVEN = 5e8;

function make(tag, attributes, parent) {
  const element = document.createElementNS(SVGNS, tag);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (parent) parent.appendChild(element);
  return element;
}

function scaleOf(values) {
  const plain = values.filter((v) => v !== null && Math.abs(v) < PROVEN).map(Math.abs).sort((a, b) => a - b);
  if (!plain.length) return 1;
  const high = plain[Math.floor(plain.length * 0.75)];
  return Math.max(high, 1e-6);
}

function squash(value, scale) {
  if (value === null || value === undefined) return null;
  if (Math.abs(value) >= PROVEN) return Math.sign(value);
  return Math.tanh(value / (1.2 * scale));
}

export function drawGraph(container, snap, viewPly, onPick) {
  const evals = snap.evals || [];
  const n = Math.max(evals.length - 1, 1);
  const width = Math.max(200, container.clientWidth || 330);
  const height = Math.max(80, container.clientHeight || 120);
  const pad = 6;
  const scores = snap.moves.map((m) => (m.info && typeof m.info.first_score === "number" ? m.info.first_score : null));
  const scale = scaleOf(evals.concat(scores));
  const x = (ply) => pad + (ply / n) * (width - 2 * pad);
  const y = (s) => height / 2 - s * (height / 2 - pad);
  container.innerHTML = "";
  const svg = make("svg", { viewBox: `0 0 ${width} ${height}`, role: "img" }, container);
  svg.setAttribute("aria-label", "evaluation graph");
  const names = snap.game.players;
  make("rect", { x: 0, y: 0, width, height: height / 2, fill: "#f6f8fb" }, svg);
  make("rect", { x: 0, y: height / 2, width, height: height / 2, fill: "#fbf7f2" }, svg);
  make("line", { x1: 0, x2: width, y1: height / 2, y2: height / 2, stroke: "#c9c4ba", "stroke-width": 1 }, svg);
  const labels = [[names[0], 13], [names[1], height - 5]];
  for (const [text, ty] of labels) {
    const label = make("text", { x: 5, y: ty, "font-size": 10, fill: "#8a8f95" }, svg);
    label.textContent = `${text} ahead`;
  }
  const points = [];
  evals.forEach((v, ply) => {
    const s = squash(v, scale);
    if (s !== null) points.push([x(ply), y(s)]);
  });
  if (points.length > 1) {
    const area = [`${points[0][0]},${height / 2}`, ...points.map((p) => `${p[0]},${p[1]}`), `${points[points.length - 1][0]},${height / 2}`];
    make("polygon", { points: area.join(" "), fill: "rgba(47,93,98,.16)" }, svg);
    make("polyline", { points: points.map((p) => `${p[0]},${p[1]}`).join(" "), fill: "none", stroke: "#2f5d62", "stroke-width": 1.6, "vector-effect": "non-scaling-stroke" }, svg);
  }
  scores.forEach((v, i) => {
    const s = squash(v, scale);
    if (s === null) return;
    make("circle", { cx: x(i + 1), cy: y(s), r: 2.4, fill: "#e8731a", stroke: "#fff", "stroke-width": 0.6 }, svg);
  });
  const at = viewPly === null ? evals.length - 1 : viewPly;
  make("line", { x1: x(at), x2: x(at), y1: 0, y2: height, stroke: "#7b3fe4", "stroke-width": 1.2, "stroke-dasharray": "3 2", "vector-effect": "non-scaling-stroke" }, svg);
  svg.addEventListener("click", (event) => {
    const box = svg.getBoundingClientRect();
    const ply = Math.round(((event.clientX - box.left) / box.width * width - pad) / (width - 2 * pad) * n);
    onPick(Math.max(0, Math.min(evals.length - 1, ply)));
  });
}
