// The page: one game per tab (its id kept in sessionStorage), drawn from the
// server's snapshots, which arrive on the game's WebSocket and as answers.

import { CROWDED, Live, del, get, getText, post } from "./api.js";
import { BoardView } from "./board.js";
import { ghostColour, playerColour } from "./colours.js";
import { LoadDialog, NewGameDialog } from "./dialogs.js";
import { drawGraph } from "./graph.js";
import { cap, renderMoves, renderPlayers, renderResult, renderThinking } from "./panel.js";

const $ = (id) => document.getElementById(id);
const STORAGE = "boardgames-session";

const app = {
  catalog: null,
  snap: null,
  sid: null,
  live: null,
  view: null, // null: the game now; a number: the position after that many moves
  positions: new Map(),
  boardKey: "",
  showLegal: true,
  clickStart: null,
  autoplay: null,
  gone: false, // the server no longer has the game (it restarted, or closed it)
  newGame: null,
};

// --- messages ------------------------------------------------------------------------

let toastTimer = null;
function toast(message, bad = false) {
  const box = $("toast");
  box.textContent = message;
  box.classList.toggle("bad", bad);
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, bad ? 4200 : 2800);
}

async function attempt(action) {
  try {
    return await action();
  } catch (error) {
    if (error.status === 404 && app.sid) gone();
    else toast(error.message, true);
    return null;
  }
}

// The game is gone from the server: say so, keep the last board, offer a new game.
function gone() {
  if (app.gone) return;
  app.gone = true;
  if (app.live) app.live.close();
  render();
}

// --- the game ----------------------------------------------------------------------------

function accept(snap) {
  if (!snap || snap.id !== app.sid) return false;
  if (app.snap && snap.seq < app.snap.seq) return false;
  app.snap = snap;
  if (app.view !== null && app.view > snap.ply) app.view = null;
  render();
  return true;
}

async function adopt(snap) {
  if (app.live) app.live.close();
  stopAutoplay();
  const old = app.sid;
  if (old && old !== snap.id) del(`/api/sessions/${old}`).catch(() => {}); // stop the old game
  app.gone = false;
  app.sid = snap.id;
  document.body.dataset.sid = snap.id;
  app.snap = null;
  app.view = null;
  app.positions.clear();
  app.boardKey = "";
  sessionStorage.setItem(STORAGE, snap.id);
  const board = await get(`/api/sessions/${snap.id}/board`);
  app.board.setRegions(board);
  accept(snap);
  app.live = new Live(snap.id, (message) => {
    if (message.type === "state") accept(message);
    else if (message.type === "thinking" && message.id === app.sid) {
      renderThinking(message.job, app.snap);
      updateStop(message.job);
    }
  }, (code, reason) => {
    if (code === CROWDED) toast(`${reason || "Too many pages watch this game"}: this page no longer follows it.`, true);
    else gone();
  });
}

async function newDefaultGame() {
  const names = app.catalog.games.filter((g) => !g.error).map((g) => g.name);
  const game = names.includes("squatter") ? "squatter" : names[0];
  await adopt(await post("/api/sessions", { game, sides: [{ ai: null }, { ai: "default", time: 1 }] }));
}

function fromQuery(params) {
  // ?game=dots&rows=2&cols=2&ai1=random&time1=0.5 (ai0/ai1: the AI of each colour)
  const request = { game: params.get("game"), options: {}, sides: [{}, {}] };
  for (const [key, value] of params) {
    if (/^ai[01]$/.test(key)) request.sides[Number(key[2])].ai = value || null;
    else if (/^time[01]$/.test(key)) request.sides[Number(key[4])].time = Number(value);
    else if (key === "delay") request.delay = Number(value);
    else if (key !== "game") request.options[key] = Number(value);
  }
  return request;
}

// --- drawing ----------------------------------------------------------------------------------

function humanToMove(snap) {
  return snap.to_move !== null && snap.sides[snap.to_move].ai === null;
}

