// The analysis board: any position of a game, moves and dice played for every side, variations kept in a
// move tree, and an engine panel that searches the position shown with growing budgets until stopped.
// The page knows no rules: the server reads every position and move (POST /api/analysis/<game>/position),
// lists the legal moves with their clicks and the dice outcomes, searches (…/search) and offers the
// editor's changes (…/edits). The address holds the settings, the start position and the moves, so it
// can be shared; it is kept up to date with history.replaceState.
import { drawBoard, drawChoices, loadRenderer, narrowClicks, tapTarget, text } from "/static/board.js";

const root = document.getElementById("analysis");
const gameId = root.dataset.game;
const FIRST_NODES = Number(root.dataset.firstNodes) || 2000;
const boardElement = document.getElementById("board");
const choices = document.getElementById("choices");
const statusLine = document.getElementById("status");
const message = document.getElementById("message");
const treeElement = document.getElementById("tree");
const diceBox = document.getElementById("dice");
const diceList = document.getElementById("dice-list");
const editPanel = document.getElementById("edit-panel");
const editChoices = document.getElementById("edit-choices");
const editTitle = document.getElementById("edit-title");
const editSwitch = document.getElementById("edit-switch");
const positionField = document.getElementById("position-text");
const settingsField = document.getElementById("settings-text");
const engineToggle = document.getElementById("engine-toggle");
const engineStatus = document.getElementById("engine-status");
const evalFill = document.getElementById("eval-fill");
const evalText = document.getElementById("eval-text");
const engineLines = document.getElementById("engine-lines");
const rollsTable = document.getElementById("engine-rolls");
const rollsBody = document.getElementById("engine-rolls-body");
const MAX_ANSWERS = 300; // positions kept in this page (the server's answers, by the moves that lead there)

const renderer = await loadRenderer(gameId);

// --- What is on the board. ---
let settings = ""; // name=value pairs, the defaults left out (as the server writes them)
let startText = ""; // the start position's text; "" for the game's own start
let tree = newNode(null, null); // the start; each node a move (or dice outcome) with its variations
let current = tree;
let answer = null; // the server's description of the position shown
const answers = new Map();
let showTicket = 0;
let selection = [];
let orientation = 0;
let editing = false;
let editTarget = "";

function newNode(move, parent) {
  return { move, parent, children: [], seat: null, note: null };
}

function pathOf(node) {
  const path = [];
  for (let step = node; step.parent; step = step.parent) path.push(step);
  return path.reverse();
}

function movesOf(node) {
  return pathOf(node).map((step) => step.move);
}

function keyOf(moves) {
  return JSON.stringify([settings, startText, moves]);
}

function showMessage(words) {
  message.textContent = words;
}

class ApiError extends Error {
  constructor(messageText, status, retryAfter) {
    super(messageText);
    this.status = status;
    this.retryAfter = retryAfter;
  }
}

async function api(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({ error: `the server answered ${response.status}` }));
  if (!response.ok) {
    const retry = Number(response.headers.get("Retry-After") ?? 2);
    throw new ApiError(data.error ?? `the server answered ${response.status}`, response.status, retry);
  }
  return data;
}

function positionBody(moves, start = startText, rules = settings) {
  return { settings: rules, position: start || null, moves };
}

async function positionOf(moves) {
  const key = keyOf(moves);
  if (answers.has(key)) return answers.get(key);
  const found = await api(`/api/analysis/${gameId}/position`, positionBody(moves));
  if (answers.size >= MAX_ANSWERS) answers.clear();
  answers.set(key, found);
  return found;
}

// --- The address: settings, start position, the line through the node shown, and how far along it. ---
function escapeMove(move) {
  return move.replace(/[%,]/g, (character) => (character === "%" ? "%25" : "%2C"));
}

function unescapeMove(move) {
  return move.replace(/%(25|2C)/gi, (_, code) => (code === "25" ? "%" : ","));
}

function lineThrough(node) {
  const line = pathOf(node);
  for (let step = node; step.children.length; step = step.children[0]) line.push(step.children[0]);
  return line;
}

function writeAddress() {
  const params = new URLSearchParams();
  if (settings) params.set("settings", settings);
  if (startText) params.set("position", startText);
  const line = lineThrough(current);
  if (line.length) params.set("moves", line.map((step) => escapeMove(step.move)).join(","));
  const at = pathOf(current).length;
  if (at !== line.length) params.set("at", String(at));
  const query = params.toString();
  history.replaceState(null, "", `${location.pathname}${query ? `?${query}` : ""}`);
}

