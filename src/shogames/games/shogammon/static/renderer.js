// Shogammon renderer: the view of src/shogames/games/shogammon/view.py drawn as one SVG string.
//
// Layout (viewBox 960 x 700): the top player's hand stand on the left, the die map below it; the wooden
// board in the middle (files across the top, ranks down the right edge); the dice on the right, and the
// bottom player's hand stand below them. Pieces are shogi pentagons with clear letters (promoted ones in
// red with a small "+"), pointing at the opponent; a point is drawn as two pieces, the lower one peeking
// out behind the upper one. Click targets: every square (`sq:7g`) and every piece kind in a hand
// (`hand:<seat>:<letter>`), as transparent overlays carrying `data-target`.

import { esc } from "/static/svg.js";

const SQ_W = 60;
const SQ_H = 66;
const BOARD_MARGIN = 30;
const BOARD_W = 9 * SQ_W + 2 * BOARD_MARGIN;
const BOARD_H = 9 * SQ_H + 2 * BOARD_MARGIN;
const PAD = 14;
const COL_W = 156;
const GAP = 18;
const BOARD_X = PAD + COL_W + GAP;
const BOARD_Y = PAD + 18;
const GRID_X = BOARD_X + BOARD_MARGIN;
const GRID_Y = BOARD_Y + BOARD_MARGIN;
const RIGHT_X = BOARD_X + BOARD_W + GAP;
const WIDTH = RIGHT_X + COL_W + PAD;
const HEIGHT = BOARD_Y + BOARD_H + PAD;

const PIECE_W = 50;
const PIECE_H = 56;
const SIZE = { K: 1.0, R: 0.97, B: 0.97, G: 0.93, S: 0.93, N: 0.9, L: 0.88, P: 0.84 };
const NAMES = {
  P: "pawn", L: "lance", N: "knight", S: "silver", G: "gold", B: "bishop", R: "rook", K: "king",
};
const PROMOTED_NAMES = {
  P: "tokin", L: "promoted lance", N: "promoted knight", S: "promoted silver", B: "horse", R: "dragon",
};
const SERIF = "'DejaVu Serif', Georgia, 'Times New Roman', serif";
const SANS = "'DejaVu Sans', 'Helvetica Neue', Arial, sans-serif";

function num(x) {
  return Math.round(x * 100) / 100;
}

// The pentagon of a piece pointing up, centred on (0, 0), for a size factor.
function pentagon(scale) {
  const w = PIECE_W * scale;
  const h = PIECE_H * scale;
  const pts = [
    [0, -h / 2],
    [w * 0.37, -h * 0.3],
    [w / 2, h / 2],
    [-w / 2, h / 2],
    [-w * 0.37, -h * 0.3],
  ];
  return pts.map(([x, y]) => `${num(x)},${num(y)}`).join(" ");
}

// One piece centred on (0, 0) pointing up (the caller rotates White's), with its letter.
function pieceShape(piece, scale, opts = {}) {
  const s = SIZE[piece.kind] * scale;
  const h = PIECE_H * s;
  const title = piece.promoted ? PROMOTED_NAMES[piece.kind] || piece.kind : NAMES[piece.kind] || piece.kind;
  const ink = piece.promoted ? "#b3191b" : "#1d140c";
  const fontSize = num(27 * s);
  const textY = num(h * 0.19 + (opts.textShift || 0));
  const textX = num(opts.textX || 0);
  let label = esc(piece.kind);
  if (piece.promoted) {
    label = `<tspan font-size="${num(15 * s)}" dy="${num(-8 * s)}">+</tspan><tspan dy="${num(8 * s)}">${label}</tspan>`;
  }
  return (
    `<g class="piece"><title>${esc(title)}</title>` +
    `<polygon points="${pentagon(s)}" transform="translate(1.6,2.2)" fill="rgba(40,20,0,0.32)"/>` +
    `<polygon points="${pentagon(s)}" fill="url(#sg-piece)" stroke="#6b4a22" stroke-width="1.2" stroke-linejoin="round"/>` +
    `<polygon points="${pentagon(s * 0.86)}" transform="translate(0,${num(h * 0.05)})" fill="none" stroke="rgba(120,80,30,0.25)" stroke-width="0.8"/>` +
    `<text x="${textX}" y="${textY}" text-anchor="middle" font-family="${SERIF}" font-weight="bold" font-size="${fontSize}" fill="${ink}">${label}</text>` +
    `</g>`
  );
}

