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

// `over`: the game ended off the board (a resignation, a loss on time): the renderer shows nobody to move.
// A renderer may also export `legend(view, options)`: HTML put after the drawing, for what the drawing
// shows too small to read where the board is small (Shogammon's die map on a phone); its CSS says where
// it is shown.
export function drawBoard(container, renderer, view, options) {
  const { orientation = 0, names = [], last = [], selectable = [], selected = [], over = false } = options;
  const legend = renderer.legend ? renderer.legend(view, { orientation, names, over }) : "";
  container.innerHTML = renderer.render(view, { orientation, names, over }) + legend;
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

// The smallest tap target on a touch screen, in CSS pixels (Apple's and WCAG's 44).
export const TAP_SIZE = 44;

// Which target a click or tap on a board means. A click on a selectable (or selected) target means it. A
// tap on a touch screen elsewhere means the selectable target whose area, grown to TAP_SIZE square around
// its centre, holds the tap (the nearest centre where several do): on a phone every possible next click is
// at least 44 px, even where the board draws it smaller (Sho's shells, Shogammon's squares). Otherwise the
// clicked target, if any.
export function tapTarget(container, event) {
  const hit = event.target.closest?.("[data-target]") ?? null;
  if (hit && (hit.classList.contains("selectable") || hit.classList.contains("selected"))) {
    return hit.getAttribute("data-target");
  }
  const touch = event.pointerType === "touch" || matchMedia("(pointer: coarse)").matches;
  if (touch) {
    let best = null;
    let bestDistance = Infinity;
    for (const element of container.querySelectorAll("[data-target].selectable")) {
      const box = element.getBoundingClientRect();
      const dx = Math.abs(event.clientX - (box.left + box.width / 2));
      const dy = Math.abs(event.clientY - (box.top + box.height / 2));
      if (dx > Math.max(box.width, TAP_SIZE) / 2 || dy > Math.max(box.height, TAP_SIZE) / 2) continue;
      const distance = Math.hypot(dx, dy);
      if (distance < bestDistance) {
        best = element;
        bestDistance = distance;
      }
    }
    if (best) return best.getAttribute("data-target");
  }
  return hit ? hit.getAttribute("data-target") : null;
}

// The choices that are not on the board (promote, hush, which die: the "opt:" targets among `targets`), as
// buttons in `container` that call `onPick(target)`; with `onCancel`, a "cancel" button after them.
export function drawChoices(container, targets, onPick, onCancel = null) {
  container.replaceChildren();
  for (const target of targets) {
    if (!target.startsWith("opt:")) continue;
    const button = text("button", target.slice(4), "choice");
    button.type = "button";
    button.dataset.target = target;
    button.addEventListener("click", () => onPick(target));
    container.append(button);
  }
  if (onCancel) {
    const cancel = text("button", "cancel", "cancel");
    cancel.type = "button";
    cancel.addEventListener("click", onCancel);
    container.append(cancel);
  }
}

export function text(tag, content, className) {
  const element = document.createElement(tag);
  element.textContent = content;
  if (className) element.className = className;
  return element;
}

// The move list: one entry per ply, chance outcomes (dice, the toss) shown quietly. `labels[seat]` says
// who moved (the seat's colour and the person's name), `colours[seat]` (optional) is a CSS colour for the
// seat's swatch; a move's note (dice lost, a turn passed) is shown under it. The list scrolls within
// itself to the current move: the page never scrolls, so the board stays where the player looks.
export function drawMoves(list, moves, labels, current, onPick, colours = []) {
  list.replaceChildren();
  for (const move of moves) {
    const item = document.createElement("li");
    item.value = move.ply;
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.ply = String(move.ply);
    const chance = move.seat === -1 || move.seat === null;
    const who = text("span", chance ? "chance" : labels[move.seat] ?? "", "who");
    if (!chance && colours[move.seat]) {
      const swatch = text("span", "", "swatch");
      swatch.style.backgroundColor = colours[move.seat];
      who.prepend(swatch);
    }
    button.append(who, text("span", move.text, "move-text"));
    button.className = chance ? "chance" : `seat-${move.seat}`;
    if (move.ply === current) button.classList.add("current");
    button.addEventListener("click", () => onPick(move.ply));
    item.append(button);
    if (move.note) item.append(text("span", move.note, "note"));
    list.append(item);
  }
  const currentButton = list.querySelector("button.current");
  if (currentButton) {
    const box = list.getBoundingClientRect();
    const line = currentButton.getBoundingClientRect();
    if (line.bottom > box.bottom) list.scrollTop += line.bottom - box.bottom;
    else if (line.top < box.top) list.scrollTop -= box.top - line.top;
  }
}

// Who a seat is, for the move list and the seat bars: its colour in the game ("Black", "Player 2 (red)"),
// then the person's or computer's name where that says more.
export function seatLabel(players, seats, seat, colourNames = []) {
  const player = players[seat] ?? `seat ${seat + 1}`;
  const colour = colourNames[seat] && !player.toLowerCase().includes(colourNames[seat]) ? ` (${colourNames[seat]})` : "";
  const name = seats[seat]?.name;
  return name && name !== player ? `${player}${colour} · ${name}` : `${player}${colour}`;
}

// The rules in a fold: the preset's name as the summary, every setting inside.
export function describeSettings(element, game) {
  const fold = document.createElement("details");
  fold.append(text("summary", `Rules: ${game.preset ?? "standard"}`));
  const list = document.createElement("ul");
  for (const pair of (game.settings ?? "").split(" ").filter(Boolean)) list.append(text("li", pair));
  fold.append(list);
  element.replaceChildren(fold);
}/**
 * Narrow the legal moves by the clicks so far: `candidates` are the moves whose clicks begin with
 * `selection`, `next` the targets that may be clicked next (one click further along a candidate).
 */
export function narrowClicks(legal, selection) {
  const candidates = legal.filter((move) => selection.every((target, index) => move.clicks[index] === target));
  const next = new Set();
  for (const move of candidates) if (move.clicks.length > selection.length) next.add(move.clicks[selection.length]);
  return { candidates, next };
}


