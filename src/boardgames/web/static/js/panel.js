// The side panel: players and scores, the result, the AI's live search, the moves.

import { swatch } from "./colours.js";

const $ = (id) => document.getElementById(id);

function element(tag, className = "", text = "") {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
}

const number = new Intl.NumberFormat("en-US");

export function describeSide(side) {
  if (side.ai === null) return "human";
  return `${side.ai} · ${side.time} s/move`;
}

export function renderPlayers(snap) {
  const box = $("players");
  box.innerHTML = "";
  snap.game.players.forEach((colour, index) => {
    const row = element("div", "player");
    row.dataset.side = index;
    if (snap.to_move === index) row.classList.add("to-move");
    const dot = element("span", "swatch");
    swatch(dot, colour, index);
    const who = element("div", "who");
    who.append(element("span", "colour", colour), element("span", "kind", describeSide(snap.sides[index])));
    const score = element("span", "score", snap.scores ? String(snap.scores[index]) : "");
    row.append(dot, who, score);
    box.appendChild(row);
  });
}

export function renderResult(snap) {
  const box = $("result");
  const outcome = snap.outcome;
  const record = snap.record_result;
  if (!outcome && !record) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  box.innerHTML = "";
  if (outcome) {
    const text = outcome.winner === null ? "Draw" : `${cap(outcome.winner_name)} wins`;
    box.append(element("div", "", `${text} — ${outcome.reason}`));
    if (outcome.scores) box.append(element("div", "detail", `final score ${outcome.scores[0]}–${outcome.scores[1]}`));
  }
  if (record) box.append(element("div", "detail", `record: ${record.text}`));
}

export function cap(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

// --- the AI's search ---------------------------------------------------------------------

let clock = null;

export function renderThinking(job, snap) {
  const card = $("thinking");
  clearInterval(clock);
  card.classList.toggle("active", Boolean(job));
  if (job) {
    const colour = snap ? snap.game.players[job.side] : "";
    const what = job.kind === "hint" ? `Hint for ${colour} (${job.spec})` : `${cap(colour)} (${job.spec}) is thinking`;
    if (job.waiting) {
      // The server runs so many searches at once; this one waits its turn.
      $("think-title").textContent = `${job.kind === "hint" ? `Hint for ${colour}` : cap(colour)} waits for a free search slot…`;
      $("think-clock").textContent = "";
      $("think-bar").style.width = "0";
      fillStats(null);
      $("think-note").textContent = "Other games' searches are running; this one starts when one ends.";
      return;
    }
    $("think-title").textContent = job.stopping ? `${what} — stopping…` : `${what}…`;
    const started = performance.now() - job.elapsed * 1000;
    const tick = () => {
      const seconds = (performance.now() - started) / 1000;
      $("think-clock").textContent = `${seconds.toFixed(1)} s / ${job.budget} s`;
      $("think-bar").style.width = `${Math.min(100, (seconds / job.budget) * 100)}%`;
    };
    tick();
    clock = setInterval(tick, 100);
    fillStats(job.info);
    card.dataset.depth = job.info && job.info.depth ? job.info.depth : "";
    $("think-note").textContent = job.live
      ? ""
      : job.stopping
        ? "This AI cannot be interrupted: it moves when its time is up."
        : "This AI reports when it has moved (no live search to show).";
    return;
  }
  const last = snap ? [...snap.moves].reverse().find((m) => m.info && m.info.depth !== undefined) : null;
  $("think-clock").textContent = "";
  $("think-bar").style.width = last ? "100%" : "0";
  if (!last) {
    $("think-title").textContent = "AI search";
    fillStats(null);
    $("think-note").textContent = "The AI's depth, score and principal variation show here while it thinks.";
    return;
  }
  const colour = snap.game.players[last.side];
  $("think-title").textContent = `Last search: ${colour} (${last.by}) played ${last.text}`;
  fillStats(last.info);
  $("think-note").textContent = [last.info.stopped ? "stopped early: moved now" : "", howText(last.info)].filter(Boolean).join(" · ");
}

const SEARCHES = new Set(["negascout", "alphabeta", "minimax", "mcts", "seed001", ""]);

// What the search's score says, from the server: who is ahead and by how
// much ('White +97', 'Black wins in 3', 'White 63%'), with its meaning.
export function scoreText(info) {
  return info.verdict ? info.verdict.short : info.score_text;
}

export function scoreMeaning(info) {
  return info.verdict ? info.verdict.long : "";
}

export function howText(info) {
  if (!info || SEARCHES.has(info.algorithm || "")) return "";
  return `chose by: ${info.algorithm}`;
}

function fillStats(info) {
  const has = info && info.depth !== undefined;
  $("st-depth").textContent = has ? String(info.depth) : "–";
  $("st-score").textContent = has ? scoreText(info) : "–";
  $("st-score-meaning").textContent = has ? scoreMeaning(info) : "";
  $("st-nodes").textContent = has ? number.format(info.nodes) : "–";
  $("st-nps").textContent = has ? number.format(info.nps) : "–";
  $("st-pv").textContent = has && info.pv.length ? info.pv.join(" ") : "–";
}

// --- the move list ----------------------------------------------------------------------------

export function renderMoves(snap, viewPly, onPick) {
  const list = $("moves");
  const current = viewPly === null ? snap.ply : viewPly;
  list.innerHTML = "";
  const start = element("li", "start", "start position");
  start.dataset.ply = 0;
  if (current === 0) start.classList.add("current");
  list.appendChild(start);
  snap.moves.forEach((move, i) => {
    const li = element("li");
    li.dataset.ply = i + 1;
    const dot = element("span", "dot");
    swatch(dot, snap.game.players[move.side], move.side);
    li.append(element("span", "n", String(i + 1)), dot, element("span", "t", move.text));
    const info = move.info && move.info.verdict ? `, ${move.info.verdict.long}, depth ${move.info.depth}` : "";
    li.title = `${snap.game.players[move.side]} (${move.by})${info}`;
    if (current === i + 1) li.classList.add("current");
    list.appendChild(li);
  });
  list.onclick = (event) => {
    const li = event.target.closest("li");
    if (li) onPick(Number(li.dataset.ply));
  };
  const active = list.querySelector(".current");
  if (active) active.scrollIntoView({ block: "nearest" });
}