// A square's contents: one piece, or a point (lower piece behind, upper piece in front).
function squareContents(cell, cx, cy, orientation) {
  if (!cell || cell.length === 0) return "";
  const rot = (p) => (p.owner === orientation ? 0 : 180);
  if (cell.length === 1) {
    return `<g transform="translate(${num(cx)},${num(cy)}) rotate(${rot(cell[0])})">${pieceShape(cell[0], 1)}</g>`;
  }
  const [lower, upper] = cell;
  // Both pieces belong to one side; offsets are in the piece's own frame, so they turn with it.
  return (
    `<g class="point" transform="translate(${num(cx)},${num(cy)}) rotate(${rot(upper)})">` +
    `<g transform="translate(-9,-11)">${pieceShape(lower, 0.76, { textShift: -5, textX: -2 })}</g>` +
    `<g transform="translate(7,8)">${pieceShape(upper, 0.84)}</g>` +
    `</g>`
  );
}

// The board square (screen column, screen row) of view coordinates (rank row r, file column c).
function screen(r, c, orientation) {
  return orientation === 1 ? [8 - c, 8 - r] : [c, r];
}

function pips(face, x, y, size, colour) {
  const q = size / 4;
  const spots = {
    1: [[2, 2]],
    2: [[1, 1], [3, 3]],
    3: [[1, 1], [2, 2], [3, 3]],
    4: [[1, 1], [3, 1], [1, 3], [3, 3]],
    5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]],
    6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]],
  }[face] || [];
  const r = num(size * 0.09);
  return spots
    .map(([i, j]) => `<circle cx="${num(x + i * q)}" cy="${num(y + j * q)}" r="${r}" fill="${colour}"/>`)
    .join("");
}

function die(face, x, y, size, state) {
  // state: "live", "used" (a played die, face unknown) or "idle" (before the roll).
  const rx = num(size * 0.18);
  if (state === "live") {
    return (
      `<g class="die live">` +
      `<rect x="${num(x + 2)}" y="${num(y + 3)}" width="${size}" height="${size}" rx="${rx}" fill="rgba(0,0,0,0.25)"/>` +
      `<rect x="${x}" y="${y}" width="${size}" height="${size}" rx="${rx}" fill="url(#sg-die)" stroke="#5b4630" stroke-width="1.4"/>` +
      pips(face, x, y, size, face === 1 ? "#b3191b" : "#22180f") +
      `</g>`
    );
  }
  const label = state === "used" ? "used" : "";
  return (
    `<g class="die ${state}" opacity="0.45">` +
    `<rect x="${x}" y="${y}" width="${size}" height="${size}" rx="${rx}" fill="#e8dcc6" stroke="#8a7658" stroke-width="1.2" stroke-dasharray="${state === "used" ? "0" : "4 3"}"/>` +
    (label
      ? `<text x="${num(x + size / 2)}" y="${num(y + size / 2 + 5)}" text-anchor="middle" font-family="${SANS}" font-size="14" fill="#5b4630">${label}</text>`
      : "") +
    `</g>`
  );
}

function seatIcon(seat, x, y, active) {
  const fill = seat === 0 ? "#1d140c" : "#fbf6ea";
  const pts = "0,-9 6,-5 7.5,9 -7.5,9 -6,-5";
  return `<polygon points="${pts}" transform="translate(${x},${y})" fill="${fill}" stroke="${active ? "#b3191b" : "#3a2a18"}" stroke-width="1.4"/>`;
}

