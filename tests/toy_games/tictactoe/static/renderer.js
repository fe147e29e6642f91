// Tic-tac-toe (a test game with a kernel): the board's squares, each a click target "sq:<name>", and the marks.
// Reads the view of tests/toy_games/tictactoe/view.py; rank 1 is drawn at the bottom.
import { esc } from "/static/svg.js";

const CELL = 80;
const MARGIN = 24;

export function render(view, options = {}) {
  const names = options.names ?? view.players;
  const side = view.size * CELL;
  const width = side + 2 * MARGIN;
  const height = side + 2 * MARGIN + 36;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" class="ttt-svg" role="img" aria-label="tic-tac-toe board">`,
  ];
  for (let square = 0; square < view.size * view.size; square += 1) {
    const column = square % view.size;
    const row = Math.floor(square / view.size);
    const x = MARGIN + column * CELL;
    const y = MARGIN + (view.size - 1 - row) * CELL;
    const name = `${view.files[column]}${row + 1}`;
    parts.push(
      `<g data-target="sq:${name}" class="ttt-square"><rect x="${x}" y="${y}" width="${CELL}" height="${CELL}"/></g>`,
    );
    const mark = view.marks[square];
    if (mark === "x") {
      const a = x + 18;
      const b = x + CELL - 18;
      const c = y + 18;
      const d = y + CELL - 18;
      parts.push(`<path d="M${a} ${c} L${b} ${d} M${b} ${c} L${a} ${d}" class="ttt-mark ttt-x"/>`);
    } else if (mark === "o") {
      parts.push(`<circle cx="${x + CELL / 2}" cy="${y + CELL / 2}" r="${CELL / 2 - 18}" class="ttt-mark ttt-o"/>`);
    }
  }
  let status;
  if (view.terminal) {
    status = view.winner === null ? "a draw" : `${names[view.winner]} made ${view.line} in a row`;
  } else {
    status = `${names[view.to_move]} to move`;
  }
  parts.push(`<text x="${MARGIN}" y="${height - 14}" class="ttt-status">${esc(status)}</text></svg>`);
  return parts.join("");
}
