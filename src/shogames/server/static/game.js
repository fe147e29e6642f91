// The game page: the live game over a WebSocket, moves made by clicking, the clocks, the move list.
import { describeSettings, drawBoard, drawChoices, drawMoves, loadRenderer, narrowClicks, seatLabel, tapTarget, text } from "/static/board.js";
import { rememberGame } from "/static/mygames.js";
import { playSound, setSound, soundOn } from "/static/sound.js";

const root = document.getElementById("game");
const gameId = root.dataset.gameId;
const boardElement = document.getElementById("board");
const choices = document.getElementById("choices");
const statusLine = document.getElementById("status");
const message = document.getElementById("message");
const seatList = document.getElementById("seats");
const moveList = document.getElementById("moves");
const notice = document.getElementById("notice");
const hintText = document.getElementById("hint-text"); // beside the Hint button, in view when it is clicked
const baseTitle = document.title;
const LOW_TIME_MS = 10_000; // a running clock under this is shown as low

const renderer = await loadRenderer(root.dataset.game);
let snap = null; // the latest snapshot from the server
let receivedAt = 0; // when it arrived (performance.now), for the clocks
let viewPly = null; // null: the live position; else the ply being looked at
let stepView = null; // the position shown while stepping
const stepCache = new Map();
let selection = []; // targets clicked so far
let orientation = null;
let sending = false;
const mySeats = new Map(); // seat number -> token
let animateNext = false; // the next drawing shows a move that just arrived (a short fade-in)
const soundSwitch = document.getElementById("sound");
soundSwitch.checked = soundOn();
soundSwitch.addEventListener("change", () => setSound(soundSwitch.checked));

// --- Tokens: from the link's fragment (#token=...), kept for this tab so a reload keeps them. ---
function fragmentTokens() {
  const params = new URLSearchParams(location.hash.slice(1));
  const raw = params.get("token");
  if (raw) sessionStorage.setItem(`tokens:${gameId}`, raw);
  const kept = raw ?? sessionStorage.getItem(`tokens:${gameId}`) ?? "";
  return kept.split(",").filter(Boolean);
}