// A hand stand (komadai) with its name plate; `top` puts the plate above the tray.
function handStand(view, seat, x, y, orientation, names) {
  const w = COL_W;
  const rows = 4;
  const slotW = w / 2;
  const slotH = 64;
  const plateH = 34;
  const trayH = rows * slotH + 12;
  const trayY = y + plateH + 6;
  const active = !view.terminal && view.side === seat;
  const name = names[seat] != null && names[seat] !== "" ? names[seat] : view.players[seat];
  const seatName = view.players[seat];
  const won = view.winner === seat;
  let out = `<g class="hand-stand seat-${seat}${active ? " to-move" : ""}">`;
  out +=
    `<rect class="name-plate" x="${x}" y="${y}" width="${w}" height="${plateH}" rx="6" fill="${active || won ? "#fff4d6" : "#f4ead6"}" stroke="${won ? "#c8961e" : active ? "#b3191b" : "#a08a66"}" stroke-width="${active || won ? 2 : 1}"/>` +
    seatIcon(seat, x + 16, y + plateH / 2, active) +
    `<text x="${x + 30}" y="${y + 15}" font-family="${SANS}" font-size="13" font-weight="bold" fill="#2a1d10">${esc(name)}</text>` +
    `<text x="${x + 30}" y="${y + 28}" font-family="${SANS}" font-size="10.5" fill="#6b5638">${esc(seatName)}${won ? " · won" : active ? (view.to_move === -1 ? " · to roll" : " · to move") : ""}</text>`;
  out +=
    `<rect x="${x + 2}" y="${trayY + 3}" width="${w}" height="${trayH}" rx="5" fill="rgba(40,20,0,0.25)"/>` +
    `<rect x="${x}" y="${trayY}" width="${w}" height="${trayH}" rx="5" fill="url(#sg-stand)" stroke="#6b4a22" stroke-width="1.2"/>` +
    `<rect x="${x + 6}" y="${trayY + 6}" width="${w - 12}" height="${trayH - 12}" rx="3" fill="none" stroke="rgba(90,55,20,0.35)"/>`;
  const held = view.hands[seat] || [];
  if (held.length === 0) {
    out += `<text x="${x + w / 2}" y="${trayY + trayH / 2 + 4}" text-anchor="middle" font-family="${SANS}" font-size="12" fill="rgba(60,35,10,0.55)">no pieces in hand</text>`;
  }
  const upright = seat === orientation;
  held.forEach((entry, i) => {
    // Fill the tray from the owner's side: bottom rows first for the bottom player, top rows for the top.
    const col = i % 2;
    const row = Math.floor(i / 2);
    const sx = x + col * slotW;
    const sy = upright ? trayY + 6 + (rows - 1 - row) * slotH : trayY + 6 + row * slotH;
    const cx = sx + slotW / 2;
    const cy = sy + slotH / 2;
    const piece = { owner: seat, kind: entry.kind, promoted: false };
    out += `<g transform="translate(${num(cx - 6)},${num(cy)}) rotate(${upright ? 0 : 180})">${pieceShape(piece, 0.86)}</g>`;
    if (entry.count > 1) {
      out +=
        `<circle cx="${num(cx + 22)}" cy="${num(cy + 18)}" r="10" fill="#2a1d10" stroke="#f4ead6" stroke-width="1.2"/>` +
        `<text x="${num(cx + 22)}" y="${num(cy + 22)}" text-anchor="middle" font-family="${SANS}" font-size="12" font-weight="bold" fill="#fff">${entry.count}</text>`;
    }
    out += `<rect class="target hand" data-target="hand:${seat}:${esc(entry.kind)}" x="${num(sx + 3)}" y="${num(sy + 1)}" width="${num(slotW - 6)}" height="${slotH - 2}" rx="6" fill="transparent" pointer-events="all"><title>${esc(seatName)}'s ${esc(NAMES[entry.kind] || entry.kind)} in hand: ${entry.count}</title></rect>`;
  });
  out += `</g>`;
  return { svg: out, height: plateH + 6 + trayH };
}

