// iago's board: draws what the engine's session sends (state, hints, the engine's search,
// the analysis) and posts the player's requests. It keeps no game of its own.
"use strict";

const $ = (id) => document.getElementById(id);

const view = {
  state: null,
  hints: null,
  thinking: null,
  analysis: null,
  flipped: false,
  focus: null, // [col, row] of the square with the keyboard focus
  receivedAt: 0, // when the state came (for the running clock)
  animated: -1, // the version whose turned discs were animated
  filled: "", // the settings last written into the form
};

// ---- Requests ----------------------------------------------------------------------

async function send(request) {
  try {
    const response = await fetch("/api/command", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(request),
    });
    const answer = await response.json();
    if (!response.ok) {
      showNotice(answer.error || `refused (${response.status})`);
      return null;
    }
    return answer;
  } catch (error) {
    showNotice(`the engine cannot be reached: ${error.message}`);
    return null;
  }
}

function showNotice(text) {
  $("notice").textContent = text || "";
}

// ---- Events --------------------------------------------------------------------------

function connect() {
  const events = new EventSource("/api/events");
  events.addEventListener("state", (e) => onState(JSON.parse(e.data)));
  events.addEventListener("hints", (e) => { view.hints = JSON.parse(e.data); drawBoard(); drawSearch(); });
  events.addEventListener("thinking", (e) => { view.thinking = JSON.parse(e.data); drawSearch(); });
  events.addEventListener("analysis", (e) => { view.analysis = JSON.parse(e.data); drawAnalysis(); drawGraph(); });
  events.addEventListener("lagged", () => reload());
  events.onerror = () => { $("status").textContent = "Connection lost: reconnecting…"; };
  events.onopen = () => reload();
}

async function reload() {
  try {
    const response = await fetch("/api/state");
    if (response.ok) onState(await response.json());
  } catch (error) {
    $("status").textContent = "The engine cannot be reached.";
  }
}

function onState(state) {
  if (view.state && state.version < view.state.version) return;
  view.state = state;
  view.receivedAt = performance.now();
  // The form shows the settings the engine holds, when they change there (not while
  // the player edits it).
  const settings = JSON.stringify([state.players, state.hints.level, state.clock && [state.clock.main_s, state.clock.increment_s]]);
  if (settings !== view.filled) {
    view.filled = settings;
    fillSettings(state);
  }
  draw();
}

// ---- Drawing -------------------------------------------------------------------------

const COLUMNS = "abcdefghijklmnopqrstuvwxyz";

function draw() {
  drawStatus();
  drawBoard();
  drawSearch();
  drawMoves();
  drawGraph();
  drawAnalysis();
}

