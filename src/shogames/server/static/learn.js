// The lessons page: one idea at a time, then a move on a live board. The page knows no rules: it offers
// the legal moves' clicks the server sent, and every verdict (illegal, legal but not it, right) comes
// from the server, which asks the engine. Progress is kept in this browser (localStorage).
import { drawBoard, drawChoices, loadRenderer, narrowClicks, tapTarget, text } from "/static/board.js";

const root = document.getElementById("learn");
const gameId = root.dataset.game;
const boardElement = document.getElementById("board");
const choices = document.getElementById("choices");
const verdict = document.getElementById("verdict");
const nextButton = document.getElementById("next-lesson");
const typed = document.getElementById("typed");
const boardPrompt = document.getElementById("board-prompt"); // what the board alone does not say (Sho's pa ra)
const progressKey = `shogames:lessons:${gameId}`;

const renderer = await loadRenderer(gameId);
const data = await (await fetch(`/api/lessons/${gameId}`)).json();
const lessons = data.lessons;
let lesson = null;
let selection = [];
let shown = null; // the board shown: {view, last, live}
let busy = false;

function done() {
  try {
    const ids = JSON.parse(localStorage.getItem(progressKey) ?? "[]");
    return new Set(Array.isArray(ids) ? ids : []);
  } catch {
    return new Set();
  }
}

function markDone(id) {
  const ids = done();
  ids.add(id);
  try {
    localStorage.setItem(progressKey, JSON.stringify([...ids]));
  } catch {
    // Storage off: the lesson still works, progress is not kept.
  }
}

function drawList() {
  const finished = done();
  const list = document.getElementById("lesson-list");
  list.replaceChildren();
  for (const entry of lessons) {
    const item = document.createElement("li");
    const link = text("a", entry.title, finished.has(entry.id) ? "lesson-link done" : "lesson-link");
    link.href = `#${entry.id}`;
    link.dataset.lesson = entry.id;
    if (lesson && entry.id === lesson.id) link.setAttribute("aria-current", "step");
    if (finished.has(entry.id)) link.append(text("span", " ✓", "tick"));
    item.append(link);
    list.append(item);
  }
  document.getElementById("progress").textContent = `${[...finished].filter((id) => lessons.some((l) => l.id === id)).length} of ${lessons.length} done`;
}

function open(id) {
  lesson = lessons.find((entry) => entry.id === id) ?? lessons.find((entry) => !done().has(entry.id)) ?? lessons[0];
  document.getElementById("lesson-title").textContent = lesson.title;
  const body = document.getElementById("lesson-text");
  body.replaceChildren();
  for (const block of lesson.blocks) {
    if (block.html !== undefined) {
      const holder = document.createElement("div");
      holder.innerHTML = block.html; // escaped by the server (guides are Markdown rendered there)
      body.append(...holder.childNodes);
    }
  }
  document.getElementById("lesson-task").textContent = lesson.task;
  const boardLink = document.getElementById("analysis-board-link"); // the lesson's position, on the analysis board
  boardLink.href = `/analysis/${gameId}?${new URLSearchParams({ settings: lesson.settings, position: lesson.position_text })}`;
  const topics = lesson.topics ?? [];
  document.getElementById("lesson-topics").textContent = topics.length ? `Rules taught here: ${topics.join("; ")}.` : "";
  verdict.textContent = "";
  verdict.className = "verdict";
  nextButton.hidden = true;
  typed.value = "";
  reset();
  drawList();
}

function reset() {
  selection = [];
  shown = { view: lesson.view, last: [], live: true };
  render();
}

function candidates() {
  return narrowClicks(lesson.legal, selection).candidates;
}

function nextTargets() {
  return narrowClicks(lesson.legal, selection).next;
}

function render() {
  const live = shown.live && !busy;
  const next = live ? nextTargets() : new Set();
  drawBoard(boardElement, renderer, shown.view, {
    orientation: lesson.to_move ?? 0,
    names: lesson.names,
    last: shown.last,
    selectable: [...next].filter((target) => !target.startsWith("opt:")),
    selected: live ? selection : [],
  });
  boardElement.classList.toggle("my-turn", live);
  boardPrompt.textContent = live && renderer.prompt ? renderer.prompt(shown.view) : "";
  drawChoices(choices, next, click);
}

function click(target) {
  if (!shown.live || busy) return;
  if (selection.length && selection[selection.length - 1] === target) selection.pop();
  else if (nextTargets().has(target)) selection.push(target);
  else if (lesson.legal.some((move) => move.clicks[0] === target)) selection = [target];
  else selection = [];
  const complete = candidates().find((move) => move.clicks.length === selection.length);
  if (complete && selection.length) attempt(complete.text);
  else render();
}

async function attempt(moveText) {
  busy = true;
  render();
  let answer;
  try {
    const response = await fetch(`/api/lessons/${gameId}/${lesson.id}/try`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ move: moveText }),
    });
    answer = await response.json();
    if (!response.ok) answer = { legal: false, right: false, message: answer.error ?? `the server answered ${response.status}` };
  } catch (error) {
    answer = { legal: false, right: false, message: `The server could not be reached (${error.message}).` };
  } finally {
    busy = false;
  }
  selection = [];
  verdict.textContent = answer.legal ? `${answer.move}: ${answer.message}` : answer.message;
  if (answer.note) verdict.textContent += ` (${answer.note}.)`;
  verdict.className = `verdict ${answer.right ? "right" : "wrong"}`;
  if (answer.legal) shown = { view: answer.view, last: answer.last, live: false };
  if (answer.right) {
    markDone(lesson.id);
    drawList();
    nextButton.hidden = lessons.indexOf(lesson) === lessons.length - 1;
  }
  render();
}

boardElement.addEventListener("click", (event) => {
  const target = tapTarget(boardElement, event);
  if (target) click(target);
});
document.getElementById("again").addEventListener("click", () => {
  verdict.textContent = "";
  verdict.className = "verdict";
  reset();
});
document.getElementById("try-typed").addEventListener("click", () => {
  if (typed.value.trim()) attempt(typed.value.trim());
});
typed.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && typed.value.trim()) attempt(typed.value.trim());
});
nextButton.addEventListener("click", () => {
  const next = lessons[lessons.indexOf(lesson) + 1];
  if (next) location.hash = next.id;
});
document.getElementById("reset-progress").addEventListener("click", () => {
  localStorage.removeItem(progressKey);
  drawList();
});
window.addEventListener("hashchange", () => open(location.hash.slice(1)));
open(location.hash.slice(1));