function dicePanel(view, x, y) {
  const w = COL_W;
  const size = 56;
  const h = 176;
  let out = `<g class="dice-panel">`;
  out += `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="8" fill="#f4ead6" stroke="#a08a66"/>`;
  out += `<text x="${x + w / 2}" y="${y + 20}" text-anchor="middle" font-family="${SANS}" font-size="12" font-weight="bold" letter-spacing="1" fill="#6b5638">DICE</text>`;
  const dx = [x + w / 2 - size - 7, x + w / 2 + 7];
  const dy = y + 34;
  const kindsOf = {};
  for (const entry of view.die_map) kindsOf[entry.face] = entry.kinds;
  if (view.terminal) {
    out += die(0, dx[0], dy, size, "idle") + die(0, dx[1], dy, size, "idle");
  } else if (view.dice.length === 0) {
    out += die(0, dx[0], dy, size, "idle") + die(0, dx[1], dy, size, "idle");
    out += `<text x="${x + w / 2}" y="${dy + size / 2 + 5}" text-anchor="middle" font-family="${SANS}" font-size="13" fill="#5b4630">rolling…</text>`;
  } else {
    const faces = view.dice.length === 2 ? view.dice : [null, view.dice[0]];
    faces.forEach((face, i) => {
      if (face == null) {
        out += die(0, dx[i], dy, size, "used");
        return;
      }
      out += die(face, dx[i], dy, size, "live");
      const kinds = (kindsOf[face] || []).join(" ");
      out += `<text x="${num(dx[i] + size / 2)}" y="${dy + size + 20}" text-anchor="middle" font-family="${SERIF}" font-weight="bold" font-size="17" fill="#2a1d10">${esc(kinds)}</text>`;
    });
    if (view.dice.length === 2 && view.dice[0] === view.dice[1]) {
      out += `<text x="${x + w / 2}" y="${dy + size + 38}" text-anchor="middle" font-family="${SANS}" font-size="10.5" fill="#6b5638">doubles: two moves</text>`;
    }
  }
  // The status line, wrapped onto two lines when it is long.
  const lines = [];
  for (const word of String(view.status || "").split(" ")) {
    const last = lines.length - 1;
    if (last >= 0 && (lines[last] + " " + word).length <= 22) lines[last] += " " + word;
    else lines.push(word);
  }
  lines.slice(-2).forEach((line, i, all) => {
    const ly = y + h - 14 - (all.length - 1 - i) * 15;
    out += `<text x="${x + w / 2}" y="${ly}" text-anchor="middle" font-family="${SANS}" font-size="11.5" fill="${view.terminal ? "#b3191b" : "#2a1d10"}" font-weight="${view.terminal ? "bold" : "normal"}">${esc(line)}</text>`;
  });
  out += `</g>`;
  return { svg: out, height: h };
}

function dieMapLegend(view, x, y) {
  const w = COL_W;
  const rowH = 24;
  const h = 30 + 6 * rowH + 22;
  const live = new Set(view.dice || []);
  let out = `<g class="die-map">`;
  out += `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="8" fill="#f4ead6" stroke="#a08a66"/>`;
  out += `<text x="${x + w / 2}" y="${y + 20}" text-anchor="middle" font-family="${SANS}" font-size="12" font-weight="bold" letter-spacing="1" fill="#6b5638">DIE MAP</text>`;
  view.die_map.forEach((entry, i) => {
    const ry = y + 30 + i * rowH;
    const on = live.has(entry.face) && !view.terminal;
    if (on) {
      out += `<rect x="${x + 6}" y="${ry - 1}" width="${w - 12}" height="${rowH - 2}" rx="4" fill="#f3cf83" opacity="0.8"/>`;
    }
    out += `<rect x="${x + 14}" y="${ry + 2}" width="18" height="18" rx="3.5" fill="#fffdf7" stroke="#5b4630" stroke-width="1"/>`;
    out += pips(entry.face, x + 14, ry + 2, 18, entry.face === 1 ? "#b3191b" : "#22180f");
    const text = entry.kinds.map((k) => NAMES[k] || k).join(", ");
    out += `<text x="${x + 40}" y="${ry + 16}" font-family="${SERIF}" font-weight="bold" font-size="14" fill="#2a1d10">${esc(entry.kinds.join(" "))}</text>`;
    out += `<text x="${x + 76}" y="${ry + 15}" font-family="${SANS}" font-size="9.5" fill="#6b5638">${esc(text.length > 15 ? text.slice(0, 14) + "…" : text)}</text>`;
  });
  const foot = view.strict_dice ? "strict dice · promoted keep face" : "promoted pieces keep the face";
  out += `<text x="${x + w / 2}" y="${y + h - 9}" text-anchor="middle" font-family="${SANS}" font-size="9" fill="#6b5638">${esc(foot)}</text>`;
  out += `</g>`;
  return { svg: out, height: h };
}

