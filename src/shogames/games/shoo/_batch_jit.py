# mypy: ignore-errors
# (numba compiles this module: its scalars are numpy's int64/float64, which mypy's int does not model.)
"""The compiled batch of Shoo games: action ids, observations and masks over the kernel's state arrays.

The action ids and observation planes are the reference's (``ShooState.move_to_action``,
``ShooState.observation_tensor``; ``docs/games/shoo.md``, "Actions and observations"), computed here from
a row's state array (:mod:`shogames.games.shoo._jit`'s layout) and its history table. The tables are made
from the reference's own (its view steps and arrival pairs), so the two share one numbering.

A batch holds ``states`` (one state array per row), ``hists`` (per row a history table of
:data:`~shogames.games.shoo._jit.HIST_WORDS` rows and one column per standing position of the current
epoch: each move that starts a new epoch drops the older columns, which no repetition can match again)
and ``streams`` (per row its random stream, for the toss). Rows are shared among numba's threads in
blocks, each block with its own scratch (a move list and the generator's units).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from shogames.games import shoo as reference
from shogames.games.shoo import _jit as jit
from shogames.kernels import common

# --- Tables, from the reference's --------------------------------------------------------------------

CELLS = 81
VIEW_STEPS = np.array(reference._VIEW_STEPS, dtype=np.int64)  # [side, square, view direction] -> square
ARRIVAL_INDEX = np.full(CELLS * 8, -1, dtype=np.int64)  # view square * 8 + direction -> pair
for _index, (_square, _direction) in enumerate(reference.ARRIVAL_PAIRS):
    ARRIVAL_INDEX[_square * 8 + _direction] = _index
DIRECTION_OF = np.full(9, -1, dtype=np.int64)  # (sign df + 1) * 3 + sign dr + 1 -> direction (South's view)
for _direction, (_df, _dr) in enumerate(reference._VECTORS):
    DIRECTION_OF[(_df + 1) * 3 + _dr + 1] = _direction
VARIANTS = reference.ARRIVAL_VARIANTS
SHOO_CODES = reference.SHOO_CODES
PLACED_SHOO = SHOO_CODES - 1
RETURN_BASE = reference.RETURN_BASE
CALL_BASE = reference.CALL_BASE
HOLD_BASE = reference.HOLD_BASE
RETIRE_BASE = reference.RETIRE_BASE
DROP_BASE = reference.DROP_BASE
SHOOED_OFF_ACTION = reference.SHOOED_OFF_ACTION
HUSH_ACTION = reference.HUSH_ACTION
PASS_ACTION = reference.PASS_ACTION
FIRST_ACTION = reference.FIRST_ACTION
NUM_ACTIONS = reference.NUM_ACTIONS
PLANES = len(reference.OBSERVATION_PLANES)

# What stands on a square, from the mover's side (board_of): empty, the mover's walker or rider, the
# opponent's walker or rider, a free horse.
EMPTY, MY_FOOT, MY_RIDER, THEIR_FOOT, THEIR_RIDER, HORSE = range(6)
# Masks of those kinds (bit per kind) for the neighbour lists.
M_MY_FOOT = 1 << MY_FOOT
M_MINE = (1 << MY_FOOT) | (1 << MY_RIDER)
M_EMPTY = 1 << EMPTY


@njit(cache=True)
def board_of(st, side, board):
    """Fill ``board`` (81) with what stands on each square, from ``side``'s side of the table."""
    for square in range(CELLS):
        kind = EMPTY
        if jit.has(st[jit.TRAV + 2 * side], st[jit.TRAV + 2 * side + 1], square):
            kind = MY_FOOT
        elif jit.has(st[jit.TRAV + 2 * (1 - side)], st[jit.TRAV + 2 * (1 - side) + 1], square):
            kind = THEIR_FOOT
        elif jit.has(st[jit.HORSES], st[jit.HORSES + 1], square):
            kind = HORSE
        if kind != EMPTY and kind != HORSE and jit.has(st[jit.MOUNTED], st[jit.MOUNTED + 1], square):
            kind += 1
        board[square] = kind


