// The record viewer: a record is checked by the server, which sends its moves and a window of its positions;
// stepping outside the window asks for the window around the new ply.
//
// The game review: the server reviews the record piece by piece on its engine's study workers (POST
// /api/review with piece 0, 1, ...), the first piece small and the positions spread over the game, so the
// graph starts within a second or two and fills in as the pieces come. Values are on one seat's scale
// where the game has two seats (seat 0's), else each mover's own (a line a seat). A flagged move's better
// move is marked on the board, before the move, and named in the move list. "Learn from your mistakes"
// takes a seat through the positions where it went wrong: the page offers the legal moves' clicks the
// server sent and the server values the move clicked (POST /api/review/try): the page knows no rules.
import { describeSettings, drawBoard, drawChoices, drawMoves, loadRenderer, narrowClicks, seatLabel, tapTarget, text } from "/static/board.js";

const message = document.getElementById("message");
const textArea = document.getElementById("record-text");
const boardElement = document.getElementById("board");
const choices = document.getElementById("choices");
const params = new URLSearchParams(location.search);
let data = null;
let record = "";
let steps = new Map();
let renderer = null;
let ply = 0;
let orientation = 0;
let review = null; // the review of the record shown: {text, moves: Map(ply -> entry), pieces, running, ...}
let learning = null; // learning from one seat's mistakes: {seat, done, entry, position, selection, ...}

async function replay(recordText, around) {
  const body = { record: recordText };
  if (around !== undefined) body.around = around;
  const response = await fetch("/api/records/replay", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error);
  return answer;
}

// A POST of the review's: a 429 (this address's engine jobs all busy) waits its turn and asks again.
async function post(url, body) {
  for (let attempt = 0; ; attempt += 1) {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = await response.json().catch(() => ({}));
    if (response.status === 429 && attempt < 60) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      continue;
    }
    if (!response.ok) throw new Error(answer.error ?? `the server answered ${response.status}`);
    return answer;
  }
}

function keep(answer) {
  answer.steps.forEach((step, index) => steps.set(answer.first_step + index, step));
}

document.getElementById("record-file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (file) textArea.value = await file.text();
});

async function openRecord() {
  message.textContent = "";
  let answer;
  try {
    answer = await replay(textArea.value);
  } catch (error) {
    message.textContent = error.message;
    return;
  }
  data = answer;
  review = null;
  stopLearning();
  document.getElementById("analysis").hidden = true;
  record = textArea.value;
  steps = new Map();
  keep(answer);
  renderer = await loadRenderer(data.game.id);
  boardElement.className = `board board-${data.game.id}`;
  document.getElementById("title").textContent = data.game.name;
  describeSettings(document.getElementById("rules"), data.game);
  const seats = document.getElementById("seats");
  seats.replaceChildren(...data.names.map((name, index) => text("li", `${data.game.players[index]}: ${name}`, `seat seat-${index}`)));
  const seatChoice = document.getElementById("learn-seat");
  seatChoice.replaceChildren(
    ...data.game.players.map((player, index) => {
      const option = text("option", `${player} (${data.names[index]})`);
      option.value = String(index);
      return option;
    }),
  );
  document.getElementById("viewer").hidden = false;
  ply = data.plies;
  render();
}

document.getElementById("open").addEventListener("click", () => openRecord());

// --- The review ---

function engineWords(budget) {
  return budget.kernel
    ? (budget.level
      ? `the compiled alpha-beta of the ${budget.level} level, ${budget.seconds} s a position`
      : `the compiled alpha-beta (${budget.searcher}), ${budget.seconds} s a position`)
    : `the pure-Python reference alpha-beta (this game has no compiled kernel here, so the review is slower and shallower), ${budget.seconds} s a position`;
}

function scaleWords() {
  if (review.scale?.seat === 0) {
    const other = data.game.players[1];
    return `Values are ${review.scale.name}'s: +1 is a win for ${review.scale.name}, -1 a win for ${other}.`;
  }
  return "Each seat's line is the value of its own moves for that seat: +1 won, -1 lost.";
}

