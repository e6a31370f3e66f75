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
    this.tooltip.hidden = true;
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