@njit(cache=True)
def view(square, side):
    """``square`` as ``side`` sees it."""
    return square if side == 0 else CELLS - 1 - square


@njit(cache=True)
def view_direction(start, end, side):
    """The view direction of ``side`` from ``start`` to ``end`` on one queen line, or -1."""
    df = end % 9 - start % 9
    dr = end // 9 - start // 9
    if (df == 0 and dr == 0) or (df != 0 and dr != 0 and abs(df) != abs(dr)):
        return -1
    sf = 1 if df > 0 else (-1 if df < 0 else 0)
    sr = 1 if dr > 0 else (-1 if dr < 0 else 0)
    if side == 1:
        sf, sr = -sf, -sr
    return DIRECTION_OF[(sf + 1) * 3 + sr + 1]


@njit(cache=True)
def index_among(board, steps, center, kinds, skip, target):
    """(index of ``target`` among the neighbours of ``center`` of the ``kinds``, bar ``skip``; count)."""
    found = -1
    count = 0
    for d in range(8):
        n = steps[center, d]
        if n < 0 or n == skip or not (kinds >> board[n]) & 1:
            continue
        if n == target:
            found = count
        count += 1
    return found, count


@njit(cache=True)
def nth_among(board, steps, center, kinds, skip, k):
    """The ``k``-th neighbour of ``center`` whose kind is in ``kinds`` (without ``skip``), or -1."""
    count = 0
    for d in range(8):
        n = steps[center, d]
        if n < 0 or n == skip or not (kinds >> board[n]) & 1:
            continue
        if count == k:
            return n
        count += 1
    return -1


@njit(cache=True)
def action_of(st, board, code):
    """The action id of the legal move ``code`` in the position ``st`` (``board`` its board_of), or -1."""
    kind = code & 15
    to = jit.field(code, 25)
    if kind == jit.TOSS:
        return to
    if kind == jit.CHOOSE:
        return FIRST_ACTION + to
    if kind == jit.HUSH_KIND:
        return HUSH_ACTION
    if kind == jit.PASS_KIND:
        return PASS_ACTION
    side = st[jit.SIDE]
    steps = VIEW_STEPS[side]
    origin = jit.field(code, 4)
    via = jit.field(code, 11)
    place = jit.field(code, 18)
    shoo = jit.field(code, 32)
    if kind == jit.CALL:
        return CALL_BASE + view(to, side)
    if kind == jit.HOLD:
        return HOLD_BASE + view(to, side)
    if kind == jit.RETIRE:
        return RETIRE_BASE + view(to, side)
    if kind == jit.SHOOED_OFF:
        if to < 0:
            return SHOOED_OFF_ACTION
        index = 0  # the traveller's place among the mover's walkers in view order
        mine = view(origin, side)
        for square in range(CELLS):
            if board[square] == MY_FOOT and view(square, side) < mine:
                index += 1
        return DROP_BASE + 9 * view(to, side) + index
    if kind == jit.RETURN:
        code_shoo = 0
        if shoo >= 0:
            code_shoo = 1 + view_direction(to, shoo, side)
        return RETURN_BASE + SHOO_CODES * view(to, side) + code_shoo
    direction = -1
    variant = 0
    if kind == jit.STEP or kind == jit.RIDE or kind == jit.SLIDE or kind == jit.DISMOUNT:
        direction = view_direction(origin, to, side)
        variant = 1 if kind == jit.DISMOUNT else 0
    elif kind == jit.MOUNT:
        if to == via:
            direction = view_direction(origin, to, side)
        else:
            direction = view_direction(via, to, side)
            if to != origin:
                if steps[via, direction] == origin:
                    variant = 1
                else:
                    found, _count = index_among(board, steps, via, M_MY_FOOT, -1, origin)
                    variant = 1 + found
    else:  # CAPTURE
        if to in (via, origin):
            direction = view_direction(origin, to, side) if to == via else view_direction(via, to, side)
            variant, _count = index_among(board, steps, via, M_EMPTY, -1, place)
        else:
            direction = view_direction(via, to, side)
            ahead = steps[via, direction]
            if ahead == origin:
                found, _count = index_among(board, steps, via, M_EMPTY, -1, place)
                variant = 1 + found
            else:
                capturer, _count = index_among(board, steps, via, M_MINE, ahead, origin)
                spot, places = index_among(board, steps, via, M_EMPTY, ahead, place)
                variant = capturer * places + spot
    pair = ARRIVAL_INDEX[view(to, side) * 8 + direction]
    code_shoo = 0
    if shoo >= 0:
        if kind == jit.CAPTURE and shoo == place and not jit.has(jit.NEIGH[0, to], jit.NEIGH[1, to], shoo):
            code_shoo = PLACED_SHOO
        else:
            toward = view_direction(to, shoo, side)
            back = (direction + 4) % 8
            code_shoo = 1 + (toward if toward < back else toward - 1)
    return (pair * VARIANTS + variant) * SHOO_CODES + code_shoo


