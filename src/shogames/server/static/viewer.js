// The record viewer: a record is checked by the server, which sends its moves and a window of its positions;
// stepping outside the window asks for the window around the new ply.
import { describeSettings, drawBoard, drawMoves, loadRenderer, seatLabel, text } from "/static/board.js";

const message = document.getElementById("message");
const textArea = document.getElementById("record-text");
let data = null;
let analysis = null; // the server's analysis of the record shown, once asked for
let record = "";
let steps = new Map();
let renderer = null;
let ply = 0;
let orientation = 0;

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

function keep(answer) {
  answer.steps.forEach((step, index) => steps.set(answer.first_step + index, step));
}

document.getElementById("record-file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (file) textArea.value = await file.text();
});

document.getElementById("open").addEventListener("click", async () => {
  message.textContent = "";
  let answer;
  try {
    answer = await replay(textArea.value);
  } catch (error) {
    message.textContent = error.message;
    return;
  }
  data = answer;
  analysis = null;
  document.getElementById("analysis").hidden = true;
  record = textArea.value;
  steps = new Map();
  keep(answer);
  renderer = await loadRenderer(data.game.id);
  document.getElementById("board").className = `board board-${data.game.id}`;
  document.getElementById("title").textContent = data.game.name;
  describeSettings(document.getElementById("rules"), data.game);
  const seats = document.getElementById("seats");
  seats.replaceChildren(...data.names.map((name, index) => text("li", `${data.game.players[index]}: ${name}`, `seat seat-${index}`)));
  document.getElementById("viewer").hidden = false;
  ply = data.plies;
  render();
});

// Opened as /viewer?game=ID (the game page's "Analyse"): that game's record.
const fromGame = new URLSearchParams(location.search).get("game");
if (fromGame) {
  const response = await fetch(`/api/games/${encodeURIComponent(fromGame)}/record`);
  if (response.ok) {
    textArea.value = await response.text();
    document.getElementById("open").click();
  } else {
    message.textContent = `No record for game ${fromGame}.`;
  }
}

// --- Analysis: each move's value for the seat that played it, as shogames analyse gives it. ---
document.getElementById("analyse").addEventListener("click", async () => {
  const status = document.getElementById("analysis-status");
  document.getElementById("analysis").hidden = false;
  status.textContent = "Analysing every move (this takes a few seconds per ten moves)…";
  document.getElementById("analyse").disabled = true;
  try {
    const response = await fetch("/api/analysis", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ record: textArea.value }),
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(answer.error ?? `the server answered ${response.status}`);
    analysis = answer;
    const flagged = answer.moves.filter((move) => move.verdict).length;
    status.textContent =
      `${answer.moves.length} moves analysed (${answer.budget.kernel ? "compiled " : ""}alpha-beta, ` +
      `up to depth ${answer.budget.depth}, ${answer.budget.seconds} s and ` +
      `${answer.budget.nodes} nodes a position): ${flagged} flagged. Values run from -1 (lost) to +1 (won) for the mover.`;
    drawAnalysis();
  } catch (error) {
    status.textContent = `No analysis: ${error.message}`;
  } finally {
    document.getElementById("analyse").disabled = false;
  }
});

