// The rules page: each diagram is the game's position view, drawn by the game's own renderer (the same
// as the game page's), with the targets the text talks about marked as a last move is.
import { drawBoard, loadRenderer } from "/static/board.js";

for (const element of document.querySelectorAll("[data-diagram]")) {
  const diagram = JSON.parse(element.dataset.diagram);
  const renderer = await loadRenderer(diagram.game);
  drawBoard(element, renderer, diagram.view, { names: diagram.names, last: diagram.highlight });
}