async function startReview() {
  if (!data || (review && review.text === record)) return;
  const mine = { text: record, moves: new Map(), pieces: null, positions: null, running: true, complete: false, started: performance.now() };
  review = mine;
  const status = document.getElementById("analysis-status");
  document.getElementById("analysis").hidden = false;
  status.textContent = "Reviewing the game: the first moves come in a second or two…";
  drawReview();
  for (let piece = 0; mine.pieces === null || piece < mine.pieces; piece += 1) {
    let answer;
    try {
      answer = await post("/api/review", { record: mine.text, piece });
    } catch (error) {
      if (review !== mine) return;
      mine.running = false;
      status.textContent = `The review stopped: ${error.message}`;
      if (learning) nextMistake();
      return;
    }
    if (review !== mine) return; // another record was opened
    Object.assign(mine, { pieces: answer.pieces, positions: answer.positions, budget: answer.budget, scale: answer.scale, mistake: answer.mistake });
    for (const move of answer.moves) mine.moves.set(move.ply, move);
    if (piece + 1 < answer.pieces) {
      status.textContent = `Reviewing the game: ${mine.moves.size} of ${answer.positions} moves so far (${engineWords(answer.budget)}). ${scaleWords()}`;
    }
    render();
    if (learning && !learning.entry) nextMistake();
  }
  mine.running = false;
  mine.complete = true;
  const seconds = ((performance.now() - mine.started) / 1000).toFixed(1);
  const flagged = [...mine.moves.values()].filter((move) => move.verdict).length;
  status.textContent =
    `${mine.moves.size} move${mine.moves.size === 1 ? "" : "s"} analysed in ${seconds} s (${engineWords(mine.budget)}): ${flagged} flagged. ${scaleWords()}`;
  render();
  if (learning && !learning.entry) nextMistake();
}

document.getElementById("analyse").addEventListener("click", () => startReview());

const SEAT_COLOURS = ["#2f5d8a", "#b0392b", "#2d8a55", "#7a2f7a"];
function drawReview() {
  if (!review || !data) return;
  const total = Math.max(1, data.plies);
  const width = 600;
  const height = 220;
  const left = 44;
  const x = (at) => left + ((width - left - 10) * at) / total;
  const y = (value) => height / 2 - (value * (height - 30)) / 2;
  const fixed = review.scale?.seat === 0;
  const moves = [...review.moves.values()].sort((a, b) => a.ply - b.ply);
  let svg = `<svg viewBox="0 0 ${width} ${height}" role="img" aria-label="the review's graph">`;
  svg += `<rect x="0" y="0" width="${width}" height="${height}" fill="#fffaf1"/>`;
  svg += `<line x1="${left}" x2="${width - 10}" y1="${y(0)}" y2="${y(0)}" stroke="#c9b79c"/>`;
  svg += `<text class="axis" x="${left - 4}" y="${y(1) + 4}" text-anchor="end">+1</text><text class="axis" x="${left - 4}" y="${y(-1)}" text-anchor="end">-1</text>`;
  const axis = fixed ? `value for ${review.scale.name}` : "each seat's own value";
  svg += `<text class="axis y-axis" transform="translate(12 ${height / 2}) rotate(-90)" text-anchor="middle">${axis}</text>`;
  if (fixed) {
    svg += `<text class="axis" x="${left + 4}" y="12">${review.scale.name} wins</text><text class="axis" x="${left + 4}" y="${height - 4}">${data.game.players[1]} wins</text>`;
  }
  const lines = fixed ? [moves] : data.game.players.map((_, seat) => moves.filter((move) => move.seat === seat));
  lines.forEach((line, index) => {
    if (line.length < 2) return;
    const points = line.map((move) => `${x(move.ply).toFixed(1)},${y(move.value).toFixed(1)}`);
    svg += `<polyline class="line" points="${points.join(" ")}" fill="none" stroke="${SEAT_COLOURS[index % 4]}" stroke-width="2"/>`;
  });
  if (!fixed) {
    data.game.players.forEach((player, seat) => {
      svg += `<text class="axis" x="${left + 4 + seat * 110}" y="12" fill="${SEAT_COLOURS[seat % 4]}">— ${player}</text>`;
    });
  }
  for (const move of moves) {
    const colour = move.verdict === "blunder" ? "#b3261e" : move.verdict === "mistake" ? "#e08a00" : SEAT_COLOURS[(fixed ? 0 : move.seat) % 4];
    const radius = move.verdict ? 5 : 2.5;
    const title = `${move.ply}. ${data.game.players[move.seat]}: ${move.played} (${move.value.toFixed(2)})${move.verdict ? `, ${move.verdict}: better ${move.best}` : ""}`;
    svg += `<circle class="point${move.verdict ? ` ${move.verdict}` : ""}" data-ply="${move.ply}" cx="${x(move.ply).toFixed(1)}" cy="${y(move.value).toFixed(1)}" r="${radius}" fill="${colour}"><title>${escapeText(title)}</title></circle>`;
  }
  svg += `<line class="cursor" x1="${x(ply)}" x2="${x(ply)}" y1="5" y2="${height - 5}" stroke="#a4471e" stroke-dasharray="3 3"/>`;
  svg += "</svg>";
  document.getElementById("graph").innerHTML = svg;
  const list = document.getElementById("mistakes");
  list.replaceChildren();
  for (const move of moves.filter((entry) => entry.verdict)) {
    const item = document.createElement("li");
    const mark = move.verdict === "blunder" ? "??" : "?";
    const who = data.game.players[move.seat];
    const button = text(
      "button",
      `${move.ply}. ${who}: ${move.played}${mark}  better ${move.best} (${move.played_value.toFixed(2)} instead of ${move.best_value.toFixed(2)} for ${who})`,
      `flag ${move.verdict}`,
    );
    button.type = "button";
    button.dataset.ply = String(move.ply);
    button.title = "show the better move on the board";
    button.addEventListener("click", () => stepTo(move.ply - 1));
    item.append(button);
    list.append(item);
  }
}