async function api(path, body) {
  const response = await fetch(path, {
    method: body === undefined ? "GET" : "POST",
    headers: { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({ error: `the server answered ${response.status}` }));
  if (!response.ok) throw new Error(data.error ?? `the server answered ${response.status}`);
  return data;
}

for (const token of fragmentTokens()) {
  try {
    const { seat } = await api(`/api/games/${gameId}/seat`, { token });
    mySeats.set(seat, token);
  } catch (error) {
    showMessage(`This link's token was not accepted: ${error.message}`);
  }
}

function showMessage(textContent) {
  message.textContent = textContent;
}

// --- The live connection. ---
let socket = null;
let retry = 500;
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const since = snap ? snap.version : -1;
  socket = new WebSocket(`${scheme}://${location.host}/ws/games/${gameId}?since=${since}`);
  socket.addEventListener("open", () => {
    retry = 500;
    root.classList.remove("offline");
  });
  socket.addEventListener("message", (event) => {
    const data = JSON.parse(event.data);
    if (data.type === "game") accept(data);
    else if (data.type === "error") showMessage(data.message);
  });
  socket.addEventListener("close", () => {
    root.classList.add("offline");
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  });
}

function accept(data) {
  if (snap && data.version < snap.version) return;
  if (snap && data.ply < snap.ply) stepCache.clear();
  const moved = !snap || data.version !== snap.version;
  if (moved) announce(data, snap ? snap.ply : 0);
  if (snap && data.ply > snap.ply) animateNext = true;
  if (snap && (data.ply > snap.ply || (snap.status === "active" && data.status !== "active"))) {
    // The count of sounds played is kept on the switch, for whoever wants to know (the browser tests).
    if (playSound(data.status !== "active" ? "end" : "move")) {
      soundSwitch.dataset.played = String(Number(soundSwitch.dataset.played ?? 0) + 1);
    }
  }
  if (snap && snap.status === "active" && data.status !== "active" && mySeats.size > 0) rememberGame(data, mySeats);
  snap = data;
  receivedAt = performance.now();
  if (moved) selection = [];
  if (orientation === null) orientation = mySeats.size === 1 ? [...mySeats.keys()][0] : 0;
  if (viewPly !== null && viewPly >= snap.ply) viewPly = null;
  render();
}

// What the moves since the last snapshot did that their text does not say (dice lost, a turn passed).
function announce(data, sincePly) {
  const notes = data.moves.filter((move) => move.ply > sincePly && move.note).map((move) => move.note);
  if (notes.length) notice.textContent = notes.join(". ") + ".";
  else if (data.ply !== sincePly) notice.textContent = data.notice ?? "";
  if (data.ply !== sincePly) showHint(""); // a hint is for the position it was asked in
}

function showHint(words) {
  hintText.textContent = words;
  hintText.hidden = !words;
}

// --- Moving by clicking. ---
function isMyTurn() {
  return snap && snap.status === "active" && viewPly === null && mySeats.has(snap.to_move) && !sending;
}

function candidates() {
  return narrowClicks(snap.legal, selection).candidates;
}

function nextTargets() {
  return narrowClicks(snap.legal, selection).next;
}

function clickTarget(target) {
  if (!isMyTurn()) return;
  showMessage("");
  const depth = selection.length;
  if (depth > 0 && selection[depth - 1] === target) {
    selection.pop();
  } else if (nextTargets().has(target)) {
    selection.push(target);
  } else if (snap.legal.some((move) => move.clicks[0] === target)) {
    selection = [target];
  } else {
    selection = [];
  }
  const complete = candidates().find((move) => move.clicks.length === selection.length);
  if (complete && selection.length > 0) {
    play(complete.text);
  } else {
    render();
  }
}

async function play(moveText) {
  const seat = snap.to_move;
  sending = true;
  render();
  try {
    accept(await api(`/api/games/${gameId}/moves`, { move: moveText, token: mySeats.get(seat), version: snap.version }));
  } catch (error) {
    showMessage(error.message);
    selection = [];
  } finally {
    sending = false;
    render();
  }
}

boardElement.addEventListener("click", (event) => {
  const target = tapTarget(boardElement, event);
  if (target) clickTarget(target);
});

// --- Drawing. ---
function seatName(seat) {
  return snap.seats[seat]?.name ?? snap.game.players[seat];
}

function seatColours(view) {
  return renderer.seatColours ? renderer.seatColours(view) : [];
}

function seatLabels() {
  const colours = seatColours(snap.position);
  return snap.seats.map((_, seat) => seatLabel(snap.game.players, snap.seats, seat, colours.map((c) => c.name)));
}

function render() {
  if (!snap) return;
  const names = snap.game.players;
  const live = viewPly === null;
  const view = live ? snap.position : stepView.position;
  const mine = isMyTurn();
  const next = mine ? nextTargets() : new Set();
  drawBoard(boardElement, renderer, view, {
    over: live && snap.status !== "active",
    orientation,
    names,
    last: live ? snap.last : stepView.last,
    selectable: [...next].filter((target) => !target.startsWith("opt:")),
    selected: selection,
  });
  // The squares of a move that just arrived fade in once (not again when the board is redrawn for a click).
  boardElement.classList.toggle("animate", animateNext && live);
  animateNext = false;
  boardElement.classList.toggle("my-turn", mine);
  const cancel = () => {
    selection = [];
    render();
  };
  drawChoices(choices, next, clickTarget, selection.length > 0 ? cancel : null);
  statusLine.textContent = statusText();
  document.title = `${mine ? "▶ Your move · " : ""}${baseTitle}`;
  const rules = document.getElementById("rules");
  if (!rules.firstChild) describeSettings(rules, snap.game);
  drawSeats();
  const colours = seatColours(snap.position).map((colour) => colour.fill);
  drawMoves(moveList, snap.moves, seatLabels(), live ? snap.ply : viewPly, stepTo, colours);
  document.getElementById("resign").hidden = !(snap.status === "active" && mySeats.size > 0);
  drawDrawOffer();
  document.getElementById("analyse-link").hidden = snap.status === "active";
  // The analysis board on the position shown; not during an online game (it would help one side).
  const boardLink = document.getElementById("analysis-board-link");
  boardLink.hidden = snap.status === "active" && snap.mode === "online";
  const shownText = live ? snap.position_text : stepView.position_text;
  boardLink.href = `/analysis/${snap.game.id}?${new URLSearchParams({ settings: snap.game.settings, position: shownText })}`;
  // The review's "learn from your mistakes", for the seat of this page's token (the first, on one screen).
  const learnLink = document.getElementById("learn-link");
  learnLink.hidden = snap.status === "active" || mySeats.size === 0;
  if (mySeats.size > 0) learnLink.href = `/viewer?game=${encodeURIComponent(gameId)}&learn=${Math.min(...mySeats.keys())}`;
  document.getElementById("rematch").hidden = !(snap.status !== "active" && mySeats.size > 0 && snap.mode !== "online");
  // Help for learners, never online (it would help one player against another).
  const helping = snap.status === "active" && mySeats.size > 0 && snap.mode !== "online";
  document.getElementById("hint").hidden = !(helping && mine);
  document.getElementById("show-legal-box").hidden = !helping;
  document.getElementById("typed-move").hidden = !(snap.status === "active" && mySeats.size > 0);
  drawLegalList(mine && document.getElementById("show-legal").checked);
  document.getElementById("takeback").hidden = !(
    snap.status === "active" && mySeats.size > 0 &&
    (snap.mode === "hotseat" || snap.seats.some((seat) => seat.kind === "ai")) &&
    takebackSeat() !== undefined
  );
}

// A draw offer (two-player games): offer it, or answer the other seat's (accept, decline), or withdraw it.
function drawSeatForOffer() {
  // Who offers from this screen: the seat to move if it is ours (hot-seat), else our seat.
  return mySeats.has(snap.to_move) ? snap.to_move : [...mySeats.keys()][0];
}

function drawDrawOffer() {
  const active = snap.status === "active" && snap.seats.length === 2;
  const offer = active ? snap.draw_offer : null;
  const canAnswer = offer !== null && mySeats.has(1 - offer);
  const canWithdraw = offer !== null && mySeats.has(offer) && !canAnswer;
  document.getElementById("offer-draw").hidden = !(active && mySeats.size > 0 && offer === null);
  const box = document.getElementById("draw-offer");
  box.hidden = offer === null;
  if (offer === null) return;
  document.getElementById("draw-offer-text").textContent = canWithdraw
    ? "You offer a draw."
    : `${snap.game.players[offer]} (${seatName(offer)}) offers a draw.`;
  document.getElementById("draw-accept").hidden = !canAnswer;
  document.getElementById("draw-decline").hidden = !canAnswer;
  document.getElementById("draw-withdraw").hidden = !canWithdraw;
}

async function answerDraw(seat, acceptIt) {
  showMessage("");
  try {
    accept(await api(`/api/games/${gameId}/draw`, { token: mySeats.get(seat), accept: acceptIt }));
  } catch (error) {
    showMessage(error.message);
  }
}

document.getElementById("offer-draw").addEventListener("click", () => answerDraw(drawSeatForOffer(), null));
document.getElementById("draw-accept").addEventListener("click", () => answerDraw(1 - snap.draw_offer, true));
document.getElementById("draw-decline").addEventListener("click", () => answerDraw(1 - snap.draw_offer, false));
document.getElementById("draw-withdraw").addEventListener("click", () => answerDraw(snap.draw_offer, false));

// "Show legal moves": every legal move in notation; clicking one plays it.
function drawLegalList(show) {
  const list = document.getElementById("legal-list");
  list.hidden = !show;
  list.replaceChildren();
  if (!show) return;
  for (const move of snap.legal) {
    const item = document.createElement("li");
    const button = text("button", move.text, "legal-move");
    button.type = "button";
    button.addEventListener("click", () => {
      if (isMyTurn()) play(move.text);
    });
    item.append(button);
    list.append(item);
  }
}

// Whose move a takeback undoes: the last move made from this screen (hot-seat: whoever moved last).
function takebackSeat() {
  const mine = snap.moves.filter((move) => mySeats.has(move.seat));
  return mine.length ? mine[mine.length - 1].seat : undefined;
}

function statusText() {
  if (viewPly !== null) return `Looking at the position after move ${viewPly} of ${snap.ply}.`;
  // Something the server tells the players that is not a move (a computer player that failed, say).
  if (snap.notice) return `${snap.notice} ${liveStatusText()}`;
  return liveStatusText();
}

function liveStatusText() {
  if (snap.status !== "active") return `Game over: ${snap.result_text}.`;
  if (snap.to_move === -1) return "Throwing…";
  const who = seatName(snap.to_move);
  if (isMyTurn() || (sending && mySeats.has(snap.to_move))) {
    const turn = mySeats.size > 1 ? `${who} (${snap.game.players[snap.to_move]}) to move.` : "Your move.";
    // What the board alone does not say about how to move here (Sho after pa ra: the shell picks the value).
    const told = renderer.prompt ? renderer.prompt(snap.position) : "";
    return told ? `${turn} ${told}` : turn;
  }
  const seat = snap.seats[snap.to_move];
  return seat?.kind === "ai" ? `${who} is thinking…` : `Waiting for ${who} (${snap.game.players[snap.to_move]}).`;
}

function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return `${minutes}:${seconds}`;
}

