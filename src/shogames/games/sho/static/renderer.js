// Sho (the Tibetan dice race): draws a position_view (src/shogames/games/sho/view.py) as SVG.
//
// The shells lie in a spiral that coils inward around the leather dice mat: the start is at the outer
// end (bottom), the goal at the inner end. Position k (the notation's number) is the space just after
// shell k, where the stacks sit. Each side has a card in a corner with its coins in hand (the target
// hand:<side>) and its borne-off coins. Board targets: shell:<n>, hand:<side>, goal.

import { esc } from "/static/svg.js";

// In the order of the page's seat colours (app.css --seat-0 ...): blue, red, green, purple.
const SIDE_COLOURS = [
  { fill: "#2a62b0", dark: "#163866", light: "#79a6e6", name: "blue" },
  { fill: "#c0392b", dark: "#7b1d14", light: "#e8796c", name: "red" },
  { fill: "#2d8a55", dark: "#155231", light: "#74c795", name: "green" },
  { fill: "#7d3c98", dark: "#4a1f5d", light: "#bb8ad0", name: "purple" },
];

const SIZE = 1000;
const CX = 500;
const CY = 500;
const R_OUT = 410;
const R_IN = 192;
const MAT_R = 128;

function n2(x) {
  return Math.round(x * 100) / 100;
}

function clip(text, max) {
  const s = String(text);
  return s.length > max ? s.slice(0, max - 1) + "…" : s;
}

// The spiral, measured by arc length: u is counted in "spaces" (one shell to the next).
function makeSpiral(goal) {
  const turns = Math.min(4.5, Math.max(1.6, (goal + 2) / 27));
  const th0 = Math.PI / 2; // start straight below the centre, then clockwise (increasing angle)
  const th1 = th0 + 2 * Math.PI * turns;
  const steps = 3000;
  const pts = [];
  let s = 0;
  let prev = null;
  for (let i = 0; i <= steps; i++) {
    const th = th0 + ((th1 - th0) * i) / steps;
    const r = R_OUT - ((R_OUT - R_IN) * (th - th0)) / (th1 - th0);
    const x = CX + r * Math.cos(th);
    const y = CY + r * Math.sin(th);
    if (prev) s += Math.hypot(x - prev.x, y - prev.y);
    prev = { x, y, th, r, s };
    pts.push(prev);
  }
  const units = goal + 1.45; // start marker, shells 1..shells, positions, goal (with its margins)
  const d = s / units;
  const pitch = (R_OUT - R_IN) / turns;
  const at = (u) => {
    const want = Math.max(0, Math.min(s, (u + 0.45) * d));
    let lo = 0;
    let hi = pts.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (pts[mid].s < want) lo = mid;
      else hi = mid;
    }
    const a = pts[lo];
    const b = pts[hi];
    const f = b.s > a.s ? (want - a.s) / (b.s - a.s) : 0;
    const x = a.x + (b.x - a.x) * f;
    const y = a.y + (b.y - a.y) * f;
    const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
    const tx = (b.x - a.x) / len;
    const ty = (b.y - a.y) / len;
    const th = a.th + (b.th - a.th) * f;
    return { x, y, tx, ty, nx: Math.cos(th), ny: Math.sin(th) };
  };
  const path = [];
  for (let i = 0; i < pts.length; i += 10) {
    const p = pts[i];
    if (p.s > (units + 0.45) * d) break;
    path.push(`${i === 0 ? "M" : "L"}${n2(p.x)},${n2(p.y)}`);
  }
  return { at, d, pitch, path: path.join(" ") };
}

function defs() {
  return `<defs>
  <radialGradient id="sho-cloth" cx="50%" cy="50%" r="70%">
    <stop offset="0%" stop-color="#f4e2bb"/><stop offset="70%" stop-color="#e6c893"/>
    <stop offset="100%" stop-color="#c99e62"/>
  </radialGradient>
  <radialGradient id="sho-mat" cx="42%" cy="38%" r="75%">
    <stop offset="0%" stop-color="#8a5431"/><stop offset="65%" stop-color="#5e3219"/>
    <stop offset="100%" stop-color="#3f1f0e"/>
  </radialGradient>
  <linearGradient id="sho-shell" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0%" stop-color="#fffdf6"/><stop offset="60%" stop-color="#efe2c6"/>
    <stop offset="100%" stop-color="#c9b28a"/>
  </linearGradient>
  <radialGradient id="sho-goal" cx="45%" cy="40%" r="70%">
    <stop offset="0%" stop-color="#fff3c4"/><stop offset="70%" stop-color="#e7b948"/>
    <stop offset="100%" stop-color="#a97912"/>
  </radialGradient>
  <linearGradient id="sho-card" x1="0" y1="0" x2="0" y2="1">
    <stop offset="0%" stop-color="#fbf3e1"/><stop offset="100%" stop-color="#efdcb7"/>
  </linearGradient>
  <filter id="sho-shadow" x="-30%" y="-30%" width="160%" height="160%">
    <feDropShadow dx="0" dy="1.5" stdDeviation="1.6" flood-color="#2a1707" flood-opacity="0.45"/>
  </filter>
</defs>`;
}