function render() {
  const snap = app.snap;
  if (!snap) return;
  document.body.dataset.gone = app.gone ? "1" : "";
  const params = Object.entries(snap.game.params).map(([k, v]) => `${k} ${v}`).join(", ");
  $("game-title").innerHTML = "";
  const title = document.createElement("b");
  title.textContent = snap.game.title;
  $("game-title").append(title, document.createTextNode(params ? `  ·  ${params}` : ""));
  document.title = `${snap.game.title} · boardgames`;
  renderStatus(snap);
  renderPlayers(snap);
  renderResult(snap);
  renderThinking(app.gone ? null : snap.thinking || snap.hinting, snap);
  renderMoves(snap, app.view, (ply) => setView(ply));
  drawGraph($("graph"), snap, app.view, (ply) => setView(ply));
  $("graph-legend").textContent = snap.evals.some((v) => v !== null) ? "static evaluation · AI scores (dots)" : "no evaluator";
  renderControls(snap);
  renderBoard();
  renderFallback(snap);
  if ($("analysis").parentElement.open) loadAnalysis();
  document.body.dataset.turn = snap.to_move === null ? "over" : String(snap.to_move);
  document.body.dataset.thinking = snap.thinking ? "1" : "";
}

function renderStatus(snap) {
  const box = $("status");
  box.innerHTML = "";
  box.className = "status";
  const chip = document.createElement("span");
  chip.className = "chip";
  let text;
  if (app.gone) {
    box.classList.add("error");
    const again = document.createElement("button");
    again.id = "btn-gone-new";
    again.className = "small primary";
    again.textContent = "New game…";
    again.addEventListener("click", () => $("btn-new").click());
    box.append(document.createTextNode("This game is no longer on the server (it restarted, or the game was closed)."), again);
    return;
  }
  if (snap.notice) {
    box.classList.add("error");
    text = snap.notice;
  } else if (snap.outcome) {
    box.classList.add("over");
    text = `Game over: ${snap.outcome.text}`;
    if (snap.outcome.winner !== null) chip.style.background = playerColour(snap.outcome.winner_name, snap.outcome.winner);
    else chip.style.visibility = "hidden";
  } else {
    const side = snap.to_move;
    const colour = snap.game.players[side];
    chip.style.background = playerColour(colour, side);
    const spec = snap.sides[side].ai;
    if (spec === null) {
      const what = app.board.clickable ? (app.board.regions[0].segment ? "click an edge" : "click a cell") : "type or pick a move above the board";
      text = `${cap(colour)} to move — ${what}`;
      if (snap.ply && snap.moves[snap.ply - 1].side === side && snap.moves.length) text += " (extra turn)";
    } else if (snap.paused) {
      text = `Paused — ${colour} (${spec}) to move`;
    } else {
      text = `${cap(colour)} (${spec}) is thinking…`;
    }
  }
  box.append(chip, document.createTextNode(text));
}

// A button's icon (from the page's sprite) and text.
function label(button, icon, text = "") {
  const key = `${icon}|${text}`;
  if (button.dataset.label === key) return;
  button.dataset.label = key;
  button.innerHTML = `<svg class="i"><use href="#i-${icon}"/></svg>`;
  if (text) button.append(document.createTextNode(` ${text}`));
}

function renderControls(snap) {
  const anyAi = snap.sides.some((s) => s.ai !== null);
  const over = Boolean(snap.outcome);
  $("btn-undo").disabled = snap.ply === 0 || app.gone;
  $("btn-hint").disabled = !humanToMove(snap) || Boolean(snap.hinting) || app.gone;
  $("btn-swap").disabled = over || app.gone;
  $("btn-pause").disabled = !anyAi || over || app.gone;
  $("btn-save").disabled = app.gone;
  label($("btn-pause"), snap.paused ? "play" : "pause", snap.paused ? "Resume" : "Pause");
  updateStop(app.gone ? null : snap.thinking || snap.hinting);
  $("btn-live").hidden = app.view === null;
}

function updateStop(job) {
  const button = $("btn-stop");
  button.disabled = !job || job.stopping;
  label(button, "stop", job && job.kind === "hint" ? "Stop hint" : "Move now");
}

