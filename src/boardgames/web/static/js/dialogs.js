// The new-game form and the record loader.

import { post } from "./api.js";
import { swatch } from "./colours.js";

function element(tag, attributes = {}, text = "") {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text) node.textContent = text;
  return node;
}

export class NewGameDialog {
  constructor(catalog, onCreate) {
    this.catalog = catalog;
    this.onCreate = onCreate;
    this.dialog = document.getElementById("new-dialog");
    this.select = document.getElementById("ng-game");
    this.options = document.getElementById("ng-options");
    this.sides = document.getElementById("ng-sides");
    this.error = document.getElementById("ng-error");
    this.note = document.getElementById("ng-note");
    this.delay = undefined;
    for (const game of catalog.games) {
      const option = element("option", { value: game.name }, game.error ? `${game.name} (unavailable)` : `${game.title}`);
      if (game.error) option.disabled = true;
      this.select.appendChild(option);
    }
    this.select.addEventListener("change", () => this.fill(this.game()));
    document.getElementById("ng-cancel").addEventListener("click", () => this.dialog.close());
    document.getElementById("new-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
  }

  game() {
    return this.catalog.games.find((g) => g.name === this.select.value);
  }

  // current: the page's game (its settings fill the form); preset: a request
  // from a link ({game, options, sides, delay}), shown for the user to check.
  open(current, preset = null) {
    this.error.hidden = true;
    this.note.hidden = !preset;
    this.delay = preset ? preset.delay : undefined;
    const wanted = preset ? preset.game : current ? current.game.name : null;
    const known = this.catalog.games.find((g) => g.name === wanted && !g.error);
    if (known) this.select.value = wanted;
    if (preset) {
      this.fill(this.game(), known ? this.presetAsGame(preset) : null);
      if (!known) this.showError(`This link names a game this server does not have: ${wanted}`);
    } else {
      this.fill(this.game(), current);
    }
    this.dialog.showModal();
  }

  // A link's request in the shape of a game's snapshot (what fill() reads).
  // A link never names a program: the page's user types one if they mean it.
  presetAsGame(preset) {
    let dropped = false;
    const sides = [0, 1].map((i) => {
      const side = preset.sides[i] || {};
      let ai = side.ai || null;
      if (ai && /^\s*program:/i.test(ai)) {
        ai = "default";
        dropped = true;
      }
      return { ai, time: Number.isFinite(side.time) ? side.time : this.catalog.default_time };
    });
    if (dropped) this.showError("This link named a program as a player; a link cannot start programs (type it in if you mean it).");
    return { game: { name: preset.game, params: preset.options || {} }, sides };
  }

  showError(message) {
    this.error.textContent = message;
    this.error.hidden = false;
  }

  fill(game, current = null) {
    this.options.innerHTML = "";
    const params = current && current.game.name === game.name ? current.game.params : {};
    for (const [name, value] of Object.entries(game.options || {})) {
      const label = element("label", { class: "field" }, name);
      const input = element("input", { type: "number", min: "1", step: "1", name: `opt-${name}`, "data-option": name });
      input.value = params[name] ?? value;
      label.appendChild(input);
      this.options.appendChild(label);
    }
    this.sides.innerHTML = "";
    game.players.forEach((colour, index) => {
      const old = current && current.game.name === game.name ? current.sides[index] : null;
      this.sides.appendChild(this.sideRow(game, colour, index, old));
    });
  }

  sideRow(game, colour, index, old) {
    const row = element("div", { class: "side", "data-side": index });
    const title = element("div", { class: "side-title" });
    const dot = element("span", { class: "swatch" });
    dot.style.cssText = "width:14px;height:14px;border-radius:50%;border:1.5px solid #333;display:inline-block";
    swatch(dot, colour, index);
    title.append(dot, document.createTextNode(colour));
    const kindLabel = element("label", { class: "field" }, "Played by");
    const kind = element("select", { "data-role": "kind" });
    kind.append(element("option", { value: "human" }, "Human"), element("option", { value: "ai" }, "Computer"));
    kindLabel.appendChild(kind);
    const specLabel = element("label", { class: "field" }, "AI");
    const listId = `ais-${index}`;
    const spec = element("input", { "data-role": "spec", list: listId, placeholder: "default", autocomplete: "off" });
    const list = element("datalist", { id: listId });
    for (const name of Object.keys(game.ais || {})) list.appendChild(element("option", { value: name }, game.ais[name]));
    specLabel.append(spec, list);
    const timeLabel = element("label", { class: "field" }, "s / move");
    const limits = this.catalog.limits || {};
    const time = element("input", { "data-role": "time", type: "number", min: "0.05", step: "0.05", max: String(limits.max_time || "") });
    timeLabel.appendChild(time);
    const help = element("div", { class: "side-help" });
    const human = old ? !old.ai : index === 0;
    kind.value = human ? "human" : "ai";
    spec.value = old && old.ai ? old.ai : "default";
    time.value = old ? old.time : this.catalog.default_time;
    const update = () => {
      const isHuman = kind.value === "human";
      spec.disabled = isHuman;
      time.disabled = isHuman;
      const name = spec.value.split(":")[0].trim();
      const program = this.catalog.programs
        ? "a program that speaks the engine protocol: program:COMMAND ARGS"
        : "programs are off on this server (start it with boardgames web --allow-programs)";
      help.textContent = isHuman ? "" : name.toLowerCase() === "program" ? program
        : (game.ais[name] || "an AI spec: name[:key=value,...], e.g. alphabeta:depth=4");
    };
    kind.addEventListener("change", update);
    spec.addEventListener("input", update);
    update();
    row.append(title, kindLabel, specLabel, timeLabel, help);
    return row;
  }

  request() {
    const options = {};
    for (const input of this.options.querySelectorAll("input[data-option]")) {
      options[input.dataset.option] = Number(input.value);
    }
    const sides = [...this.sides.querySelectorAll(".side")].map((row) => {
      const kind = row.querySelector("[data-role=kind]").value;
      const time = Number(row.querySelector("[data-role=time]").value);
      if (kind === "human") return { ai: null };
      return { ai: row.querySelector("[data-role=spec]").value.trim() || "default", time };
    });
    const request = { game: this.select.value, options, sides };
    if (this.delay !== undefined && Number.isFinite(this.delay)) request.delay = this.delay;
    return request;
  }

  async submit() {
    try {
      const snap = await post("/api/sessions", this.request());
      this.dialog.close();
      this.onCreate(snap);
    } catch (error) {
      this.showError(error.message);
    }
  }
}

export class LoadDialog {
  constructor(onCreate) {
    this.onCreate = onCreate;
    this.dialog = document.getElementById("load-dialog");
    this.files = document.getElementById("load-files");
    this.list = document.getElementById("load-list");
    this.error = document.getElementById("load-error");
    this.files.addEventListener("change", () => this.read());
  }

  open() {
    this.files.value = "";
    this.list.innerHTML = "";
    this.error.hidden = true;
    this.dialog.showModal();
  }

  async read() {
    this.list.innerHTML = "";
    const problems = [];
    const found = [];
    for (const file of this.files.files) {
      try {
        const result = await post("/api/records", { text: await file.text() });
        for (const item of result.records) found.push({ file: file.name, ...item });
      } catch (error) {
        problems.push(`${file.name}: ${error.message}`);
      }
    }
    this.error.textContent = problems.join("\n");
    this.error.hidden = problems.length === 0;
    if (found.length === 1 && problems.length === 0) {
      await this.open_record(found[0].record);
      return;
    }
    for (const item of found) {
      const li = element("li");
      li.append(element("span", {}, item.summary));
      const button = element("button", { class: "small", type: "button" }, "Open");
      button.addEventListener("click", () => this.open_record(item.record));
      li.append(button);
      this.list.appendChild(li);
    }
  }

  async open_record(record) {
    try {
      const snap = await post("/api/sessions", { record });
      this.dialog.close();
      this.onCreate(snap, { replay: true });
    } catch (error) {
      this.error.textContent = error.message;
      this.error.hidden = false;
    }
  }
}