function buildTree(moves) {
  tree = newNode(null, null);
  let node = tree;
  for (const move of moves) {
    const child = newNode(move.text, node);
    child.seat = move.seat;
    child.note = move.note ?? null;
    node.children.push(child);
    node = child;
  }
  return tree;
}

async function load() {
  const params = new URLSearchParams(location.search);
  settings = params.get("settings") ?? "";
  startText = params.get("position") ?? "";
  const preset = params.get("preset");
  const raw = params.get("moves") ?? "";
  const moves = raw ? raw.split(",").map(unescapeMove) : [];
  let first = null;
  try {
    first = await api(`/api/analysis/${gameId}/position`, { ...positionBody(moves), preset });
  } catch (error) {
    showMessage(`This address's board was not accepted (${error.message}); the start position is shown instead.`);
    settings = "";
    startText = "";
    first = await api(`/api/analysis/${gameId}/position`, positionBody([]));
  }
  settings = first.game.settings;
  if (startText) startText = first.start;
  buildTree(first.moves);
  answers.set(keyOf(first.moves.map((move) => move.text)), first);
  const line = lineThrough(tree);
  const at = params.has("at") ? Math.max(0, Math.min(line.length, Number(params.get("at")) || 0)) : line.length;
  current = at === 0 ? tree : line[at - 1];
  settingsField.value = settings;
  await show();
}

async function show() {
  const ticket = ++showTicket;
  const node = current;
  selection = [];
  let found;
  try {
    found = await positionOf(movesOf(node));
  } catch (error) {
    if (ticket === showTicket) showMessage(error.message);
    return;
  }
  if (ticket !== showTicket) return;
  answer = found;
  const path = pathOf(node);
  found.moves.forEach((move, index) => {
    const step = path[index];
    if (step) {
      step.seat = move.seat;
      step.note = move.note ?? null;
    }
  });
  positionField.value = found.text;
  document.getElementById("edit-switch-box").hidden = !found.editor;
  render();
  writeAddress();
  restartEngine();
  if (editing) loadEdits(editTarget);
}

function go(node) {
  if (!node || node === current) return;
  current = node;
  showMessage("");
  show();
}

function play(moveText) {
  let child = current.children.find((step) => step.move === moveText);
  if (!child) {
    child = newNode(moveText, current);
    current.children.push(child);
  }
  go(child);
}

// Moves from the node shown: a line of the engine's, or a roll and its play.
function playLine(moves) {
  let node = current;
  for (const moveText of moves) {
    let child = node.children.find((step) => step.move === moveText);
    if (!child) {
      child = newNode(moveText, node);
      node.children.push(child);
    }
    node = child;
  }
  go(node);
}

// --- Moving by clicking (as on the game page) and the dice. ---
function candidates() {
  return narrowClicks(answer.legal, selection).candidates;
}

function nextTargets() {
  return narrowClicks(answer.legal, selection).next;
}

function clickTarget(target) {
  if (!answer || !answer.legal.length) return;
  showMessage("");
  const depth = selection.length;
  if (depth > 0 && selection[depth - 1] === target) selection.pop();
  else if (nextTargets().has(target)) selection.push(target);
  else if (answer.legal.some((move) => move.clicks[0] === target)) selection = [target];
  else selection = [];
  const complete = candidates().find((move) => move.clicks.length === selection.length);
  if (complete && selection.length > 0) play(complete.text);
  else render();
}

boardElement.addEventListener("click", (event) => {
  const target = tapTarget(boardElement, event);
  if (!target) return;
  if (editing) {
    editTarget = target;
    render();
    loadEdits(target);
  } else {
    clickTarget(target);
  }
});

document.getElementById("typed-move").addEventListener("submit", async (event) => {
  event.preventDefault();
  const input = document.getElementById("typed-move-text");
  const typed = input.value.trim();
  if (!typed || !answer) return;
  const moves = [...movesOf(current), typed];
  try {
    const found = await api(`/api/analysis/${gameId}/position`, positionBody(moves));
    const played = found.moves[found.moves.length - 1].text;
    answers.set(keyOf([...movesOf(current), played]), found);
    input.value = "";
    play(played);
  } catch (error) {
    showMessage(error.message);
  }
});

