// The generic renderer, for a game without a renderer of its own: the position's text diagram, line by
// line (the view of shogames/server/views/generic.py). Moves are made with the buttons under the board.
import { esc } from "/static/svg.js";

const LINE = 22; // line height
const CHAR = 11; // width of a character of the monospace font
const PAD = 16;

export function render(view, options = {}) {
  const names = options.names ?? view.players ?? [];
  const lines = [...view.diagram];
  if (view.terminal) lines.push("", "Over: " + names.map((name, seat) => `${name} ${view.returns[seat]}`).join(", "));
  const width = 2 * PAD + CHAR * Math.max(20, ...lines.map((line) => line.length));
  const height = 2 * PAD + LINE * Math.max(1, lines.length);
  const rows = lines.map(
    (line, index) => `<text x="${PAD}" y="${PAD + LINE * (index + 0.75)}" xml:space="preserve">${esc(line)}</text>`,
  );
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" class="generic-svg" role="img" ` +
    `aria-label="${esc(view.game)} position" font-family="monospace" font-size="18">` +
    `<rect width="${width}" height="${height}" rx="8" class="generic-paper"/>${rows.join("")}</svg>`
  );
}
