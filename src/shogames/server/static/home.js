// The home page's new-game form: the game, its rules and settings, who plays each seat, and the clock.
import { text } from "/static/board.js";
import { forgetGame, myGames, rememberLinks } from "/static/mygames.js";

const catalog = JSON.parse(document.getElementById("catalog").textContent);
const form = document.getElementById("new-game");
const gameChoice = document.getElementById("game-choice");
const presetSelect = document.getElementById("preset");
const settingsInput = document.getElementById("settings");
const settingsHelp = document.getElementById("settings-help");
const seatsBox = document.getElementById("seats");
const formError = document.getElementById("form-error");
const clockKind = document.getElementById("clock-kind");
// The games that have a rules page or lessons (server/learn.py).
const guides = await fetch("/api/guides")
  .then((response) => (response.ok ? response.json() : { games: [] }))
  .then((data) => data.games)
  .catch(() => []);

// The catalog lists the games in their display order, each with its blurb and suggested clock.
let gameId = new URLSearchParams(location.search).get("game");
if (!catalog.games.some((game) => game.id === gameId)) gameId = catalog.games[0].id;

for (const game of catalog.games) {
  const label = document.createElement("label");
  label.className = "game-card";
  const input = document.createElement("input");
  input.type = "radio";
  input.name = "game";
  input.value = game.id;
  input.checked = game.id === gameId;
  input.addEventListener("change", () => {
    gameId = game.id;
    fillRules();
  });
  label.append(input, text("strong", game.name), text("span", game.blurb, "blurb"));
  gameChoice.append(label);
}

function currentGame() {
  return catalog.games.find((game) => game.id === gameId);
}

function fillRules() {
  const game = currentGame();
  presetSelect.replaceChildren(text("option", "standard"));
  presetSelect.firstChild.value = "";
  // "standard" is the first entry (no preset); a preset of that name would be listed twice.
  for (const preset of game.presets.filter((name) => name !== "standard")) {
    const option = text("option", preset);
    option.value = preset;
    presetSelect.append(option);
  }
  settingsInput.value = "";
  settingsHelp.replaceChildren();
  const list = document.createElement("dl");
  for (const setting of game.settings) {
    list.append(text("dt", `${setting.name}=${setting.default}`), text("dd", `${setting.description} (${setting.values})`));
  }
  settingsHelp.append(list);
  clockTouched = false;
  const guide = guides.find((entry) => entry.id === game.id);
  const rulesLink = document.getElementById("rules-link");
  rulesLink.href = `/rules/${game.id}`;
  rulesLink.textContent = `How to play ${game.name}`;
  rulesLink.hidden = !guide?.rules;
  const lessonsLink = document.getElementById("lessons-link");
  lessonsLink.href = `/learn/${game.id}`;
  lessonsLink.textContent = `${guide?.lessons.length ?? 0} lessons`;
  lessonsLink.hidden = !guide?.lessons.length;
  document.getElementById("analysis-link").href = `/analysis/${game.id}`; // the analysis board of this game
  document.getElementById("learn-links").hidden = !guide;
  refreshSeats();
}

// The clock the game's players expect (Shoo's designers: one minute a move), but only between people:
// against the computer no clock unless the person asks for one.
let clockTouched = false;
function suggestClock() {
  if (clockTouched) return;
  const clock = currentGame().clock;
  const computer = [...seatsBox.querySelectorAll(".seat-row select")].some((select) => select.value.startsWith("ai:"));
  clockKind.value = clock && !computer ? clock.kind : "none";
  if (clock?.kind === "per_move") document.getElementById("clock-seconds").value = clock.seconds;
  if (clock?.kind === "fischer") {
    document.getElementById("clock-minutes").value = clock.minutes;
    document.getElementById("clock-increment").value = clock.increment;
  }
  showClockFields();
}

let seatNames = [];
let refreshTimer = null;
async function refreshSeats() {
  const params = new URLSearchParams({ game: gameId, preset: presetSelect.value, settings: settingsInput.value });
  const response = await fetch(`/api/seats?${params}`);
  const data = await response.json();
  if (!response.ok) {
    formError.textContent = data.error;
    return;
  }
  formError.textContent = "";
  seatNames = data.seats;
  drawSeats();
}

function seatOptions(index) {
  const select = document.createElement("select");
  select.className = "seat-kind";
  select.dataset.seat = String(index);
  const choices = [
    ["me", "you, on this screen"],
    ["invite", "a person with an invite link"],
    ...currentGame().levels.map((level) => [`ai:${level.name}`, `computer: ${level.name}`]),
  ];
  for (const [value, label] of choices) {
    const option = text("option", label);
    option.value = value;
    select.append(option);
  }
  select.value = index === 0 ? "me" : "ai:easy";
  return select;
}