const SEAT_COLOURS = ["#2f5d8a", "#b0392b", "#2d8a55", "#7a2f7a"];
function drawAnalysis() {
  if (!analysis || !data) return;
  const total = Math.max(1, data.plies);
  const width = 600;
  const height = 200;
  const x = (ply) => 20 + ((width - 30) * ply) / total;
  const y = (value) => height / 2 - (value * (height - 20)) / 2;
  const two = data.game.players.length === 2;
  let svg = `<svg viewBox="0 0 ${width} ${height}" role="img" aria-label="evaluation graph">`;
  svg += `<rect x="0" y="0" width="${width}" height="${height}" fill="#fffaf1"/>`;
  svg += `<line x1="20" x2="${width - 10}" y1="${y(0)}" y2="${y(0)}" stroke="#c9b79c"/>`;
  svg += `<text x="2" y="${y(1) + 4}" font-size="10" fill="#7a6a58">+1</text><text x="2" y="${y(-1)}" font-size="10" fill="#7a6a58">-1</text>`;
  if (two) {
    // One line: the value for the first seat (the other seat's is its negative).
    const points = analysis.moves.map((move) => `${x(move.ply).toFixed(1)},${y(move.seat === 0 ? move.played_value : -move.played_value).toFixed(1)}`);
    svg += `<polyline points="${points.join(" ")}" fill="none" stroke="${SEAT_COLOURS[0]}" stroke-width="2"/>`;
  }
  for (const move of analysis.moves) {
    const value = two && move.seat !== 0 ? -move.played_value : move.played_value;
    const colour = move.verdict === "blunder" ? "#b3261e" : move.verdict === "mistake" ? "#e08a00" : SEAT_COLOURS[move.seat % 4];
    const radius = move.verdict ? 5 : 2.5;
    svg += `<circle class="point${move.verdict ? ` ${move.verdict}` : ""}" data-ply="${move.ply}" cx="${x(move.ply).toFixed(1)}" cy="${y(value).toFixed(1)}" r="${radius}" fill="${colour}"><title>${move.ply}. ${move.played} (${move.played_value.toFixed(2)})</title></circle>`;
  }
  svg += `<line class="cursor" x1="${x(ply)}" x2="${x(ply)}" y1="5" y2="${height - 5}" stroke="#a4471e" stroke-dasharray="3 3"/>`;
  svg += "</svg>";
  const graph = document.getElementById("graph");
  graph.innerHTML = svg;
  const list = document.getElementById("mistakes");
  list.replaceChildren();
  for (const move of analysis.moves.filter((entry) => entry.verdict)) {
    const item = document.createElement("li");
    const mark = move.verdict === "blunder" ? "??" : "?";
    const button = text(
      "button",
      `${move.ply}. ${data.game.players[move.seat]}: ${move.played}${mark}  (best ${move.best}, ${move.played_value.toFixed(2)} instead of ${move.best_value.toFixed(2)})`,
      `flag ${move.verdict}`,
    );
    button.type = "button";
    button.addEventListener("click", () => stepTo(move.ply));
    item.append(button);
    list.append(item);
  }
}

document.getElementById("graph").addEventListener("click", (event) => {
  const point = event.target.closest("[data-ply]");
  if (point) stepTo(Number(point.dataset.ply));
});

async function render() {
  const shown = ply;
  if (!steps.has(shown)) {
    try {
      keep(await replay(record, shown));
    } catch (error) {
      message.textContent = error.message;
      return;
    }
    if (shown !== ply) return; // the user stepped on while the window came
  }
  const step = steps.get(shown);
  // After the last move of a finished game nobody is to move, even where the game ended off the board
  // (a resignation, a loss on time) and its last position would still name a mover.
  const over = data.finished && shown === data.plies;
  drawBoard(document.getElementById("board"), renderer, step.position, { orientation, names: data.game.players, last: step.last, over });
  const total = data.plies;
  document.getElementById("status").textContent =
    ply === total ? `After the last move (${total}): ${data.result_text}.` : `After move ${ply} of ${total}.`;
  const seats = data.names.map((name) => ({ name }));
  const labels = data.game.players.map((_, seat) => seatLabel(data.game.players, seats, seat));
  drawMoves(document.getElementById("moves"), data.moves, labels, ply, stepTo);
  if (analysis) drawAnalysis();
}

function stepTo(target) {
  if (!data) return;
  ply = Math.max(0, Math.min(data.plies, target));
  render();
}

document.getElementById("first").addEventListener("click", () => stepTo(0));
document.getElementById("prev").addEventListener("click", () => stepTo(ply - 1));
document.getElementById("next").addEventListener("click", () => stepTo(ply + 1));
document.getElementById("latest").addEventListener("click", () => stepTo(Infinity));
document.getElementById("flip").addEventListener("click", () => {
  orientation = (orientation + 1) % data.game.players.length;
  render();
});
document.addEventListener("keydown", (event) => {
  if (!data || event.target.closest("input, textarea")) return;
  if (event.key === "ArrowLeft") stepTo(ply - 1);
  if (event.key === "ArrowRight") stepTo(ply + 1);
});