// One coin seen from above, centred on (x, y).
function coin(x, y, r, colour) {
  return (
    `<circle cx="${n2(x)}" cy="${n2(y + r * 0.16)}" r="${n2(r)}" fill="${colour.dark}"/>` +
    `<circle cx="${n2(x)}" cy="${n2(y)}" r="${n2(r)}" fill="${colour.fill}" stroke="${colour.dark}" stroke-width="${n2(r * 0.09)}"/>`
  );
}

// A stack of `size` coins with its height label on the top coin.
function stack(x, y, r, size, colour, opts = {}) {
  const lift = Math.min(3.4, r * 0.16);
  const shown = Math.min(size, 12);
  const base = y + ((shown - 1) * lift) / 2;
  let out = `<g class="sho-stack" filter="url(#sho-shadow)">`;
  for (let i = 0; i < shown; i++) out += coin(x, base - i * lift, r, colour);
  const ty = base - (shown - 1) * lift;
  out +=
    `<circle cx="${n2(x)}" cy="${n2(ty)}" r="${n2(r * 0.68)}" fill="none" stroke="${colour.light}" stroke-width="${n2(r * 0.08)}" opacity="0.85"/>` +
    `</g>`;
  if (opts.label !== false) {
    const fs = r * (size >= 10 ? 0.9 : 1.05);
    out += `<text x="${n2(x)}" y="${n2(ty + fs * 0.36)}" class="sho-count" font-size="${n2(fs)}" text-anchor="middle">${size}</text>`;
  }
  return out;
}

function shell(p, d, number) {
  const angle = (Math.atan2(p.ty, p.tx) * 180) / Math.PI;
  const rx = Math.min(d * 0.13, 13);
  const ry = Math.min(d * 0.25, 22);
  const h = ry * 0.62;
  let zig = `M0,${n2(-h)}`;
  const teeth = 6;
  for (let i = 1; i <= teeth; i++) {
    const yy = -h + (2 * h * i) / teeth;
    zig += ` L${i % 2 ? n2(rx * 0.16) : n2(-rx * 0.16)},${n2(yy)}`;
  }
  return (
    `<g transform="translate(${n2(p.x)},${n2(p.y)}) rotate(${n2(angle)})">` +
    `<ellipse rx="${n2(rx)}" ry="${n2(ry)}" fill="url(#sho-shell)" stroke="#8b6b41" stroke-width="1.1"/>` +
    `<path d="${zig}" fill="none" stroke="#5b3e22" stroke-width="1.3" stroke-linecap="round"/>` +
    `</g>` +
    number
  );
}

function die(x, y, size, face) {
  const pips = {
    1: [[0, 0]],
    2: [[-1, -1], [1, 1]],
    3: [[-1, -1], [0, 0], [1, 1]],
    4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
    5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
    6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
  };
  let out =
    `<rect x="${n2(x - size / 2)}" y="${n2(y - size / 2)}" width="${size}" height="${size}" rx="${n2(size * 0.18)}" ` +
    `fill="#fbf6ea" stroke="#b9a27a" stroke-width="1.5" filter="url(#sho-shadow)"/>`;
  if (!face) {
    out += `<text x="${n2(x)}" y="${n2(y + size * 0.16)}" text-anchor="middle" class="sho-die-blank" font-size="${n2(size * 0.45)}">?</text>`;
    return out;
  }
  const red = face === 1 || face === 4;
  const pr = face === 1 ? size * 0.13 : size * 0.085;
  for (const [dx, dy] of pips[face]) {
    out += `<circle cx="${n2(x + dx * size * 0.26)}" cy="${n2(y + dy * size * 0.26)}" r="${n2(pr)}" fill="${red ? "#b3261e" : "#2b1d12"}"/>`;
  }
  return out;
}

