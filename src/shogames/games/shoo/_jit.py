# mypy: ignore-errors
# (numba compiles this module: its scalars are numpy's int64/float64, which mypy's int does not model.)
"""The compiled half of the Shoo kernel: numba functions over one int64 array per state.

State array (int64, :data:`SIZE` long)::

    0 .. 80   each square: 0 empty, 1 South on foot, 2 North on foot, 3 South mounted, 4 North mounted,
              5 free horse (square ``file + 9 * rank`` as in the reference)
    SIDE  side to move (0 South, 1 North)   PHASE  0 play, 1 toss, 2 choice   CHOOSER  the toss winner
    SOUTH  the seat playing South   HELD  the held horse's square (-1)   SHOO  the pending shoo (-1)
    SH0, SH1  stable horses   ST0, ST1  stabled travellers   PA0, PA1  pastures
    MOVES  standing moves   PLY  plies   PASSES  passes in a row
    END  0 going on, 1 win, 2 two passes, 3 length cap, 4 repetition   WINNER  the winning side (-1)
    HUSH  the code of the move that may be hushed (0: none)   HELD_BEFORE, PASSES_BEFORE  what a HUSH
    puts back   NHIST, HBASE  rows of the history table, and the first row of the current epoch
    NBARRED, BARRED ..  the moves hushed this turn (the hush context's while HUSH is open)

The history of standing positions is a separate table ``hist``, a stack: a move pushes a row, a HUSH
pops one, and rows below ``HBASE`` (before stable horses or pastures last changed, so they can never
recur) are not searched. :meth:`ShooKernel.encode` appends the current epoch's rows to the state array.
A row is :data:`KEY_WORDS` int64: South's, North's, the mounted
and the free horses' squares as two words each (bits 0-62 and 63-80), then the held horse, the shoo,
the side and the stabled travellers packed in one word, then stable horses and pastures (the epoch).

Move code (int64): ``kind | (origin + 1) << 4 | (via + 1) << 11 | (place + 1) << 18 | (to + 1) << 25 |
(shoo + 1) << 32`` with the fields and kinds of :class:`~shogames.games.shoo.ShooMove`; the low 32 bits
are the move without its shoo declaration (what a HUSH bars).

``cfg`` holds the settings (:data:`C_TOWERS` ...); ``neigh`` (81 x 9: count, then the neighbours
ascending), ``rays`` (81 x 8 x 9: length, then the squares, nearest first, in the reference's order of
directions) and ``areas`` (4 x 81: each side's home area, then the king-step distance to it) are the
geometry.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from shogames.kernels import common
from shogames.kernels.common import (
    C_ABORT,
    C_NODE_LIMIT,
    C_NODES,
    INF,
    WIN_DISCOUNT,
    below,
    splitmix,
)

EMPTY, FOOT, RIDER, HORSE = 0, 1, 3, 5  # FOOT + side, RIDER + side

(
    SIDE,
    PHASE,
    CHOOSER,
    SOUTH,
    HELD,
    SHOO,
    SH0,
    SH1,
    ST0,
    ST1,
    PA0,
    PA1,
    MOVES,
    PLY,
    PASSES,
    END,
    WINNER,
    HUSH,
    HELD_BEFORE,
    PASSES_BEFORE,
    NHIST,
    HBASE,
    NBARRED,
) = range(81, 104)
BARRED = 104
MAX_BARRED = 96
SIZE = BARRED + MAX_BARRED
KEY_WORDS = 10

PLAY, TOSS_PHASE, CHOICE_PHASE = 0, 1, 2
END_NONE, END_WIN, END_PASSES, END_CAP, END_REPETITION = 0, 1, 2, 3, 4

STEP, MOUNT, RIDE, DISMOUNT, CAPTURE, RETURN, CALL, SLIDE, HOLD, RETIRE = range(10)
SHOOED_OFF, HUSH_KIND, PASS_KIND, TOSS, CHOOSE = range(10, 15)
BASE_MASK = (1 << 32) - 1

C_TOWERS, C_HUSH, C_DROP_ANYWHERE, C_CAPTURE_HOME, C_MOUNT_ESCAPE, C_SAFETY, C_MAX_TURNS = range(7)
CFG_SIZE = 7
HUSH_OPTIONAL, HUSH_AUTOMATIC, HUSH_LOSE_MOVE, HUSH_SHOO_OFF, HUSH_OFF = range(5)
CAPTURE_PLACE_INSIDE, CAPTURE_ANYWHERE, CAPTURE_IMMUNE = range(3)

A_HOME, A_DIST = 0, 2  # + side

# The evaluation's weights array: the fields of shogames.games.shoo.ShooEvaluationWeights, in order.
W_STABLED, W_BLOCKER, W_RIDER, W_RIDER_SLIDE, W_RIDER_AT_HOME, W_STUCK, W_CAP, W_SCALE = range(8)

MAX_MOVES = 1 << 16
SEARCH_MOVES = 1 << 14
ODD_HORSE = 4 + 9 * 4


@njit(cache=True, inline="always")
def code_of(kind, origin, via, place, to):
    """A move's code without a shoo declaration."""
    return kind | (origin + 1) << 4 | (via + 1) << 11 | (place + 1) << 18 | (to + 1) << 25


@njit(cache=True, inline="always")
def field(code, shift):
    """A square field of a move code (-1 for none)."""
    return ((code >> shift) & 127) - 1