function title(name) {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

function playerName(color) {
  const p = view.state.players[color];
  if (p.kind === "iago") return `iago ${p.level}`;
  if (p.kind === "random") return "random";
  return "human";
}

function drawStatus() {
  const s = view.state;
  let text;
  if (s.over) text = s.result;
  else if (s.job === "move") text = `${title(s.to_move)} (iago) is thinking…`;
  else text = `${title(s.to_move)} to move`;
  if (!s.autoplay && !s.over && s.players[s.to_move].kind !== "human") text += " — press Go";
  $("status").textContent = text;
  showNotice(s.notice);
  for (const color of ["black", "white"]) {
    $(`count-${color}`).textContent = s.discs[color];
    $(`who-${color}`).textContent = `${title(color)} · ${playerName(color)}`;
    $(`seat-${color}`).classList.toggle("to-move", s.to_move === color);
  }
  $("hints-on").checked = s.hints.on;
  $("back").disabled = $("first").disabled = s.cursor === 0;
  $("forward").disabled = $("last").disabled = s.cursor === s.moves.length;
  $("undo").disabled = s.cursor === 0;
  $("redo").disabled = s.cursor === s.moves.length;
  $("stop").disabled = !s.job;
  $("go").disabled = s.autoplay || s.over;
  $("export-ggf").hidden = !s.features.records;
  $("new-xot").hidden = !s.features.openings;
  $("analysis").hidden = !s.features.analysis;
  drawClocks();
}

function clockText(seconds) {
  const s = Math.max(0, seconds);
  const m = Math.floor(s / 60);
  const rest = s - 60 * m;
  return `${m}:${rest < 10 ? "0" : ""}${rest.toFixed(rest < 10 ? 1 : 0)}`;
}

function drawClocks() {
  const s = view.state;
  for (const color of ["black", "white"]) {
    const el = $(`clock-${color}`);
    if (!s || !s.clock) { el.textContent = ""; continue; }
    let left = s.clock[`${color}_s`];
    if (s.clock.running === color) left -= (performance.now() - view.receivedAt) / 1000;
    el.textContent = clockText(left);
    el.classList.toggle("low", left < 10);
  }
}

// The square drawn at grid place (x, y): the board's square, turned when flipped.
function squareAt(x, y) {
  const n = view.state.size;
  return view.flipped ? [n - 1 - x, n - 1 - y] : [x, y];
}

function squareName(col, row) {
  return `${COLUMNS[col]}${row + 1}`;
}

function drawCoordinates(n) {
  const cols = $("cols-top");
  const rows = $("rows-left");
  cols.style.gridTemplateColumns = `repeat(${n}, 1fr)`;
  rows.style.gridTemplateRows = `repeat(${n}, 1fr)`;
  cols.replaceChildren(...Array.from({ length: n }, (_, x) => {
    const span = document.createElement("span");
    span.textContent = COLUMNS[squareAt(x, 0)[0]];
    return span;
  }));
  rows.replaceChildren(...Array.from({ length: n }, (_, y) => {
    const span = document.createElement("span");
    span.textContent = squareAt(0, y)[1] + 1;
    return span;
  }));
}

function currentHints() {
  const s = view.state;
  const h = view.hints;
  if (!s || !h || !s.hints.on || h.version !== s.version) return new Map();
  const best = h.lines.length ? h.lines[0].value : null;
  const deepest = Math.max(0, ...h.lines.map((l) => l.depth));
  const map = new Map();
  for (const line of h.lines) {
    if (line.col === null) continue;
    map.set(`${line.col},${line.row}`, { line, best: line.value === best, stale: line.depth < deepest && line.kind === "midgame" });
  }
  return map;
}

function hintLabel(line) {
  switch (line.kind) {
    case "wld": return { main: line.text.toUpperCase().slice(0, 1), sub: "solved" };
    case "exact": return { main: line.text, sub: "exact" };
    case "probable": return { main: line.text, sub: `${line.probability}%` };
    case "book": return { main: line.text, sub: "book" };
    default: return { main: line.text, sub: `d${line.depth}` };
  }
}

function drawBoard() {
  const s = view.state;
  if (!s) return;
  const n = s.size;
  const board = $("board");
  board.style.gridTemplateColumns = `repeat(${n}, 1fr)`;
  board.style.gridTemplateRows = `repeat(${n}, 1fr)`;
  drawCoordinates(n);
  const legal = new Map(s.legal.filter((m) => m.col !== null).map((m) => [`${m.col},${m.row}`, m]));
  // Turned discs turn once, when their state is first drawn.
  const flipped = new Set(view.animated === s.version ? [] : s.flipped.map(([c, r]) => `${c},${r}`));
  view.animated = s.version;
  const hints = currentHints();
  if (!view.focus) view.focus = s.legal.length ? [s.legal[0].col, s.legal[0].row] : [0, 0];
  const squares = [];
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const [col, row] = squareAt(x, y);
      const key = `${col},${row}`;
      const cell = s.board[row][col];
      const button = document.createElement("button");
      button.className = "square";
      button.dataset.col = col;
      button.dataset.row = row;
      button.setAttribute("role", "gridcell");
      const focused = view.focus[0] === col && view.focus[1] === row;
      button.tabIndex = focused ? 0 : -1;
      let label = squareName(col, row);
      if (cell !== "-") {
        const stone = document.createElement("span");
        stone.className = `stone ${cell === "x" ? "black" : "white"}`;
        button.append(stone);
        label += cell === "x" ? ", black" : ", white";
      }
      if (legal.has(key)) {
        button.classList.add("legal");
        label += ", legal move";
      }
      if (flipped.has(key)) button.classList.add("flipped");
      if (s.last && s.last.col === col && s.last.row === row) {
        button.classList.add("last");
        label += ", last move";
      }
      const hint = hints.get(key);
      if (hint && legal.has(key)) {
        const { main, sub } = hintLabel(hint.line);
        const span = document.createElement("span");
        span.className = `hint ${hint.line.kind}${hint.best ? " best" : ""}${hint.stale ? " stale" : ""}`;
        span.innerHTML = "";
        span.append(document.createTextNode(main));
        const small = document.createElement("small");
        small.textContent = sub;
        span.append(small);
        button.append(span);
        button.classList.add("hinted");
        label += `, hint ${main} ${sub}`;
      }
      button.setAttribute("aria-label", label);
      squares.push(button);
    }
  }
  const hadFocus = board.contains(document.activeElement);
  board.replaceChildren(...squares);
  if (hadFocus) focusSquare();
}