// --- Drawing. ---
function seatColours(view) {
  return renderer.seatColours ? renderer.seatColours(view) : [];
}

function render() {
  if (!answer) return;
  const names = answer.game.players;
  const next = !editing ? nextTargets() : new Set();
  drawBoard(boardElement, renderer, answer.view, {
    orientation,
    names,
    last: editing ? [] : answer.last,
    selectable: [...next].filter((target) => !target.startsWith("opt:")),
    selected: editing ? (editTarget ? [editTarget] : []) : selection,
    over: answer.terminal,
  });
  boardElement.classList.toggle("my-turn", !editing && answer.legal.length > 0);
  root.classList.toggle("editing", editing);
  const cancel = () => {
    selection = [];
    render();
  };
  drawChoices(choices, next, clickTarget, selection.length > 0 ? cancel : null);
  diceBox.hidden = editing || !answer.chance.length;
  diceList.replaceChildren();
  for (const outcome of answer.chance) {
    const button = text("button", outcome.text, "dice-outcome");
    button.type = "button";
    button.dataset.outcome = outcome.text;
    button.title = `chance ${outcome.probability}`;
    button.append(text("span", ` ${outcome.probability}`, "muted"));
    button.addEventListener("click", () => play(outcome.text));
    diceList.append(button);
  }
  editPanel.hidden = !editing;
  statusLine.textContent = statusText();
  drawTree();
  document.getElementById("prev").disabled = current === tree;
  document.getElementById("first").disabled = current === tree;
  document.getElementById("next").disabled = !current.children.length;
  document.getElementById("last").disabled = !current.children.length;
  document.getElementById("delete").disabled = current === tree;
  document.getElementById("promote").disabled = !pathOf(current).some((step) => step.parent.children[0] !== step);
}

function statusText() {
  const names = answer.game.players;
  const ply = pathOf(current).length;
  const where = ply ? `After move ${ply}. ` : "";
  if (answer.terminal) return `${where}Game over: ${answer.result}.`;
  if (answer.to_move === -1) return `${where}Chance: choose the outcome below (the engine shows the best play for each).`;
  const told = renderer.prompt ? renderer.prompt(answer.view) : "";
  const colour = seatColours(answer.view)[answer.to_move]?.name;
  const who = `${names[answer.to_move]}${colour ? ` (${colour})` : ""}`;
  return `${where}${who} to move.${told ? ` ${told}` : ""}`;
}

function moveButton(node, depth) {
  const chance = node.seat === -1;
  const button = text("button", "", `tree-move${chance ? " chance" : ""}${node === current ? " current" : ""}`);
  button.type = "button";
  button.append(text("span", `${depth}.`, "ply"), text("span", node.move, "move-text"));
  if (node.seat !== null) button.title = chance ? "chance" : answer?.game.players[node.seat] ?? "";
  if (node.note) button.title += ` (${node.note})`;
  button.addEventListener("click", () => go(node));
  return button;
}

function appendLine(node, depth, container) {
  let step = node;
  let ply = depth;
  while (step.children.length) {
    const [main, ...others] = step.children;
    ply += 1;
    container.append(moveButton(main, ply));
    for (const other of others) {
      const block = text("span", "", "variation");
      block.append(moveButton(other, ply));
      appendLine(other, ply, block);
      container.append(block);
    }
    step = main;
  }
}

function drawTree() {
  treeElement.replaceChildren();
  if (!tree.children.length) {
    treeElement.append(text("p", "No moves yet: play one on the board.", "muted"));
    return;
  }
  const line = text("div", "", "line");
  appendLine(tree, 0, line);
  treeElement.append(line);
  const shown = treeElement.querySelector(".current");
  if (shown) {
    const box = treeElement.getBoundingClientRect();
    const at = shown.getBoundingClientRect();
    if (at.bottom > box.bottom) treeElement.scrollTop += at.bottom - box.bottom;
    else if (at.top < box.top) treeElement.scrollTop -= box.top - at.top;
  }
}

// --- Navigation. ---
function endOfLine(node) {
  let step = node;
  while (step.children.length) step = step.children[0];
  return step;
}

