// Shoo: draws the position described by shogames.games.shoo.view.position_view as an SVG string.
//
// The field is drawn on grass inside a wooden frame, with both home areas tinted in their owner's
// colour. Above and below it are the two sides' panels (the side nearest its first row, as on the real
// table): each shows its player, its stable (horses and shooed travellers waiting) and its pasture
// (retired horses) with counts. Click targets (data-target) are the 81 squares ("sq:e5"), and in each
// panel "stable:<side>:horse", "stable:<side>:traveller" and "pasture:<side>".

import { esc } from "/static/svg.js";

const S = 60; // one square
const FRAME = 24; // wooden frame, with the coordinates on it
const MARGIN = 8;
const PANEL_H = 92;
const GAP = 8;
const FIELD = 9 * S;
const WIDTH = MARGIN * 2 + FRAME * 2 + FIELD;
const BOARD_Y = MARGIN + PANEL_H + GAP;
const FX = MARGIN + FRAME; // field origin
const FY = BOARD_Y + FRAME;
const HEIGHT = BOARD_Y + FRAME * 2 + FIELD + GAP + PANEL_H + MARGIN;
const FILES = "abcdefghi";

const PALETTE = {
  blue: { fill: "#2d64c8", stroke: "#112c63", light: "#7ea5ea", tint: "#9dbcf2", text: "#ffffff", name: "Blue" },
  white: { fill: "#f8f6ef", stroke: "#34342f", light: "#ffffff", tint: "#f5f1e4", text: "#2a2a2a", name: "White" },
  southUndecided: { fill: "#e2c893", stroke: "#5e4520", light: "#f6e8c8", tint: "#e6d3a0", text: "#2a2a2a", name: "" },
  northUndecided: { fill: "#7b8690", stroke: "#262d33", light: "#b3bcc4", tint: "#e6d3a0", text: "#ffffff", name: "" },
};
const HORSE = { fill: "#a8672f", stroke: "#45260d", mane: "#3b1f0a", light: "#c98a4f" };

function parseSquare(name) {
  return { file: FILES.indexOf(name[0]), rank: Number(name.slice(1)) - 1 };
}

// ---- piece drawings (centred on 0,0, about 56 units across) ----------------------------------------

function horseHead(x, y, scale, opts = {}) {
  const fill = opts.fill || HORSE.fill;
  const stroke = opts.stroke || HORSE.stroke;
  const op = opts.opacity !== undefined ? ` opacity="${opts.opacity}"` : "";
  return (
    `<g transform="translate(${x} ${y}) scale(${scale})"${op}>` +
    `<path d="M 13 24 C 17 10 15 -6 7 -15 L 9 -26 L 1 -19 L -3 -26 L -6 -16 ` +
    `C -12 -11 -18 -3 -21 6 C -23 11 -20 15 -15 15 C -9 14 -5 11 -2 9 C -2 14 -4 20 -6 24 Z" ` +
    `fill="${fill}" stroke="${stroke}" stroke-width="2.2" stroke-linejoin="round"/>` +
    `<path d="M 7 -15 C 15 -8 18 6 14 22 L 19 22 C 23 6 18 -9 9 -17 Z" fill="${HORSE.mane}" stroke="${stroke}" stroke-width="1.2" stroke-linejoin="round"/>` +
    `<path d="M -21 6 C -22 10 -20 13 -16 13" fill="none" stroke="${stroke}" stroke-width="1.2" opacity="0.6"/>` +
    `<circle cx="-7" cy="-5" r="2.1" fill="#1c0e04"/>` +
    `<circle cx="-18" cy="9" r="1.2" fill="#1c0e04"/>` +
    `<path d="M -3 -12 C -8 -8 -12 -3 -14 2" fill="none" stroke="${HORSE.light}" stroke-width="1.6" opacity="0.55" stroke-linecap="round"/>` +
    `</g>`
  );
}