// The die map as HTML, for a board drawn small (renderer.css shows it, and hides the drawing's, where the
// board is narrow: a 976-unit drawing on a phone draws the map's labels 3-5 CSS px). The same rows: the
// face, the kinds it moves, their names; the faces of the dice to play are marked.
export function legend(view, options = {}) {
  const terminal = view.terminal || (options.over ?? false);
  const live = new Set(terminal ? [] : view.dice || []);
  let rows = "";
  for (const entry of view.die_map) {
    // The face as its number on a small die (no second <svg> in the board: the page finds the board's).
    const face = `<span class="die-map-face${entry.face === 1 ? " one" : ""}">${entry.face}</span>`;
    const names = entry.kinds.map((k) => NAMES[k] || k).join(", ");
    rows +=
      `<li class="die-map-row${live.has(entry.face) ? " live" : ""}" data-face="${entry.face}">${face}` +
      `<span class="die-map-kinds">${esc(entry.kinds.join(" "))}</span>` +
      `<span class="die-map-names">${esc(names)}</span></li>`;
  }
  const foot = view.strict_dice ? "strict dice · promoted pieces keep the face" : "promoted pieces keep the face";
  return (
    `<section class="die-map-list" aria-label="die map">` +
    `<p class="die-map-title">Die map: the pieces each face moves</p>` +
    `<ol>${rows}</ol><p class="die-map-foot">${esc(foot)}</p></section>`
  );
}

function defs() {
  return (
    `<defs>` +
    `<linearGradient id="sg-board" x1="0" y1="0" x2="1" y2="1">` +
    `<stop offset="0" stop-color="#ecc57c"/><stop offset="0.5" stop-color="#e0b05e"/><stop offset="1" stop-color="#d19d4a"/>` +
    `</linearGradient>` +
    `<pattern id="sg-grain" width="240" height="14" patternUnits="userSpaceOnUse">` +
    `<path d="M0 4 C60 1 120 7 240 3" stroke="rgba(150,95,30,0.16)" fill="none" stroke-width="1.3"/>` +
    `<path d="M0 10 C80 12 160 8 240 11" stroke="rgba(150,95,30,0.1)" fill="none" stroke-width="1"/>` +
    `</pattern>` +
    `<linearGradient id="sg-piece" x1="0" y1="0" x2="0" y2="1">` +
    `<stop offset="0" stop-color="#fbe7bd"/><stop offset="1" stop-color="#e9c47f"/>` +
    `</linearGradient>` +
    `<linearGradient id="sg-stand" x1="0" y1="0" x2="1" y2="1">` +
    `<stop offset="0" stop-color="#c98f4b"/><stop offset="1" stop-color="#a86d32"/>` +
    `</linearGradient>` +
    `<linearGradient id="sg-die" x1="0" y1="0" x2="1" y2="1">` +
    `<stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="#ece4d4"/>` +
    `</linearGradient>` +
    `</defs>`
  );
}

/**
 * Draw a Shogammon position.
 * @param {object} view - the JSON of shogames.games.shogammon.view.position_view
 * @param {{orientation?: number, names?: string[]}} options - the seat shown at the bottom, seat names
 * @returns {string} an SVG element as markup
 */