document.getElementById("first").addEventListener("click", () => go(tree));
document.getElementById("prev").addEventListener("click", () => go(current.parent));
document.getElementById("next").addEventListener("click", () => go(current.children[0]));
document.getElementById("last").addEventListener("click", () => go(endOfLine(current)));
document.getElementById("flip").addEventListener("click", () => {
  orientation = ((orientation ?? 0) + 1) % (answer?.game.players.length ?? 2);
  render();
});
document.getElementById("delete").addEventListener("click", () => {
  if (current === tree) return;
  const parent = current.parent;
  parent.children = parent.children.filter((step) => step !== current);
  go(parent);
});
document.getElementById("promote").addEventListener("click", () => {
  for (const step of pathOf(current)) {
    const siblings = step.parent.children;
    siblings.splice(siblings.indexOf(step), 1);
    siblings.unshift(step);
  }
  render();
  writeAddress();
});
document.addEventListener("keydown", (event) => {
  if (!answer || event.target.closest("input, textarea, select")) return;
  const siblings = current.parent ? current.parent.children : [current];
  const index = siblings.indexOf(current);
  if (event.key === "ArrowLeft") go(current.parent);
  else if (event.key === "ArrowRight") go(current.children[0]);
  else if (event.key === "ArrowUp") go(siblings[index - 1]);
  else if (event.key === "ArrowDown") go(siblings[index + 1]);
  else if (event.key === "Home") go(tree);
  else if (event.key === "End") go(endOfLine(current));
  else if (event.key === "Escape") {
    selection = [];
    render();
    return;
  } else return;
  event.preventDefault();
});

document.getElementById("copy-link").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText(location.href);
    showMessage("");
    statusLine.textContent = "The link to this board is copied.";
  } catch {
    showMessage(`Copy this address: ${location.href}`);
  }
});

// --- Setting up a position: its text, the rules, and the graphical editor. ---
async function newBoard(start, rules) {
  try {
    const found = await api(`/api/analysis/${gameId}/position`, positionBody([], start, rules));
    settings = found.game.settings;
    startText = start ? found.start : "";
    tree = newNode(null, null);
    current = tree;
    answers.set(keyOf([]), found);
    settingsField.value = settings;
    showMessage("");
    await show();
    return true;
  } catch (error) {
    showMessage(error.message);
    return false;
  }
}

document.getElementById("apply-position").addEventListener("click", () => newBoard(positionField.value.trim(), settings));
document.getElementById("start-position").addEventListener("click", () => newBoard("", settings));
document.getElementById("apply-settings").addEventListener("click", () => newBoard("", settingsField.value.trim()));

editSwitch.addEventListener("change", () => {
  editing = editSwitch.checked;
  editTarget = "";
  selection = [];
  render();
  if (editing) loadEdits("");
});

async function loadEdits(target) {
  const asked = target;
  editTitle.textContent = target ? `Change ${target.replace(/^[a-z]+:/, "")}:` : "Change the whole position, or click a part of the board:";
  let found;
  try {
    found = await api(`/api/analysis/${gameId}/edits`, { ...positionBody(movesOf(current)), target });
  } catch (error) {
    editChoices.replaceChildren(text("span", error.message, "error"));
    return;
  }
  if (asked !== editTarget || !editing) return;
  editChoices.replaceChildren();
  if (!found.edits.length) editChoices.append(text("span", "Nothing to change there.", "muted"));
  for (const edit of found.edits) {
    const button = text("button", edit.label, "choice edit-choice");
    button.type = "button";
    button.dataset.position = edit.position;
    button.addEventListener("click", () => newBoard(edit.position, settings));
    editChoices.append(button);
  }
  if (target) {
    const whole = text("button", "the whole position…", "cancel");
    whole.type = "button";
    whole.addEventListener("click", () => {
      editTarget = "";
      render();
      loadEdits("");
    });
    editChoices.append(whole);
  }
}

// --- The engine: the position shown, searched with growing budgets while it stays and the engine is on. ---
let engineOn = true;
let generation = 0;
let running = false;

function signed(value) {
  return `${value > 0 ? "+" : value < 0 ? "−" : "±"}${Math.abs(value).toFixed(2)}`;
}