@njit(cache=True, inline="always")
def adjacent(a, b):
    """Whether two different squares touch (a king's step)."""
    return abs(a % 9 - b % 9) <= 1 and abs(a // 9 - b // 9) <= 1


@njit(cache=True, inline="always")
def is_traveller(c, side):
    """Whether square content ``c`` is a traveller of ``side``, on foot or mounted."""
    return c == FOOT + side or c == RIDER + side


@njit(cache=True, inline="always")
def touchers(st, neigh, square, side):
    """How many travellers of ``side`` (on foot or mounted) stand next to ``square``."""
    count = 0
    for k in range(1, neigh[square, 0] + 1):
        c = st[neigh[square, k]]
        if c == FOOT + side or c == RIDER + side:
            count += 1
    return count


@njit(cache=True, inline="always")
def shooable(st, neigh, areas, square, side):
    """Whether a foot traveller of ``side`` on ``square`` could be shooed (outside home, two enemies)."""
    return areas[A_HOME + side, square] == 0 and touchers(st, neigh, square, 1 - side) >= 2


@njit(cache=True, inline="always")
def mine_next_to(st, neigh, square, side):
    """Whether a traveller of ``side`` stands next to ``square``."""
    for k in range(1, neigh[square, 0] + 1):
        c = st[neigh[square, k]]
        if c == FOOT + side or c == RIDER + side:
            return True
    return False


@njit(cache=True, inline="always")
def allowed_home(cfg, areas, me, origin):
    """Whether the safety rule keeps a traveller starting on ``origin`` inside its home area."""
    return cfg[C_SAFETY] != 0 and areas[A_HOME + me, origin] != 0


@njit(cache=True)
def steps(st, cfg, neigh, areas, out, n, me):
    """Steps of the mover's foot travellers (the safety rule; hushable ones left out under automatic)."""
    skip = cfg[C_HUSH] == HUSH_AUTOMATIC
    for origin in range(81):
        if st[origin] != FOOT + me:
            continue
        keep = allowed_home(cfg, areas, me, origin)
        for k in range(1, neigh[origin, 0] + 1):
            to = neigh[origin, k]
            if st[to] != EMPTY or (keep and areas[A_HOME + me, to] == 0):
                continue
            if skip and shooable(st, neigh, areas, to, me):
                continue
            out[n] = code_of(STEP, origin, -1, -1, to)
            n += 1
    return n


@njit(cache=True)
def mounts(st, cfg, neigh, rays, areas, out, n, me, only):
    """Mounts (and rides on) by the mover's foot travellers, or only the one on ``only`` (>= 0)."""
    held = st[HELD]
    for origin in range(81):
        if st[origin] != FOOT + me or (only >= 0 and origin != only):
            continue
        n = mounts_at(st, cfg, neigh, rays, areas, out, n, me, origin, held)
    return n


@njit(cache=True, inline="always")
def mounts_at(st, cfg, neigh, rays, areas, out, n, me, origin, held):
    """Mounts by the foot traveller on ``origin`` of each free horse next to it, with the rides on.

    Designers only ride on; the square left counts as empty during the ride.
    """
    keep = allowed_home(cfg, areas, me, origin)
    for k in range(1, neigh[origin, 0] + 1):
        horse = neigh[origin, k]
        if st[horse] != HORSE or horse == held:
            continue
        if not (keep and areas[A_HOME + me, horse] == 0):
            move = code_of(MOUNT, origin, horse, -1, horse)
            out[n] = move
            n += 1
        if cfg[C_TOWERS]:
            continue
        for r in range(8):
            for j in range(1, rays[horse, r, 0] + 1):
                to = rays[horse, r, j]
                if to != origin and st[to] != EMPTY:
                    break
                if keep and areas[A_HOME + me, to] == 0:
                    continue
                move = code_of(MOUNT, origin, horse, -1, to)
                out[n] = move
                n += 1
    return n


@njit(cache=True)
def rides(st, cfg, neigh, rays, areas, out, n, me):
    """Rides of the mover's mounted travellers (queen slides; towers: never into a home area)."""
    towers = cfg[C_TOWERS]
    for origin in range(81):
        if st[origin] != RIDER + me:
            continue
        keep = allowed_home(cfg, areas, me, origin)
        for r in range(8):
            for j in range(1, rays[origin, r, 0] + 1):
                to = rays[origin, r, j]
                if st[to] != EMPTY or (towers and (areas[A_HOME, to] or areas[A_HOME + 1, to])):
                    break
                if keep and areas[A_HOME + me, to] == 0:
                    continue
                move = code_of(RIDE, origin, -1, -1, to)
                out[n] = move
                n += 1
    return n


@njit(cache=True)
def dismounts(st, cfg, neigh, areas, out, n, me):
    """Dismounts of the mover's riders (into a shoo: not under automatic hushing, nor in towers)."""
    skip = cfg[C_HUSH] == HUSH_AUTOMATIC or cfg[C_TOWERS] != 0
    for origin in range(81):
        if st[origin] != RIDER + me:
            continue
        keep = allowed_home(cfg, areas, me, origin)
        for k in range(1, neigh[origin, 0] + 1):
            to = neigh[origin, k]
            if st[to] != EMPTY or (keep and areas[A_HOME + me, to] == 0):
                continue
            if skip and shooable(st, neigh, areas, to, me):
                continue
            move = code_of(DISMOUNT, origin, -1, -1, to)
            out[n] = move
            n += 1
    return n


@njit(cache=True)
def captures(st, cfg, neigh, rays, areas, out, n, me, only):
    """Captures by the mover's travellers, or only by the one on ``only`` (>= 0)."""
    for origin in range(81):
        if not (st[origin] == FOOT + me or st[origin] == RIDER + me) or (only >= 0 and origin != only):
            continue
        n = captures_at(st, cfg, neigh, rays, areas, out, n, me, origin)
    return n


@njit(cache=True, inline="always")
def captures_at(st, cfg, neigh, rays, areas, out, n, me, origin):
    """Captures by the traveller on ``origin``: each enemy rider next to it, each placement, each ride on.

    A foot capturer's own square counts as empty during the ride.
    """
    you = 1 - me
    towers = cfg[C_TOWERS]
    was_mounted = st[origin] == RIDER + me
    keep = allowed_home(cfg, areas, me, origin)
    for k in range(1, neigh[origin, 0] + 1):
        via = neigh[origin, k]
        if st[via] != RIDER + you:
            continue
        inside = False
        if areas[A_HOME + you, via] != 0:
            if cfg[C_CAPTURE_HOME] == CAPTURE_IMMUNE:
                continue
            inside = cfg[C_CAPTURE_HOME] == CAPTURE_PLACE_INSIDE
        for kp in range(1, neigh[via, 0] + 1):
            place = neigh[via, kp]
            if st[place] != EMPTY or (inside and areas[A_HOME + you, place] == 0):
                continue
            if not (keep and areas[A_HOME + me, via] == 0):
                move = code_of(CAPTURE, origin, via, place, via)
                out[n] = move
                n += 1
            for r in range(8):
                for j in range(1, rays[via, r, 0] + 1):
                    to = rays[via, r, j]
                    if to == place:
                        break
                    if not (to == origin and not was_mounted) and st[to] != EMPTY:
                        break
                    if towers and (areas[A_HOME, to] or areas[A_HOME + 1, to]):
                        break
                    if keep and areas[A_HOME + me, to] == 0:
                        continue
                    move = code_of(CAPTURE, origin, via, place, to)
                    out[n] = move
                    n += 1
    return n


@njit(cache=True)
def horse_moves(st, cfg, neigh, rays, areas, out, n, me):
    """Call-ups, slides, holds and retires, in the reference's order."""
    towers = cfg[C_TOWERS]
    held = st[HELD]
    near = np.zeros(81, dtype=np.bool_)  # squares next to a traveller of the mover
    for sq in range(81):
        if st[sq] == FOOT + me or st[sq] == RIDER + me:
            for k in range(1, neigh[sq, 0] + 1):
                near[neigh[sq, k]] = True
    if st[SH0 + me] > 0:
        for to in range(81):
            if st[to] != EMPTY:
                continue
            if towers:
                if areas[A_HOME, to] or areas[A_HOME + 1, to]:
                    continue
            elif not cfg[C_DROP_ANYWHERE] and not near[to]:
                continue
            out[n] = code_of(CALL, -1, -1, -1, to)
            n += 1
    for origin in range(81):
        if st[origin] != HORSE or origin == held:
            continue
        for r in range(8):
            for j in range(1, rays[origin, r, 0] + 1):
                to = rays[origin, r, j]
                if st[to] != EMPTY or (towers and (areas[A_HOME, to] or areas[A_HOME + 1, to])):
                    break
                out[n] = code_of(SLIDE, origin, -1, -1, to)
                n += 1
    for kind in (HOLD, RETIRE):
        if kind == HOLD and towers:
            continue
        for horse in range(81):
            if st[horse] == HORSE and horse != held and near[horse]:
                out[n] = code_of(kind, -1, -1, -1, horse)
                n += 1
    return n


@njit(cache=True)
def drops(st, neigh, areas, out, n, me, traveller):
    """Towers: a shooed traveller with no escape is dropped next to its start area, ring by ring."""
    ring = areas[A_DIST + 1 - me]  # distance to its start area, the other side's home area
    fallback = 0
    for k in range(1, 9):
        squares = 0
        safe = 0
        for sq in range(81):
            if ring[sq] == k and st[sq] == EMPTY:
                squares += 1
                if not shooable(st, neigh, areas, sq, me):
                    safe += 1
        if safe:
            for sq in range(81):
                if ring[sq] == k and st[sq] == EMPTY and not shooable(st, neigh, areas, sq, me):
                    out[n] = code_of(SHOOED_OFF, traveller, -1, -1, sq)
                    n += 1
            return n
        if squares and fallback == 0:
            fallback = k
    if fallback:
        for sq in range(81):
            if ring[sq] == fallback and st[sq] == EMPTY:
                out[n] = code_of(SHOOED_OFF, traveller, -1, -1, sq)
                n += 1
    return n


@njit(cache=True)
def turn_moves(st, cfg, neigh, rays, areas, out, n):
    """The moves of the turn (rulings §4, §5) from ``out[n]`` on; the new count.

    Without their shoo declarations and with the moves hushed this turn (see :func:`expand`).
    """
    me = st[SIDE]
    start = n
    if cfg[C_TOWERS]:
        shooed = False
        for t in range(81):
            if st[t] != FOOT + me or not shooable(st, neigh, areas, t, me):
                continue
            shooed = True
            before = n
            for k in range(1, neigh[t, 0] + 1):
                to = neigh[t, k]
                if st[to] == EMPTY and not shooable(st, neigh, areas, to, me):
                    out[n] = code_of(STEP, t, -1, -1, to)
                    n += 1
            if cfg[C_MOUNT_ESCAPE]:
                n = mounts(st, cfg, neigh, rays, areas, out, n, me, t)
            n = captures(st, cfg, neigh, rays, areas, out, n, me, t)
            if n == before:
                n = drops(st, neigh, areas, out, n, me, t)
        if shooed:
            return n
    elif st[SHOO] >= 0:
        shooed = st[SHOO]
        for k in range(1, neigh[shooed, 0] + 1):
            to = neigh[shooed, k]
            if st[to] == EMPTY and not shooable(st, neigh, areas, to, me):
                move = code_of(STEP, shooed, -1, -1, to)
                out[n] = move
                n += 1
        if cfg[C_MOUNT_ESCAPE]:
            n = mounts(st, cfg, neigh, rays, areas, out, n, me, shooed)
        if n == start:
            out[n] = code_of(SHOOED_OFF, shooed, -1, -1, -1)
            n += 1
        return n
    n = steps(st, cfg, neigh, areas, out, n, me)
    n = mounts(st, cfg, neigh, rays, areas, out, n, me, -1)
    n = rides(st, cfg, neigh, rays, areas, out, n, me)
    n = dismounts(st, cfg, neigh, areas, out, n, me)
    n = captures(st, cfg, neigh, rays, areas, out, n, me, -1)
    if not cfg[C_TOWERS] and st[ST0 + me] > 0:
        skip = cfg[C_HUSH] == HUSH_AUTOMATIC
        first = 0 if me == 0 else 72
        for to in range(first, first + 9):
            if st[to] != EMPTY or (skip and shooable(st, neigh, areas, to, me)):
                continue
            out[n] = code_of(RETURN, -1, -1, -1, to)
            n += 1
    return horse_moves(st, cfg, neigh, rays, areas, out, n, me)


@njit(cache=True)
def barred(st, code):
    """Whether ``code`` (its base) was hushed this turn."""
    base = code & BASE_MASK
    i = 0
    while i < st[NBARRED] and st[BARRED + i] != base:
        i += 1
    return i < st[NBARRED]


@njit(cache=True)
def expand(st, cfg, neigh, areas, out, first, count, n):
    """Copy the moves ``out[first:first + count]`` to ``out[n:]``, each followed by its shoo declarations.

    A move that puts a traveller of the mover on ``to`` may declare a shoo on an enemy foot traveller
    outside its home area touched by two of the mover's travellers after the move, one of them new (it
    arrived on ``to`` and did not touch from the move's origin), or on the rider a capture placed (A11);
    targets by square. Moves hushed this turn are left out. Returns the new count.
    """
    me = st[SIDE]
    you_foot = FOOT + 1 - me
    declares = cfg[C_TOWERS] == 0
    check_barred = st[HUSH] == 0 and st[NBARRED] > 0
    their_home = A_HOME + 1 - me
    targets = np.empty(10, dtype=np.int64)
    for i in range(first, first + count):
        move = out[i]
        if check_barred:
            base = move & BASE_MASK
            j = 0
            while j < st[NBARRED] and st[BARRED + j] != base:
                j += 1
            if j < st[NBARRED]:
                continue
        if n + 10 > first:
            raise ValueError("more legal moves than the kernel's move buffer holds")
        out[n] = move
        n += 1
        kind = move & 15
        if not declares or kind > RETURN:
            continue
        origin = field(move, 4)
        to = field(move, 25)
        placed = field(move, 18) if kind == CAPTURE else -1
        pending = placed
        found = 0
        for k in range(1, neigh[to, 0] + 1):
            t = neigh[to, k]
            if pending >= 0 and pending < t:
                targets[found] = pending
                found += 1
                pending = -1
            if t == placed:
                targets[found] = t
                found += 1
                pending = -1
            elif st[t] == you_foot and not (origin >= 0 and adjacent(origin, t)):
                targets[found] = t
                found += 1
        if pending >= 0:
            targets[found] = pending
            found += 1
        for c in range(found):
            target = targets[c]
            if areas[their_home, target] != 0:
                continue
            touching = 0
            for k in range(1, neigh[target, 0] + 1):
                v = st[neigh[target, k]]
                if v == FOOT + me or v == RIDER + me:
                    touching += 1
            if origin != to:
                if origin >= 0 and adjacent(origin, target):
                    touching -= 1
                if adjacent(to, target):
                    touching += 1
            if touching >= 2:
                out[n] = move | (target + 1) << 32
                n += 1
    return n


@njit(cache=True)
def legal_moves(st, cfg, neigh, rays, areas, out):
    """Every legal move in the reference's order (HUSH first when open; PASS when nothing else); the count.

    The moves are generated in the upper half of ``out``, then copied to the front with their shoo
    declarations, so ``out`` needs twice as many entries as there can be moves (:data:`MAX_MOVES` in the
    loops, :data:`SEARCH_MOVES` in the search, which sees positions of real games).
    """
    if st[PHASE] == TOSS_PHASE:
        out[0] = code_of(TOSS, -1, -1, -1, 0)
        out[1] = code_of(TOSS, -1, -1, -1, 1)
        return 2
    if st[PHASE] == CHOICE_PHASE:
        out[0] = code_of(CHOOSE, -1, -1, -1, 0)
        out[1] = code_of(CHOOSE, -1, -1, -1, 1)
        return 2
    if st[END] != END_NONE:
        return 0
    n = 0
    if st[HUSH] != 0:
        out[0] = HUSH_KIND
        n = 1
    half = out.shape[0] // 2
    count = turn_moves(st, cfg, neigh, rays, areas, out, half) - half
    m = expand(st, cfg, neigh, areas, out, half, count, n)
    if m == n:
        out[n] = PASS_KIND
        m = n + 1
    return m


# --- Playing moves ---------------------------------------------------------------------------------


@njit(cache=True)
def key_row(st, row):
    """The repetition key of the position (see the module docstring) into ``row``."""
    for w in range(KEY_WORDS):
        row[w] = 0
    for sq in range(81):
        c = st[sq]
        if c == EMPTY:
            continue
        word = 0 if sq < 63 else 1
        bit = np.int64(1) << (sq if sq < 63 else sq - 63)
        if c in (FOOT, RIDER):
            row[word] |= bit
        elif c in (FOOT + 1, RIDER + 1):
            row[2 + word] |= bit
        if c in (RIDER, RIDER + 1):
            row[4 + word] |= bit
        if c == HORSE:
            row[6 + word] |= bit
    row[8] = (st[HELD] + 1) | (st[SHOO] + 1) << 8 | st[SIDE] << 16 | st[ST0] << 20 | st[ST1] << 24
    row[9] = st[SH0] | st[SH1] << 4 | st[PA0] << 8 | st[PA1] << 12


@njit(cache=True)
def record(st, hist, check):
    """Push the position on the history (a new epoch when stable horses or pastures changed).

    With ``check``, its third occurrence in the epoch ends the game by repetition.
    """
    nh = st[NHIST]
    base = st[HBASE]
    row = hist[nh]
    key_row(st, row)
    if nh > base and hist[nh - 1, 9] != row[9]:
        st[HBASE] = nh
    elif check:
        seen = 0
        for i in range(nh - 1, base - 1, -1):
            same = True
            for w in range(KEY_WORDS):
                if hist[i, w] != row[w]:
                    same = False
                    break
            if same:
                seen += 1
                if seen == 2:
                    st[END] = END_REPETITION
                    break
    st[NHIST] = nh + 1


@njit(cache=True)
def find_end(st, cfg, areas):
    """A win (the mover checked first), two passes, or the length cap."""
    for i in range(2):
        side = 1 - st[SIDE] if i == 0 else st[SIDE]
        full = True
        for sq in range(81):
            if areas[A_HOME + side, sq] != 0 and st[sq] != FOOT + side:
                full = False
                break
        if full:
            st[END] = END_WIN
            st[WINNER] = side
            return
    if st[PASSES] >= 2:
        st[END] = END_PASSES
    elif st[MOVES] >= cfg[C_MAX_TURNS]:
        st[END] = END_CAP


@njit(cache=True)
def opening_defaults(st):
    """The fields an opening move leaves at their defaults; the history starts afresh."""
    st[SHOO] = -1
    st[HUSH] = 0
    st[HELD_BEFORE] = -1
    st[PASSES_BEFORE] = 0
    st[NBARRED] = 0
    st[PASSES] = 0
    st[END] = END_NONE
    st[WINNER] = -1
    st[HBASE] = st[NHIST]


@njit(cache=True)
def play(st, code, cfg, neigh, areas, hist):
    """Play a legal move on ``st`` and ``hist`` (which needs room for one more row)."""
    kind = code & 15
    origin = field(code, 4)
    via = field(code, 11)
    place = field(code, 18)
    to = field(code, 25)
    shoo = field(code, 32)
    if kind == TOSS:
        st[PHASE] = CHOICE_PHASE
        st[CHOOSER] = to
        st[PLY] += 1
        opening_defaults(st)
        record(st, hist, False)
        return
    if kind == CHOOSE:
        st[SOUTH] = st[CHOOSER] if to == 0 else 1 - st[CHOOSER]
        st[CHOOSER] = 0
        st[PHASE] = PLAY
        if st[ODD_HORSE] == HORSE:
            st[ODD_HORSE] = EMPTY
        st[SH1] += 1
        st[PLY] += 1
        opening_defaults(st)
        find_end(st, cfg, areas)
        record(st, hist, False)
        return
    me = st[SIDE]
    you = 1 - me
    if kind == HUSH_KIND:
        hushed = st[HUSH]
        hk = hushed & 15
        ho = field(hushed, 4)
        ht = field(hushed, 25)
        if hk == STEP:
            st[ho] = FOOT + you
            st[ht] = EMPTY
        elif hk == DISMOUNT:
            st[ho] = RIDER + you
            st[ht] = EMPTY
        else:
            st[ht] = EMPTY
            st[ST0 + you] += 1
        st[NHIST] -= 1
        st[HUSH] = 0
        st[SHOO] = -1
        st[PLY] += 1
        if cfg[C_HUSH] == HUSH_OPTIONAL:
            st[HELD] = st[HELD_BEFORE]
            st[SIDE] = you
            if not barred(st, hushed):
                st[BARRED + st[NBARRED]] = hushed
                st[NBARRED] += 1
            st[MOVES] -= 1
            st[PASSES] = st[PASSES_BEFORE]
            st[HELD_BEFORE] = -1
            st[PASSES_BEFORE] = 0
            find_end(st, cfg, areas)
            if st[NHIST] == st[HBASE]:  # a history that began at the hushed move (a position read)
                record(st, hist, False)
            return
        if cfg[C_HUSH] == HUSH_SHOO_OFF and hk != RETURN:
            st[ho] = HORSE if hk == DISMOUNT else EMPTY
            st[ST0 + you] += 1
        st[HELD] = -1
        st[NBARRED] = 0
        st[PASSES] = 0
        st[HELD_BEFORE] = -1
        st[PASSES_BEFORE] = 0
        find_end(st, cfg, areas)
        record(st, hist, st[END] == END_NONE)
        return
    held_before = st[HELD]
    held = -1
    if st[HUSH] != 0:  # a HUSH declined: the barred moves were the opponent's
        st[NBARRED] = 0
    if kind == STEP:
        st[origin] = EMPTY
        st[to] = FOOT + me
    elif kind == MOUNT:
        st[origin] = EMPTY
        st[via] = EMPTY
        st[to] = RIDER + me
    elif kind == RIDE:
        st[origin] = EMPTY
        st[to] = RIDER + me
    elif kind == DISMOUNT:
        st[origin] = HORSE
        st[to] = FOOT + me
    elif kind == CAPTURE:
        st[place] = FOOT + you
        st[origin] = HORSE if st[origin] == RIDER + me else EMPTY
        st[via] = EMPTY
        st[to] = RIDER + me
    elif kind == RETURN:
        st[to] = FOOT + me
        st[ST0 + me] -= 1
    elif kind == CALL:
        st[to] = HORSE
        st[SH0 + me] -= 1
        if cfg[C_TOWERS] or not cfg[C_DROP_ANYWHERE] or mine_next_to(st, neigh, to, me):
            held = to
    elif kind == SLIDE:
        st[origin] = EMPTY
        st[to] = HORSE
        if not cfg[C_TOWERS] and mine_next_to(st, neigh, to, me):
            held = to
    elif kind == HOLD:
        held = to
    elif kind == RETIRE:
        st[to] = EMPTY
        st[PA0 + me] += 1
    elif kind == SHOOED_OFF:
        st[origin] = EMPTY
        if to >= 0:
            st[to] = FOOT + me
        else:
            st[ST0 + me] += 1
    hush_mode = cfg[C_HUSH]
    if (
        kind in (STEP, DISMOUNT, RETURN)
        and hush_mode in (HUSH_OPTIONAL, HUSH_LOSE_MOVE, HUSH_SHOO_OFF)
        and shooable(st, neigh, areas, to, me)
    ):
        st[HUSH] = code & BASE_MASK
        st[HELD_BEFORE] = held_before
        st[PASSES_BEFORE] = st[PASSES]
    else:
        st[HUSH] = 0
        st[HELD_BEFORE] = -1
        st[PASSES_BEFORE] = 0
        st[NBARRED] = 0
    st[HELD] = held
    st[SIDE] = you
    st[SHOO] = shoo
    st[MOVES] += 1
    st[PLY] += 1
    st[PASSES] = st[PASSES] + 1 if kind == PASS_KIND else 0
    find_end(st, cfg, areas)
    record(st, hist, st[END] == END_NONE)


@njit(cache=True)
def winner_seat(st):
    """The winning seat, or -1."""
    if st[WINNER] < 0:
        return -1
    return st[SOUTH] if st[WINNER] == 0 else 1 - st[SOUTH]


@njit(cache=True)
def evaluate(st, areas, weights):
    """The reference's race evaluation for Blue (seat 0); terminal and opening states: the returns.

    ``weights`` holds the reference's numbers (:data:`shogames.games.shoo.EVALUATION_WEIGHTS`, indices
    :data:`W_STABLED` ...), passed in rather than frozen here so that numba's cache never keeps old ones.
    """
    if st[END] != END_NONE or st[PHASE] != PLAY:
        seat = winner_seat(st)
        return 0.0 if seat < 0 else (1.0 if seat == 0 else -1.0)
    pending = st[SHOO]
    cost0 = 0.0
    cost1 = 0.0
    for side in range(2):
        total = weights[W_STABLED] * st[ST0 + side]
        blockers = 0
        home_foot = 0
        home_mine = 0
        home_riders = 0
        for sq in range(81):
            if areas[A_HOME + side, sq] == 0:
                continue
            c = st[sq]
            if is_traveller(c, 1 - side) and sq != pending:
                blockers += 1
            if c == FOOT + side:
                home_foot += 1
                home_mine += 1
            elif c == RIDER + side:
                home_mine += 1
                home_riders += 1
        if blockers:
            total += weights[W_BLOCKER] * blockers * home_foot
        for sq in range(81):
            if st[sq] == RIDER + side:
                d = areas[A_DIST + side, sq]
                if d:
                    total += weights[W_RIDER] + math.ceil(d / weights[W_RIDER_SLIDE])
                else:
                    total += weights[W_RIDER_AT_HOME]
        if home_mine == 9 and home_riders > 0:
            total += weights[W_STUCK]
        for sq in range(81):
            if st[sq] == FOOT + side:
                total += areas[A_DIST + side, sq]
        if side == 0:
            cost0 = total
        else:
            cost1 = total
    value = weights[W_CAP] * math.tanh((cost1 - cost0) / weights[W_SCALE])
    return value if st[SOUTH] == 0 else -value


# --- Whole loops -----------------------------------------------------------------------------------


@njit(cache=True)
def perft(st, hist, depth, bulk, cfg, neigh, rays, areas, moves, children, saved):
    """Leaves at exactly ``depth`` plies.

    ``hist`` is shared: a move writes only at or above the last row, which is put back after each move.
    """
    if depth == 0:
        return 1
    if st[END] != END_NONE:
        return 0
    level = depth - 1
    n = legal_moves(st, cfg, neigh, rays, areas, moves[level])
    if depth == 1 and bulk:
        return n
    total = 0
    child = children[level]
    last = st[NHIST] - 1
    keep = saved[level]
    keep[:] = hist[last]
    for i in range(n):
        child[:] = st
        play(child, moves[level, i], cfg, neigh, areas, hist)
        total += perft(child, hist, depth - 1, bulk, cfg, neigh, rays, areas, moves, children, saved)
        hist[last, :] = keep
    return total


@njit(cache=True)
def random_playouts(
    start, start_hist, games, seed, cfg, neigh, rays, areas, returns_out, plies, record_moves, record_from
):
    """Play ``games`` uniformly random games from ``start`` (the toss: each seat with probability 1/2).

    Game ``g`` uses its own SplitMix64 stream from ``seed`` and ``g``. The moves of game ``g`` go into
    row ``g - record_from`` of ``record_moves`` while there is one.
    """
    st = np.empty_like(start)
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    base_rows = start_hist.shape[0]
    hist = np.zeros((base_rows + 1024, KEY_WORDS), dtype=np.int64)
    for g in range(games):
        rng = common.game_stream(seed, g)
        st[:] = start
        hist[:base_rows] = start_hist
        played = 0
        while st[END] == END_NONE:
            rng, bits = splitmix(rng)
            if st[PHASE] == TOSS_PHASE:
                move = code_of(TOSS, -1, -1, -1, below(bits, 2))
            else:
                n = legal_moves(st, cfg, neigh, rays, areas, moves)
                move = moves[below(bits, n)]
            row = g - record_from
            if 0 <= row < record_moves.shape[0] and played < record_moves.shape[1]:
                record_moves[row, played] = move
            if st[NHIST] + 2 > hist.shape[0]:
                hist = common.grow_rows(hist, 2 * hist.shape[0])
            play(st, move, cfg, neigh, areas, hist)
            played += 1
        seat = winner_seat(st)
        value = 0.0 if seat < 0 else (1.0 if seat == 0 else -1.0)
        returns_out[g, 0] = value
        returns_out[g, 1] = -value if value != 0.0 else 0.0
        plies[g] = played
    return games


# --- Alpha-beta --------------------------------------------------------------------------------------

# ctx: the common alpha-beta counters (common.C_NODES ...), then the root's ply, the table's
# generation and the searching seat.
C_ROOT_PLY, C_GENERATION, C_ROOT_SEAT = range(4, 7)
CTX_SIZE = 7
EXACT, LOWER, UPPER = 0, 1, 2
MAX_PLY = 64
TT_WORDS = KEY_WORDS + 2


@njit(cache=True)
def seat_to_move(st):
    """The seat to move, -1 once the game is over, -2 at the toss."""
    if st[PHASE] == TOSS_PHASE:
        return -2
    if st[PHASE] == CHOICE_PHASE:
        return st[CHOOSER]
    if st[END] != END_NONE:
        return -1
    return st[SOUTH] if st[SIDE] == 0 else 1 - st[SOUTH]


@njit(cache=True)
def table_key(st, row):
    """The whole position (everything ``key()`` holds) as :data:`TT_WORDS` words.

    The repetition key, the hush context, passes and opening fields, and a hash of the moves barred
    this turn (the one part kept as a hash).
    """
    key_row(st, row)
    row[KEY_WORDS] = (
        st[HUSH]
        | (st[HELD_BEFORE] + 1) << 32
        | st[PASSES_BEFORE] << 39
        | st[PASSES] << 41
        | st[PHASE] << 43
        | st[CHOOSER] << 45
        | st[SOUTH] << 46
    )
    barred_hash = np.uint64(0)
    for i in range(st[NBARRED]):
        barred_hash += common.mix64(np.uint64(st[BARRED + i]) * np.uint64(0x9E3779B97F4A7C15))
    row[KEY_WORDS + 1] = np.int64(barred_hash >> np.uint64(1))


@njit(cache=True, inline="always")
def perspective(st, root_seat):
    """+1 where the searching seat moves (and at the end), -1 where the other seat does."""
    seat = seat_to_move(st)
    return -1.0 if seat >= 0 and seat != root_seat else 1.0


@njit(cache=True)
def negamax(
    st, hist, depth, alpha, beta, ply, ctx, deadline, cfg, neigh, rays, areas, weights, tt_keys, tt_info,
    tt_move, tt_value, history, moves, scores, children, saved, key,
):  # fmt: skip
    """The value of ``st`` from its :func:`perspective`, searched ``depth`` decisions with alpha-beta.

    The agents' values: the searching seat's return at the end (a win discounted by the plies it takes),
    the evaluation at the horizon. Negamax flips the sign only where the seat to move changes (a HUSH
    under ``hush=optional`` hands the move back to the hushed side; under the penalties the hushing side
    moves again).
    """
    if common.out_of_budget(ctx, deadline):
        return 0.0
    root_seat = ctx[C_ROOT_SEAT]
    if st[END] != END_NONE:
        seat = winner_seat(st)
        if seat < 0:
            return 0.0
        value = 1.0 - WIN_DISCOUNT * (st[PLY] - ctx[C_ROOT_PLY])
        return value if seat == root_seat else -value
    sign = perspective(st, root_seat)
    if depth <= 0 or ply >= MAX_PLY - 1:
        value = evaluate(st, areas, weights)
        return sign * (value if root_seat == 0 else -value)

    row = key[ply]
    table_key(st, row)
    mask = tt_keys.shape[0] - 1
    h = np.uint64(0)
    for w in range(TT_WORDS):
        h = common.mix64(h ^ np.uint64(row[w]) + np.uint64(w + 1) * np.uint64(0x9E3779B97F4A7C15))
    slot = np.int64(h & np.uint64(mask))
    same = True
    for w in range(TT_WORDS):
        if tt_keys[slot, w] != row[w]:
            same = False
            break
    best_hint = -1
    if same and tt_info[slot] != 0:
        info = tt_info[slot]
        best_hint = tt_move[slot]
        if (info >> 12) == ctx[C_GENERATION] and ((info >> 2) & 0x3FF) >= depth:
            bound = info & 3
            stored = tt_value[slot]
            if bound == EXACT:
                return stored
            if bound == LOWER:
                alpha = max(alpha, stored)
            else:
                beta = min(beta, stored)
            if alpha >= beta:
                return stored

    level = moves[ply]
    order = scores[ply]
    n = legal_moves(st, cfg, neigh, rays, areas, level)
    hmask = history.shape[0] - 1
    for i in range(n):
        move = level[i]
        if move == best_hint:
            order[i] = 1 << 40
        else:
            order[i] = history[np.int64(common.mix64(np.uint64(move)) & np.uint64(hmask))]
    child = children[ply]
    last = st[NHIST] - 1
    keep = saved[ply]
    keep[:] = hist[last]
    original_alpha = alpha
    best_value = -INF
    best_move = level[0]
    for i in range(n):
        move = common.pick_next(level, order, i, n)
        child[:] = st
        play(child, move, cfg, neigh, areas, hist)
        if perspective(child, root_seat) == sign:
            value = negamax(
                child, hist, depth - 1, alpha, beta, ply + 1, ctx, deadline, cfg, neigh, rays, areas, weights,
                tt_keys, tt_info, tt_move, tt_value, history, moves, scores, children, saved, key,
            )  # fmt: skip
        else:
            value = -negamax(
                child, hist, depth - 1, -beta, -alpha, ply + 1, ctx, deadline, cfg, neigh, rays, areas,
                weights, tt_keys, tt_info, tt_move, tt_value, history, moves, scores, children, saved, key,
            )  # fmt: skip
        hist[last, :] = keep
        if ctx[C_ABORT]:
            return 0.0
        if value > best_value:
            best_value = value
            best_move = move
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    history[np.int64(common.mix64(np.uint64(move)) & np.uint64(hmask))] += depth * depth
                    break
    if best_value <= original_alpha:
        bound = UPPER
    elif best_value >= beta:
        bound = LOWER
    else:
        bound = EXACT
    tt_keys[slot, :] = row
    tt_info[slot] = bound | min(depth, 1023) << 2 | ctx[C_GENERATION] << 12
    tt_move[slot] = best_move
    tt_value[slot] = best_value
    return best_value


@njit(cache=True)
def alphabeta(
    start, start_hist, root_moves, max_depth, node_limit, seconds, cfg, neigh, rays, areas, weights, tt_keys,
    tt_info, tt_move, tt_value, history, generation, root_scores, stats,
):  # fmt: skip
    """Iterative deepening negamax from ``start`` over ``root_moves`` (an order that breaks ties).

    Fills ``root_scores`` with each root move's value in the deepest completed iteration (in the order
    of ``root_moves`` as given) and ``stats`` with (nodes, depth completed); returns (best move index,
    its value). The first iteration always completes; later ones stop when ``node_limit`` nodes (0: no
    limit) or ``seconds`` (0: no limit) are spent, keeping the previous iteration's move unless a move
    searched since beat it. Stops early on a forced result (|value| > 0.99).
    """
    n = root_moves.shape[0]
    ctx = np.zeros(CTX_SIZE, dtype=np.int64)
    ctx[C_NODE_LIMIT] = node_limit
    ctx[C_ROOT_PLY] = start[PLY]
    ctx[C_GENERATION] = generation
    ctx[C_ROOT_SEAT] = seat_to_move(start)
    deadline = common.deadline_after(seconds)
    rows = start_hist.shape[0]
    hist = np.zeros((rows + MAX_PLY + 2, KEY_WORDS), dtype=np.int64)
    hist[:rows] = start_hist
    moves = np.empty((MAX_PLY, SEARCH_MOVES), dtype=np.int64)
    scores = np.empty((MAX_PLY, SEARCH_MOVES), dtype=np.int64)
    children = np.empty((MAX_PLY, SIZE), dtype=np.int64)
    saved = np.empty((MAX_PLY, KEY_WORDS), dtype=np.int64)
    key = np.empty((MAX_PLY, TT_WORDS), dtype=np.int64)
    child = np.empty(SIZE, dtype=np.int64)
    keep = np.empty(KEY_WORDS, dtype=np.int64)
    last = start[NHIST] - 1
    keep[:] = hist[last]
    order, iteration, done, best_index, completed = common.new_root(n)
    best_value = -INF
    first_ply = np.int64(0)
    for depth in range(1, max_depth + 1):
        iteration_best = common.begin_iteration(ctx, depth, done, order)
        alpha = -INF
        for r in range(n):
            index = order[r]
            child[:] = start
            play(child, root_moves[index], cfg, neigh, areas, hist)
            # ply is a variable, not a literal: a literal would compile a second overload of the
            # recursive negamax, which numba's cache cannot load back (numba issue #6713).
            if perspective(child, ctx[C_ROOT_SEAT]) == 1.0:
                value = negamax(
                    child, hist, depth - 1, alpha, INF, first_ply, ctx, deadline, cfg, neigh, rays, areas,
                    weights, tt_keys, tt_info, tt_move, tt_value, history, moves, scores, children, saved,
                    key,
                )  # fmt: skip
            else:
                value = -negamax(
                    child, hist, depth - 1, -INF, -alpha, first_ply, ctx, deadline, cfg, neigh, rays, areas,
                    weights, tt_keys, tt_info, tt_move, tt_value, history, moves, scores, children, saved,
                    key,
                )  # fmt: skip
            hist[last, :] = keep
            if ctx[C_ABORT]:
                break
            alpha, iteration_best = common.root_record(iteration, done, index, value, alpha, iteration_best)
        order, best_index, best_value, completed, stop = common.end_iteration(
            ctx[C_ABORT] != 0, order, done, iteration, root_scores, best_index, best_value, iteration_best,
            alpha, depth, completed,
        )  # fmt: skip
        if stop:
            break
    stats[0] = ctx[C_NODES]
    stats[1] = completed
    return best_index, best_value


# --- MCTS ---------------------------------------------------------------------------------------------


@njit(cache=True)
def mcts(
    start, start_hist, root_moves, simulations, seconds, c, seed, low, scale, path_length, cfg, neigh, rays,
    areas, weights, tree, visits_out, values_out, stats,
):  # fmt: skip
    """UCT on the shared tree, with the evaluation at the leaves, from a root that is not over.

    The search of the ``mcts:rollout=0`` agent, compiled: each node sums both seats' values and the
    seat to move selects by its own mean (scaled to 0..1 by ``low`` and ``scale``); a decision node
    tries its moves in a shuffled order, one new child per simulation. There is no chance node: the
    toss, Shoo's only chance, comes before any root a seat searches from. Stops after
    ``simulations`` (0: no limit) or ``seconds`` (0: no limit, the clock read every 256 simulations).

    ``start_hist`` is the root's history rows. A node's position is its state array, then the history
    row it ends with, so the history of the line to a node is put back (:func:`restore_history`)
    before a move is played there and the third-repetition draw is judged as in the game. Lines are
    at most ``path_length`` plies. Fills ``visits_out`` and ``values_out`` (the mover's mean) per move
    of ``root_moves`` and ``stats`` with (simulations, nodes). ``tree`` is the room for the tree
    (``common.new_tree``, positions of :data:`SIZE` + :data:`KEY_WORDS` int64); returns the index
    of the most visited root move (ties: the better mean) and the tree's arrays for the next search.
    """
    moves, value, path, counts, limits, rng = common.scratch(
        MAX_MOVES, 2, path_length, simulations, seconds, c, seed, low, scale
    )
    rows = start_hist.shape[0]
    hist = np.zeros((rows + path_length + 2, KEY_WORDS), dtype=np.int64)
    hist[:rows] = start_hist
    st = start.copy()
    pending = np.zeros(SIZE + KEY_WORDS, dtype=np.int64)
    while True:
        count, mode, mover = 0, common.TERMINAL, 0
        if st[END] == END_NONE:  # never the toss: it comes only before the root (a seat to move)
            count = legal_moves(st, cfg, neigh, rays, areas, moves)
            mode, mover = common.DECISION, seat_to_move(st)
        value[0] = evaluate(st, areas, weights)  # the returns where the game is over
        value[1] = -value[0]
        pending[:SIZE] = st
        if st[NHIST] > 0:
            pending[SIZE:] = hist[st[NHIST] - 1]
        tree, move, rng = common.step(
            tree, path, counts, limits, pending, moves, count, mode, mover, value, rng
        )
        if move < 0:
            break
        st[:] = pending[:SIZE]
        restore_history(tree[3], path, counts[common.DEPTH], hist)
        play(st, move, cfg, neigh, areas, hist)
    return common.finish(tree, counts, root_moves, seat_to_move(start), visits_out, values_out, stats)


@njit(cache=True)
def restore_history(positions, path, depth, hist):
    """Put the history of the line from the root to ``path[depth]`` back in ``hist``.

    Each node keeps the history row it ends with; a move pushes one row and a HUSH takes back at most
    the row of the move it hushes, so writing each node's row, root first, gives the line's history
    (rows the line never reached keep the root's).
    """
    for i in range(depth + 1):
        row = positions[path[i]]
        nh = row[NHIST]
        if nh > 0:
            hist[nh - 1] = row[SIZE:]