function clockFor(seat) {
  const clock = snap?.clock;
  if (!clock) return null;
  const elapsed = snap.status === "active" && clock.running === seat ? performance.now() - receivedAt : 0;
  if (clock.kind === "fischer") return clockText(clock.remaining_ms[seat] - elapsed);
  if (clock.running === seat && clock.move_left_ms !== null) return clockText(clock.move_left_ms - elapsed);
  // Over: the time each seat had left when the game ended (0:00 for a loss on time).
  if (snap.status !== "active" && clock.remaining_ms) return clockText(clock.remaining_ms[seat]);
  return clockText(clock.limit_ms);
}

// The time left on a running clock now (ms).
function msLeft(seat) {
  const clock = snap.clock;
  const elapsed = performance.now() - receivedAt;
  if (clock.kind === "fischer") return clock.remaining_ms[seat] - elapsed;
  return (clock.move_left_ms ?? clock.limit_ms) - elapsed;
}

function drawSeats() {
  seatList.replaceChildren();
  const colours = seatColours(snap.position);
  snap.seats.forEach((seat, index) => {
    const item = document.createElement("li");
    item.className = `seat seat-${index}`;
    if (colours[index]) item.style.borderLeftColor = colours[index].fill;
    if (snap.status === "active" && snap.to_move === index) item.classList.add("to-move");
    const colourName = colours[index]?.name;
    const label = `${snap.game.players[index]}${colourName ? ` (${colourName})` : ""}: ${seat.name}`;
    item.append(text("span", label, "seat-name"));
    if (seat.kind === "ai") item.append(text("span", `AI ${seat.agent}`, "tag"));
    if (mySeats.has(index)) item.append(text("span", "you", "tag you"));
    const clock = clockFor(index);
    if (clock !== null) {
      const shown = text("span", clock, "clock");
      shown.classList.toggle("low", snap.status === "active" && snap.clock.running === index && msLeft(index) < LOW_TIME_MS);
      item.append(shown);
    }
    seatList.append(item);
  });
}