function restartEngine() {
  generation += 1;
  if (!engineOn) return;
  engineStatus.textContent = "Searching…";
  runEngine();
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function runEngine() {
  if (running) return;
  running = true;
  let ran = -1;
  let nodes = FIRST_NODES;
  try {
    while (engineOn) {
      if (ran !== generation) {
        ran = generation;
        nodes = FIRST_NODES;
      }
      const moves = movesOf(current);
      let result;
      try {
        result = await api(`/api/analysis/${gameId}/search`, { ...positionBody(moves), nodes });
      } catch (error) {
        if (ran !== generation) continue;
        if (error.status === 429 || error.status === 503) {
          engineStatus.textContent = `Waiting: ${error.message}`;
          await sleep(Math.max(1, error.retryAfter) * 1000);
          continue;
        }
        engineStatus.textContent = `No search: ${error.message}`;
        break;
      }
      if (ran !== generation || !engineOn) continue;
      showSearch(result);
      if (result.complete) break;
      nodes *= 4;
    }
  } finally {
    running = false;
  }
  if (engineOn && ran !== generation) runEngine();
}

engineToggle.addEventListener("click", () => {
  engineOn = !engineOn;
  engineToggle.textContent = engineOn ? "Stop" : "Start";
  root.classList.toggle("engine-off", !engineOn);
  if (engineOn) restartEngine();
  else engineStatus.textContent = "Stopped.";
});

function showValue(value, perspective, what) {
  const share = Math.max(0, Math.min(1, (value + 1) / 2));
  evalFill.style.width = `${(share * 100).toFixed(1)}%`;
  const colour = seatColours(answer?.view ?? {})[perspective.seat];
  if (colour?.fill) evalFill.style.backgroundColor = colour.fill;
  const seat = `${perspective.name}${perspective.fixed ? "" : " (whose turn it is)"}`;
  evalText.textContent = `${signed(value)} for ${seat}${what}`;
  evalText.dataset.value = String(value);
}

function lineButtons(container, moves, prefix = []) {
  moves.forEach((moveText, index) => {
    const button = text("button", moveText, "line-move");
    button.type = "button";
    button.addEventListener("click", () => playLine([...prefix, ...moves.slice(0, index + 1)]));
    container.append(button);
  });
}

function showSearch(result) {
  const panel = document.getElementById("engine");
  panel.dataset.position = result.text; // which position the panel shows (the browser tests wait for it)
  const what = result.kind === "chance" ? ", expected over the dice" : "";
  showValue(result.value, result.perspective, what);
  const more = result.complete ? "" : " · searching deeper…";
  engineLines.replaceChildren();
  rollsBody.replaceChildren();
  rollsTable.hidden = result.kind !== "chance";
  if (result.kind === "over") {
    evalText.textContent = `Game over${answer?.result ? `: ${answer.result}` : ""}`;
    engineStatus.textContent = "Nothing to search.";
    return;
  }
  const positions = result.nodes.toLocaleString("en");
  engineStatus.textContent = `Depth ${result.depth} · ${positions} positions · ${result.searcher}${more}`;
  engineStatus.dataset.depth = String(result.depth);
  if (result.kind === "decision") {
    for (const line of result.lines) {
      const item = document.createElement("li");
      item.append(text("span", signed(line.value), "line-value"));
      lineButtons(item, line.moves);
      if (line.end === "chance") item.append(text("span", "then the dice", "muted"));
      if (line.end === "over") item.append(text("span", "and the game is over", "muted"));
      engineLines.append(item);
    }
    return;
  }
  for (const roll of result.rolls) {
    const row = document.createElement("tr");
    const dice = document.createElement("td");
    const outcome = text("button", roll.outcome, "line-move");
    outcome.type = "button";
    outcome.addEventListener("click", () => playLine([roll.outcome]));
    dice.append(outcome);
    const play = document.createElement("td");
    if (roll.play.length) lineButtons(play, roll.play, [roll.outcome]);
    else play.append(text("span", roll.note ?? "no play of its own", "muted"));
    const value = text("td", `${signed(roll.value)}${roll.estimate ? "≈" : ""}`, "line-value");
    if (roll.estimate) value.title = "an estimate (the position's evaluation), not a search";
    row.append(dice, text("td", roll.probability), play, value);
    rollsBody.append(row);
  }
}

await load();
// The set-up fields wait for the address's board: typed into earlier, they would be overwritten by it.
for (const id of ["position-text", "apply-position", "start-position", "settings-text", "apply-settings"]) {
  document.getElementById(id).disabled = false;
}