function focusSquare() {
  const [col, row] = view.focus;
  const el = $("board").querySelector(`[data-col="${col}"][data-row="${row}"]`);
  if (el) el.focus();
}

function formatNodes(nodes) {
  if (nodes >= 1e9) return `${(nodes / 1e9).toFixed(2)} G`;
  if (nodes >= 1e6) return `${(nodes / 1e6).toFixed(1)} M`;
  if (nodes >= 1e3) return `${(nodes / 1e3).toFixed(0)} k`;
  return `${nodes}`;
}

function searchText(depth, nodes, ms) {
  const rate = ms > 0 ? ` · ${formatNodes((nodes * 1000) / ms)} nodes/s` : "";
  return `depth ${depth} · ${formatNodes(nodes)} nodes · ${(ms / 1000).toFixed(1)} s${rate}`;
}

function drawSearch() {
  const s = view.state;
  if (!s) return;
  const line = $("search-line");
  const pv = $("pv");
  if (s.job === "move" && view.thinking && view.thinking.version === s.version) {
    const t = view.thinking;
    line.textContent = t.depth ? `iago: ${t.text} (${t.kind}) · ${searchText(t.depth, t.nodes, t.ms)}` : "iago is thinking…";
    pv.textContent = t.pv.join(" ");
  } else if (s.hints.on && view.hints && view.hints.version === s.version) {
    const h = view.hints;
    const best = h.lines[0];
    line.textContent = `${h.done ? "Hints" : "Hints, searching"}: ${searchText(h.depth, h.nodes, h.ms)}`;
    pv.textContent = best ? `${best.text} ${best.pv.join(" ")}` : "";
  } else {
    line.textContent = s.job ? "Searching…" : "Idle.";
    pv.textContent = "";
  }
}

function drawMoves() {
  const s = view.state;
  const list = $("moves");
  const items = s.moves.map((text, i) => {
    const span = document.createElement("span");
    span.textContent = `${i + 1}.${text}`;
    span.dataset.ply = i + 1;
    if (i >= s.cursor) span.classList.add("redo");
    if (i + 1 === s.cursor) span.classList.add("current");
    return span;
  });
  list.replaceChildren(...items);
}

// The graph's points: the analysis's where there is one, else the game's own.
function graphPoints() {
  const points = new Map();
  for (const p of view.state.evals) points.set(p.ply, p);
  if (view.analysis && view.analysis.points) {
    for (const p of view.analysis.points) points.set(p.ply, p);
  }
  return [...points.values()].sort((a, b) => a.ply - b.ply);
}