function seatName(names, seat) {
  const given = names && names[seat];
  return given ? String(given) : `Player ${seat + 1}`;
}

function sideName(view, names, side) {
  return view.sides[side].seats.map((s) => seatName(names, s)).join(" & ");
}

// The dice mat in the centre: whose turn, the dice, pa ra, the values.
function mat(view, names) {
  let out =
    `<circle cx="${CX}" cy="${CY}" r="${MAT_R}" fill="url(#sho-mat)" stroke="#2c1407" stroke-width="3" filter="url(#sho-shadow)"/>` +
    `<circle cx="${CX}" cy="${CY}" r="${MAT_R - 9}" fill="none" stroke="#e9cf9a" stroke-width="1.6" stroke-dasharray="5 4" opacity="0.75"/>` +
    `<circle cx="${CX}" cy="${CY}" r="${MAT_R - 16}" fill="none" stroke="#2c1407" stroke-width="1" opacity="0.6"/>`;
  const colour = SIDE_COLOURS[view.side] || SIDE_COLOURS[0];
  const decided = view.winner_side !== null && view.winner_side !== undefined;
  let who = esc(clip(seatName(names, view.seat), 20));
  let what = "";
  if (view.phase === "over") {
    if (decided) {
      who = esc(clip(sideName(view, names, view.winner_side), 22));
      what = view.sides[view.winner_side].seats.length > 1 ? "win!" : "wins!";
    } else if (view.truncated) {
      who = "Drawn";
      what = "the turn cap was reached";
    } else {
      // Ended off the board (a resignation, a loss on time): over, with no result the board can tell.
      who = "Game over";
    }
  } else if (view.phase === "draw") {
    who = "Drawing lots";
    what = "for the first throw";
  } else if (view.phase === "throw") {
    what = "throws the dice";
  } else if (view.phase === "follow") {
    what = "moves another stack";
  } else if ((view.values || []).length > 1) {
    what = "to move: choose a value"; // the shell clicked picks it (see prompt)
  } else {
    what = "to move";
  }
  const dotColour =
    view.phase === "over"
      ? decided
        ? SIDE_COLOURS[view.winner_side]
        : null
      : view.phase === "draw"
        ? null
        : colour;
  const dot = dotColour
    ? `<circle cx="${CX}" cy="${CY - 88}" r="8" fill="${dotColour.fill}" stroke="#f6e7c6" stroke-width="1.5"/>`
    : "";
  out +=
    dot +
    `<text x="${CX}" y="${CY - 60}" text-anchor="middle" class="sho-mat-who">${who}</text>` +
    `<text x="${CX}" y="${CY - 40}" text-anchor="middle" class="sho-mat-what">${esc(what)}</text>`;
  // The dice: the step's first throw (pa ra faces when the step began with one).
  const dice = view.dice;
  if (view.phase === "over") {
    if (decided || view.truncated) {
      out +=
        `<circle cx="${CX}" cy="${CY + 4}" r="28" fill="url(#sho-goal)" stroke="#7d5608" stroke-width="2"/>` +
        `<text x="${CX}" y="${CY + 16}" text-anchor="middle" class="sho-mat-trophy">${decided ? "★" : "="}</text>`;
    }
  } else {
    out += die(CX - 27, CY - 4, 42, dice ? dice[0] : 0) + die(CX + 27, CY - 4, 42, dice ? dice[1] : 0);
  }
  if (view.paras > 0) {
    out +=
      `<g class="sho-para"><rect x="${CX - 40}" y="${CY + 22}" width="80" height="19" rx="9.5" fill="#b3261e" stroke="#f3d27a" stroke-width="1.2"/>` +
      `<text x="${CX}" y="${CY + 36}" text-anchor="middle" class="sho-para-text">pa ra${view.paras > 1 ? " ×" + view.paras : ""}</text></g>`;
  }
  const values = view.values || [];
  if (view.phase !== "over" && view.phase !== "draw") {
    const label = view.phase === "throw" ? (values.length ? "carried" : "") : "values";
    if (label) {
      const chipW = 30;
      const gap = 5;
      const total = values.length * chipW + (values.length - 1) * gap;
      const scale = total > 170 ? 170 / total : 1;
      const y = CY + 78;
      out += `<text x="${CX}" y="${y - 17}" text-anchor="middle" class="sho-mat-label">${label}</text>`;
      let x = CX - (total * scale) / 2;
      for (const v of values) {
        const w = chipW * scale;
        out +=
          `<rect x="${n2(x)}" y="${y - 12}" width="${n2(w)}" height="24" rx="7" fill="#f3d27a" stroke="#8a6414" stroke-width="1.2"/>` +
          `<text x="${n2(x + w / 2)}" y="${y + 6}" text-anchor="middle" class="sho-chip">${esc(v)}</text>`;
        x += (chipW + gap) * scale;
      }
    }
  }
  const extras = [`turn ${view.turns + 1}`];
  if (view.banked) extras.push(`${view.banked} throw${view.banked > 1 ? "s" : ""} banked`);
  if (view.bonus) extras.push("throw earned");
  out += `<text x="${CX}" y="${CY + 112}" text-anchor="middle" class="sho-mat-small">${esc(extras.join(" · "))}</text>`;
  return out;
}