async function renderBoard() {
  const snap = app.snap;
  const banner = $("view-banner");
  const container = $("board");
  let view;
  if (app.view === null) {
    banner.hidden = true;
    container.classList.remove("viewing");
    const side = snap.to_move;
    view = {
      svg: snap.svg,
      legal: snap.legal,
      lastTurn: snap.last_turn,
      hint: snap.hint ? snap.hint.move : null,
      playable: humanToMove(snap) && !snap.thinking && !app.gone,
      mover: side === null ? null : ghostColour(snap.game.players[side], side),
      showLegal: app.showLegal,
    };
  } else {
    banner.hidden = false;
    container.classList.add("viewing");
    $("view-text").textContent = app.view === 0
      ? `Start position (of ${snap.ply} moves)`
      : `After move ${app.view} of ${snap.ply}: ${snap.moves[app.view - 1].text}`;
    $("btn-from-here").hidden = app.view === snap.ply;
    const key = `${snap.version}:${app.view}`;
    if (!app.positions.has(key)) {
      const wanted = app.view;
      const position = await attempt(() => get(`/api/sessions/${app.sid}/position?ply=${wanted}`));
      if (!position || wanted !== app.view) return;
      app.positions.set(key, position);
    }
    const position = app.positions.get(key);
    view = { svg: position.svg, legal: [], lastTurn: position.last_turn, hint: null, playable: false, mover: null, showLegal: false };
  }
  const key = JSON.stringify([snap.version, snap.seq, app.view, view.hint, view.playable, view.showLegal, app.gone]);
  if (key === app.boardKey) return;
  app.boardKey = key;
  app.board.draw(view);
  container.dataset.ply = app.view === null ? snap.ply : app.view;
  container.dataset.sid = snap.id;
  container.dataset.version = snap.version;
  if (app.clickStart !== null) {
    const started = app.clickStart;
    app.clickStart = null;
    requestAnimationFrame(() => requestAnimationFrame(() => {
      document.body.dataset.clickToRedraw = (performance.now() - started).toFixed(1);
    }));
  }
}

function renderFallback(snap) {
  const box = $("fallback");
  box.hidden = app.board.clickable;
  if (app.board.clickable) return;
  const buttons = $("legal-buttons");
  buttons.innerHTML = "";
  if (app.view !== null || !humanToMove(snap) || app.gone) return;
  snap.legal.forEach((move, i) => {
    const button = document.createElement("button");
    button.textContent = snap.legal_names[i];
    button.addEventListener("click", () => playMove(move));
    buttons.appendChild(button);
  });
}

async function loadAnalysis() {
  const text = await attempt(() => getText(`/api/sessions/${app.sid}/analysis`));
  if (text !== null) $("analysis").textContent = text;
}

// --- actions ------------------------------------------------------------------------------------

async function playMove(move) {
  const snap = app.snap;
  if (!snap) return;
  if (app.gone) return;
  if (app.view !== null) {
    toast("You are looking at an earlier position: press “Back to the game” to play.");
    return;
  }
  if (snap.to_move === null) {
    toast("The game is over.");
    return;
  }
  const side = snap.sides[snap.to_move];
  if (side.ai !== null) {
    toast(`It is ${snap.game.players[snap.to_move]}'s turn, played by ${side.ai}.`);
    return;
  }
  app.clickStart = performance.now();
  const result = await attempt(() => post(`/api/sessions/${app.sid}/move`, { move, ply: snap.ply }));
  if (!result) app.clickStart = null;
  else accept(result);
}

function setView(ply) {
  if (!app.snap) return;
  app.view = ply >= app.snap.ply ? null : Math.max(0, ply);
  render();
}

function step(delta) {
  const now = app.view === null ? app.snap.ply : app.view;
  setView(now + delta);
}

function stopAutoplay() {
  clearInterval(app.autoplay);
  app.autoplay = null;
  label($("nav-play"), "play");
}

function toggleAutoplay() {
  if (app.autoplay) { stopAutoplay(); return; }
  if (app.view === null) setView(0);
  label($("nav-play"), "pause");
  app.autoplay = setInterval(() => {
    if (app.view === null) { stopAutoplay(); return; }
    step(1);
  }, 700);
}

