// Shobu: four 4x4 wooden boards (two dark, two light) in a 2x2 layout, a rope between the two halves,
// black and white river stones. Reads the view of shogames/games/shobu/view.py.
//
// Every square is a click target <g data-target="sq:<board>:<square>"> holding (bottom to top) a
// highlight rect, a dot (shown on a selectable empty square), a ring (shown round a selectable stone)
// and a ghost stone of the mover's colour (shown on a selected empty square: the passive move's
// destination). The app sets the classes selectable / selected / last on these groups; renderer.css
// styles them.

import { esc } from "/static/svg.js";

const SQ = 56; // square size
const RIM = 18; // wooden rim round the 4x4 grid, where the coordinates are engraved
const BOARD = 4 * SQ + 2 * RIM; // outer size of one board
const GAP_X = 38; // between the left and the right board
const ROPE_BAND = 58; // between White's half and Black's half
const MARGIN = 22;
const CAPTION = 34; // above the top boards and below the bottom ones
const WIDTH = 2 * MARGIN + 2 * BOARD + GAP_X;
const TOP = 10 + CAPTION;
const HEIGHT = TOP + 2 * BOARD + ROPE_BAND + CAPTION + 10;
const STONE_R = SQ * 0.4;

const SEAT_NAMES = ["Black", "White"];

function fmt(n) {
  return Number.isInteger(n) ? String(n) : n.toFixed(2);
}

const DEFS = `
<defs>
  <radialGradient id="shobu-stone-b" cx="0.36" cy="0.3" r="0.75">
    <stop offset="0" stop-color="#8a8a8a"/>
    <stop offset="0.18" stop-color="#3a3a3a"/>
    <stop offset="0.6" stop-color="#141414"/>
    <stop offset="1" stop-color="#000"/>
  </radialGradient>
  <radialGradient id="shobu-stone-w" cx="0.36" cy="0.3" r="0.78">
    <stop offset="0" stop-color="#ffffff"/>
    <stop offset="0.35" stop-color="#f4f1ea"/>
    <stop offset="0.8" stop-color="#d6d1c4"/>
    <stop offset="1" stop-color="#b3ad9e"/>
  </radialGradient>
  <radialGradient id="shobu-gloss" cx="0.5" cy="0.5" r="0.5">
    <stop offset="0" stop-color="#fff" stop-opacity="0.75"/>
    <stop offset="1" stop-color="#fff" stop-opacity="0"/>
  </radialGradient>
  <linearGradient id="shobu-wood-dark" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="#7a4a2a"/>
    <stop offset="0.5" stop-color="#683d21"/>
    <stop offset="1" stop-color="#4f2c16"/>
  </linearGradient>
  <linearGradient id="shobu-wood-light" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="#ecd3a2"/>
    <stop offset="0.5" stop-color="#e0c08a"/>
    <stop offset="1" stop-color="#cfa86e"/>
  </linearGradient>
  <linearGradient id="shobu-table" x1="0" y1="0" x2="0" y2="1">
    <stop offset="0" stop-color="#efe8da"/>
    <stop offset="1" stop-color="#e2d8c4"/>
  </linearGradient>
  <filter id="shobu-grain-dark" x="0" y="0" width="100%" height="100%">
    <feTurbulence type="fractalNoise" baseFrequency="0.006 0.16" numOctaves="3" seed="7" result="noise"/>
    <feColorMatrix in="noise" type="matrix"
      values="0 0 0 0 0.16  0 0 0 0 0.08  0 0 0 0 0.03  1.7 0 0 0 -0.72"/>
    <feComposite in2="SourceGraphic" operator="in"/>
  </filter>
  <filter id="shobu-grain-light" x="0" y="0" width="100%" height="100%">
    <feTurbulence type="fractalNoise" baseFrequency="0.006 0.16" numOctaves="3" seed="23" result="noise"/>
    <feColorMatrix in="noise" type="matrix"
      values="0 0 0 0 0.55  0 0 0 0 0.35  0 0 0 0 0.15  1.6 0 0 0 -0.7"/>
    <feComposite in2="SourceGraphic" operator="in"/>
  </filter>
  <filter id="shobu-shadow" x="-20%" y="-20%" width="140%" height="140%">
    <feGaussianBlur stdDeviation="5"/>
  </filter>
  <filter id="shobu-stone-shadow" x="-50%" y="-50%" width="200%" height="200%">
    <feGaussianBlur stdDeviation="1.8"/>
  </filter>
</defs>`;

