// Drawing a position with its game's renderer, and the move list: shared by the game page and the viewer.
// Each game's renderer (/static/games/<game>/renderer.js, from its package) returns SVG markup whose
// clickable parts carry data-target ids; this module adds the classes that show the last move, the
// possible next clicks and the clicks made.

const renderers = new Map();

export async function loadRenderer(gameId) {
  if (!renderers.has(gameId)) {
    if (!document.querySelector(`link[data-game-css="${gameId}"]`)) {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = `/static/games/${gameId}/renderer.css`;
      link.dataset.gameCss = gameId;
      document.head.append(link);
    }
    renderers.set(gameId, await import(`/static/games/${gameId}/renderer.js`));
  }
  return renderers.get(gameId);
}

export function drawBoard(container, renderer, view, options) {
  const { orientation = 0, names = [], last = [], selectable = [], selected = [] } = options;
  container.innerHTML = renderer.render(view, { orientation, names });
  const lastSet = new Set(last);
  const selectableSet = new Set(selectable);
  const selectedSet = new Set(selected);
  for (const element of container.querySelectorAll("[data-target]")) {
    const id = element.getAttribute("data-target");
    element.classList.toggle("last", lastSet.has(id));
    element.classList.toggle("selectable", selectableSet.has(id));
    element.classList.toggle("selected", selectedSet.has(id));
  }
}

export function text(tag, content, className) {
  const element = document.createElement(tag);
  element.textContent = content;
  if (className) element.className = className;
  return element;
}

// The move list: one entry per ply, chance outcomes (dice, the toss) shown quietly.
export function drawMoves(list, moves, seatNames, current, onPick) {
  list.replaceChildren();
  for (const move of moves) {
    const item = document.createElement("li");
    item.value = move.ply;
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.ply = String(move.ply);
    const who = move.seat === -1 || move.seat === null ? "chance" : seatNames[move.seat] ?? "";
    button.append(text("span", who, "who"), text("span", move.text, "move-text"));
    button.className = move.seat === -1 ? "chance" : `seat-${move.seat}`;
    if (move.ply === current) button.classList.add("current");
    button.addEventListener("click", () => onPick(move.ply));
    item.append(button);
    list.append(item);
  }
  const currentButton = list.querySelector("button.current");
  if (currentButton) currentButton.scrollIntoView({ block: "nearest" });
}

// The rules in a fold: the preset's name as the summary, every setting inside.
export function describeSettings(element, game) {
  const fold = document.createElement("details");
  fold.append(text("summary", `Rules: ${game.preset ?? "standard"}`));
  const list = document.createElement("ul");
  for (const pair of (game.settings ?? "").split(" ").filter(Boolean)) list.append(text("li", pair));
  fold.append(list);
  element.replaceChildren(fold);
}
