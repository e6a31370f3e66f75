// The board: the game's own SVG, with a layer of click regions on top
// (one per move, found by the server from the picture) and marks for the
// last turn and the hint.

const SVGNS = "http://www.w3.org/2000/svg";

function make(tag, attributes = {}, parent = null) {
  const element = document.createElementNS(SVGNS, tag);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (parent) parent.appendChild(element);
  return element;
}

function shapeOf(region, attributes, parent) {
  const c = region.coords;
  if (region.kind === "rect") {
    return make("rect", { x: c[0], y: c[1], width: c[2], height: c[3], ...attributes }, parent);
  }
  if (region.kind === "circle") {
    return make("circle", { cx: c[0], cy: c[1], r: c[2], ...attributes }, parent);
  }
  const points = [];
  for (let i = 0; i < c.length; i += 2) points.push(`${c[i]},${c[i + 1]}`);
  return make("polygon", { points: points.join(" "), ...attributes }, parent);
}

// The size of a region: the smaller side of its box (a cell), or its edge's length.
function sizeOf(region) {
  if (region.segment) {
    const [x1, y1, x2, y2] = region.segment;
    return Math.hypot(x2 - x1, y2 - y1);
  }
  const c = region.coords;
  if (region.kind === "rect") return Math.min(c[2], c[3]);
  if (region.kind === "circle") return 2 * c[2];
  const xs = c.filter((_, i) => i % 2 === 0);
  const ys = c.filter((_, i) => i % 2 === 1);
  return Math.min(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : 0;
}

// Smallest size of a label on screen (CSS px): the board's own and ours.
const MIN_LABEL_PX = 11;

// "AB" -> 28: the order of a row's letters (A, B, ..., Z, AA, ...).
function letterOrder(letters) {
  return [...letters.toUpperCase()].reduce((n, c) => n * 26 + c.charCodeAt(0) - 64, 0);
}

// Where each line of moves (a row or a column) gets its label: one step
// beyond its first move.  The step is the lines' common direction (from a
// line's second move to its first), the shortest of that direction, so
// parallel lines get parallel labels; lines of one move take it too.  When
// the labels end up less than a step apart along that direction (dots and
// boxes: edges and boxes alternate), they line up at the outermost.
function labelPlaces(lines, fallback) {
  const steps = [];
  for (const members of lines.values()) {
    members.sort((a, b) => a.order - b.order);
    if (members.length > 1) {
      const [a, b] = [members[0].centre, members[1].centre];
      steps.push([a[0] - b[0], a[1] - b[1]]);
    }
  }
  const angle = ([dx, dy]) => Math.round(Math.atan2(dy, dx) * 12);
  const counts = new Map();
  for (const step of steps) counts.set(angle(step), (counts.get(angle(step)) || 0) + 1);
  let base = fallback;
  if (steps.length) {
    const common = [...counts].sort((a, b) => b[1] - a[1])[0][0];
    base = steps.filter((v) => angle(v) === common).sort((a, b) => Math.hypot(...a) - Math.hypot(...b))[0];
  }
  const place = (step) => [...lines].map(([name, members]) => ({
    name, x: members[0].centre[0] + step[0], y: members[0].centre[1] + step[1],
  }));
  // No further out than the labels are apart (dots and boxes: half a box).
  const room = spacing(place(base)) / Math.hypot(...base);
  if (room < 1) base = [base[0] * room, base[1] * room];
  const places = place(base);
  const length = Math.hypot(...base);
  const [ux, uy] = [base[0] / length, base[1] / length];
  const along = places.map((p) => p.x * ux + p.y * uy);
  const outer = Math.max(...along);
  if (outer - Math.min(...along) <= length * 1.01) {
    places.forEach((place, i) => {
      place.x += (outer - along[i]) * ux;
      place.y += (outer - along[i]) * uy;
    });
  }
  return places;
}

// The usual distance between neighbouring labels (for their size).
function spacing(places) {
  const gaps = [];
  for (let i = 1; i < places.length; i++) {
    gaps.push(Math.hypot(places[i].x - places[i - 1].x, places[i].y - places[i - 1].y));
  }
  return gaps.length ? median(gaps) : Infinity;
}

function segmentLine(region, attributes, parent) {
  const [x1, y1, x2, y2] = region.segment;
  return make("line", { x1, y1, x2, y2, ...attributes }, parent);
}

export class BoardView {
  constructor(container, tooltip, { onClick, onHover }) {
    this.container = container;
    this.tooltip = tooltip;
    this.onClick = onClick;
    this.onHover = onHover;
    this.regions = [];
    this.byMove = new Map();
    this.svg = null;
    container.addEventListener("click", (event) => {
      const hit = event.target.closest && event.target.closest(".bg-hit");
      if (hit) this.onClick(Number(hit.dataset.move), event);
    });
    container.addEventListener("pointerover", (event) => {
      const hit = event.target.closest && event.target.closest(".bg-hit");
      if (!hit) return;
      const region = this.byMove.get(Number(hit.dataset.move));
      this.showTooltip(region, hit.classList.contains("legal"), event);
      this.onHover(region, hit.classList.contains("legal"));
    });
    container.addEventListener("pointermove", (event) => {
      if (!this.tooltip.hidden) {
        this.tooltip.style.left = `${event.clientX}px`;
        this.tooltip.style.top = `${event.clientY}px`;
      }
    });
    container.addEventListener("pointerout", (event) => {
      const hit = event.target.closest && event.target.closest(".bg-hit");
      const into = event.relatedTarget && event.relatedTarget.closest && event.relatedTarget.closest(".bg-hit");
      if (hit && hit !== into) {
        this.tooltip.hidden = true;
        this.onHover(null, false);
      }
    });
  }

  setRegions(board) {
    this.regions = board.regions || [];
    this.byMove = new Map(this.regions.map((r) => [r.move, r]));
  }

  get clickable() {
    return this.regions.length > 0;
  }

  showTooltip(region, legal, event) {
    if (!region) return;
    this.tooltip.textContent = region.name + (legal ? "" : "  ·  not legal now");
    this.tooltip.hidden = false;
    this.tooltip.style.left = `${event.clientX}px`;
    this.tooltip.style.top = `${event.clientY}px`;
  }

  // view: {svg, legal: [moves], lastTurn: [moves], hint: move|null, playable, mover, showLegal}
  draw(view) {
    this.container.innerHTML = view.svg;
    const svg = this.container.querySelector("svg");
    if (!svg) return;
    this.svg = svg;
    if (!svg.getAttribute("viewBox")) {
      const w = parseFloat(svg.getAttribute("width")) || 400;
      const h = parseFloat(svg.getAttribute("height")) || 400;
      svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
    }
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.classList.toggle("playable", Boolean(view.playable));
    svg.classList.toggle("show-legal", Boolean(view.showLegal));
    svg.style.setProperty("--mover", view.mover || "#2f5d62");
    this.drawMarks(svg, view.lastTurn || [], view.hint);
    this.drawHits(svg, new Set(view.legal || []));
    this.drawCoordinates(svg);
    this.fitLabels();
    this.tooltip.hidden = true;
  }

  // Row letters and column numbers, for boards whose picture does not show
  // them (moves named like "B3": row B, column 3).  The picture's viewBox
  // grows to make room.
  drawCoordinates(svg) {
    const rows = new Map();
    const columns = new Map();
    for (const region of this.regions) {
      const match = /^([A-Za-z]+)(\d+)$/.exec(region.name);
      if (!match) return; // not a row-and-column notation
      const row = match[1].toUpperCase();
      if (!rows.has(row)) rows.set(row, []);
      if (!columns.has(match[2])) columns.set(match[2], []);
      rows.get(row).push({ order: Number(match[2]), centre: region.centre });
      columns.get(match[2]).push({ order: letterOrder(row), centre: region.centre });
    }
    if (!rows.size) return;
    const drawn = new Set([...svg.querySelectorAll("text")].map((t) => t.textContent.trim().toUpperCase()));
    const step = median(this.regions.map(sizeOf));
    const groups = [];
    for (const [lines, fallback] of [[rows, [-step, 0]], [columns, [0, -step]]]) {
      const names = [...lines.keys()];
      if (names.filter((n) => drawn.has(n)).length * 2 >= names.length) continue; // the game draws them
      groups.push(labelPlaces(lines, fallback));
    }
    const font = Math.max(Math.min(step * 0.42, ...groups.map((g) => spacing(g) * 0.5)), 1);
    const layer = make("g", { class: "bg-coords", "font-size": font.toFixed(2) });
    const placed = [];
    for (const { name, x, y } of groups.flat()) {
      const text = make("text", {
        x: x.toFixed(2), y: y.toFixed(2), "text-anchor": "middle", "dominant-baseline": "central",
      }, layer);
      text.textContent = name;
      placed.push([x, y]);
    }
    if (!placed.length) return;
    svg.appendChild(layer);
    const box = svg.viewBox.baseVal;
    const pad = font * 1.2;
    const left = Math.min(box.x, ...placed.map((p) => p[0] - pad));
    const top = Math.min(box.y, ...placed.map((p) => p[1] - pad));
    const right = Math.max(box.x + box.width, ...placed.map((p) => p[0] + pad));
    const bottom = Math.max(box.y + box.height, ...placed.map((p) => p[1] + pad));
    svg.setAttribute("viewBox", `${left} ${top} ${right - left} ${bottom - top}`);
  }

  // Every label on the board at least MIN_LABEL_PX on screen (a 26 x 26
  // board is drawn small), but no larger than about half a cell.
  fitLabels() {
    const svg = this.svg;
    if (!svg || !svg.isConnected) return;
    const box = svg.viewBox.baseVal;
    const shown = svg.getBoundingClientRect();
    if (!box || !box.width || !box.height || !shown.width) return;
    // Screen px per unit of the picture (it keeps its shape inside the element's box).
    const scale = Math.min(shown.width / box.width, shown.height / box.height);
    const cell = this.regions.length ? median(this.regions.map(sizeOf)) * 0.6 : Infinity;
    for (const text of svg.querySelectorAll("text")) {
      if (!text.dataset.size) text.dataset.size = String(parseFloat(getComputedStyle(text).fontSize) || 12);
      const size = Number(text.dataset.size);
      const wanted = Math.min(Math.max(size, MIN_LABEL_PX / scale), Math.max(size, cell));
      text.style.fontSize = `${wanted.toFixed(2)}px`;
    }
  }

  drawMarks(svg, lastTurn, hint) {
    const edges = make("g", { class: "bg-marks" });
    const cells = make("g", { class: "bg-marks" });
    lastTurn.forEach((move, i) => {
      const region = this.byMove.get(move);
      if (!region) return;
      const size = sizeOf(region);
      const older = i < lastTurn.length - 1 ? " older" : "";
      if (region.segment) {
        segmentLine(region, { class: `bg-mark-edge${older}`, "stroke-width": size * 0.24 }, edges);
      } else {
        shapeOf(region, { class: `bg-mark-cell${older}`, "stroke-width": Math.max(1.5, size * 0.06) }, cells);
      }
    });
    if (hint !== null && hint !== undefined && this.byMove.has(hint)) {
      const region = this.byMove.get(hint);
      const size = sizeOf(region);
      if (region.segment) {
        segmentLine(region, { class: "bg-hint-edge", "stroke-width": size * 0.3 }, cells);
      } else {
        make("circle", {
          class: "bg-hint", cx: region.centre[0], cy: region.centre[1],
          r: size * 0.42, "stroke-width": Math.max(2, size * 0.09),
        }, cells);
      }
    }
    // Edge marks go under the game's lines (so a claimed edge keeps its colour).
    const firstLine = svg.querySelector("line");
    if (edges.childNodes.length && firstLine) firstLine.parentNode.insertBefore(edges, firstLine);
    else if (edges.childNodes.length) svg.appendChild(edges);
    svg.appendChild(cells);
  }

  // Dots where edges meet (dots and boxes has its dots; HexiFence its corners).
  drawVertices(svg) {
    const seen = new Map();
    let size = 0;
    for (const region of this.regions) {
      if (!region.segment) return;
      size = sizeOf(region);
      const [x1, y1, x2, y2] = region.segment;
      for (const [x, y] of [[x1, y1], [x2, y2]]) seen.set(`${Math.round(x * 10)},${Math.round(y * 10)}`, [x, y]);
    }
    const layer = make("g", { class: "bg-vertices" }, svg);
    for (const [x, y] of seen.values()) {
      make("circle", { cx: x, cy: y, r: size * 0.06, fill: "#3d4348" }, layer);
    }
  }

  drawHits(svg, legal) {
    if (this.regions.length && this.regions[0].segment) this.drawVertices(svg);
    const layer = make("g", { class: "bg-hits" });
    for (const region of this.regions) {
      const isLegal = legal.has(region.move);
      const edge = Boolean(region.segment);
      const group = make("g", {
        class: `bg-hit${isLegal ? " legal" : ""}${edge ? " edge" : ""}`,
        "data-move": region.move,
        "data-name": region.name,
      }, layer);
      shapeOf(region, { class: "area" }, group);
      const title = make("title", {}, group);
      title.textContent = region.name;
      if (!isLegal) continue;
      const size = sizeOf(region);
      if (edge) {
        segmentLine(region, {
          class: "ghost", stroke: "var(--mover)", "stroke-width": size * 0.17, "stroke-linecap": "round",
        }, group);
      } else {
        const [cx, cy] = region.centre;
        make("circle", {
          class: "ghost", cx, cy, r: size * 0.36, fill: "var(--mover)",
          stroke: "#333", "stroke-width": Math.max(0.6, size * 0.02),
        }, group);
        make("circle", { class: "dot", cx, cy, r: size * 0.08, fill: "var(--mover)", stroke: "#333", "stroke-width": size * 0.01 }, group);
      }
    }
    svg.appendChild(layer);
  }
}