function stoneSvg(cx, cy, colour, extraClass) {
  const edge = colour === "b" ? "#000" : "#8f897a";
  return (
    `<g class="shobu-stone stone-${colour}${extraClass ? " " + extraClass : ""}">` +
    `<circle cx="${fmt(cx + 1.8)}" cy="${fmt(cy + 3)}" r="${fmt(STONE_R)}" fill="#000" opacity="0.4" ` +
    `filter="url(#shobu-stone-shadow)"/>` +
    `<circle cx="${fmt(cx)}" cy="${fmt(cy)}" r="${fmt(STONE_R)}" fill="url(#shobu-stone-${colour})" ` +
    `stroke="${edge}" stroke-width="0.8"/>` +
    `<ellipse cx="${fmt(cx - STONE_R * 0.3)}" cy="${fmt(cy - STONE_R * 0.38)}" rx="${fmt(STONE_R * 0.42)}" ` +
    `ry="${fmt(STONE_R * 0.24)}" fill="url(#shobu-gloss)" ` +
    `opacity="${colour === "b" ? 0.55 : 0.9}" transform="rotate(-25 ${fmt(cx - STONE_R * 0.3)} ` +
    `${fmt(cy - STONE_R * 0.38)})"/>` +
    `</g>`
  );
}

function ropeSvg(y) {
  const x0 = 6;
  const x1 = WIDTH - 6;
  const d = `M ${x0} ${y + 2} C ${fmt(WIDTH * 0.3)} ${y - 7}, ${fmt(WIDTH * 0.7)} ${y + 9}, ${x1} ${y - 1}`;
  return (
    `<g class="shobu-rope">` +
    `<path d="${d}" fill="none" stroke="#000" stroke-opacity="0.18" stroke-width="13" ` +
    `transform="translate(1.5 3)" filter="url(#shobu-stone-shadow)"/>` +
    `<path d="${d}" fill="none" stroke="#a89572" stroke-width="12" stroke-linecap="round"/>` +
    `<path d="${d}" fill="none" stroke="#efe4c9" stroke-width="9.5" stroke-linecap="round"/>` +
    `<path d="${d}" fill="none" stroke="#c7b58f" stroke-width="9.5" stroke-dasharray="2.2 4.6"/>` +
    `<path d="${d}" fill="none" stroke="#fff8e6" stroke-opacity="0.6" stroke-width="2" ` +
    `transform="translate(0 -2)" stroke-dasharray="3.2 3.6"/>` +
    `</g>`
  );
}

/**
 * The SVG of a Shobu position.
 * @param {object} view the position view (see shogames/games/shobu/view.py)
 * @param {{orientation?: number, names?: string[]}} options seat shown at the bottom (0 Black, 1 White)
 * @returns {string} an <svg> element
 */