function drawGraph() {
  const s = view.state;
  if (!s) return;
  const svg = $("graph");
  const W = 600, H = 180, L = 30, R = 8, T = 8, B = 18;
  const points = graphPoints();
  const plies = Math.max(s.moves.length, 20, ...points.map((p) => p.ply));
  const top = Math.max(4, ...points.map((p) => Math.abs(p.black)));
  const scale = [4, 8, 16, 32, 64].find((v) => v >= top) || 64;
  const x = (ply) => L + ((W - L - R) * ply) / plies;
  const y = (v) => T + ((H - T - B) * (scale - Math.max(-scale, Math.min(scale, v)))) / (2 * scale);
  const ns = "http://www.w3.org/2000/svg";
  const el = (name, attrs) => {
    const e = document.createElementNS(ns, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    return e;
  };
  const parts = [];
  for (const v of [scale, scale / 2, 0, -scale / 2, -scale]) {
    parts.push(el("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: v === 0 ? "zero" : "axis" }));
    const label = el("text", { x: 2, y: y(v) + 4 });
    label.textContent = v > 0 ? `+${v}` : `${v}`;
    parts.push(label);
  }
  parts.push(el("line", { x1: x(s.cursor), x2: x(s.cursor), y1: T, y2: H - B, class: "cursor" }));
  if (points.length > 1) {
    parts.push(el("polyline", { class: "curve", points: points.map((p) => `${x(p.ply)},${y(p.black)}`).join(" ") }));
  }
  for (const p of points) {
    const dot = el("circle", { cx: x(p.ply), cy: y(p.black), r: 4, class: `point ${p.kind}` });
    dot.dataset.ply = p.ply;
    const tip = el("title", {});
    tip.textContent = `after ${p.ply} moves: ${p.text} (${p.kind}, ${p.source})`;
    dot.append(tip);
    parts.push(dot);
  }
  svg.replaceChildren(...parts);
}

function drawAnalysis() {
  const a = view.analysis;
  const s = view.state;
  const body = $("analysis-table").querySelector("tbody");
  if (!a || !s) { body.replaceChildren(); $("analysis-summary").textContent = ""; return; }
  $("analyze").textContent = a.running ? "Stop the analysis" : "Analyze game";
  $("analysis-summary").textContent = a.running ? `Analysing… ${a.rows.length} moves so far. ${a.summary}` : a.summary || "";
  body.replaceChildren(...a.rows.map((r) => {
    const tr = document.createElement("tr");
    tr.dataset.ply = r.number - 1;
    if (r.lost >= 3) tr.classList.add("mistake");
    if (r.number - 1 === s.cursor) tr.classList.add("current");
    for (const v of [r.number, r.color, r.played, r.played_score, r.best, r.best_score, r.lost, r.exact ? "exact" : `d${r.depth}`]) {
      const td = document.createElement("td");
      td.textContent = v;
      tr.append(td);
    }
    return tr;
  }));
  // The current move's row in sight, within the table's own scroll (never the page's).
  const current = body.querySelector("tr.current");
  const box = $("analysis-scroll");
  if (current && (current.offsetTop < box.scrollTop || current.offsetTop > box.scrollTop + box.clientHeight - 30)) {
    box.scrollTop = current.offsetTop - box.clientHeight / 2;
  }
}

function fillSettings(state) {
  for (const color of ["black", "white"]) {
    $(`${color}-kind`).value = state.players[color].kind;
    $(`${color}-level`).value = state.players[color].level;
  }
  $("hint-level").value = state.hints.level;
  if (state.clock) {
    $("clock-minutes").value = state.clock.main_s / 60;
    $("clock-increment").value = state.clock.increment_s;
  } else {
    $("clock-minutes").value = "";
  }
}

// ---- Actions -------------------------------------------------------------------------

function play(col, row) {
  const s = view.state;
  const mv = s.legal.find((m) => m.col === col && m.row === row);
  if (!mv) return;
  view.focus = [col, row];
  send({ op: "move", move: mv.move });
}

function goto(ply) {
  send({ op: "goto", ply });
}

function player(color) {
  return { kind: $(`${color}-kind`).value, level: Number($(`${color}-level`).value) };
}

async function applySettings() {
  // Read the whole form before the first answer redraws it.
  const players = { op: "players", black: player("black"), white: player("white") };
  const minutes = $("clock-minutes").value;
  const clock = minutes === "" ? { op: "clock" } : { op: "clock", minutes: Number(minutes), increment: Number($("clock-increment").value || 0) };
  const hints = { op: "hints", on: $("hints-on").checked, level: Number($("hint-level").value) };
  for (const request of [clock, hints, players]) await send(request);
}

async function exportAs(format) {
  const answer = await send({ op: "export", format });
  if (answer) {
    $("game-text").value = answer.text;
    $("game-text").select();
  }
}

function moveFocus(dx, dy) {
  const n = view.state.size;
  // The keys move on the board as drawn.
  const sx = view.flipped ? -dx : dx;
  const sy = view.flipped ? -dy : dy;
  const [c, r] = view.focus;
  view.focus = [Math.max(0, Math.min(n - 1, c + sx)), Math.max(0, Math.min(n - 1, r + sy))];
  drawBoard();
  focusSquare();
}

function setup() {
  $("board").addEventListener("click", (e) => {
    const square = e.target.closest(".square");
    if (square) play(Number(square.dataset.col), Number(square.dataset.row));
  });
  $("board").addEventListener("keydown", (e) => {
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (moves[e.key]) {
      e.preventDefault();
      moveFocus(...moves[e.key]);
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      play(...view.focus);
    }
  });
  $("moves").addEventListener("click", (e) => {
    if (e.target.dataset.ply) goto(Number(e.target.dataset.ply));
  });
  $("graph").addEventListener("click", (e) => {
    if (e.target.dataset && e.target.dataset.ply) goto(Number(e.target.dataset.ply));
  });
  $("analysis-table").addEventListener("click", (e) => {
    const tr = e.target.closest("tr");
    if (tr && tr.dataset.ply !== undefined) goto(Number(tr.dataset.ply));
  });
  $("first").onclick = () => goto(0);
  $("back").onclick = () => goto(Math.max(0, view.state.cursor - 1));
  $("forward").onclick = () => goto(Math.min(view.state.moves.length, view.state.cursor + 1));
  $("last").onclick = () => goto(view.state.moves.length);
  $("undo").onclick = () => send({ op: "undo" });
  $("redo").onclick = () => send({ op: "redo" });
  $("go").onclick = () => send({ op: "go" });
  $("stop").onclick = () => send({ op: "stop" });
  $("flip").onclick = () => { view.flipped = !view.flipped; drawBoard(); };
  $("hints-on").onchange = () => send({ op: "hints", on: $("hints-on").checked, level: Number($("hint-level").value) });
  $("apply-players").onclick = applySettings;
  $("new-start").onclick = () => send({ op: "new", from: "start" });
  $("new-xot").onclick = () => send({ op: "new", from: "xot" });
  $("new-text").onclick = () => send({ op: "new", from: "text", text: $("game-text").value });
  $("export-ggf").onclick = () => exportAs("ggf");
  $("export-transcript").onclick = () => exportAs("transcript");
  $("export-position").onclick = () => exportAs("position");
  $("analyze").onclick = () => {
    if (view.analysis && view.analysis.running) send({ op: "stop" });
    else send({ op: "analyze", depth: Number($("analysis-depth").value), verify: Number($("analysis-verify").value) });
  };
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input, textarea, select") || e.ctrlKey || e.metaKey || e.altKey || !view.state) return;
    const s = view.state;
    const keys = {
      u: () => send({ op: "undo" }),
      r: () => send({ op: "redo" }),
      g: () => send({ op: "go" }),
      h: () => send({ op: "hints", on: !s.hints.on }),
      f: () => { view.flipped = !view.flipped; drawBoard(); },
      Escape: () => send({ op: "stop" }),
      Home: () => goto(0),
      End: () => goto(s.moves.length),
      PageUp: () => goto(Math.max(0, s.cursor - 1)),
      PageDown: () => goto(Math.min(s.moves.length, s.cursor + 1)),
    };
    if (keys[e.key]) {
      e.preventDefault();
      keys[e.key]();
    }
  });
  setInterval(drawClocks, 200);
  connect();
}

setup();