setInterval(() => {
  if (snap?.clock && snap.status === "active") drawSeats();
}, 250);

// --- Stepping through the game. ---
async function stepTo(ply) {
  if (!snap) return;
  if (ply >= snap.ply) {
    viewPly = null;
    render();
    return;
  }
  ply = Math.max(0, ply);
  if (!stepCache.has(ply)) stepCache.set(ply, await api(`/api/games/${gameId}/positions/${ply}`));
  stepView = stepCache.get(ply);
  viewPly = ply;
  selection = [];
  render();
}

document.getElementById("first").addEventListener("click", () => stepTo(0));
document.getElementById("prev").addEventListener("click", () => stepTo((viewPly ?? snap.ply) - 1));
document.getElementById("next").addEventListener("click", () => stepTo((viewPly ?? snap.ply) + 1));
document.getElementById("latest").addEventListener("click", () => stepTo(snap.ply));
document.addEventListener("keydown", (event) => {
  if (!snap || event.target.closest("input, textarea")) return;
  if (event.key === "ArrowLeft") stepTo((viewPly ?? snap.ply) - 1);
  else if (event.key === "ArrowRight") stepTo((viewPly ?? snap.ply) + 1);
  else if (event.key === "Escape") {
    selection = [];
    render();
  }
});

document.getElementById("flip").addEventListener("click", () => {
  orientation = ((orientation ?? 0) + 1) % snap.game.players.length;
  render();
});