function traveller(x, y, scale, colour) {
  return (
    `<g transform="translate(${x} ${y}) scale(${scale})">` +
    `<ellipse cx="0" cy="20" rx="17" ry="5" fill="${colour.stroke}" opacity="0.85"/>` +
    `<path d="M -15 19 C -15 4 -9 -2 0 -2 C 9 -2 15 4 15 19 Z" fill="${colour.fill}" stroke="${colour.stroke}" stroke-width="2.2" stroke-linejoin="round"/>` +
    `<path d="M -9 15 C -9 7 -6 3 -1 2" fill="none" stroke="${colour.light}" stroke-width="2" opacity="0.6" stroke-linecap="round"/>` +
    `<circle cx="0" cy="-11" r="8.5" fill="${colour.fill}" stroke="${colour.stroke}" stroke-width="2.2"/>` +
    `<ellipse cx="0" cy="-17" rx="13" ry="3.2" fill="${colour.stroke}"/>` +
    `<path d="M -7 -17 C -7 -26 7 -26 7 -17 Z" fill="${colour.stroke}"/>` +
    `</g>`
  );
}

function pieceAt(cx, cy, piece, colours, held) {
  if (piece.type === "horse") {
    let out = `<ellipse cx="${cx}" cy="${cy + 22}" rx="18" ry="4.5" fill="#20380f" opacity="0.28"/>`;
    out += horseHead(cx + 1, cy, 0.95);
    if (held) {
      const holder = colours[held.by];
      out +=
        `<circle cx="${cx}" cy="${cy}" r="26.5" fill="none" stroke="#5a3a08" stroke-width="5.5" opacity="0.9"/>` +
        `<circle cx="${cx}" cy="${cy}" r="26.5" fill="none" stroke="#f2bf3a" stroke-width="3" stroke-dasharray="6 3"/>` +
        `<g transform="translate(${cx + 19} ${cy - 20})"><rect x="-7" y="-4" width="14" height="11" rx="2" fill="${holder.fill}" stroke="${holder.stroke}" stroke-width="1.5"/>` +
        `<path d="M -4 -4 L -4 -8 C -4 -13 4 -13 4 -8 L 4 -4" fill="none" stroke="${holder.stroke}" stroke-width="1.8"/></g>`;
    }
    return out;
  }
  const colour = colours[piece.side];
  if (piece.mounted) {
    return (
      `<ellipse cx="${cx}" cy="${cy + 23}" rx="22" ry="5" fill="#20380f" opacity="0.3"/>` +
      `<path d="M ${cx - 20} ${cy + 12} C ${cx - 20} ${cy + 2} ${cx + 20} ${cy + 2} ${cx + 20} ${cy + 12} L ${cx + 20} ${cy + 20} C ${cx + 20} ${cy + 26} ${cx - 20} ${cy + 26} ${cx - 20} ${cy + 20} Z" ` +
      `fill="${HORSE.fill}" stroke="${HORSE.stroke}" stroke-width="2"/>` +
      horseHead(cx - 10, cy - 2, 0.78) +
      `<rect x="${cx - 3}" y="${cy + 7}" width="22" height="8" rx="3" fill="${colour.fill}" stroke="${colour.stroke}" stroke-width="1.5"/>` +
      traveller(cx + 9, cy - 2, 0.72, colour)
    );
  }
  return traveller(cx, cy + 1, 0.95, colour);
}

// ---- the panels ---------------------------------------------------------------------------------

function countBadge(x, y, n) {
  return (
    `<g transform="translate(${x} ${y})"><circle r="10.5" fill="#fffaf0" stroke="#6b4a2b" stroke-width="1.5"/>` +
    `<text y="4.2" text-anchor="middle" font-size="12.5" font-weight="700" fill="#3d2a16">${n}</text></g>`
  );
}

function herd(x, y, n, draw, step, max) {
  // Up to `max` small icons side by side, then a count badge.
  let out = "";
  const shown = Math.min(n, max);
  if (shown === 0) {
    out += `<g opacity="0.22">${draw(x, y)}</g>`;
  }
  for (let i = 0; i < shown; i++) {
    out += draw(x + i * step, y);
  }
  return out;
}

