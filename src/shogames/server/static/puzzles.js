// The puzzle page: one position at a time, a move asked for on a live board. The page knows no rules: it
// offers the legal moves' clicks the server sent, and every verdict comes from the server, which refutes a
// wrong move with the engine. Kept in this browser (localStorage): the puzzles solved, those already tried
// (only a first try is rated), the puzzle on the board and the solver's Glicko-2 rating.
import { drawBoard, drawChoices, loadRenderer, narrowClicks, tapTarget, text } from "/static/board.js";

const root = document.getElementById("puzzles");
const gameId = root.dataset.game;
const count = Number(root.dataset.count) || 0;
const boardElement = document.getElementById("board");
const choices = document.getElementById("choices");
const verdict = document.getElementById("verdict");
const refutation = document.getElementById("refutation");
const typed = document.getElementById("typed");
const againButton = document.getElementById("again");
const storageKey = `shogames:puzzles:${gameId}`;
const NEWCOMER = { rating: 1500, deviation: 350, volatility: 0.06 };

const renderer = await loadRenderer(gameId);
let progress = loadProgress();
let puzzle = null;
let selection = [];
let shown = null; // the board shown: {view, last, live}
let busy = false;

function loadProgress() {
  let stored = {};
  try {
    stored = JSON.parse(localStorage.getItem(storageKey) ?? "{}") ?? {};
  } catch {
    stored = {};
  }
  const list = (value) => (Array.isArray(value) ? value.filter((id) => typeof id === "string") : []);
  const solver = stored.solver && Number.isFinite(stored.solver.rating) ? stored.solver : NEWCOMER;
  return { solved: list(stored.solved), tried: list(stored.tried), current: typeof stored.current === "string" ? stored.current : null, solver };
}

function saveProgress() {
  try {
    localStorage.setItem(storageKey, JSON.stringify(progress));
  } catch {
    // Storage off: the puzzles still work, progress is not kept.
  }
}