@njit(cache=True)
def mark(out, plane, square, flip):
    out[plane * CELLS + (CELLS - 1 - square if flip else square)] = 1.0


@njit(cache=True)
def fill(out, plane, value):
    for i in range(CELLS):
        out[plane * CELLS + i] = value


@njit(cache=True)
def observe_row(st, hist, cfg, seat, out):
    """The reference's ``observation_tensor(seat)`` of the position, into ``out`` (flat, float32)."""
    out[:] = 0.0
    own = 0 if seat == st[jit.SOUTH] else 1
    other = 1 - own
    flip = own == 1
    held = st[jit.HELD]
    for square in range(CELLS):
        mounted = jit.has(st[jit.MOUNTED], st[jit.MOUNTED + 1], square)
        if jit.has(st[jit.TRAV + 2 * own], st[jit.TRAV + 2 * own + 1], square):
            mark(out, 1 if mounted else 0, square, flip)
        elif jit.has(st[jit.TRAV + 2 * other], st[jit.TRAV + 2 * other + 1], square):
            mark(out, 3 if mounted else 2, square, flip)
        elif jit.has(st[jit.HORSES], st[jit.HORSES + 1], square) and square != held:
            mark(out, 4, square, flip)
        if jit.has(jit.HOME[own, 0], jit.HOME[own, 1], square):
            mark(out, 7, square, flip)
        if jit.has(jit.HOME[other, 0], jit.HOME[other, 1], square):
            mark(out, 8, square, flip)
    if held >= 0:  # held by the side that moved last
        mark(out, 5 if st[jit.SIDE] == other else 6, held, flip)
    fill(out, 9, st[jit.SH0 + own] / 9.0)
    fill(out, 10, st[jit.ST0 + own] / 9.0)
    fill(out, 11, st[jit.PA0 + own] / 9.0)
    fill(out, 12, st[jit.SH0 + other] / 9.0)
    fill(out, 13, st[jit.ST0 + other] / 9.0)
    fill(out, 14, st[jit.PA0 + other] / 9.0)
    if st[jit.SHOO] >= 0:
        mark(out, 15, st[jit.SHOO], flip)
    if st[jit.HUSH] != 0:
        mark(out, 16, jit.field(st[jit.HUSH], 25), flip)
        if jit.field(st[jit.HUSH], 4) >= 0:
            mark(out, 17, jit.field(st[jit.HUSH], 4), flip)
    for i in range(st[jit.NBARRED]):
        barred = st[jit.BARRED + i]
        mark(out, 18, jit.field(barred, 25), flip)
        if jit.field(barred, 4) >= 0:
            mark(out, 19, jit.field(barred, 4), flip)
    if st[jit.PHASE] == jit.PLAY:
        fill(out, 20, jit.repetitions(st, hist) / 2.0)
    fill(out, 21, st[jit.PASSES] / 2.0)
    fill(out, 22, 1.0 if jit.seat_to_move(st) == seat else 0.0)
    fill(out, 23, 1.0 if own == 0 else 0.0)
    fill(out, 24, 1.0 if st[jit.PHASE] != jit.PLAY else 0.0)
    fill(out, 25, st[jit.MOVES] / cfg[jit.C_MAX_TURNS])


# --- The batch ------------------------------------------------------------------------------------