document.getElementById("resign").addEventListener("click", async () => {
  const seat = mySeats.has(snap.to_move) ? snap.to_move : [...mySeats.keys()][0];
  if (!confirm(`Resign the game as ${snap.game.players[seat]}?`)) return;
  try {
    accept(await api(`/api/games/${gameId}/resign`, { token: mySeats.get(seat) }));
  } catch (error) {
    showMessage(error.message);
  }
});

document.getElementById("show-legal").addEventListener("change", render);

// Rematch (against the computer or on one screen): the same game and clock, each player one seat on, so
// that colours change; this page holds the new persons' seats.
document.getElementById("rematch").addEventListener("click", async () => {
  const count = snap.seats.length;
  const seats = snap.seats.map((_, index) => snap.seats[(index + count - 1) % count]);
  const control = snap.clock;
  const clock = !control
    ? null
    : control.kind === "fischer"
      ? { kind: "fischer", minutes: control.initial_ms / 60000, increment: control.increment_ms / 1000 }
      : { kind: "per_move", seconds: control.limit_ms / 1000 };
  try {
    const created = await api("/api/games", {
      game: snap.game.id,
      preset: snap.game.preset,
      settings: snap.game.settings,
      mode: snap.mode,
      clock,
      seats: seats.map((seat) => (seat.kind === "ai" ? { kind: "ai", agent: seat.agent } : { kind: "person", name: seat.name })),
    });
    const tokens = created.seats.filter((seat) => seat.link).map((seat) => seat.link.split("#token=")[1]);
    location.href = `${created.url}#token=${tokens.join(",")}`;
  } catch (error) {
    showMessage(`No rematch: ${error.message}`);
  }
});

// Typing a move in the game's notation: the server reads it (the engine says what is wrong with it).
document.getElementById("typed-move").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = document.getElementById("typed-move-text");
  if (!isMyTurn() || !input.value.trim()) return;
  showMessage("");
  play(input.value.trim()).then(() => {
    if (!message.textContent) input.value = "";
  });
});

document.getElementById("hint").addEventListener("click", async () => {
  const seat = snap.to_move;
  const version = snap.version;
  showMessage("");
  showHint("Looking for a good move…");
  try {
    const hint = await api(`/api/games/${gameId}/hint`, { token: mySeats.get(seat) });
    if (snap.version !== version) return;
    showHint(`Hint (${hint.level}): ${hint.move}`);
    selection = hint.clicks.filter((target) => !target.startsWith("opt:")).slice(0, 1);
    render();
  } catch (error) {
    showHint("");
    showMessage(error.message);
  }
});

document.getElementById("takeback").addEventListener("click", async () => {
  const seat = takebackSeat();
  try {
    accept(await api(`/api/games/${gameId}/takeback`, { token: mySeats.get(seat) }));
  } catch (error) {
    showMessage(error.message);
  }
});

// Links kept by the browser that created an online game.
const invites = JSON.parse(sessionStorage.getItem(`invites:${gameId}`) ?? "null");
if (invites) {
  const list = document.getElementById("invite-list");
  for (const invite of invites) {
    const item = document.createElement("li");
    const url = new URL(invite.link, location.href).href;
    item.append(text("span", `${invite.label}: `), text("code", url, "link"));
    const copy = text("button", "copy", "copy");
    copy.type = "button";
    copy.addEventListener("click", () => navigator.clipboard?.writeText(url));
    item.append(copy);
    list.append(item);
  }
  document.getElementById("invites").hidden = false;
}

accept(await api(`/api/games/${gameId}`));
if (mySeats.size > 0) rememberGame(snap, mySeats);
connect();