function panel(side, y, view, colours, seatOfSide, names, atTop) {
  const colour = colours[side];
  const seat = seatOfSide[side];
  const sideName = side === "south" ? "South" : "North";
  const toMove = view.side_to_move === side && view.phase === "play";
  const x0 = MARGIN;
  const w = WIDTH - 2 * MARGIN;
  let out = `<g class="shoo-panel">`;
  out += `<rect x="${x0}" y="${y}" width="${w}" height="${PANEL_H}" rx="10" fill="#f6eedb" stroke="#b89a6d" stroke-width="1.5"/>`;
  out += `<rect x="${x0}" y="${y}" width="10" height="${PANEL_H}" rx="5" fill="${colour.fill}" stroke="${colour.stroke}" stroke-width="1"/>`;
  if (toMove) {
    out += `<rect x="${x0 + 1.5}" y="${y + 1.5}" width="${w - 3}" height="${PANEL_H - 3}" rx="9" fill="none" stroke="#e0a526" stroke-width="3"/>`;
  }
  // Player: a traveller in the side's colour, the name and the side.
  out += traveller(x0 + 38, y + 44, 1.05, colour);
  let title;
  if (seat === null) {
    title = sideName;
  } else {
    title = names[seat] !== undefined && names[seat] !== null && names[seat] !== "" ? names[seat] : view.seat_names[seat];
  }
  if (title.length > 16) {
    title = `${title.slice(0, 15)}…`;
  }
  out += `<text x="${x0 + 66}" y="${y + 30}" font-size="17" font-weight="700" fill="#2e2213">${esc(title)}</text>`;
  let sub;
  if (seat === null) {
    sub = side === "south" ? "moves first" : "gets the odd horse";
  } else {
    const colourName = view.seat_names[seat];
    sub = title === colourName ? sideName : `${colourName} · ${sideName}`;
  }
  out += `<text x="${x0 + 66}" y="${y + 48}" font-size="12.5" fill="#6b5638">${esc(sub)}</text>`;
  const notes = panelNotes(side, view);
  if (toMove && notes.length < 2) {
    notes.unshift({ text: "to move", colour: "#a66d00" });
  }
  let ny = y + 67;
  for (const note of notes.slice(0, 2)) {
    out += `<text x="${x0 + 66}" y="${ny}" font-size="12" font-weight="700" fill="${note.colour}">${esc(note.text)}</text>`;
    ny += 15;
  }

  // Stable and pasture boxes: the stable on the side's left, the pasture on its right (as seen by
  // the side's own player), so from the table's bottom they swap for the side at the top.
  const slotW = { horse: 122, traveller: 100 };
  const stableW = 12 + slotW.horse + (view.traveller_stables ? slotW.traveller : 0);
  const pastureW = 128;
  const right = x0 + w - 10;
  let stableX;
  let pastureX;
  if (atTop) {
    stableX = right - stableW;
    pastureX = stableX - 10 - pastureW;
  } else {
    pastureX = right - pastureW;
    stableX = pastureX - 10 - stableW;
  }
  const boxY = y + 8;
  const boxH = PANEL_H - 16;
  const iconY = boxY + 48;
  const st = view.stables[side];
  out += `<rect x="${stableX}" y="${boxY}" width="${stableW}" height="${boxH}" rx="8" fill="#e9dcc0" stroke="#a78657" stroke-width="1.2"/>`;
  out += `<text x="${stableX + 10}" y="${boxY + 15}" font-size="11" font-weight="700" letter-spacing="1.2" fill="#6b4a2b">STABLE</text>`;
  const hx = stableX + 6;
  out += herd(hx + 20, iconY, st.horses, (x, yy) => horseHead(x, yy, 0.6), 14, 5);
  out += countBadge(hx + 20 + Math.max(0, Math.min(st.horses, 5) - 1) * 14 + 28, iconY + 10, st.horses);
  out += `<rect class="shoo-slot" data-target="stable:${side}:horse" x="${hx}" y="${boxY + 20}" width="${slotW.horse}" height="${boxH - 24}" rx="6" fill="transparent" pointer-events="all"><title>${esc(sideName)}'s stable: ${st.horses} horse${st.horses === 1 ? "" : "s"}</title></rect>`;
  if (view.traveller_stables) {
    const tx = hx + slotW.horse;
    out += `<path d="M ${tx} ${boxY + 24} V ${boxY + boxH - 8}" stroke="#c2a77c" stroke-width="1"/>`;
    out += herd(tx + 18, iconY, st.travellers, (x, yy) => traveller(x, yy, 0.6, colour), 12, 5);
    out += countBadge(tx + 18 + Math.max(0, Math.min(st.travellers, 5) - 1) * 12 + 24, iconY + 10, st.travellers);
    out += `<rect class="shoo-slot" data-target="stable:${side}:traveller" x="${tx}" y="${boxY + 20}" width="${slotW.traveller}" height="${boxH - 24}" rx="6" fill="transparent" pointer-events="all"><title>${esc(sideName)}'s stable: ${st.travellers} traveller${st.travellers === 1 ? "" : "s"}</title></rect>`;
  }
  const past = view.pastures[side];
  out += `<rect x="${pastureX}" y="${boxY}" width="${pastureW}" height="${boxH}" rx="8" fill="#cfe0a8" stroke="#7f9a4f" stroke-width="1.2"/>`;
  out += `<text x="${pastureX + 10}" y="${boxY + 15}" font-size="11" font-weight="700" letter-spacing="1.2" fill="#4b6224">PASTURE</text>`;
  out += herd(pastureX + 26, iconY, past, (x, yy) => horseHead(x, yy, 0.6, { opacity: 0.85 }), 14, 5);
  out += countBadge(pastureX + 26 + Math.max(0, Math.min(past, 5) - 1) * 14 + 28, iconY + 10, past);
  out += `<rect class="shoo-slot" data-target="pasture:${side}" x="${pastureX + 4}" y="${boxY + 4}" width="${pastureW - 8}" height="${boxH - 8}" rx="6" fill="transparent" pointer-events="all"><title>${esc(sideName)}'s pasture: ${past} retired horse${past === 1 ? "" : "s"}</title></rect>`;
  out += `</g>`;
  return out;
}