function drawSeats() {
  const old = [...seatsBox.querySelectorAll(".seat-row")].map((row) => [
    row.querySelector("select").value,
    row.querySelector("input").value,
  ]);
  seatsBox.querySelectorAll(".seat-row").forEach((row) => row.remove());
  seatNames.forEach((name, index) => {
    const row = document.createElement("div");
    row.className = "seat-row";
    const select = seatOptions(index);
    const nameInput = document.createElement("input");
    nameInput.placeholder = "name (optional)";
    nameInput.maxLength = 40;
    nameInput.className = "seat-player";
    if (old[index]) {
      select.value = old[index][0];
      nameInput.value = old[index][1];
    }
    // A computer seat shows, in place of the name field, what its level is and how it measured.
    const levelLine = text("span", "", "level-line");
    const sync = () => {
      const computer = select.value.startsWith("ai:");
      nameInput.hidden = computer;
      const level = currentGame().levels.find((entry) => `ai:${entry.name}` === select.value);
      levelLine.textContent = level ? level.line : "";
      levelLine.hidden = !level;
    };
    select.addEventListener("change", () => {
      sync();
      suggestClock();
    });
    sync();
    row.append(text("span", name, "seat-label"), select, nameInput, levelLine);
    seatsBox.append(row);
  });
  suggestClock();
}

presetSelect.addEventListener("change", refreshSeats);
settingsInput.addEventListener("input", () => {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(refreshSeats, 300);
});
function showClockFields() {
  document.getElementById("clock-fischer").hidden = clockKind.value !== "fischer";
  document.getElementById("clock-per-move").hidden = clockKind.value !== "per_move";
}
clockKind.addEventListener("change", () => {
  clockTouched = true;
  showClockFields();
});

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  formError.textContent = "";
  const rows = [...seatsBox.querySelectorAll(".seat-row")];
  const picks = rows.map((row) => ({ choice: row.querySelector("select").value, name: row.querySelector("input").value }));
  const seats = picks.map(({ choice, name }) =>
    choice.startsWith("ai:") ? { kind: "ai", agent: choice.slice(3) } : { kind: "person", name: name || null },
  );
  const mode = picks.some((pick) => pick.choice === "invite")
    ? "online"
    : picks.some((pick) => pick.choice.startsWith("ai:"))
      ? "computer"
      : "hotseat";
  const clock =
    clockKind.value === "fischer"
      ? { kind: "fischer", minutes: Number(document.getElementById("clock-minutes").value), increment: Number(document.getElementById("clock-increment").value) }
      : clockKind.value === "per_move"
        ? { kind: "per_move", seconds: Number(document.getElementById("clock-seconds").value) }
        : null;
  const body = { game: gameId, preset: presetSelect.value || null, settings: settingsInput.value, mode, seats, clock };
  const response = await fetch("/api/games", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) {
    formError.textContent = data.error;
    return;
  }
  const mine = data.seats.filter((seat, index) => picks[index].choice === "me").map((seat) => seat.link.split("#token=")[1]);
  const target = mine.length ? `${data.url}#token=${mine.join(",")}` : data.url;
  const invites = data.seats
    .filter((seat, index) => picks[index].choice === "invite")
    .map((seat) => ({ label: `${seatNames[seat.seat]} (${seat.name})`, link: seat.link }));
  const game = currentGame();
  const mineLinks = data.seats
    .filter((seat, index) => picks[index].choice === "me")
    .map((seat) => ({ label: `${seatNames[seat.seat]} (${seat.name})`, link: seat.link }));
  rememberLinks(data.id, game.id, game.name, [...mineLinks, ...invites.map((invite) => ({ ...invite, label: `invite: ${invite.label}` }))], {
    status: "in progress",
  });
  if (invites.length) {
    invites.push({ label: "spectators", link: data.spectate });
    sessionStorage.setItem(`invites:${data.id}`, JSON.stringify(invites));
    const list = document.getElementById("invite-list");
    list.replaceChildren();
    for (const invite of invites) {
      const url = new URL(invite.link, location.href).href;
      const item = document.createElement("li");
      const anchor = text("a", url, "invite-link");
      anchor.href = url;
      anchor.dataset.label = invite.label;
      item.append(text("span", `${invite.label}: `), anchor);
      list.append(item);
    }
    const go = document.getElementById("invite-go");
    go.href = target;
    go.hidden = mine.length === 0;
    document.getElementById("invites").hidden = false;
    form.hidden = true;
    return;
  }
  location.href = target;
});

// "My games": the games played in this browser, with a link back to each seat.
function drawMyGames() {
  const games = myGames();
  const box = document.getElementById("my-games");
  box.hidden = games.length === 0;
  const list = document.getElementById("my-games-list");
  list.replaceChildren();
  for (const entry of games) {
    const item = document.createElement("li");
    item.dataset.game = entry.id;
    const title = text("span", `${entry.name}`, "my-game-name");
    item.append(title, text("span", ` ${entry.status ?? ""} · ${new Date(entry.saved).toLocaleString()}`, "muted"));
    const links = document.createElement("ul");
    for (const seat of entry.links ?? []) {
      const link = document.createElement("li");
      const anchor = text("a", seat.label, "seat-link");
      anchor.href = seat.link;
      link.append(anchor);
      links.append(link);
    }
    const forget = text("button", "forget", "forget");
    forget.type = "button";
    forget.addEventListener("click", () => {
      forgetGame(entry.id);
      drawMyGames();
    });
    item.append(forget, links);
    list.append(item);
  }
}

drawMyGames();
fillRules();
