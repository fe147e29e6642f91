// The dice race (a test game): one track of squares per seat, its token, and the die to play.
// Reads the view of tests/toy_games/view.py; each square is a click target "cell:<seat>:<square>".
import { esc } from "/static/svg.js";

const CELL = 44;
const ROW = 70;
const LEFT = 90;

export function render(view, options = {}) {
  const names = options.names ?? view.players;
  const cells = view.target + 3; // squares 0 .. target + 2: an advance may pass the target
  const width = LEFT + cells * CELL + 20;
  const height = 40 + ROW * names.length + 50;
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" class="race-svg" role="img" aria-label="dice race">`];
  names.forEach((name, seat) => {
    const y = 30 + seat * ROW;
    parts.push(`<text x="10" y="${y + CELL / 2 + 5}" class="race-name">${esc(name)}</text>`);
    for (let square = 0; square < cells; square += 1) {
      const x = LEFT + square * CELL;
      const kind = square === view.target ? "goal" : square > view.target ? "beyond" : "plain";
      parts.push(
        `<g data-target="cell:${seat}:${square}" class="race-cell ${kind}">` +
          `<rect x="${x}" y="${y}" width="${CELL - 4}" height="${CELL - 4}" rx="6"/>` +
          `<text x="${x + CELL / 2 - 2}" y="${y + CELL - 10}" class="race-number">${square}</text></g>`,
      );
    }
    const x = LEFT + view.places[seat] * CELL + CELL / 2 - 2;
    parts.push(`<circle cx="${x}" cy="${y + CELL / 2 - 6}" r="11" class="race-token seat-${seat}"/>`);
  });
  const die = view.throw === null ? (view.terminal ? "game over" : "to throw") : `die: ${view.throw}`;
  parts.push(`<text x="10" y="${height - 18}" class="race-die">${esc(names[view.turn])}: ${esc(die)}</text></svg>`);
  return parts.join("");
}