function panelNotes(side, view) {
  const notes = [];
  const name = (seat) => (seat === null || seat === undefined ? "" : view.seat_names[seat]);
  if (view.phase === "toss" && side === "south") {
    notes.push({ text: "Coin toss…", colour: "#7a5b1c" });
  }
  if (view.phase === "choice" && side === "south") {
    notes.push({ text: `${name(view.chooser)} won the toss`, colour: "#a66d00" });
    notes.push({ text: "and chooses", colour: "#a66d00" });
  }
  if (view.phase === "over" && view.result) {
    const winnerSide =
      view.result.winner === null ? null : view.result.winner === view.south_seat ? "south" : "north";
    if (winnerSide === side) {
      notes.push({ text: "wins!", colour: "#1d7a2a" });
    } else if (winnerSide === null && side === "south") {
      notes.push({ text: `drawn: ${view.result.termination}`, colour: "#6b5638" });
    }
  }
  if (view.side_to_move === side && view.phase === "play") {
    if (view.shoo) {
      notes.push({ text: `Shoo! ${view.shoo} must move`, colour: "#c0271d" });
    } else if (view.shooed && view.shooed.length) {
      const shown = view.shooed.slice(0, 3).join(", ") + (view.shooed.length > 3 ? ", …" : "");
      notes.push({ text: `shooed: ${shown}`, colour: "#c0271d" });
    }
    if (view.hushable) {
      notes.push({ text: `may HUSH ${view.hushable.move}`, colour: "#6a3ea8" });
    }
  }
  if (view.barred && view.barred.length && view.phase === "play") {
    const barredSide = view.hushable ? view.hushable.side : view.side_to_move;
    if (barredSide === side) {
      const shown = view.barred.slice(0, 2).join(", ") + (view.barred.length > 2 ? ", …" : "");
      notes.push({ text: `hushed: ${shown}`, colour: "#6a3ea8" });
    }
  }
  return notes;
}

// ---- the whole drawing --------------------------------------------------------------------------