export function render(view, options = {}) {
  // A game ended off the board (resignation, time) has nobody to move.
  if (options.over && !view.terminal) view = { ...view, terminal: true, winner: null, status: "Game over", dice: [] };
  const orientation = options.orientation === 1 ? 1 : 0;
  const names = options.names || view.players;
  const files = view.files || "987654321";
  const ranks = view.ranks || "abcdefghi";
  let svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" class="shogammon-svg" ` +
    `role="img" aria-label="Shogammon board">`;
  svg += defs();

  // The board: a wooden block with a shadow, grid, star points and coordinates.
  svg += `<rect x="${BOARD_X + 4}" y="${BOARD_Y + 6}" width="${BOARD_W}" height="${BOARD_H}" rx="6" fill="rgba(40,20,0,0.3)"/>`;
  svg += `<rect x="${BOARD_X}" y="${BOARD_Y}" width="${BOARD_W}" height="${BOARD_H}" rx="6" fill="url(#sg-board)" stroke="#8a5a25" stroke-width="1.5"/>`;
  svg += `<rect x="${BOARD_X}" y="${BOARD_Y}" width="${BOARD_W}" height="${BOARD_H}" rx="6" fill="url(#sg-grain)"/>`;
  let grid = "";
  for (let i = 0; i <= 9; i++) {
    const w = i === 0 || i === 9 ? 2 : 1;
    grid += `<line x1="${GRID_X + i * SQ_W}" y1="${GRID_Y}" x2="${GRID_X + i * SQ_W}" y2="${GRID_Y + 9 * SQ_H}" stroke="#3b2410" stroke-width="${w}"/>`;
    grid += `<line x1="${GRID_X}" y1="${GRID_Y + i * SQ_H}" x2="${GRID_X + 9 * SQ_W}" y2="${GRID_Y + i * SQ_H}" stroke="#3b2410" stroke-width="${w}"/>`;
  }
  for (const i of [3, 6]) {
    for (const j of [3, 6]) {
      grid += `<circle cx="${GRID_X + i * SQ_W}" cy="${GRID_Y + j * SQ_H}" r="4" fill="#3b2410"/>`;
    }
  }
  svg += grid;
  for (let k = 0; k < 9; k++) {
    const file = orientation === 1 ? files[8 - k] : files[k];
    const rank = orientation === 1 ? ranks[8 - k] : ranks[k];
    svg += `<text x="${GRID_X + k * SQ_W + SQ_W / 2}" y="${BOARD_Y + 21}" text-anchor="middle" font-family="${SANS}" font-size="15" fill="#4a2e12">${esc(file)}</text>`;
    svg += `<text x="${GRID_X + 9 * SQ_W + BOARD_MARGIN / 2}" y="${GRID_Y + k * SQ_H + SQ_H / 2 + 5}" text-anchor="middle" font-family="${SANS}" font-size="15" fill="#4a2e12">${esc(rank)}</text>`;
  }

  // Pieces, then the click overlays on top of them.
  let pieces = "";
  let targets = "";
  view.board.forEach((rankCells, r) => {
    rankCells.forEach((cell, c) => {
      const [sc, sr] = screen(r, c, orientation);
      const x = GRID_X + sc * SQ_W;
      const y = GRID_Y + sr * SQ_H;
      pieces += squareContents(cell, x + SQ_W / 2, y + SQ_H / 2 + 1, orientation);
      const name = `${files[c]}${ranks[r]}`;
      let title = name;
      if (cell.length === 2) {
        const who = view.players[cell[1].owner];
        const nm = (p) => (p.promoted ? PROMOTED_NAMES[p.kind] : NAMES[p.kind]) || p.kind;
        title += `: ${who} point, ${nm(cell[1])} on ${nm(cell[0])}`;
      }
      targets += `<rect class="target sq" data-target="sq:${esc(name)}" x="${x + 1}" y="${y + 1}" width="${SQ_W - 2}" height="${SQ_H - 2}" fill="transparent" pointer-events="all"><title>${esc(title)}</title></rect>`;
    });
  });
  svg += `<g class="pieces">${pieces}</g><g class="targets">${targets}</g>`;

  // Side columns: top player's stand and the die map on the left; dice and the bottom player's stand right.
  const top = 1 - orientation;
  const topStand = handStand(view, top, PAD, BOARD_Y, orientation, names);
  svg += topStand.svg;
  const legend = dieMapLegend(view, PAD, BOARD_Y + BOARD_H - (30 + 6 * 24 + 22));
  svg += legend.svg;
  const dice = dicePanel(view, RIGHT_X, BOARD_Y);
  svg += dice.svg;
  const bottomStandH = 34 + 6 + 4 * 64 + 12;
  svg += handStand(view, orientation, RIGHT_X, BOARD_Y + BOARD_H - bottomStandH, orientation, names).svg;

  // Turn line above the board.
  // The turn being played (never past the cap: the game ends there).
  const turn = view.max_turns ? Math.min(view.turns + 1, view.max_turns) : view.turns + 1;
  const info = `Turn ${turn}${view.max_turns ? ` of ${view.max_turns}` : ""}`;
  svg += `<text x="${BOARD_X + BOARD_W / 2}" y="${BOARD_Y - 5}" text-anchor="middle" font-family="${SANS}" font-size="11" fill="#6b5638">${esc(info)}</text>`;
  svg += `</svg>`;
  return svg;
}