export function render(view, options = {}) {
  const flip = (options.orientation ?? 0) === 1;
  const files = view.files ?? "abcd";
  const ranks = view.ranks ?? "1234";
  const players = view.players ?? SEAT_NAMES;
  const mover = view.mover_colour ?? "b";
  const parts = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" class="shobu-svg" ` +
      `role="img" aria-label="Shobu position" font-family="Georgia, 'Times New Roman', serif">`,
  );
  parts.push(DEFS);
  parts.push(`<rect x="0" y="0" width="${WIDTH}" height="${HEIGHT}" rx="10" fill="url(#shobu-table)"/>`);

  const ropeY = TOP + BOARD + ROPE_BAND / 2;
  const boardLayers = [];
  const captions = [];

  for (const board of view.boards) {
    const drow = flip ? 1 - board.row : board.row;
    const dcol = flip ? 1 - board.col : board.col;
    const bx = MARGIN + dcol * (BOARD + GAP_X);
    const by = TOP + drow * (BOARD + ROPE_BAND);
    const dark = board.colour === "dark";
    const gx = bx + RIM;
    const gy = by + RIM;
    const g = [];
    g.push(`<g class="shobu-board board-${esc(board.colour)}" data-board="${esc(board.name)}">`);
    // shadow, wood, grain, bevel
    g.push(
      `<rect x="${bx + 3}" y="${by + 6}" width="${BOARD}" height="${BOARD}" rx="7" fill="#3b2414" ` +
        `opacity="0.45" filter="url(#shobu-shadow)"/>`,
    );
    g.push(
      `<rect x="${bx}" y="${by}" width="${BOARD}" height="${BOARD}" rx="7" ` +
        `fill="url(#shobu-wood-${dark ? "dark" : "light"})"/>`,
    );
    g.push(
      `<rect x="${bx}" y="${by}" width="${BOARD}" height="${BOARD}" rx="7" fill="#000" ` +
        `filter="url(#shobu-grain-${dark ? "dark" : "light"})" opacity="${dark ? 0.9 : 0.75}"/>`,
    );
    g.push(
      `<rect x="${bx + 0.75}" y="${by + 0.75}" width="${BOARD - 1.5}" height="${BOARD - 1.5}" rx="6.5" ` +
        `fill="none" stroke="${dark ? "#a0714c" : "#f7e6c2"}" stroke-opacity="0.7" stroke-width="1.5"/>`,
    );
    g.push(
      `<rect x="${bx}" y="${by}" width="${BOARD}" height="${BOARD}" rx="7" fill="none" ` +
        `stroke="${dark ? "#2e180a" : "#8d6a3c"}" stroke-width="1"/>`,
    );
    // engraved grid: a dark groove with a light lip below/right of it
    const groove = dark ? "#26130a" : "#7a5429";
    const lip = dark ? "#9a6c46" : "#f8e9c8";
    const lines = [];
    for (let i = 0; i <= 4; i++) {
      const x = gx + i * SQ;
      const y = gy + i * SQ;
      lines.push(`M ${x} ${gy} V ${gy + 4 * SQ}`);
      lines.push(`M ${gx} ${y} H ${gx + 4 * SQ}`);
    }
    const path = lines.join(" ");
    g.push(`<path d="${path}" stroke="${lip}" stroke-opacity="0.55" stroke-width="1.6" fill="none" ` +
      `transform="translate(0.9 0.9)"/>`);
    g.push(`<path d="${path}" stroke="${groove}" stroke-opacity="0.8" stroke-width="1.6" fill="none"/>`);
    // coordinates on the rim: files along the bottom, ranks along the left
    const ink = dark ? "#e9cfa9" : "#6b4620";
    for (let f = 0; f < 4; f++) {
      const col = flip ? 3 - f : f;
      g.push(
        `<text x="${gx + col * SQ + SQ / 2}" y="${by + BOARD - 5}" text-anchor="middle" font-size="11" ` +
          `fill="${ink}" fill-opacity="0.85" class="shobu-coord">${esc(files[f])}</text>`,
      );
    }
    for (let r = 0; r < 4; r++) {
      const row = flip ? r : 3 - r;
      g.push(
        `<text x="${bx + RIM / 2}" y="${gy + row * SQ + SQ / 2 + 4}" text-anchor="middle" font-size="11" ` +
          `fill="${ink}" fill-opacity="0.85" class="shobu-coord">${esc(ranks[r])}</text>`,
      );
    }
    // stones
    for (const [square, colour] of Object.entries(board.stones)) {
      const f = files.indexOf(square[0]);
      const r = ranks.indexOf(square[1]);
      const col = flip ? 3 - f : f;
      const row = flip ? r : 3 - r;
      g.push(stoneSvg(gx + col * SQ + SQ / 2, gy + row * SQ + SQ / 2, colour === "w" ? "w" : "b", ""));
    }
    // click targets, one per square, on top of everything
    for (let r = 0; r < 4; r++) {
      for (let f = 0; f < 4; f++) {
        const square = files[f] + ranks[r];
        const col = flip ? 3 - f : f;
        const row = flip ? r : 3 - r;
        const x = gx + col * SQ;
        const y = gy + row * SQ;
        const cx = x + SQ / 2;
        const cy = y + SQ / 2;
        const occupied = square in board.stones;
        g.push(
          `<g class="shobu-sq ${occupied ? "occupied" : "empty"}" ` +
            `data-target="sq:${esc(board.name)}:${esc(square)}" pointer-events="all">` +
            `<title>${esc(board.name)} ${esc(square)}</title>` +
            `<rect class="hl" x="${x}" y="${y}" width="${SQ}" height="${SQ}" fill="transparent"/>` +
            `<circle class="dot" cx="${cx}" cy="${cy}" r="${fmt(SQ * 0.14)}"/>` +
            `<circle class="ring" cx="${cx}" cy="${cy}" r="${fmt(STONE_R + 3.5)}" fill="none"/>` +
            stoneSvg(cx, cy, mover === "w" ? "w" : "b", "ghost") +
            `</g>`,
        );
      }
    }
    g.push(`</g>`);
    boardLayers.push(g.join(""));

    // caption on the outer side: board name and owner, and each side's stones left on it
    const top = drow === 0;
    const cy = top ? by - 11 : by + BOARD + 23;
    const owner = players[board.owner] ?? SEAT_NAMES[board.owner];
    const colourWord = dark ? "dark" : "light";
    captions.push(
      `<text x="${bx + 2}" y="${cy}" font-size="14" fill="#4a3420" class="shobu-caption">` +
        `<tspan font-weight="bold">${esc(board.name)}</tspan>` +
        `<tspan fill="#7a6249" font-size="12.5" dx="7">${esc(owner)}’s ${colourWord} homeboard</tspan></text>`,
    );
    // stone counts, right-aligned: a small stone and the number for each side
    const counts = board.count ?? [0, 0];
    let rx = bx + BOARD - 2;
    const order = [1, 0]; // drawn right to left: White's count at the far right, Black's before it
    for (const seat of order) {
      const n = counts[seat];
      const danger = n <= 1 ? " danger" : "";
      captions.push(
        `<text x="${rx}" y="${cy}" text-anchor="end" font-size="13" fill="${n <= 1 ? "#a3261b" : "#4a3420"}" ` +
          `class="shobu-count${danger}">${n}</text>`,
      );
      const iconX = rx - 16;
      const colour = seat === 0 ? "b" : "w";
      captions.push(
        `<circle cx="${iconX}" cy="${cy - 4.5}" r="5.5" fill="url(#shobu-stone-${colour})" ` +
          `stroke="${colour === "b" ? "#000" : "#8f897a"}" stroke-width="0.7"/>`,
      );
      rx = iconX - 14;
    }
  }

  parts.push(ropeSvg(ropeY));
  parts.push(...boardLayers);
  parts.push(...captions);

  parts.push(`</svg>`);
  return parts.join("");
}