function command(path, body = {}) {
  return attempt(async () => accept(await post(`/api/sessions/${app.sid}/${path}`, body)));
}

function wire() {
  const newGame = new NewGameDialog(app.catalog, (snap) => adopt(snap));
  app.newGame = newGame;
  const load = new LoadDialog((snap) => adopt(snap));
  $("btn-new").addEventListener("click", () => newGame.open(app.snap));
  $("btn-load").addEventListener("click", () => load.open());
  $("btn-save").addEventListener("click", () => {
    const link = document.createElement("a");
    link.href = `/api/sessions/${app.sid}/record`;
    link.download = "";
    link.click();
  });
  $("btn-undo").addEventListener("click", () => { app.view = null; command("undo"); });
  $("btn-swap").addEventListener("click", () => command("swap"));
  $("btn-pause").addEventListener("click", () => command("pause", { paused: !app.snap.paused }));
  $("btn-stop").addEventListener("click", () => attempt(() => post(`/api/sessions/${app.sid}/stop`)));
  $("btn-hint").addEventListener("click", async () => {
    const hint = await attempt(() => post(`/api/sessions/${app.sid}/hint`));
    if (hint) toast(`Hint: ${hint.name}${hint.info && hint.info.verdict ? ` — ${hint.info.verdict.long}` : ""}`);
  });
  $("btn-live").addEventListener("click", () => setView(Infinity));
  $("btn-from-here").addEventListener("click", () => {
    const ply = app.view;
    app.view = null;
    command("truncate", { ply });
  });
  $("nav-first").addEventListener("click", () => setView(0));
  $("nav-prev").addEventListener("click", () => step(-1));
  $("nav-next").addEventListener("click", () => step(1));
  $("nav-last").addEventListener("click", () => setView(Infinity));
  $("nav-play").addEventListener("click", toggleAutoplay);
  $("show-legal").addEventListener("change", (event) => { app.showLegal = event.target.checked; renderBoard(); });
  $("analysis").parentElement.addEventListener("toggle", (event) => { if (event.target.open) loadAnalysis(); });
  $("move-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("move-input").value.trim();
    if (text) playMove(text);
    $("move-input").value = "";
  });
  window.addEventListener("resize", () => {
    if (app.snap) drawGraph($("graph"), app.snap, app.view, (ply) => setView(ply));
    app.board.fitLabels();
  });
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, select, textarea, dialog") || event.ctrlKey || event.metaKey || event.altKey) return;
    const keys = {
      ArrowLeft: () => step(-1), ArrowRight: () => step(1), Home: () => setView(0), End: () => setView(Infinity),
      u: () => $("btn-undo").click(), h: () => $("btn-hint").click(), s: () => $("btn-stop").click(),
      n: () => $("btn-new").click(),
    };
    const action = keys[event.key];
    if (action) { event.preventDefault(); action(); }
  });
}

async function start() {
  app.board = new BoardView($("board"), $("tooltip"), {
    onClick: (move) => playMove(move),
    onHover: (region, legal) => {
      $("hover-name").textContent = region ? `${region.name}${legal ? "" : " (not legal)"}` : "–";
      $("hover-what").textContent = region && region.segment ? "Edge" : "Cell";
    },
  });
  app.catalog = await get("/api/catalog");
  if (app.catalog.plugin_failures.length) toast(app.catalog.plugin_failures.join("; "), true);
  wire();
  const params = new URLSearchParams(location.search);
  let snap = null;
  if (sessionStorage.getItem(STORAGE)) {
    snap = await get(`/api/sessions/${sessionStorage.getItem(STORAGE)}`).catch(() => null);
  }
  if (snap) await adopt(snap);
  else await newDefaultGame();
  if (params.has("game")) {
    // A link only fills in the New game dialog: nothing starts until the user presses Start.
    history.replaceState(null, "", "/");
    app.newGame.open(app.snap, fromQuery(params));
  }
  document.body.dataset.readyMs = performance.now().toFixed(0); // since navigation start
  document.body.dataset.ready = "1";
}

start().catch((error) => {
  $("status").textContent = `Cannot reach the server: ${error.message}`;
  $("status").classList.add("error");
});
