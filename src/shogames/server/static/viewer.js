// The record viewer: a record is checked by the server, which sends its moves and a window of its positions;
// stepping outside the window asks for the window around the new ply.
import { describeSettings, drawBoard, drawMoves, loadRenderer, text } from "/static/board.js";

const message = document.getElementById("message");
const textArea = document.getElementById("record-text");
let data = null;
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
  drawBoard(document.getElementById("board"), renderer, step.position, { orientation, names: data.game.players, last: step.last });
  const total = data.plies;
  document.getElementById("status").textContent =
    ply === total ? `After the last move (${total}): ${data.result_text}.` : `After move ${ply} of ${total}.`;
  drawMoves(document.getElementById("moves"), data.moves, data.names, ply, stepTo);
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