const CARD_W = 236;
const CARD_H = 138;
const CORNERS = {
  BL: [12, SIZE - CARD_H - 12],
  TL: [12, 12],
  TR: [SIZE - CARD_W - 12, 12],
  BR: [SIZE - CARD_W - 12, SIZE - CARD_H - 12],
};

function cardCorners(count) {
  if (count <= 2) return ["BL", "TR"];
  if (count === 3) return ["BL", "TL", "TR"];
  return ["BL", "TL", "TR", "BR"];
}

// A side's card: its seats' names, coins in hand (the hand target), coins borne off.
function card(view, names, side, corner, targets) {
  const info = view.sides[side];
  const colour = SIDE_COLOURS[side];
  const [x, y] = CORNERS[corner];
  const moving = view.phase !== "over" && view.side === side;
  const won =
    view.phase === "over" && view.winner_side !== null && view.winner_side !== undefined && view.winner_side === side;
  let out = `<g class="sho-card${moving ? " sho-card-active" : ""}" transform="translate(${x},${y})">`;
  out +=
    `<rect width="${CARD_W}" height="${CARD_H}" rx="12" fill="url(#sho-card)" stroke="${moving ? "#d19a17" : "#9c7a4a"}" ` +
    `stroke-width="${moving ? 4 : 1.6}" filter="url(#sho-shadow)"/>` +
    `<rect width="${CARD_W}" height="8" rx="4" fill="${colour.fill}"/>`;
  // Header: a coin of the side's colour, the seats' names (the moving seat marked), then a sub-line.
  out += coin(24, 33, 12, colour);
  const seats = info.seats;
  const teamLabel = view.teams ? `Team ${side === 0 ? "A" : "B"}` : null;
  const right = won ? "★ won" : info.place ? ["", "1st", "2nd", "3rd", "4th"][info.place] || `${info.place}th` : "";
  const nameMax = right ? 12 : 16;
  if (seats.length === 1) {
    const seat = seats[0];
    const mark = moving && view.seat === seat ? "▸ " : "";
    out += `<text x="44" y="38" class="sho-card-name">${esc(mark + clip(seatName(names, seat), nameMax))}</text>`;
  } else {
    out += `<text x="44" y="38" class="sho-card-names">`;
    seats.forEach((seat, i) => {
      const active = moving && view.seat === seat;
      if (i) out += `<tspan> &amp; </tspan>`;
      out += `<tspan${active ? ' class="sho-bold"' : ""}>${esc((active ? "▸ " : "") + clip(seatName(names, seat), 9))}</tspan>`;
    });
    out += `</text>`;
  }
  const rightY = seats.length === 1 ? 38 : 55;
  if (right) out += `<text x="${CARD_W - 12}" y="${rightY}" text-anchor="end" class="sho-card-won">${esc(right)}</text>`;
  const sub = [];
  if (teamLabel) sub.push(teamLabel);
  sub.push(`${info.on_track} on the track`);
  out += `<text x="44" y="55" class="sho-card-team">${esc(sub.join(" · "))}</text>`;
  // Two boxes: in hand (the hand target) and borne off.
  const boxY = 64;
  const boxH = 64;
  const boxes = [
    { x: 10, label: "in hand", count: info.hand },
    { x: CARD_W / 2 + 4, label: "borne off", count: info.off },
  ];
  for (const b of boxes) {
    const w = CARD_W / 2 - 14;
    out +=
      `<rect x="${b.x}" y="${boxY}" width="${w}" height="${boxH}" rx="8" fill="#f7ecd3" stroke="#c7a774" stroke-width="1"/>` +
      `<text x="${b.x + 9}" y="${boxY + boxH / 2 + 4}" class="sho-card-label">${b.label}</text>`;
    const px = b.x + w - 24;
    if (b.count > 0) out += stack(px, boxY + boxH / 2, 15, b.count, colour);
    else out += `<text x="${px}" y="${boxY + boxH / 2 + 7}" text-anchor="middle" class="sho-card-none">–</text>`;
  }
  out += `</g>`;
  targets.push(
    `<rect class="sho-target sho-hand-target" data-target="hand:${side}" x="${x + 10}" y="${y + boxY}" ` +
      `width="${CARD_W / 2 - 14}" height="${boxH}" rx="8" fill="transparent" pointer-events="all"/>`
  );
  return out;
}