export function render(view, options = {}) {
  // A game ended off the board (resignation, time) has nobody to move.
  if (options.over && view.phase === "play") view = { ...view, phase: "over" };
  const orientation = options.orientation === undefined || options.orientation === null ? 0 : options.orientation;
  const names = options.names || [];
  const decided = view.south_seat !== null && view.south_seat !== undefined;
  const southSeat = decided ? view.south_seat : 0;
  const seatOfSide = decided ? { south: southSeat, north: 1 - southSeat } : { south: null, north: null };
  const colours = decided
    ? {
        south: southSeat === 0 ? PALETTE.blue : PALETTE.white,
        north: southSeat === 0 ? PALETTE.white : PALETTE.blue,
      }
    : { south: PALETTE.southUndecided, north: PALETTE.northUndecided };
  const flipped = orientation !== southSeat; // North at the bottom: turn the table round
  const topSide = flipped ? "south" : "north";
  const bottomSide = flipped ? "north" : "south";

  const col = (file) => (flipped ? 8 - file : file);
  const row = (rank) => (flipped ? rank : 8 - rank);
  const sqX = (name) => FX + col(parseSquare(name).file) * S;
  const sqY = (name) => FY + row(parseSquare(name).rank) * S;

  let out =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" class="shoo-svg" ` +
    `font-family="Georgia, 'Palatino Linotype', 'Book Antiqua', serif" role="img" aria-label="Shoo board">`;
  out +=
    `<defs>` +
    `<linearGradient id="shoo-wood" x1="0" y1="0" x2="1" y2="1">` +
    `<stop offset="0" stop-color="#a87440"/><stop offset="0.5" stop-color="#8a5a2c"/><stop offset="1" stop-color="#6d4420"/></linearGradient>` +
    `<radialGradient id="shoo-grass" cx="0.5" cy="0.45" r="0.75">` +
    `<stop offset="0" stop-color="#8fbd61"/><stop offset="1" stop-color="#6f9e48"/></radialGradient>` +
    `</defs>`;
  out += `<rect x="0" y="0" width="${WIDTH}" height="${HEIGHT}" rx="14" fill="#efe5cf"/>`;

  out += panel(topSide, MARGIN, view, colours, seatOfSide, names, true);
  out += panel(bottomSide, BOARD_Y + FRAME * 2 + FIELD + GAP, view, colours, seatOfSide, names, false);

  // Frame and grass.
  out += `<rect x="${MARGIN}" y="${BOARD_Y}" width="${FIELD + 2 * FRAME}" height="${FIELD + 2 * FRAME}" rx="8" fill="url(#shoo-wood)" stroke="#4e2f13" stroke-width="2"/>`;
  out += `<rect x="${FX - 2}" y="${FY - 2}" width="${FIELD + 4}" height="${FIELD + 4}" fill="#3f5f22"/>`;
  out += `<rect x="${FX}" y="${FY}" width="${FIELD}" height="${FIELD}" fill="url(#shoo-grass)"/>`;
  for (let r = 0; r < 9; r++) {
    for (let f = 0; f < 9; f++) {
      if ((r + f) % 2 === 0) {
        out += `<rect x="${FX + f * S}" y="${FY + r * S}" width="${S}" height="${S}" fill="#ffffff" opacity="0.055"/>`;
      }
    }
  }
  // Home areas, tinted in their owner's colour.
  for (const side of ["south", "north"]) {
    const squares = view.homes[side];
    const xs = squares.map(sqX);
    const ys = squares.map(sqY);
    const x = Math.min(...xs);
    const y = Math.min(...ys);
    const c = colours[side];
    out += `<rect x="${x}" y="${y}" width="${3 * S}" height="${3 * S}" fill="${c.tint}" opacity="0.6"/>`;
    out += `<rect x="${x + 2.5}" y="${y + 2.5}" width="${3 * S - 5}" height="${3 * S - 5}" fill="none" stroke="${c.fill}" stroke-width="5" opacity="0.9"/>`;
    out += `<rect x="${x + 0.5}" y="${y + 0.5}" width="${3 * S - 1}" height="${3 * S - 1}" fill="none" stroke="${c.stroke}" stroke-width="1" opacity="0.7"/>`;
  }
  // Grid lines.
  let grid = "";
  for (let i = 1; i < 9; i++) {
    grid += `M ${FX + i * S} ${FY} V ${FY + FIELD} M ${FX} ${FY + i * S} H ${FX + FIELD} `;
  }
  out += `<path d="${grid}" stroke="#35561b" stroke-width="1" opacity="0.45" fill="none"/>`;
  // Coordinates on the frame.
  for (let f = 0; f < 9; f++) {
    const x = FX + col(f) * S + S / 2;
    out += `<text x="${x}" y="${FY + FIELD + FRAME / 2 + 5}" text-anchor="middle" font-size="14" font-weight="700" fill="#f3e2c2">${FILES[f]}</text>`;
    out += `<text x="${x}" y="${FY - FRAME / 2 + 5}" text-anchor="middle" font-size="11" fill="#e6cfa5" opacity="0.7">${FILES[f]}</text>`;
  }
  for (let r = 0; r < 9; r++) {
    const y = FY + row(r) * S + S / 2 + 5;
    out += `<text x="${FX - FRAME / 2}" y="${y}" text-anchor="middle" font-size="14" font-weight="700" fill="#f3e2c2">${r + 1}</text>`;
    out += `<text x="${FX + FIELD + FRAME / 2}" y="${y}" text-anchor="middle" font-size="11" fill="#e6cfa5" opacity="0.7">${r + 1}</text>`;
  }

  // The hushable move: a faint trail from where the traveller came.
  if (view.hushable && view.hushable.from) {
    const x1 = sqX(view.hushable.from) + S / 2;
    const y1 = sqY(view.hushable.from) + S / 2;
    const x2 = sqX(view.hushable.to) + S / 2;
    const y2 = sqY(view.hushable.to) + S / 2;
    out += `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="#6a3ea8" stroke-width="4" stroke-dasharray="2 6" stroke-linecap="round" opacity="0.8"/>`;
    out += `<circle cx="${x1}" cy="${y1}" r="7" fill="none" stroke="#6a3ea8" stroke-width="2" stroke-dasharray="3 3" opacity="0.8"/>`;
  }

  // Pieces.
  const held = view.held;
  for (const piece of view.pieces) {
    const cx = sqX(piece.square) + S / 2;
    const cy = sqY(piece.square) + S / 2;
    const isHeld = piece.type === "horse" && held && held.square === piece.square ? held : null;
    out += `<g class="shoo-piece shoo-${piece.type}">${pieceAt(cx, cy, piece, colours, isHeld)}</g>`;
  }

  // Markers: the pending shoo (or towers' standing shoos) and the hushable move.
  const shooed = view.shoo ? [view.shoo] : view.shooed || [];
  for (const square of shooed) {
    const cx = sqX(square) + S / 2;
    const cy = sqY(square) + S / 2;
    out +=
      `<g class="shoo-mark">` +
      `<circle cx="${cx}" cy="${cy}" r="27" fill="none" stroke="#d7261b" stroke-width="3.2" stroke-dasharray="9 4"/>` +
      `<rect x="${cx - 20}" y="${cy - 33}" width="40" height="14" rx="7" fill="#d7261b" stroke="#7a0f09" stroke-width="1"/>` +
      `<text x="${cx}" y="${cy - 22.5}" text-anchor="middle" font-size="10" font-weight="700" fill="#fff" letter-spacing="0.5">SHOO!</text>` +
      `</g>`;
  }
  if (view.hushable) {
    const cx = sqX(view.hushable.to) + S / 2;
    const cy = sqY(view.hushable.to) + S / 2;
    out +=
      `<g class="shoo-hush-mark">` +
      `<path d="M ${cx - 29} ${cy + 16} h 30 a 6 6 0 0 1 6 6 v 4 a 6 6 0 0 1 -6 6 h -22 l -6 5 v -5 h -2 a 6 6 0 0 1 -6 -6 v -4 a 6 6 0 0 1 6 -6 z" fill="#efe3ff" stroke="#6a3ea8" stroke-width="1.4"/>` +
      `<text x="${cx - 14}" y="${cy + 28}" text-anchor="middle" font-size="10" font-weight="700" fill="#6a3ea8">shh?</text>` +
      `</g>`;
  }

  // Click targets over every square, on top of everything on the field.
  for (let r = 0; r < 9; r++) {
    for (let f = 0; f < 9; f++) {
      const name = FILES[f] + (r + 1);
      out += `<rect class="shoo-square" data-target="sq:${name}" x="${FX + col(f) * S}" y="${FY + row(r) * S}" width="${S}" height="${S}" fill="transparent" pointer-events="all"/>`;
    }
  }
  out += `</svg>`;
  return out;
}