async function fetchPuzzle(url) {
  try {
    const response = await fetch(url);
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}

// The puzzle after `after` that this browser has not solved yet (the next one if all are solved).
async function nextPuzzle(after) {
  const solved = new Set(progress.solved);
  const url = (id) => `/api/puzzles/${gameId}/next${id ? `?after=${encodeURIComponent(id)}` : ""}`;
  const first = await fetchPuzzle(url(after));
  let candidate = first;
  for (let step = 0; candidate && solved.has(candidate.id) && step < Math.min(count, 50); step++) {
    candidate = await fetchPuzzle(url(candidate.id));
  }
  return candidate && !solved.has(candidate.id) ? candidate : first;
}

function drawSide() {
  const solver = progress.solver;
  document.getElementById("solver-rating").textContent = `${Math.round(solver.rating)} ± ${Math.round(solver.deviation)}`;
  document.getElementById("progress").textContent = `${progress.solved.length} of ${count} solved`;
  if (!puzzle) return;
  const tries = puzzle.attempts === 1 ? "1 first try" : `${puzzle.attempts} first tries`;
  document.getElementById("puzzle-info").textContent = `Puzzle ${puzzle.number} of ${puzzle.count}: rated ${puzzle.rating} ± ${puzzle.deviation} (${tries}, ${puzzle.solved} solved).`;
}

// The themes say what the solution does, so they are shown once the puzzle is over.
function drawThemes(visible) {
  const holder = document.getElementById("puzzle-themes");
  holder.replaceChildren();
  if (!visible || !puzzle) return;
  holder.append("Themes: ");
  for (const theme of puzzle.themes) {
    const tag = text("span", theme.id, "theme");
    tag.title = theme.text;
    holder.append(tag);
  }
}

function show(next) {
  puzzle = next;
  if (!puzzle) {
    document.getElementById("puzzle-title").textContent = "No puzzle could be loaded";
    return;
  }
  progress.current = puzzle.id;
  saveProgress();
  document.getElementById("puzzle-title").textContent = `Puzzle ${puzzle.number}`;
  document.getElementById("puzzle-task").textContent = puzzle.task;
  verdict.textContent = "";
  verdict.className = "verdict";
  refutation.hidden = true;
  refutation.textContent = "";
  againButton.hidden = true;
  typed.value = "";
  drawThemes(progress.solved.includes(puzzle.id));
  reset();
  drawSide();
}

function reset() {
  selection = [];
  shown = { view: puzzle.view, last: [], live: true };
  render();
}

function candidates() {
  return narrowClicks(puzzle.legal, selection).candidates;
}

function nextTargets() {
  return narrowClicks(puzzle.legal, selection).next;
}

function render() {
  const live = shown.live && !busy;
  const next = live ? nextTargets() : new Set();
  drawBoard(boardElement, renderer, shown.view, {
    orientation: puzzle.to_move ?? 0,
    names: puzzle.names,
    last: shown.last,
    selectable: [...next].filter((target) => !target.startsWith("opt:")),
    selected: live ? selection : [],
  });
  boardElement.classList.toggle("my-turn", live);
  drawChoices(choices, next, click);
}

function click(target) {
  if (!shown.live || busy) return;
  if (selection.length && selection[selection.length - 1] === target) selection.pop();
  else if (nextTargets().has(target)) selection.push(target);
  else if (puzzle.legal.some((move) => move.clicks[0] === target)) selection = [target];
  else selection = [];
  const complete = candidates().find((move) => move.clicks.length === selection.length);
  if (complete && selection.length) attempt(complete.text);
  else render();
}

async function attempt(moveText) {
  const tried = puzzle.id;
  const rated = !progress.tried.includes(tried);
  busy = true;
  verdict.textContent = "Checking…";
  verdict.className = "verdict";
  render();
  let answer;
  try {
    const response = await fetch(`/api/puzzles/${gameId}/${tried}/attempt`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ move: moveText, rated, solver: progress.solver }),
    });
    answer = await response.json();
    if (!response.ok) answer = { legal: false, right: false, message: answer.error ?? `the server answered ${response.status}` };
  } catch (error) {
    answer = { legal: false, right: false, message: `The server could not be reached (${error.message}).` };
  } finally {
    busy = false;
  }
  if (!puzzle || puzzle.id !== tried) return; // another puzzle was opened meanwhile
  selection = [];
  verdict.textContent = answer.message;
  verdict.className = `verdict ${answer.right ? "right" : "wrong"}`;
  if (answer.legal) {
    if (rated && !progress.tried.includes(tried)) progress.tried.push(tried);
    if (answer.solver) progress.solver = answer.solver;
    if (answer.puzzle_rating) Object.assign(puzzle, answer.puzzle_rating);
    shown = { view: answer.view, last: answer.last ?? [], live: false };
    drawThemes(true);
  }
  if (answer.right) {
    if (!progress.solved.includes(tried)) progress.solved.push(tried);
  } else if (answer.legal) {
    refutation.textContent = `${answer.refutation.text} Try again, or go on to the next puzzle.`;
    refutation.hidden = false;
    againButton.hidden = false;
  }
  saveProgress();
  drawSide();
  render();
}

boardElement.addEventListener("click", (event) => {
  const target = tapTarget(boardElement, event);
  if (target) click(target);
});
againButton.addEventListener("click", () => {
  verdict.textContent = "";
  verdict.className = "verdict";
  refutation.hidden = true;
  againButton.hidden = true;
  reset();
});
document.getElementById("try-typed").addEventListener("click", () => {
  if (typed.value.trim() && shown.live) attempt(typed.value.trim());
});
typed.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && typed.value.trim() && shown.live) attempt(typed.value.trim());
});
document.getElementById("next-puzzle").addEventListener("click", async () => {
  show(await nextPuzzle(puzzle?.id ?? null));
});
document.getElementById("reset-progress").addEventListener("click", async () => {
  progress = { solved: [], tried: [], current: null, solver: NEWCOMER };
  saveProgress();
  show(await nextPuzzle(null));
});

const remembered = progress.current ? await fetchPuzzle(`/api/puzzles/${gameId}/${encodeURIComponent(progress.current)}`) : null;
show(remembered ?? (await nextPuzzle(null)));