function escapeText(value) {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

document.getElementById("graph").addEventListener("click", (event) => {
  const point = event.target.closest("[data-ply]");
  if (point) stepTo(Number(point.dataset.ply));
});

// The better move's targets, ringed and numbered in the order they are clicked, over the board.
let marked = [];
function markBetter(targets) {
  marked = [...new Set(targets)];
  boardElement.querySelector(".better-overlay")?.remove();
  for (const element of boardElement.querySelectorAll("[data-target].better")) element.classList.remove("better");
  if (!marked.length) return;
  const box = boardElement.getBoundingClientRect();
  const ns = "http://www.w3.org/2000/svg";
  const overlay = document.createElementNS(ns, "svg");
  overlay.setAttribute("class", "better-overlay");
  overlay.setAttribute("width", String(box.width));
  overlay.setAttribute("height", String(box.height));
  let number = 0;
  for (const target of marked) {
    const element = boardElement.querySelector(`[data-target="${CSS.escape(target)}"]`);
    if (!element) continue;
    element.classList.add("better");
    number += 1;
    const area = element.getBoundingClientRect();
    const cx = area.left - box.left + area.width / 2;
    const cy = area.top - box.top + area.height / 2;
    const radius = Math.max(10, Math.min(area.width, area.height) / 2);
    const ring = document.createElementNS(ns, "circle");
    ring.setAttribute("class", "ring");
    ring.setAttribute("cx", String(cx));
    ring.setAttribute("cy", String(cy));
    ring.setAttribute("r", String(radius));
    const badge = document.createElementNS(ns, "circle");
    badge.setAttribute("class", "order");
    badge.setAttribute("cx", String(cx + radius * 0.75));
    badge.setAttribute("cy", String(cy - radius * 0.75));
    badge.setAttribute("r", "7");
    const label = document.createElementNS(ns, "text");
    label.setAttribute("x", String(cx + radius * 0.75));
    label.setAttribute("y", String(cy - radius * 0.75));
    label.textContent = String(number);
    overlay.append(ring, badge, label);
  }
  boardElement.append(overlay);
}
window.addEventListener("resize", () => markBetter(marked));

// The flagged moves in the move list: "?" or "??" after the move, and the better move under it.
function annotateMoves() {
  if (!review) return;
  for (const move of review.moves.values()) {
    if (!move.verdict) continue;
    const button = document.querySelector(`#moves button[data-ply="${move.ply}"]`);
    if (!button) continue;
    button.classList.add(`flag-${move.verdict}`);
    button.title = `${move.verdict}: better ${move.best}`;
    button.parentElement.append(text("span", `better: ${move.best}`, "better-note"));
  }
}

async function render() {
  if (learning && learning.position) {
    renderLearning();
    return;
  }
  const shown = ply;
  if (!steps.has(shown)) {
    try {
      keep(await replay(record, shown));
    } catch (error) {
      message.textContent = error.message;
      return;
    }
    if (shown !== ply || (learning && learning.position)) return; // the user stepped on while the window came
  }
  const step = steps.get(shown);
  // After the last move of a finished game nobody is to move, even where the game ended off the board
  // (a resignation, a loss on time) and its last position would still name a mover.
  const over = data.finished && shown === data.plies;
  drawBoard(boardElement, renderer, step.position, { orientation, names: data.game.players, last: step.last, over });
  const boardLink = document.getElementById("analysis-board-link"); // this position on the analysis board
  boardLink.href = `/analysis/${data.game.id}?${new URLSearchParams({ settings: data.game.settings, position: step.position_text })}`;
  boardElement.classList.remove("my-turn");
  choices.replaceChildren();
  const total = data.plies;
  document.getElementById("status").textContent =
    ply === total ? `After the last move (${total}): ${data.result_text}.` : `After move ${ply} of ${total}.`;
  const seats = data.names.map((name) => ({ name }));
  const labels = data.game.players.map((_, seat) => seatLabel(data.game.players, seats, seat));
  drawMoves(document.getElementById("moves"), data.moves, labels, ply, stepTo);
  annotateMoves();
  // The move about to be played here was flagged: its better move, on this board.
  const next = review?.moves.get(ply + 1);
  const caption = document.getElementById("better-caption");
  if (next && next.verdict) {
    markBetter(next.best_targets);
    caption.textContent = `Move ${next.ply}: ${data.game.players[next.seat]} played ${next.played}, a ${next.verdict}; better ${next.best} (marked on the board).`;
  } else {
    markBetter([]);
    caption.textContent = "";
  }
  if (review) drawReview();
}

function stepTo(target) {
  if (!data) return;
  if (learning) stopLearning();
  ply = Math.max(0, Math.min(data.plies, target));
  render();
}

// --- Learn from your mistakes ---

const learnBox = document.getElementById("learn-box");
const learnTask = document.getElementById("learn-task");
const learnVerdict = document.getElementById("learn-verdict");

function startLearning(seat) {
  if (!data) return;
  learning = { seat, done: new Set(), entry: null, position: null, selection: [], busy: false, solved: false, shown: null, revealed: false };
  learnBox.hidden = false;
  learnVerdict.textContent = "";
  learnVerdict.className = "verdict";
  startReview();
  nextMistake();
}

function stopLearning() {
  learning = null;
  learnBox.hidden = true;
  choices.replaceChildren();
}

function seatName(seat) {
  return data.game.players[seat];
}

async function nextMistake() {
  if (!learning || !review) return;
  const mine = learning;
  const entry = [...review.moves.values()]
    .filter((move) => move.verdict && move.seat === mine.seat && !mine.done.has(move.ply))
    .sort((a, b) => a.ply - b.ply)[0];
  Object.assign(mine, { entry: entry ?? null, position: null, selection: [], solved: false, shown: null, revealed: false });
  learnVerdict.textContent = "";
  learnVerdict.className = "verdict";
  if (!entry) {
    if (review.running) {
      learnTask.textContent = `Looking for ${seatName(mine.seat)}'s mistakes: the review has ${review.moves.size} of ${review.positions ?? "the"} moves so far…`;
    } else if (mine.done.size) {
      learnTask.textContent = `That was the last of ${seatName(mine.seat)}'s flagged moves (${mine.done.size} gone over).`;
    } else {
      learnTask.textContent = `The review flagged no move of ${seatName(mine.seat)}'s.`;
    }
    render();
    return;
  }
  learnTask.textContent = `Move ${entry.ply}: ${seatName(entry.seat)} played ${entry.played} here, a ${entry.verdict}. Find a better move: click it on the board.`;
  let position;
  try {
    position = await post("/api/review/position", { record: review.text, ply: entry.ply });
  } catch (error) {
    learnTask.textContent = `This position could not be shown: ${error.message}`;
    return;
  }
  if (learning !== mine || mine.entry !== entry) return;
  mine.position = position;
  ply = entry.ply - 1;
  render();
}

function candidates() {
  return narrowClicks(learning.position.legal, learning.selection).candidates;
}

function nextTargets() {
  return narrowClicks(learning.position.legal, learning.selection).next;
}

function renderLearning() {
  const live = !learning.solved && !learning.busy;
  const next = live ? nextTargets() : new Set();
  const view = learning.shown ? learning.shown.view : learning.position.view;
  drawBoard(boardElement, renderer, view, {
    orientation,
    names: data.game.players,
    last: learning.shown ? learning.shown.last : [],
    selectable: [...next].filter((target) => !target.startsWith("opt:")),
    selected: live ? learning.selection : [],
  });
  boardElement.classList.toggle("my-turn", live);
  drawChoices(choices, next, learnClick);
  markBetter(learning.revealed && !learning.shown ? learning.entry.best_targets : []);
  document.getElementById("status").textContent = `Learning from ${seatName(learning.seat)}'s mistakes: the position before move ${learning.entry.ply}.`;
  document.getElementById("better-caption").textContent = learning.revealed ? `The better move: ${learning.entry.best} (marked on the board).` : "";
  const seats = data.names.map((name) => ({ name }));
  const labels = data.game.players.map((_, seat) => seatLabel(data.game.players, seats, seat));
  drawMoves(document.getElementById("moves"), data.moves, labels, learning.entry.ply - 1, stepTo);
  annotateMoves();
  if (review) drawReview();
}

function learnClick(target) {
  if (!learning || !learning.position || learning.solved || learning.busy) return;
  const selection = learning.selection;
  if (selection.length && selection[selection.length - 1] === target) selection.pop();
  else if (nextTargets().has(target)) selection.push(target);
  else if (learning.position.legal.some((move) => move.clicks[0] === target)) learning.selection = [target];
  else learning.selection = [];
  const complete = candidates().find((move) => move.clicks.length === learning.selection.length);
  if (complete && learning.selection.length) tryMove(complete.text);
  else render();
}

async function tryMove(moveText) {
  const mine = learning;
  mine.busy = true;
  render();
  let answer;
  try {
    answer = await post("/api/review/try", { record: review.text, ply: mine.entry.ply, move: moveText });
  } catch (error) {
    answer = { legal: false, right: false, message: error.message };
  }
  if (learning !== mine) return;
  mine.busy = false;
  mine.selection = [];
  learnVerdict.textContent = answer.note ? `${answer.message} (${answer.note}.)` : answer.message;
  learnVerdict.className = `verdict ${answer.right ? "right" : "wrong"}`;
  if (answer.right) {
    mine.solved = true;
    mine.done.add(mine.entry.ply);
    mine.shown = { view: answer.view, last: answer.last };
  }
  render();
}

boardElement.addEventListener("click", (event) => {
  if (!learning || !learning.position) return;
  const target = tapTarget(boardElement, event);
  if (target) learnClick(target);
});
document.getElementById("learn-start").addEventListener("click", () => {
  startLearning(Number(document.getElementById("learn-seat").value));
});
document.getElementById("learn-show").addEventListener("click", () => {
  if (!learning || !learning.entry) return;
  learning.revealed = true;
  learning.shown = null;
  render();
});
document.getElementById("learn-next").addEventListener("click", () => {
  if (!learning) return;
  if (learning.entry) learning.done.add(learning.entry.ply);
  nextMistake();
});
document.getElementById("learn-stop").addEventListener("click", () => {
  stopLearning();
  render();
});

document.getElementById("first").addEventListener("click", () => stepTo(0));
document.getElementById("prev").addEventListener("click", () => stepTo(ply - 1));
document.getElementById("next").addEventListener("click", () => stepTo(ply + 1));
document.getElementById("latest").addEventListener("click", () => stepTo(Infinity));
document.getElementById("flip").addEventListener("click", () => {
  orientation = (orientation + 1) % data.game.players.length;
  render();
});
document.addEventListener("keydown", (event) => {
  if (!data || event.target.closest("input, textarea, select")) return;
  if (event.key === "ArrowLeft") stepTo(ply - 1);
  if (event.key === "ArrowRight") stepTo(ply + 1);
});

// Opened as /viewer?game=ID (the game page's "Analyse"): that game's record, reviewed at once when the
// game is over; with &learn=SEAT (its "Learn from your mistakes"), that seat's mistakes are gone over.
const fromGame = params.get("game");
if (fromGame) {
  const response = await fetch(`/api/games/${encodeURIComponent(fromGame)}/record`);
  if (response.ok) {
    textArea.value = await response.text();
    await openRecord();
  } else {
    message.textContent = `No record for game ${fromGame}.`;
  }
}
if (fromGame && data) {
  const seat = Number(params.get("learn"));
  const learnSeat = params.has("learn") && Number.isInteger(seat) && seat >= 0 && seat < data.game.players.length ? seat : null;
  if (learnSeat !== null) {
    document.getElementById("learn-seat").value = String(learnSeat);
    startLearning(learnSeat);
  } else if (data.finished) {
    startReview();
  }
}