export function render(view, options = {}) {
  // A game ended off the board (resignation, time) has nobody to move.
  if (options.over && view.phase !== "over") view = { ...view, phase: "over", winner_side: null };
  const names = options.names || [];
  const orientation = Number.isInteger(options.orientation) ? options.orientation : 0;
  const goal = view.goal;
  const shells = view.shells;
  const sp = makeSpiral(goal);
  const d = sp.d;
  const coinR = Math.min(d * 0.34, sp.pitch * 0.27, 30);
  const targetR = Math.min(d * 0.5, sp.pitch * 0.42);
  const targets = [];
  // A coil too tight for every shell's number at the size a small board draws them (renderer.css): there
  // only every fifth number, and the first and last, are shown.
  const crowded = d < 60 || sp.pitch < 55;
  let out =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${SIZE} ${SIZE}" class="sho-svg${crowded ? " sho-crowded" : ""}" ` +
    `role="img" aria-label="Sho board" font-family="Georgia, 'Times New Roman', serif">` +
    defs();
  // The cloth and its border.
  out +=
    `<rect x="0" y="0" width="${SIZE}" height="${SIZE}" rx="22" fill="#6e1c16"/>` +
    `<rect x="7" y="7" width="${SIZE - 14}" height="${SIZE - 14}" rx="17" fill="url(#sho-cloth)" stroke="#d9ae4f" stroke-width="2.5"/>` +
    `<rect x="16" y="16" width="${SIZE - 32}" height="${SIZE - 32}" rx="12" fill="none" stroke="#a8773a" stroke-width="1" stroke-dasharray="2 5" opacity="0.7"/>`;
  // The coil: a soft band and a cord along which the shells lie.
  out +=
    `<path d="${sp.path}" fill="none" stroke="#a87a45" stroke-opacity="0.16" stroke-width="${n2(Math.min(d * 0.8, sp.pitch * 0.75))}" stroke-linecap="round" stroke-linejoin="round"/>` +
    `<path d="${sp.path}" fill="none" stroke="#7c5630" stroke-opacity="0.55" stroke-width="1.4"/>`;
  // The start (the hand, position 0) at the outer end.
  const start = sp.at(0);
  out +=
    `<g class="sho-start"><circle cx="${n2(start.x)}" cy="${n2(start.y)}" r="${n2(Math.min(d * 0.2, 12))}" fill="#7c5630"/>` +
    `<text x="${n2(start.x + start.nx * Math.min(d * 0.55, 34))}" y="${n2(start.y + start.ny * Math.min(d * 0.55, 34) + 5)}" text-anchor="middle" class="sho-start-label">start</text></g>`;
  // The shells, each numbered on the outer side of the coil: the number is centred on its place, whatever
  // the size it is drawn at (a small board draws it bigger: renderer.css).
  for (let k = 1; k <= shells; k++) {
    const p = sp.at(k);
    const off = Math.min(d * 0.47, sp.pitch * 0.36);
    const major = k % 5 === 0 || k === 1 || k === shells;
    const fs = Math.min(d * (major ? 0.24 : 0.2), major ? 17 : 14);
    const num =
      `<text x="${n2(p.x + p.nx * off)}" y="${n2(p.y + p.ny * off)}" text-anchor="middle" dominant-baseline="central" ` +
      `class="sho-num${major ? " sho-num-major" : ""}" font-size="${n2(fs)}">${k}</text>`;
    out += shell(p, d, num);
  }
  // The goal at the inner end.
  const g = sp.at(goal + 0.5);
  const goalR = Math.min(d * 0.52, 36);
  out +=
    `<g class="sho-goal"><circle cx="${n2(g.x)}" cy="${n2(g.y)}" r="${n2(goalR)}" fill="url(#sho-goal)" stroke="#7d5608" stroke-width="2" filter="url(#sho-shadow)"/>` +
    `<circle cx="${n2(g.x)}" cy="${n2(g.y)}" r="${n2(goalR * 0.74)}" fill="none" stroke="#7d5608" stroke-width="1" stroke-dasharray="3 3"/>` +
    `<text x="${n2(g.x)}" y="${n2(g.y + 5)}" text-anchor="middle" class="sho-goal-label">goal</text></g>`;
  targets.push(
    `<circle class="sho-target" data-target="goal" cx="${n2(g.x)}" cy="${n2(g.y)}" r="${n2(goalR + 3)}" fill="transparent" pointer-events="all"/>`
  );
  // The dice mat.
  out += mat(view, names);
  // The stacks, drawn from the far end of the coil so that nearer ones overlap correctly.
  const stacks = [...view.stacks].sort((a, b) => a.pos - b.pos);
  for (const s of stacks) {
    const p = sp.at(s.pos + 0.5);
    const colour = SIDE_COLOURS[s.side] || SIDE_COLOURS[0];
    if (view.moved === s.pos) {
      out += `<circle cx="${n2(p.x)}" cy="${n2(p.y)}" r="${n2(coinR + 6)}" fill="none" stroke="#5b3e22" stroke-width="2" stroke-dasharray="4 3"/>`;
    }
    out += stack(p.x, p.y, coinR, s.size, colour);
    if (s.shomo) {
      out += `<text x="${n2(p.x + coinR * 0.9)}" y="${n2(p.y - coinR * 0.8)}" class="sho-shomo" text-anchor="middle">mo</text>`;
    }
  }
  // The sides' cards, the orientation seat's side bottom left and the others clockwise.
  const sides = view.sides.length;
  const first = (view.seat_side && view.seat_side[orientation]) || 0;
  const corners = cardCorners(sides);
  for (let i = 0; i < sides; i++) {
    const side = (first + i) % sides;
    out += card(view, names, side, corners[i], targets);
  }
  // A title in a free corner.
  const free = ["BR", "TL", "BL", "TR"].find((c) => !corners.slice(0, sides).includes(c));
  if (free) {
    const [fx, fy] = CORNERS[free];
    out +=
      `<g class="sho-title-block"><text x="${fx + CARD_W / 2}" y="${fy + 78}" text-anchor="middle" class="sho-title">SHO</text>` +
      `<text x="${fx + CARD_W / 2}" y="${fy + 100}" text-anchor="middle" class="sho-subtitle">the Tibetan dice race</text></g>`;
  }
  // The click targets, one per track position, on top of everything.
  for (let pos = 1; pos < goal; pos++) {
    const p = sp.at(pos + 0.5);
    targets.push(
      `<circle class="sho-target" data-target="shell:${pos}" cx="${n2(p.x)}" cy="${n2(p.y)}" r="${n2(targetR)}" fill="transparent" pointer-events="all"><title>${pos}</title></circle>`
    );
  }
  out += `<g class="sho-targets">${targets.join("")}</g>`;
  out += `</svg>`;
  return out;
}

// What the seat to move is told beside the board (the game page's status line), where the board alone does
// not say how to move: with more than one value (after pa ra, or with a value carried), the value a move
// spends is chosen by the shell it lands on. "" where there is nothing to add.
export function prompt(view) {
  const values = view.values || [];
  if (view.phase !== "move" || values.length < 2) return "";
  const last = values.length - 1;
  const singles = `${values.slice(0, last).join(", ")} or ${values[last]}`;
  let together = "";
  if (view.para_mode !== "pool") {
    together = values.length === 2 ? `, or both together (${values[0] + values[1]})` : ", or several together";
  }
  const lead = view.paras > 0 ? "Pa ra: you choose" : "You choose";
  return (
    `${lead} the value to move by: ${singles}${together}. ` +
    "Click a stack or your hand, then the lit shell of the value you want to move."
  );
}

// Each seat's colour (the colour of the coins it moves; in teams, the team's), for the page's seat bars
// and move list, so that they match the coins on the board.
export function seatColours(view) {
  return (view.seat_side ?? []).map((side) => {
    const colour = SIDE_COLOURS[side] ?? SIDE_COLOURS[0];
    return { fill: colour.fill, name: colour.name };
  });
}
