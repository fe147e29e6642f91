// The record viewer: a record is checked by the server and every position of it comes back to step through.
import { describeSettings, drawBoard, drawMoves, loadRenderer, seatLabel, text } from "/static/board.js";

const message = document.getElementById("message");
const textArea = document.getElementById("record-text");
let data = null;
let renderer = null;
let ply = 0;
let orientation = 0;

document.getElementById("record-file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (file) textArea.value = await file.text();
});

document.getElementById("open").addEventListener("click", async () => {
  message.textContent = "";
  const response = await fetch("/api/records/replay", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ record: textArea.value }),
  });
  const answer = await response.json();
  if (!response.ok) {
    message.textContent = answer.error;
    return;
  }
  data = answer;
  renderer = await loadRenderer(data.game.id);
  document.getElementById("board").className = `board board-${data.game.id}`;
  document.getElementById("title").textContent = data.game.name;
  describeSettings(document.getElementById("rules"), data.game);
  const seats = document.getElementById("seats");
  seats.replaceChildren(...data.names.map((name, index) => text("li", `${data.game.players[index]}: ${name}`, `seat seat-${index}`)));
  document.getElementById("viewer").hidden = false;
  ply = data.steps.length - 1;
  render();
});

function render() {
  const step = data.steps[ply];
  drawBoard(document.getElementById("board"), renderer, step.position, { orientation, names: data.game.players, last: step.last });
  const total = data.steps.length - 1;
  document.getElementById("status").textContent =
    ply === total ? `After the last move (${total}): ${data.result_text}.` : `After move ${ply} of ${total}.`;
  const seats = data.names.map((name) => ({ name }));
  const labels = data.game.players.map((_, seat) => seatLabel(data.game.players, seats, seat));
  drawMoves(document.getElementById("moves"), data.moves, labels, ply, stepTo);
}

function stepTo(target) {
  if (!data) return;
  ply = Math.max(0, Math.min(data.steps.length - 1, target));
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