@njit(cache=True)
def compact(st, hist):
    """Drop the history columns before the current epoch (no repetition can match them again)."""
    base = st[jit.HBASE]
    if base > 0:
        used = st[jit.NHIST]
        for i in range(base, used):
            for w in range(jit.HIST_WORDS):
                hist[w, i - base] = hist[w, i]
        st[jit.NHIST] = used - base
        st[jit.HBASE] = 0


@njit(cache=True)
def settle(st, hist, rng, cfg):
    """Compact the history, then play the toss if it is next (from the row's stream); the stream after."""
    compact(st, hist)
    while st[jit.PHASE] == jit.TOSS_PHASE and st[jit.END] == jit.END_NONE:
        rng, bits = common.splitmix(rng)
        jit.play(st, jit.code_of(jit.TOSS, -1, -1, -1, common.below(bits, 2)), cfg, hist)
        compact(st, hist)
    return rng


@njit(cache=True)
def blocks_of(size, blocks, b):
    return size * b // blocks, size * (b + 1) // blocks


@njit(cache=True, parallel=True)
def batch_reset(states, hists, rows, start, start_hist, streams, cfg):
    """Start the chosen rows afresh from ``start`` (its history ``start_hist``), the toss played."""
    used = start_hist.shape[1]
    for row in prange(states.shape[0]):
        if not rows[row]:
            continue
        states[row, :] = start
        hists[row, :, :used] = start_hist
        streams[row] = settle(states[row], hists[row], streams[row], cfg)


@njit(cache=True, parallel=True)
def batch_decode(states, actions, cfg, moves, units, boards, found):
    """Each row's move code of its action id (-1: not legal there; 0: the row's game is over)."""
    blocks = moves.shape[0]
    size = states.shape[0]
    for b in prange(blocks):
        first, last = blocks_of(size, blocks, b)
        for row in range(first, last):
            st = states[row]
            found[row] = 0
            if st[jit.END] != jit.END_NONE:
                continue
            found[row] = -1
            n = jit.generate(st, cfg, moves[b], units[b], jit.GEN, jit.NO_BITS)
            board_of(st, st[jit.SIDE], boards[b])
            for i in range(n):
                if action_of(st, boards[b], moves[b, i]) == actions[row]:
                    found[row] = moves[b, i]
                    break


@njit(cache=True, parallel=True)
def batch_play(states, hists, codes, streams, cfg, returns, ends):
    """Play each row's move code (rows with code 0 are left), then the toss; the rows that ended now."""
    for row in prange(states.shape[0]):
        returns[row, 0] = 0.0
        returns[row, 1] = 0.0
        ends[row] = 0
        if codes[row] == 0:
            continue
        st = states[row]
        jit.play(st, codes[row], cfg, hists[row])
        streams[row] = settle(st, hists[row], streams[row], cfg)
        if st[jit.END] != jit.END_NONE:
            seat = jit.winner_seat(st)
            if seat >= 0:
                returns[row, seat] = 1.0
                returns[row, 1 - seat] = -1.0
            ends[row] = 2 if st[jit.END] == jit.END_CAP else 1


@njit(cache=True, parallel=True)
def batch_observe(states, hists, cfg, out):
    """Each row's observation from its seat to move (seat 0 once over), flat per row."""
    for row in prange(states.shape[0]):
        st = states[row]
        seat = jit.seat_to_move(st)
        observe_row(st, hists[row], cfg, seat if seat >= 0 else 0, out[row])


@njit(cache=True, parallel=True)
def batch_legal_mask(states, cfg, moves, units, boards, mask):
    """Each row's legal action ids (none once over)."""
    blocks = moves.shape[0]
    size = states.shape[0]
    for b in prange(blocks):
        first, last = blocks_of(size, blocks, b)
        for row in range(first, last):
            mask[row, :] = False
            st = states[row]
            if st[jit.END] != jit.END_NONE:
                continue
            n = jit.generate(st, cfg, moves[b], units[b], jit.GEN, jit.NO_BITS)
            board_of(st, st[jit.SIDE], boards[b])
            for i in range(n):
                mask[row, action_of(st, boards[b], moves[b, i])] = True
