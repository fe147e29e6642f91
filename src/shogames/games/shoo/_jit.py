# mypy: ignore-errors
# (numba compiles this module: its scalars are numpy's int64/float64, which mypy's int does not model.)
"""The compiled half of the Shoo kernel: numba functions over bitboards held in one int64 array per state.

Bitboards
---------
A set of squares is two int64 words: ``lo`` holds squares 0-62 (ranks 1-7, bit ``square``) and ``hi``
squares 63-80 (ranks 8-9, bit ``square - 63``), so no word ever has its sign bit set. Square ``file + 9 *
rank`` is the reference's numbering. The tables (neighbours, queen rays, home areas, first rows, the
distances home, the Zobrist keys) are numpy arrays built when this module loads, which numba compiles in
as constants.

State array (int64, :data:`SIZE` long)::

    TRAV + 2 * side, + 1   the side's travellers (lo, hi), on foot or mounted
    MOUNTED, MOUNTED + 1   the mounted travellers of either side      HORSES, HORSES + 1   the free horses
    SIDE  side to move (0 South, 1 North)   PHASE  0 play, 1 toss, 2 choice   CHOOSER  the toss winner
    SOUTH  the seat playing South   HELD  the held horse's square (-1)   SHOO  the pending shoo (-1)
    SH0, SH1  stable horses   ST0, ST1  stabled travellers   PA0, PA1  pastures
    MOVES  standing moves   PLY  plies   PASSES  passes in a row
    END  0 going on, 1 win, 2 two passes, 3 length cap, 4 repetition   WINNER  the winning side (-1)
    HUSH  the code of the move that may be hushed (0: none)   HELD_BEFORE, PASSES_BEFORE  what a HUSH
    puts back   NHIST, HBASE  columns of the history table, and the first column of the current epoch
    HASH  the Zobrist hash of the repetition key (kept up to date by :func:`play`)
    NBARRED, BARRED ..  the moves hushed this turn (the hush context's while HUSH is open)

History
-------
The standing positions since the stable horses or pastures last changed (no earlier position can come
back), which the third-repetition draw compares. A history *row* (what :meth:`ShooKernel.encode` appends
to the state array) is :data:`KEY_WORDS` int64: the eight board words as in the state, then the held
horse, the shoo, the side and the stabled travellers packed in one word, then the stable horses and
pastures (the epoch). In the compiled loops the history is a table ``hist`` of :data:`HIST_WORDS` rows by
one column per position (a stack: a move pushes a column, a HUSH pops one), the row words then the
position's Zobrist hash in row :data:`HASH_ROW`, so that a position's hash is compared with the whole
epoch's in one vectorised pass; the whole key is compared only where a hash matches, so a hash collision
never changes a result.

Moves
-----
Move code (int64): ``kind | (origin + 1) << 4 | (via + 1) << 11 | (place + 1) << 18 | (to + 1) << 25 |
(shoo + 1) << 32`` with the fields and kinds of :class:`~shogames.games.shoo.ShooMove`; the low 32 bits
are the move without its shoo declaration (what a HUSH bars).

The moves of a position are found in *units* (:func:`build_units`), in the reference's order: the steps
of one traveller, one mount of one horse with its rides, the rides of one rider, one capture placement
with its rides, the returns, the call-ups, the slides of one horse, the holds, the retires. A unit holds
its target squares as a bitboard (its queen rays' squares found with one bit scan per ray) and its
move count, shoo declarations included, from popcounts: a declaration's target is an enemy foot traveller
outside its home area next to the square reached, not next to the square left, already touched by one
of the mover's travellers (or the rider a capture placed, counted apart). Counting a position's moves
then writes no move; a random playout counts, draws one number and writes out only the chosen unit's
moves (:func:`generate`).

``cfg`` holds the settings (:data:`C_TOWERS` ...) and ``weights`` the evaluation's numbers
(:data:`W_STABLED` ...), both arrays made by :mod:`shogames.games.shoo.kernel`.
"""

from __future__ import annotations

import math

import numpy as np
from llvmlite import ir
from numba import njit, prange, types
from numba.extending import intrinsic

from shogames.kernels import common
from shogames.kernels.common import (
    C_ABORT,
    C_NODE_LIMIT,
    C_NODES,
    INF,
    WIN_DISCOUNT,
    below,
    lowest_bit,
    popcount,
    splitmix,
)

# Explicit signatures for the helpers called with constant arguments: without one, numba compiles a new
# version of the function for each combination of constants it is called with.
I64 = types.int64
BOOL = types.boolean
ROW = types.int64[::1]  # a 1-D int64 array (a state, a move list)
TABLE = types.int64[:, ::1]  # a 2-D int64 array (units, the history's columns)
PAIR = types.UniTuple(types.int64, 2)
NO_BITS = np.uint64(0)

# --- Layouts --------------------------------------------------------------------------------------------

TRAV, MOUNTED, HORSES = 0, 4, 6  # board words: TRAV + 2 * side (lo), + 1 (hi); MOUNTED, HORSES likewise
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
    HASH,
    NBARRED,
) = range(8, 32)
BARRED = 32
MAX_BARRED = 96
SIZE = BARRED + MAX_BARRED
KEY_WORDS = 10
HASH_ROW = KEY_WORDS
HIST_WORDS = KEY_WORDS + 1

PLAY, TOSS_PHASE, CHOICE_PHASE = 0, 1, 2
END_NONE, END_WIN, END_PASSES, END_CAP, END_REPETITION = 0, 1, 2, 3, 4

STEP, MOUNT, RIDE, DISMOUNT, CAPTURE, RETURN, CALL, SLIDE, HOLD, RETIRE = range(10)
SHOOED_OFF, HUSH_KIND, PASS_KIND, TOSS, CHOOSE = range(10, 15)
BASE_MASK = (1 << 32) - 1

C_TOWERS, C_HUSH, C_DROP_ANYWHERE, C_CAPTURE_HOME, C_MOUNT_ESCAPE, C_SAFETY, C_MAX_TURNS = range(7)
CFG_SIZE = 7
HUSH_OPTIONAL, HUSH_AUTOMATIC, HUSH_LOSE_MOVE, HUSH_SHOO_OFF, HUSH_OFF = range(5)
CAPTURE_PLACE_INSIDE, CAPTURE_ANYWHERE, CAPTURE_IMMUNE = range(3)

# The evaluation's weights array: the fields of shogames.games.shoo.ShooEvaluationWeights, in order.
W_STABLED, W_BLOCKER, W_RIDER, W_RIDER_SLIDE, W_RIDER_AT_HOME, W_STUCK, W_CAP, W_SCALE = range(8)

MAX_MOVES = 1 << 15
"""Room for a position's moves (random play averages about 113 a position, 641 the most in 40 games)."""
MAX_UNITS = 1024
"""Room for a position's units (a unit per traveller, horse, mount or capture placement)."""
ODD_HORSE = 4 + 9 * 4
GEN, COUNT, PICK = 0, 1, 2

# A unit (a row of the ``units`` scratch array).
U_BASE, U_START, U_INCLUDE, U_MLO, U_MHI, U_XLO, U_XHI, U_PLACE, U_PMODE, U_COUNT = range(10)
UNIT_WORDS = 10

# --- Tables, built when the module loads ----------------------------------------------------------------

NONE = 81  # the index of "no square" in the tables below (all its entries empty)
LO_BITS = 63
DIRECTIONS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
"""Queen directions as (file, rank) steps, in the reference's order of slides."""


def _bit_words(squares):
    lo = hi = 0
    for square in squares:
        if square < LO_BITS:
            lo |= 1 << square
        else:
            hi |= 1 << (square - LO_BITS)
    return lo, hi


def _tables():
    neigh = np.zeros((2, NONE + 1), dtype=np.int64)
    bit = np.zeros((2, NONE + 1), dtype=np.int64)
    ray = np.zeros((2, NONE + 1, 8), dtype=np.int64)
    for square in range(NONE):
        file, rank = square % 9, square // 9
        steps = ((file + df, rank + dr) for df, dr in DIRECTIONS)
        neigh[:, square] = _bit_words([f + 9 * r for f, r in steps if 0 <= f < 9 and 0 <= r < 9])
        bit[:, square] = _bit_words([square])
        for d, (df, dr) in enumerate(DIRECTIONS):
            line = []
            f, r = file + df, rank + dr
            while 0 <= f < 9 and 0 <= r < 9:
                line.append(f + 9 * r)
                f, r = f + df, r + dr
            ray[:, square, d] = _bit_words(line)
    homes = [
        [f + 9 * r for f in range(0, 3) for r in range(6, 9)],
        [f + 9 * r for f in range(6, 9) for r in range(0, 3)],
    ]
    home = np.array([_bit_words(homes[0]), _bit_words(homes[1])], dtype=np.int64)
    first_row = np.array([_bit_words(range(0, 9)), _bit_words(range(72, 81))], dtype=np.int64)
    distance = np.zeros((2, NONE + 1), dtype=np.int64)
    for side in (0, 1):
        for square in range(NONE):
            distance[side, square] = min(
                max(abs(square % 9 - s % 9), abs(square // 9 - s // 9)) for s in homes[side]
            )
    # Per side, the squares at king-step distance 1 .. 8 from its start area (the other side's home):
    # where towers drops a shooed traveller that cannot escape.
    rings = np.zeros((2, 9, 2), dtype=np.int64)
    for side in (0, 1):
        for k in range(1, 9):
            rings[side, k] = _bit_words([s for s in range(NONE) if distance[1 - side, s] == k])
    return neigh, bit, ray, home, first_row, distance, rings


NEIGH, BIT, RAY, HOME, FIRST_ROW, DISTANCE, RINGS = _tables()
FIELD_LO, FIELD_HI = (1 << 63) - 1, (1 << 18) - 1
BOTH_HOMES_LO = int(HOME[0, 0] | HOME[1, 0])
BOTH_HOMES_HI = int(HOME[0, 1] | HOME[1, 1])
POSITIVE = np.array([d[0] + 9 * d[1] > 0 for d in DIRECTIONS], dtype=np.bool_)


def _zobrist(rows, columns, seed):
    state = seed
    keys = np.zeros((rows, columns), dtype=np.int64)
    for i in range(rows):
        for j in range(columns):
            state = (state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
            z = state
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
            keys[i, j] = (z ^ (z >> 31)) >> 1  # 63 bits: every key a positive int64
    return keys


# Zobrist keys of the repetition key: per piece kind (South on foot, North on foot, South mounted,
# North mounted, free horse) and square; the held horse and the shoo by square + 1 (0: none); the side;
# per side the counts of stabled travellers, stable horses and pastures.
Z_PIECE = _zobrist(5, NONE + 1, 1)
Z_HELD = _zobrist(1, NONE + 1, 2)[0]
Z_SHOO = _zobrist(1, NONE + 1, 3)[0]
Z_SIDE = int(_zobrist(1, 1, 4)[0, 0])
Z_COUNTS = _zobrist(6, 16, 5)  # rows: stabled travellers 0, 1; stable horses 0, 1; pastures 0, 1
for _array in (Z_HELD, Z_SHOO):
    _array[0] = 0
Z_COUNTS[:, 0] = 0


# --- Bit operations -------------------------------------------------------------------------------------


@intrinsic
def highest(typingctx, x):
    """The index of the highest set bit of a non-zero int64 (63 minus LLVM's ctlz)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        zeros = builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))
        return builder.sub(ir.Constant(ir.IntType(64), 63), zeros)

    return sig, codegen


@njit(BOOL(I64, I64, I64), cache=True)
def has(lo, hi, square):
    """Whether ``square`` is in the bitboard (``NONE``: never)."""
    return ((lo & BIT[0, square]) | (hi & BIT[1, square])) != 0


@intrinsic
def below_highest(typingctx, x):
    """The bits below and at the highest set bit of an int64 without its sign bit (0 for 0).

    ``(1 << (64 - ctlz(x))) - 1``, with LLVM's ctlz defined at 0 (64): no branch.
    """
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        zeros = builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))
        shifted = builder.shl(ir.Constant(i64, 1), builder.sub(ir.Constant(i64, 64), zeros))
        return builder.sub(shifted, ir.Constant(i64, 1))

    return sig, codegen


@njit(PAIR(I64, I64, I64), cache=True)
def reach(start, block_lo, block_hi):
    """The squares a queen slide from ``start`` reaches, stopping before each blocking square.

    Per ray, with no branch: towards higher squares, the ray's squares below its lowest blocker
    (``x & -x`` isolates it); towards lower squares, those above its highest. A ray's ``hi`` word holds
    its farther squares going up and its nearer ones going down, so a blocker in the nearer word masks the
    whole farther word.
    """
    lo = 0
    hi = 0
    for d in (0, 1, 2, 7):  # north, north-east, east, north-west: towards higher squares
        ray_lo = RAY[0, start, d]
        ray_hi = RAY[1, start, d]
        x_lo = ray_lo & block_lo
        x_hi = ray_hi & block_hi
        lo |= ray_lo & ((x_lo & -x_lo) - 1)
        hi |= ray_hi & ((x_hi & -x_hi) - 1) & -np.int64(x_lo == 0)
    for d in (3, 4, 5, 6):  # south-east, south, south-west, west: towards lower squares
        ray_lo = RAY[0, start, d]
        ray_hi = RAY[1, start, d]
        x_lo = ray_lo & block_lo
        x_hi = ray_hi & block_hi
        hi |= ray_hi & ~below_highest(x_hi)
        lo |= ray_lo & ~below_highest(x_lo) & -np.int64(x_hi == 0)
    return lo, hi


NOT_FILE_A_LO = FIELD_LO & ~sum(1 << (9 * rank) for rank in range(7))
NOT_FILE_I_LO = FIELD_LO & ~sum(1 << (9 * rank + 8) for rank in range(7))
NOT_FILE_A_HI = FIELD_HI & ~(1 | 1 << 9)
NOT_FILE_I_HI = FIELD_HI & ~(1 << 8 | 1 << 17)


@njit(PAIR(I64, I64), cache=True)
def spread(lo, hi):
    """The squares of a bitboard and those next to them (a king's step), by shifts.

    The two words split the field between ranks 7 and 8, so a step east or west stays in its word and
    a step north or south carries one rank across.
    """
    row_lo = lo | ((lo << 1) & NOT_FILE_A_LO) | ((lo >> 1) & NOT_FILE_I_LO)
    row_hi = hi | ((hi << 1) & NOT_FILE_A_HI) | ((hi >> 1) & NOT_FILE_I_HI)
    up_lo = (row_lo << 9) & FIELD_LO
    up_hi = ((row_hi << 9) | (row_lo >> 54)) & FIELD_HI
    down_lo = (row_lo >> 9) | ((row_hi & 511) << 54)
    return row_lo | up_lo | down_lo, row_hi | up_hi | (row_hi >> 9)


@njit(cache=True, inline="always")
def pop_square(lo, hi):
    """The lowest square of the set ``lo | hi`` (two words, see :data:`LO_BITS`), and the set without it."""
    if lo:
        return lowest_bit(lo), lo & (lo - 1), hi
    return LO_BITS + lowest_bit(hi), lo, hi & (hi - 1)


@njit(I64(I64, I64, I64, I64), cache=True)
def declarations(mask_lo, mask_hi, x_lo, x_hi):
    """The shoo declarations of moves to each square of ``mask``: the targets of ``x`` next to each."""
    total = 0
    while x_lo | x_hi:
        t, x_lo, x_hi = pop_square(x_lo, x_hi)
        total += popcount(NEIGH[0, t] & mask_lo) + popcount(NEIGH[1, t] & mask_hi)
    return total


@njit(I64(I64, I64, I64, I64, I64), cache=True)
def code_of(kind, origin, via, place, to):
    """A move's code without a shoo declaration."""
    return kind | (origin + 1) << 4 | (via + 1) << 11 | (place + 1) << 18 | (to + 1) << 25


@njit(I64(I64, I64), cache=True)
def field(code, shift):
    """A square field of a move code (-1 for none)."""
    return ((code >> shift) & 127) - 1


# --- Move generation --------------------------------------------------------------------------------------


@njit(PAIR(TABLE, I64, I64, I64, I64, I64, I64, I64, I64, I64, I64, I64, I64, I64), cache=True)
def add_unit(units, u, total, base, start, include, r_lo, r_hi, a_lo, a_hi, x_lo, x_hi, place, pmode):
    """Count a unit's moves (see the module docstring); write it as unit ``u`` if it has any.

    Returns the next unit's index and the moves so far.
    """
    m_lo = r_lo & a_lo
    m_hi = r_hi & a_hi
    count = popcount(m_lo) + popcount(m_hi)
    if count == 0:
        return u, total
    if x_lo | x_hi:
        count += declarations(m_lo, m_hi, x_lo, x_hi)
    if pmode == 2:
        count += popcount(m_lo) + popcount(m_hi)
    elif pmode == 1:
        count += popcount(m_lo & NEIGH[0, place]) + popcount(m_hi & NEIGH[1, place])
    units[u, U_BASE] = base  # no row view: a view would count a reference to the array
    units[u, U_START] = start
    units[u, U_INCLUDE] = include
    units[u, U_MLO] = m_lo
    units[u, U_MHI] = m_hi
    units[u, U_XLO] = x_lo
    units[u, U_XHI] = x_hi
    units[u, U_PLACE] = place
    units[u, U_PMODE] = pmode
    units[u, U_COUNT] = count
    return u + 1, total + count


@njit(cache=True)
def build_units(st, cfg, units):
    """The units of the side to move's turn, before barring (rulings §4, §5, §8): (units, moves).

    Also the answers to a pending shoo (or being shooed off) and, in towers, the escapes of shooed
    travellers (or their drops).
    """
    me = st[SIDE]
    you = 1 - me
    towers = cfg[C_TOWERS] != 0
    automatic = cfg[C_HUSH] == HUSH_AUTOMATIC
    safety = cfg[C_SAFETY] != 0
    mine_lo = st[TRAV + 2 * me]
    mine_hi = st[TRAV + 2 * me + 1]
    theirs_lo = st[TRAV + 2 * you]
    theirs_hi = st[TRAV + 2 * you + 1]
    mounted_lo = st[MOUNTED]
    mounted_hi = st[MOUNTED + 1]
    horses_lo = st[HORSES]
    horses_hi = st[HORSES + 1]
    held = st[HELD] if st[HELD] >= 0 else NONE
    occ_lo = mine_lo | theirs_lo | horses_lo
    occ_hi = mine_hi | theirs_hi | horses_hi
    empty_lo = FIELD_LO & ~occ_lo
    empty_hi = FIELD_HI & ~occ_hi
    usable_lo = horses_lo & ~BIT[0, held]
    usable_hi = horses_hi & ~BIT[1, held]
    home_lo = HOME[me, 0]
    home_hi = HOME[me, 1]
    no_horse_lo = BOTH_HOMES_LO if towers else 0
    no_horse_hi = BOTH_HOMES_HI if towers else 0
    foot_lo = mine_lo & ~mounted_lo
    foot_hi = mine_hi & ~mounted_hi
    # The squares next to the mover's travellers; declaration targets: enemy foot travellers outside
    # their home area touched by one of the mover's.
    near_lo, near_hi = spread(mine_lo, mine_hi)
    t1_lo = 0
    t1_hi = 0
    if not towers:
        t1_lo = theirs_lo & ~mounted_lo & ~HOME[you, 0] & near_lo
        t1_hi = theirs_hi & ~mounted_hi & ~HOME[you, 1] & near_hi
    # Squares outside the mover's home area touched by two enemy travellers, where a traveller on foot
    # could be shooed (needed by towers, hush=automatic and the answers to a shoo).
    shooed = st[SHOO]
    shooable_lo = shooable_hi = 0
    if towers or automatic or shooed >= 0:
        once_lo = once_hi = twice_lo = twice_hi = 0
        w_lo = theirs_lo
        w_hi = theirs_hi
        while w_lo | w_hi:
            t, w_lo, w_hi = pop_square(w_lo, w_hi)
            twice_lo |= once_lo & NEIGH[0, t]
            twice_hi |= once_hi & NEIGH[1, t]
            once_lo |= NEIGH[0, t]
            once_hi |= NEIGH[1, t]
        shooable_lo = twice_lo & ~home_lo
        shooable_hi = twice_hi & ~home_hi

    u = 0
    total = 0
    if towers:
        standing_lo = foot_lo & shooable_lo
        standing_hi = foot_hi & shooable_hi
        if standing_lo | standing_hi:
            w_lo = standing_lo
            w_hi = standing_hi
            while w_lo | w_hi:
                t, w_lo, w_hi = pop_square(w_lo, w_hi)
                before = total
                u, total = add_unit(
                    units, u, total, code_of(STEP, t, -1, -1, -1), -1, 0,
                    NEIGH[0, t] & empty_lo & ~shooable_lo, NEIGH[1, t] & empty_hi & ~shooable_hi,
                    FIELD_LO, FIELD_HI, 0, 0, NONE, 0,
                )  # fmt: skip
                if cfg[C_MOUNT_ESCAPE]:
                    u, total = mount_units(
                        units, u, total, t, towers, safety, home_lo, home_hi, occ_lo, occ_hi, usable_lo,
                        usable_hi, no_horse_lo, no_horse_hi, t1_lo, t1_hi,
                    )  # fmt: skip
                u, total = capture_units(
                    st, cfg, units, u, total, t, me, towers, safety, mine_lo, mine_hi, theirs_lo, theirs_hi,
                    mounted_lo, mounted_hi, occ_lo, occ_hi, empty_lo, empty_hi, no_horse_lo, no_horse_hi,
                    t1_lo, t1_hi,
                )  # fmt: skip
                if total == before:  # no escape: dropped next to its start area, ring by ring
                    fallback_lo = fallback_hi = 0
                    found = False
                    for k in range(1, 9):
                        ring_lo = RINGS[me, k, 0] & empty_lo
                        ring_hi = RINGS[me, k, 1] & empty_hi
                        if (ring_lo & ~shooable_lo) | (ring_hi & ~shooable_hi):
                            u, total = add_unit(
                                units, u, total,
                                code_of(SHOOED_OFF, t, -1, -1, -1), -1, 0, ring_lo & ~shooable_lo,
                                ring_hi & ~shooable_hi, FIELD_LO, FIELD_HI, 0, 0, NONE, 0,
                            )  # fmt: skip
                            found = True
                            break
                        if (ring_lo | ring_hi) and not (fallback_lo | fallback_hi):
                            fallback_lo = ring_lo
                            fallback_hi = ring_hi
                    if not found:
                        u, total = add_unit(
                            units, u, total,
                            code_of(SHOOED_OFF, t, -1, -1, -1), -1, 0, fallback_lo, fallback_hi,
                            FIELD_LO, FIELD_HI, 0, 0, NONE, 0,
                        )  # fmt: skip
            return u, total
    elif shooed >= 0:  # answers to the shoo: a step out of it, or a mount; else shooed off
        u, total = add_unit(
            units, u, total, code_of(STEP, shooed, -1, -1, -1), -1, 0,
            NEIGH[0, shooed] & empty_lo & ~shooable_lo, NEIGH[1, shooed] & empty_hi & ~shooable_hi,
            FIELD_LO, FIELD_HI, t1_lo & ~NEIGH[0, shooed], t1_hi & ~NEIGH[1, shooed], NONE, 0,
        )  # fmt: skip
        if cfg[C_MOUNT_ESCAPE]:
            u, total = mount_units(
                units, u, total, shooed, towers, safety, home_lo, home_hi, occ_lo, occ_hi, usable_lo,
                usable_hi, no_horse_lo, no_horse_hi, t1_lo, t1_hi,
            )  # fmt: skip
        if total == 0:
            units[u, U_BASE] = code_of(SHOOED_OFF, shooed, -1, -1, -1)
            units[u, U_START] = -2  # a single move
            units[u, U_COUNT] = 1
            total = 1
            u += 1
        return u, total

    # Steps of the travellers on foot.
    w_lo = foot_lo
    w_hi = foot_hi
    while w_lo | w_hi:
        o, w_lo, w_hi = pop_square(w_lo, w_hi)
        a_lo = FIELD_LO
        a_hi = FIELD_HI
        if safety and has(home_lo, home_hi, o):  # a traveller at home stays there (A18)
            a_lo = home_lo
            a_hi = home_hi
        m_lo = NEIGH[0, o] & empty_lo
        m_hi = NEIGH[1, o] & empty_hi
        if automatic:  # a hushable step is illegal
            m_lo &= ~shooable_lo
            m_hi &= ~shooable_hi
        u, total = add_unit(
            units, u, total, code_of(STEP, o, -1, -1, -1), -1, 0, m_lo, m_hi, a_lo, a_hi,
            t1_lo & ~NEIGH[0, o], t1_hi & ~NEIGH[1, o], NONE, 0,
        )  # fmt: skip
    # Mounts (and rides on) of the travellers on foot.
    w_lo = foot_lo
    w_hi = foot_hi
    while w_lo | w_hi:
        o, w_lo, w_hi = pop_square(w_lo, w_hi)
        if (NEIGH[0, o] & usable_lo) | (NEIGH[1, o] & usable_hi):
            u, total = mount_units(
                units, u, total, o, towers, safety, home_lo, home_hi, occ_lo, occ_hi, usable_lo, usable_hi,
                no_horse_lo, no_horse_hi, t1_lo, t1_hi,
            )  # fmt: skip
    # Rides, then dismounts, of the riders.
    riders_lo = mine_lo & mounted_lo
    riders_hi = mine_hi & mounted_hi
    for kind in (RIDE, DISMOUNT):
        w_lo = riders_lo
        w_hi = riders_hi
        while w_lo | w_hi:
            o, w_lo, w_hi = pop_square(w_lo, w_hi)
            a_lo = FIELD_LO
            a_hi = FIELD_HI
            if safety and has(home_lo, home_hi, o):
                a_lo = home_lo
                a_hi = home_hi
            x_lo = t1_lo & ~NEIGH[0, o]
            x_hi = t1_hi & ~NEIGH[1, o]
            if kind == RIDE:
                r_lo, r_hi = reach(o, occ_lo | no_horse_lo, occ_hi | no_horse_hi)
                u, total = add_unit(
                    units,
                    u,
                    total,
                    code_of(RIDE, o, -1, -1, -1),
                    o,
                    0,
                    r_lo,
                    r_hi,
                    a_lo,
                    a_hi,
                    x_lo,
                    x_hi,
                    NONE,
                    0,
                )
            else:
                m_lo = NEIGH[0, o] & empty_lo
                m_hi = NEIGH[1, o] & empty_hi
                if automatic or towers:  # towers: "a dismounted traveler cannot move into a shoo"
                    m_lo &= ~shooable_lo
                    m_hi &= ~shooable_hi
                u, total = add_unit(
                    units, u, total,
                    code_of(DISMOUNT, o, -1, -1, -1), -1, 0, m_lo, m_hi, a_lo, a_hi, x_lo, x_hi,
                    NONE, 0,
                )  # fmt: skip
    # Captures of enemy riders next to the mover's travellers.
    if (theirs_lo & mounted_lo) | (theirs_hi & mounted_hi):
        w_lo, w_hi = spread(theirs_lo & mounted_lo, theirs_hi & mounted_hi)
        w_lo &= mine_lo
        w_hi &= mine_hi
        while w_lo | w_hi:
            o, w_lo, w_hi = pop_square(w_lo, w_hi)
            u, total = capture_units(
                st, cfg, units, u, total, o, me, towers, safety, mine_lo, mine_hi, theirs_lo, theirs_hi,
                mounted_lo, mounted_hi, occ_lo, occ_hi, empty_lo, empty_hi, no_horse_lo, no_horse_hi, t1_lo,
                t1_hi,
            )  # fmt: skip
    # Returns from the stable onto the first row.
    if not towers and st[ST0 + me] > 0:
        m_lo = FIRST_ROW[me, 0] & empty_lo
        m_hi = FIRST_ROW[me, 1] & empty_hi
        if automatic:
            m_lo &= ~shooable_lo
            m_hi &= ~shooable_hi
        u, total = add_unit(
            units, u, total,
            code_of(RETURN, -1, -1, -1, -1), -1, 0, m_lo, m_hi, FIELD_LO, FIELD_HI, t1_lo, t1_hi,
            NONE, 0,
        )  # fmt: skip
    # Call-ups from the stable.
    if st[SH0 + me] > 0:
        if towers:
            m_lo = empty_lo & ~BOTH_HOMES_LO
            m_hi = empty_hi & ~BOTH_HOMES_HI
        elif cfg[C_DROP_ANYWHERE]:
            m_lo = empty_lo
            m_hi = empty_hi
        else:
            m_lo = near_lo & empty_lo
            m_hi = near_hi & empty_hi
        u, total = add_unit(
            units,
            u,
            total,
            code_of(CALL, -1, -1, -1, -1),
            -1,
            0,
            m_lo,
            m_hi,
            FIELD_LO,
            FIELD_HI,
            0,
            0,
            NONE,
            0,
        )
    # Slides of the free horses not held.
    w_lo = usable_lo
    w_hi = usable_hi
    while w_lo | w_hi:
        o, w_lo, w_hi = pop_square(w_lo, w_hi)
        r_lo, r_hi = reach(o, occ_lo | no_horse_lo, occ_hi | no_horse_hi)
        u, total = add_unit(
            units,
            u,
            total,
            code_of(SLIDE, o, -1, -1, -1),
            o,
            0,
            r_lo,
            r_hi,
            FIELD_LO,
            FIELD_HI,
            0,
            0,
            NONE,
            0,
        )
    # Holds (not in towers) and retires of the free horses next to the mover's travellers.
    for kind in (HOLD, RETIRE):
        if kind == HOLD and towers:
            continue
        u, total = add_unit(
            units, u, total, code_of(kind, -1, -1, -1, -1), -1, 0, usable_lo & near_lo, usable_hi & near_hi,
            FIELD_LO, FIELD_HI, 0, 0, NONE, 0,
        )  # fmt: skip
    return u, total


@njit(cache=True)
def mount_units(
    units, u, total, o, towers, safety, home_lo, home_hi, occ_lo, occ_hi, usable_lo, usable_hi, no_horse_lo,
    no_horse_hi, t1_lo, t1_hi,
):  # fmt: skip
    """The units of the foot traveller on ``o`` mounting each free horse next to it (and riding on).

    Designers only ride on; the square left counts as empty during the ride.
    """
    a_lo = FIELD_LO
    a_hi = FIELD_HI
    if safety and has(home_lo, home_hi, o):
        a_lo = home_lo
        a_hi = home_hi
    x_lo = t1_lo & ~NEIGH[0, o]
    x_hi = t1_hi & ~NEIGH[1, o]
    w_lo = NEIGH[0, o] & usable_lo
    w_hi = NEIGH[1, o] & usable_hi
    while w_lo | w_hi:
        horse, w_lo, w_hi = pop_square(w_lo, w_hi)
        base = code_of(MOUNT, o, horse, -1, -1)
        if towers:
            u, total = add_unit(
                units, u, total, base, -1, 0, BIT[0, horse], BIT[1, horse], a_lo, a_hi, 0, 0, NONE, 0
            )
        else:
            r_lo, r_hi = reach(
                horse, (occ_lo & ~BIT[0, o]) | no_horse_lo, (occ_hi & ~BIT[1, o]) | no_horse_hi
            )
            u, total = add_unit(
                units, u, total,
                base, horse, 1, r_lo | BIT[0, horse], r_hi | BIT[1, horse], a_lo, a_hi, x_lo, x_hi,
                NONE, 0,
            )  # fmt: skip
    return u, total


@njit(cache=True)
def capture_units(
    st, cfg, units, u, total, o, me, towers, safety, mine_lo, mine_hi, theirs_lo, theirs_hi, mounted_lo,
    mounted_hi, occ_lo, occ_hi, empty_lo, empty_hi, no_horse_lo, no_horse_hi, t1_lo, t1_hi,
):  # fmt: skip
    """The units of the traveller on ``o`` capturing each enemy rider next to it: one per placement.

    Each placement's moves are the capture without a ride, then the rides on; a foot capturer's own
    square counts as empty during the ride. The placed rider may be shooed at once (A11): counted apart
    (``U_PMODE``: 2 whatever the ride, 1 only where the capturer ends next to it).
    """
    you = 1 - me
    victims_lo = NEIGH[0, o] & theirs_lo & mounted_lo
    victims_hi = NEIGH[1, o] & theirs_hi & mounted_hi
    if not (victims_lo | victims_hi):
        return u, total
    was_mounted = has(mounted_lo, mounted_hi, o)
    a_lo = FIELD_LO
    a_hi = FIELD_HI
    if safety and has(HOME[me, 0], HOME[me, 1], o):
        a_lo = HOME[me, 0]
        a_hi = HOME[me, 1]
    x_lo = t1_lo & ~NEIGH[0, o]
    x_hi = t1_hi & ~NEIGH[1, o]
    while victims_lo | victims_hi:
        via, victims_lo, victims_hi = pop_square(victims_lo, victims_hi)
        places_lo = NEIGH[0, via] & empty_lo
        places_hi = NEIGH[1, via] & empty_hi
        if has(HOME[you, 0], HOME[you, 1], via):
            if cfg[C_CAPTURE_HOME] == CAPTURE_IMMUNE:
                continue
            if cfg[C_CAPTURE_HOME] == CAPTURE_PLACE_INSIDE:
                places_lo &= HOME[you, 0]
                places_hi &= HOME[you, 1]
        while places_lo | places_hi:
            place, places_lo, places_hi = pop_square(places_lo, places_hi)
            block_lo = (occ_lo | BIT[0, place]) & ~BIT[0, via]
            block_hi = (occ_hi | BIT[1, place]) & ~BIT[1, via]
            if not was_mounted:
                block_lo &= ~BIT[0, o]
                block_hi &= ~BIT[1, o]
            r_lo, r_hi = reach(via, block_lo | no_horse_lo, block_hi | no_horse_hi)
            pmode = 0
            if not towers and not has(HOME[you, 0], HOME[you, 1], place):
                touching = popcount(NEIGH[0, place] & mine_lo) + popcount(NEIGH[1, place] & mine_hi)
                if has(NEIGH[0, place], NEIGH[1, place], o):
                    touching -= 1  # the capturer leaves its square
                pmode = 2 if touching >= 2 else (1 if touching == 1 else 0)
            u, total = add_unit(
                units, u, total,
                code_of(CAPTURE, o, via, place, -1), via, 1, r_lo | BIT[0, via], r_hi | BIT[1, via],
                a_lo, a_hi, x_lo, x_hi, place, pmode,
            )  # fmt: skip
    return u, total


@njit(cache=True, inline="always")
def emit_to(out, n, move, to, x_lo, x_hi, place, pmode):
    """Write the move to ``to``, then the same move with each shoo it may declare (by target square)."""
    move = move | (to + 1) << 25
    out[n] = move
    n += 1
    d_lo = NEIGH[0, to] & x_lo
    d_hi = NEIGH[1, to] & x_hi
    if pmode == 2 or (pmode == 1 and has(NEIGH[0, to], NEIGH[1, to], place)):
        d_lo |= BIT[0, place]
        d_hi |= BIT[1, place]
    while d_lo | d_hi:
        t, d_lo, d_hi = pop_square(d_lo, d_hi)
        out[n] = move | (t + 1) << 32
        n += 1
    return n


@njit(I64(TABLE, I64, ROW, I64), cache=True)
def emit_unit(units, u, out, n):
    """Write unit ``u``'s moves at ``out[n:]`` in the reference's order; the new count.

    A slide's squares are taken ray by ray (its target squares on one ray, nearest first: the lowest
    first going up, the highest going down).
    """
    base = units[u, U_BASE]
    start = units[u, U_START]
    m_lo = units[u, U_MLO]
    m_hi = units[u, U_MHI]
    x_lo = units[u, U_XLO]
    x_hi = units[u, U_XHI]
    place = units[u, U_PLACE]
    pmode = units[u, U_PMODE]
    if start == -2:  # a single move
        out[n] = base
        return n + 1
    if start < 0:  # squares in order
        while m_lo | m_hi:
            to, m_lo, m_hi = pop_square(m_lo, m_hi)
            n = emit_to(out, n, base, to, x_lo, x_hi, place, pmode)
        return n
    # A slide: the start square first where the move may stay there, then each ray.
    if units[u, U_INCLUDE] and has(m_lo, m_hi, start):
        n = emit_to(out, n, base, start, x_lo, x_hi, place, pmode)
    for d in range(8):
        seg_lo = m_lo & RAY[0, start, d]
        seg_hi = m_hi & RAY[1, start, d]
        if POSITIVE[d]:
            while seg_lo | seg_hi:
                to, seg_lo, seg_hi = pop_square(seg_lo, seg_hi)
                n = emit_to(out, n, base, to, x_lo, x_hi, place, pmode)
        else:
            while seg_lo | seg_hi:
                if seg_hi:
                    to = LO_BITS + highest(seg_hi)
                    seg_hi &= ~(1 << (to - LO_BITS))
                else:
                    to = highest(seg_lo)
                    seg_lo &= ~(1 << to)
                n = emit_to(out, n, base, to, x_lo, x_hi, place, pmode)
    return n


@njit(I64(I64, I64, I64, BOOL), cache=True)
def nth_square(lo, hi, k, descending):
    """Square number ``k`` (from 0) of a bitboard, lowest first or highest first."""
    if descending:
        c = popcount(hi)
        if k < c:
            for _ in range(k):
                hi &= ~(1 << highest(hi))
            return LO_BITS + highest(hi)
        k -= c
        for _ in range(k):
            lo &= ~(1 << highest(lo))
        return highest(lo)
    c = popcount(lo)
    if k < c:
        for _ in range(k):
            lo &= lo - 1
        return lowest_bit(lo)
    k -= c
    for _ in range(k):
        hi &= hi - 1
    return LO_BITS + lowest_bit(hi)


@njit(PAIR(I64, I64, I64, I64, I64), cache=True)
def targets_of(to, x_lo, x_hi, place, pmode):
    """The squares a move to ``to`` may declare a shoo on (see :func:`emit_to`)."""
    d_lo = NEIGH[0, to] & x_lo
    d_hi = NEIGH[1, to] & x_hi
    if pmode == 2 or (pmode == 1 and has(NEIGH[0, to], NEIGH[1, to], place)):
        d_lo |= BIT[0, place]
        d_hi |= BIT[1, place]
    return d_lo, d_hi


@njit(I64(I64, I64, I64, I64, BOOL, I64, I64, I64, I64), cache=True)
def move_in_segment(base, seg_lo, seg_hi, k, descending, x_lo, x_hi, place, pmode):
    """Move number ``k`` of the moves to the squares of ``seg`` in order, each with its declarations."""
    while True:
        if descending:
            to = LO_BITS + highest(seg_hi) if seg_hi else highest(seg_lo)
        else:
            to = lowest_bit(seg_lo) if seg_lo else LO_BITS + lowest_bit(seg_hi)
        seg_lo &= ~BIT[0, to]
        seg_hi &= ~BIT[1, to]
        d_lo, d_hi = targets_of(to, x_lo, x_hi, place, pmode)
        size = 1 + popcount(d_lo) + popcount(d_hi)
        if k < size:
            move = base | (to + 1) << 25
            if k == 0:
                return move
            return move | (nth_square(d_lo, d_hi, k - 1, False) + 1) << 32
        k -= size


@njit(I64(TABLE, I64, I64), cache=True)
def unit_move(units, u, k):
    """Move number ``k`` of unit ``u``, found from popcounts with no move written (as :func:`emit_unit`)."""
    base = units[u, U_BASE]
    start = units[u, U_START]
    if start == -2:
        return base
    m_lo = units[u, U_MLO]
    m_hi = units[u, U_MHI]
    x_lo = units[u, U_XLO]
    x_hi = units[u, U_XHI]
    place = units[u, U_PLACE]
    pmode = units[u, U_PMODE]
    plain = (x_lo | x_hi) == 0 and pmode == 0
    if start < 0:
        if plain:
            return base | (nth_square(m_lo, m_hi, k, False) + 1) << 25
        return move_in_segment(base, m_lo, m_hi, k, False, x_lo, x_hi, place, pmode)
    if units[u, U_INCLUDE] and has(m_lo, m_hi, start):
        first_lo = BIT[0, start]
        first_hi = BIT[1, start]
        size = 1
        if not plain:
            d_lo, d_hi = targets_of(start, x_lo, x_hi, place, pmode)
            size += popcount(d_lo) + popcount(d_hi)
        if k < size:
            return move_in_segment(base, first_lo, first_hi, k, False, x_lo, x_hi, place, pmode)
        k -= size
    for d in range(8):
        seg_lo = m_lo & RAY[0, start, d]
        seg_hi = m_hi & RAY[1, start, d]
        size = popcount(seg_lo) + popcount(seg_hi)
        if size == 0:
            continue
        if not plain:
            size += declarations(seg_lo, seg_hi, x_lo, x_hi)
            if pmode == 2:
                size += popcount(seg_lo) + popcount(seg_hi)
            elif pmode == 1:
                size += popcount(seg_lo & NEIGH[0, place]) + popcount(seg_hi & NEIGH[1, place])
        if k < size:
            if plain:
                return base | (nth_square(seg_lo, seg_hi, k, not POSITIVE[d]) + 1) << 25
            return move_in_segment(base, seg_lo, seg_hi, k, not POSITIVE[d], x_lo, x_hi, place, pmode)
        k -= size
    return PASS_KIND  # not reached: k is below the unit's count


@njit(cache=True)
def is_barred(st, code):
    """Whether ``code`` (its base) was hushed this turn."""
    base = code & BASE_MASK
    for i in range(st[NBARRED]):  # noqa: SIM110 (numba compiles no generator)
        if st[BARRED + i] == base:
            return True
    return False


@njit(I64(ROW, ROW, ROW, TABLE, I64, types.uint64), cache=True)
def generate(st, cfg, out, units, mode, bits):
    """The legal moves in the reference's order (HUSH first when open; PASS when nothing else).

    ``mode`` :data:`GEN` writes them to ``out`` and returns their count; :data:`COUNT` returns the count
    and writes nothing; :data:`PICK` returns the move number ``below(bits, count)``, writing only the
    moves of its unit (``out`` is scratch). ``units`` is scratch for :func:`build_units`.
    """
    if st[PHASE] != PLAY or st[END] != END_NONE:
        n = 0
        if st[PHASE] == TOSS_PHASE:
            out[0] = code_of(TOSS, -1, -1, -1, 0)
            out[1] = code_of(TOSS, -1, -1, -1, 1)
            n = 2
        elif st[PHASE] == CHOICE_PHASE:
            out[0] = code_of(CHOOSE, -1, -1, -1, 0)
            out[1] = code_of(CHOOSE, -1, -1, -1, 1)
            n = 2
        if mode == PICK:
            return out[below(bits, n)]
        return n
    nu, total = build_units(st, cfg, units)
    hush = st[HUSH] != 0
    if not hush and st[NBARRED] > 0:  # moves hushed this turn: write them all, then leave those out
        if total + 1 > out.shape[0]:
            raise ValueError("more legal moves than the kernel's move buffer holds")
        n = 0
        for u in range(nu):
            n = emit_unit(units, u, out, n)
        kept = 0
        for i in range(n):
            if not is_barred(st, out[i]):
                out[kept] = out[i]
                kept += 1
        if kept == 0:
            out[0] = PASS_KIND
            kept = 1
        if mode == PICK:
            return out[below(bits, kept)]
        return kept
    count = (1 if hush else 0) + (total if total else 1)
    if mode == COUNT:
        return count
    if mode == GEN:
        if count + 1 > out.shape[0]:
            raise ValueError("more legal moves than the kernel's move buffer holds")
        n = 0
        if hush:
            out[0] = HUSH_KIND
            n = 1
        for u in range(nu):
            n = emit_unit(units, u, out, n)
        if total == 0:
            out[n] = PASS_KIND
            n += 1
        return n
    k = below(bits, count)
    if hush:
        if k == 0:
            return HUSH_KIND
        k -= 1
    if total == 0:
        return PASS_KIND
    for u in range(nu):
        size = units[u, U_COUNT]
        if k < size:
            return unit_move(units, u, k)
        k -= size
    return PASS_KIND  # not reached


# --- Playing moves ---------------------------------------------------------------------------------


@njit(I64(I64, I64, I64, I64, I64, I64, I64, I64, I64), cache=True)
def scalar_hash(held, shoo, side, st0, st1, sh0, sh1, pa0, pa1):
    """The Zobrist hash of the repetition key's fields other than the board."""
    h = Z_HELD[held + 1] ^ Z_SHOO[shoo + 1] ^ Z_COUNTS[0, st0] ^ Z_COUNTS[1, st1]
    h ^= Z_COUNTS[2, sh0] ^ Z_COUNTS[3, sh1] ^ Z_COUNTS[4, pa0] ^ Z_COUNTS[5, pa1]
    return h ^ Z_SIDE if side else h


@njit(I64(I64, I64, I64, I64, I64), cache=True)
def board_hash_change(before_lo, before_hi, after_lo, after_hi, piece):
    """The change of the Zobrist hash when the squares of ``piece`` go from ``before`` to ``after``."""
    h = 0
    d_lo = before_lo ^ after_lo
    d_hi = before_hi ^ after_hi
    while d_lo | d_hi:
        t, d_lo, d_hi = pop_square(d_lo, d_hi)
        h ^= Z_PIECE[piece, t]
    return h


@njit(I64(I64, I64, I64, I64, I64, I64, I64, I64, ROW), cache=True)
def board_change(o0, o1, o2, o3, o4, o5, o6, o7, st):
    """The change of the Zobrist hash from the board words ``o0`` .. ``o7`` to the state's."""
    h = board_hash_change(o0 & ~o4, o1 & ~o5, st[0] & ~st[4], st[1] & ~st[5], 0)
    h ^= board_hash_change(o2 & ~o4, o3 & ~o5, st[2] & ~st[4], st[3] & ~st[5], 1)
    h ^= board_hash_change(o0 & o4, o1 & o5, st[0] & st[4], st[1] & st[5], 2)
    h ^= board_hash_change(o2 & o4, o3 & o5, st[2] & st[4], st[3] & st[5], 3)
    return h ^ board_hash_change(o6, o7, st[6], st[7], 4)


@njit(cache=True)
def state_hash(st):
    """The Zobrist hash of the position's repetition key, from scratch."""
    return board_change(0, 0, 0, 0, 0, 0, 0, 0, st) ^ scalar_hash(
        st[HELD], st[SHOO], st[SIDE], st[ST0], st[ST1], st[SH0], st[SH1], st[PA0], st[PA1]
    )


@njit(cache=True)
def rehash(st):
    """Set the state's :data:`HASH` from scratch."""
    st[HASH] = state_hash(st)


@njit(cache=True)
def key_column(st, hist, column):
    """Write the position's history row and hash into column ``column`` of ``hist``."""
    for w in range(8):
        hist[w, column] = st[w]
    hist[8, column] = (st[HELD] + 1) | (st[SHOO] + 1) << 8 | st[SIDE] << 16 | st[ST0] << 20 | st[ST1] << 24
    hist[9, column] = st[SH0] | st[SH1] << 4 | st[PA0] << 8 | st[PA1] << 12
    hist[HASH_ROW, column] = st[HASH]


@njit(cache=True)
def load_history(rows, hist):
    """Put public history rows (one per position, :data:`KEY_WORDS` words) into ``hist``'s columns.

    Each column's hash is computed from its row (the hash of the position the row is the key of).
    """
    st = np.zeros(SIZE, dtype=np.int64)
    for i in range(rows.shape[0]):
        for w in range(8):
            st[w] = rows[i, w]
        packed = rows[i, 8]
        epoch = rows[i, 9]
        st[HELD] = (packed & 255) - 1
        st[SHOO] = ((packed >> 8) & 255) - 1
        st[SIDE] = (packed >> 16) & 15
        st[ST0] = (packed >> 20) & 15
        st[ST1] = (packed >> 24) & 15
        st[SH0] = epoch & 15
        st[SH1] = (epoch >> 4) & 15
        st[PA0] = (epoch >> 8) & 15
        st[PA1] = (epoch >> 12) & 15
        for w in range(KEY_WORDS):
            hist[w, i] = rows[i, w]
        hist[HASH_ROW, i] = state_hash(st)


@njit(cache=True)
def copies_before(hist, first, column):
    """How many of the history's columns ``first`` .. ``column - 1`` hold column ``column``'s position.

    Their hashes are compared first, and the whole keys only where the hashes match, so a hash collision
    never counts.
    """
    seen = 0
    for i in range(first, column):
        if hist[HASH_ROW, i] != hist[HASH_ROW, column]:
            continue
        same = True
        for w in range(KEY_WORDS):
            if hist[w, i] != hist[w, column]:
                same = False
                break
        if same:
            seen += 1
    return seen


@njit(cache=True)
def record(st, hist, check):
    """Push the position on the history (a new epoch when stable horses or pastures changed).

    With ``check``, its third occurrence in the epoch ends the game by repetition: the hashes of the
    epoch are compared in one pass, and only where two match are the whole keys compared.
    """
    nh = st[NHIST]
    base = st[HBASE]
    key_column(st, hist, nh)
    if nh > base and hist[9, nh - 1] != hist[9, nh]:
        st[HBASE] = nh
    elif check:
        h = st[HASH]
        hashes = hist[HASH_ROW, base:nh]
        matches = 0
        for i in range(hashes.shape[0]):  # counted with no branch, from 0: LLVM vectorises this
            matches += np.int64(hashes[i] == h)
        if matches >= 2 and copies_before(hist, base, nh) >= 2:
            st[END] = END_REPETITION
    st[NHIST] = nh + 1


@njit(cache=True)
def find_end(st, cfg):
    """A win (the mover checked first), two passes, or the length cap."""
    for i in range(2):
        side = 1 - st[SIDE] if i == 0 else st[SIDE]
        w = TRAV + 2 * side
        if (st[w] & ~st[MOUNTED] & HOME[side, 0]) == HOME[side, 0] and (
            st[w + 1] & ~st[MOUNTED + 1] & HOME[side, 1]
        ) == HOME[side, 1]:
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


@njit(types.void(ROW, I64, I64), cache=True)
def put(st, w, square):
    """Add ``square`` to the bitboard at words ``w``, ``w + 1``."""
    st[w] |= BIT[0, square]
    st[w + 1] |= BIT[1, square]


@njit(types.void(ROW, I64, I64), cache=True)
def take(st, w, square):
    """Remove ``square`` from the bitboard at words ``w``, ``w + 1``."""
    st[w] &= ~BIT[0, square]
    st[w + 1] &= ~BIT[1, square]


@njit(cache=True)
def next_to(st, w, square):
    """Whether a square of the bitboard at words ``w``, ``w + 1`` is next to ``square``."""
    return ((st[w] & NEIGH[0, square]) | (st[w + 1] & NEIGH[1, square])) != 0


@njit(cache=True)
def shooable(st, square, side):
    """Whether a foot traveller of ``side`` on ``square`` could be shooed (outside home, two enemies)."""
    if has(HOME[side, 0], HOME[side, 1], square):
        return False
    w = TRAV + 2 * (1 - side)
    return popcount(st[w] & NEIGH[0, square]) + popcount(st[w + 1] & NEIGH[1, square]) >= 2


@njit(cache=True)
def play(st, code, cfg, hist):
    """Play a legal move on ``st`` and ``hist`` (which needs room for one more column).

    The hash follows the move: what changed in the key (the board words before the move against
    after, the other fields' keys before against after) is XORed in.
    """
    o0, o1, o2, o3, o4, o5, o6, o7 = st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7]
    old = scalar_hash(st[HELD], st[SHOO], st[SIDE], st[ST0], st[ST1], st[SH0], st[SH1], st[PA0], st[PA1])
    push = play_rules(st, code, cfg)
    st[HASH] ^= (
        board_change(o0, o1, o2, o3, o4, o5, o6, o7, st)
        ^ old
        ^ scalar_hash(st[HELD], st[SHOO], st[SIDE], st[ST0], st[ST1], st[SH0], st[SH1], st[PA0], st[PA1])
    )
    if push != NO_PUSH:
        record(st, hist, push == PUSH_CHECKED and st[END] == END_NONE)


NO_PUSH, PUSH, PUSH_CHECKED = 0, 1, 2


@njit(cache=True)
def play_rules(st, code, cfg):
    """Play a legal move on ``st``'s fields (not its hash); what to push on the history.

    :data:`PUSH_CHECKED`: the position, judging a third repetition; :data:`PUSH`: the position without
    judging (the opening starts a history afresh); :data:`NO_PUSH`: nothing (an optional HUSH, whose
    restored position is the last one pushed).
    """
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
        return PUSH
    if kind == CHOOSE:
        st[SOUTH] = st[CHOOSER] if to == 0 else 1 - st[CHOOSER]
        st[CHOOSER] = 0
        st[PHASE] = PLAY
        take(st, HORSES, ODD_HORSE)
        st[SH1] += 1
        st[PLY] += 1
        opening_defaults(st)
        find_end(st, cfg)
        return PUSH
    me = st[SIDE]
    you = 1 - me
    mine = TRAV + 2 * me
    theirs = TRAV + 2 * you
    if kind == HUSH_KIND:
        hushed = st[HUSH]
        hk = hushed & 15
        ho = field(hushed, 4)
        ht = field(hushed, 25)
        take(st, theirs, ht)
        if hk == STEP:
            put(st, theirs, ho)
        elif hk == DISMOUNT:
            put(st, theirs, ho)
            put(st, MOUNTED, ho)
            take(st, HORSES, ho)
        else:
            st[ST0 + you] += 1
        st[NHIST] -= 1
        st[HUSH] = 0
        st[SHOO] = -1
        st[PLY] += 1
        if cfg[C_HUSH] == HUSH_OPTIONAL:
            st[HELD] = st[HELD_BEFORE]
            st[SIDE] = you
            if not is_barred(st, hushed):
                st[BARRED + st[NBARRED]] = hushed
                st[NBARRED] += 1
            st[MOVES] -= 1
            st[PASSES] = st[PASSES_BEFORE]
            st[HELD_BEFORE] = -1
            st[PASSES_BEFORE] = 0
            find_end(st, cfg)
            if st[NHIST] == st[HBASE]:  # a history that began at the hushed move (a position read)
                return PUSH
            return NO_PUSH
        if cfg[C_HUSH] == HUSH_SHOO_OFF and hk != RETURN:
            take(st, theirs, ho)
            if hk == DISMOUNT:
                take(st, MOUNTED, ho)
                put(st, HORSES, ho)
            st[ST0 + you] += 1
        st[HELD] = -1
        st[NBARRED] = 0
        st[PASSES] = 0
        st[HELD_BEFORE] = -1
        st[PASSES_BEFORE] = 0
        find_end(st, cfg)
        return PUSH_CHECKED
    held_before = st[HELD]
    held = -1
    if st[HUSH] != 0:  # a HUSH declined: the barred moves were the opponent's
        st[NBARRED] = 0
    if kind == STEP:
        take(st, mine, origin)
        put(st, mine, to)
    elif kind == MOUNT:
        take(st, mine, origin)
        take(st, HORSES, via)
        put(st, mine, to)
        put(st, MOUNTED, to)
    elif kind == RIDE:
        take(st, mine, origin)
        take(st, MOUNTED, origin)
        put(st, mine, to)
        put(st, MOUNTED, to)
    elif kind == DISMOUNT:
        take(st, mine, origin)
        take(st, MOUNTED, origin)
        put(st, HORSES, origin)
        put(st, mine, to)
    elif kind == CAPTURE:
        take(st, theirs, via)
        take(st, MOUNTED, via)
        put(st, theirs, place)
        if has(st[MOUNTED], st[MOUNTED + 1], origin):
            take(st, MOUNTED, origin)
            put(st, HORSES, origin)
        take(st, mine, origin)
        put(st, mine, to)
        put(st, MOUNTED, to)
    elif kind == RETURN:
        put(st, mine, to)
        st[ST0 + me] -= 1
    elif kind == CALL:
        put(st, HORSES, to)
        st[SH0 + me] -= 1
        if cfg[C_TOWERS] or not cfg[C_DROP_ANYWHERE] or next_to(st, mine, to):
            held = to
    elif kind == SLIDE:
        take(st, HORSES, origin)
        put(st, HORSES, to)
        if not cfg[C_TOWERS] and next_to(st, mine, to):
            held = to
    elif kind == HOLD:
        held = to
    elif kind == RETIRE:
        take(st, HORSES, to)
        st[PA0 + me] += 1
    elif kind == SHOOED_OFF:
        take(st, mine, origin)
        if to >= 0:
            put(st, mine, to)
        else:
            st[ST0 + me] += 1
    hush_mode = cfg[C_HUSH]
    if (
        (kind in (STEP, DISMOUNT, RETURN))
        and (hush_mode in (HUSH_OPTIONAL, HUSH_LOSE_MOVE, HUSH_SHOO_OFF))
        and shooable(st, to, me)
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
    find_end(st, cfg)
    return PUSH_CHECKED


@njit(cache=True)
def winner_seat(st):
    """The winning seat, or -1."""
    if st[WINNER] < 0:
        return -1
    return st[SOUTH] if st[WINNER] == 0 else 1 - st[SOUTH]


@njit(cache=True)
def evaluate(st, weights):
    """The reference's race evaluation for Blue (seat 0); terminal and opening states: the returns.

    ``weights`` holds the reference's numbers (:data:`shogames.games.shoo.EVALUATION_WEIGHTS`, indices
    :data:`W_STABLED` ...), passed in rather than frozen here so that numba's cache never keeps old ones.
    """
    if st[END] != END_NONE or st[PHASE] != PLAY:
        seat = winner_seat(st)
        return 0.0 if seat < 0 else (1.0 if seat == 0 else -1.0)
    pending = st[SHOO] if st[SHOO] >= 0 else NONE  # a shooed traveller is as good as gone
    cost0 = 0.0
    cost1 = 0.0
    mounted_lo = st[MOUNTED]
    mounted_hi = st[MOUNTED + 1]
    for side in range(2):
        own_lo = st[TRAV + 2 * side]
        own_hi = st[TRAV + 2 * side + 1]
        other_lo = st[TRAV + 2 * (1 - side)] & ~BIT[0, pending]
        other_hi = st[TRAV + 2 * (1 - side) + 1] & ~BIT[1, pending]
        home_lo = HOME[side, 0]
        home_hi = HOME[side, 1]
        total = weights[W_STABLED] * st[ST0 + side]
        blockers = popcount(other_lo & home_lo) + popcount(other_hi & home_hi)
        if blockers:
            home_foot = popcount(own_lo & ~mounted_lo & home_lo) + popcount(own_hi & ~mounted_hi & home_hi)
            total += weights[W_BLOCKER] * blockers * home_foot
        w_lo = own_lo & mounted_lo
        w_hi = own_hi & mounted_hi
        while w_lo | w_hi:
            t, w_lo, w_hi = pop_square(w_lo, w_hi)
            d = DISTANCE[side, t]
            if d:
                total += weights[W_RIDER] + math.ceil(d / weights[W_RIDER_SLIDE])
            else:
                total += weights[W_RIDER_AT_HOME]
        if (
            (own_lo & home_lo) == home_lo
            and (own_hi & home_hi) == home_hi
            and ((own_lo & mounted_lo & home_lo) | (own_hi & mounted_hi & home_hi))
        ):
            total += weights[W_STUCK]
        w_lo = own_lo & ~mounted_lo
        w_hi = own_hi & ~mounted_hi
        while w_lo | w_hi:
            t, w_lo, w_hi = pop_square(w_lo, w_hi)
            total += DISTANCE[side, t]
        if side == 0:
            cost0 = total
        else:
            cost1 = total
    value = weights[W_CAP] * math.tanh((cost1 - cost0) / weights[W_SCALE])
    return value if st[SOUTH] == 0 else -value


# --- The learned evaluation --------------------------------------------------------------------------

LEARNED_CAP = 0.95
"""The learned evaluation's values are ``LEARNED_CAP * v``, ``v`` the network's (-1 .. 1): within the
hand-written evaluation's bound (``EVALUATION_WEIGHTS.cap``), below a win's value and below the 0.99 at
which iterative deepening takes a result as forced. Scaling keeps the network's order of positions."""


@njit(cache=True)
def add_squares(acc, rows, plane, lo, hi, flip):
    """Add to ``acc`` the first-layer row of each square of ``lo | hi`` in ``plane`` (turned if ``flip``)."""
    hidden = acc.shape[0]
    while lo | hi:
        square, lo, hi = pop_square(lo, hi)
        cell = NONE - 1 - square if flip else square
        for j in range(hidden):
            acc[j] += rows[plane, cell, j]


@njit(cache=True)
def add_plane(acc, sums, plane, value):
    """Add ``value`` times ``plane``'s first-layer rows summed (a plane of one number everywhere)."""
    if value != 0.0:
        row = sums[plane]
        for j in range(acc.shape[0]):
            acc[j] += value * row[j]


@njit(cache=True)
def repetitions(st, hist):
    """How often the standing position (the last history column) was seen before in its epoch.

    The observation's plane "repetitions of this position" (the reference's ``history.count``).
    """
    return copies_before(hist, st[HBASE], st[NHIST] - 1)


@njit(cache=True)
def learned_value(st, hist, cfg, weights, net, seat):
    """The learned evaluation's value (-1 .. 1) of a position going on, for ``seat``.

    :data:`LEARNED_CAP` times the value of the network of ``shogames.learning.network`` over the
    observation ``ShooState.observation_tensor`` gives ``seat`` (``_batch_jit.observe_row``'s planes),
    built here from the state's words: ``net`` is (``rows``: the first layer by plane, cell and
    hidden unit; ``sums``: each plane's rows summed, for the planes of one number; ``base``: for the
    observer playing South and North, ``b1`` with the rows of the planes that side fixes (the two home
    areas, "observer plays South"); ``u1``, ``w2``; ``head``: ``b2``, ``c`` and 1 where the hand-written
    evaluation is an input; ``acc``: room for the hidden layer), as
    :func:`shogames.games.shoo.kernel.compiled_network` lays a ``ValueNet`` out. Only the squares that
    hold something are added, so a position costs a few dozen rows, not the 2,106 inputs.
    """
    rows, sums, base, u1, w2, head, acc = net
    hidden = acc.shape[0]
    own = 0 if seat == st[SOUTH] else 1
    for j in range(hidden):  # b1 and the planes fixed by the observer's side (homes, plays South)
        acc[j] = base[own, j]
    other = 1 - own
    flip = own == 1
    mounted_lo = st[MOUNTED]
    mounted_hi = st[MOUNTED + 1]
    own_lo = st[TRAV + 2 * own]
    own_hi = st[TRAV + 2 * own + 1]
    other_lo = st[TRAV + 2 * other]
    other_hi = st[TRAV + 2 * other + 1]
    add_squares(acc, rows, 0, own_lo & ~mounted_lo, own_hi & ~mounted_hi, flip)
    add_squares(acc, rows, 1, own_lo & mounted_lo, own_hi & mounted_hi, flip)
    add_squares(acc, rows, 2, other_lo & ~mounted_lo, other_hi & ~mounted_hi, flip)
    add_squares(acc, rows, 3, other_lo & mounted_lo, other_hi & mounted_hi, flip)
    held = st[HELD]
    if held >= 0:
        add_squares(acc, rows, 4, st[HORSES] & ~BIT[0, held], st[HORSES + 1] & ~BIT[1, held], flip)
        # the horse is held by the side that moved last
        add_squares(acc, rows, 5 if st[SIDE] == other else 6, BIT[0, held], BIT[1, held], flip)
    else:
        add_squares(acc, rows, 4, st[HORSES], st[HORSES + 1], flip)
    add_plane(acc, sums, 9, st[SH0 + own] / 9.0)
    add_plane(acc, sums, 10, st[ST0 + own] / 9.0)
    add_plane(acc, sums, 11, st[PA0 + own] / 9.0)
    add_plane(acc, sums, 12, st[SH0 + other] / 9.0)
    add_plane(acc, sums, 13, st[ST0 + other] / 9.0)
    add_plane(acc, sums, 14, st[PA0 + other] / 9.0)
    if st[SHOO] >= 0:
        add_squares(acc, rows, 15, BIT[0, st[SHOO]], BIT[1, st[SHOO]], flip)
    code = st[HUSH]
    if code != 0:
        to = field(code, 25)
        origin = field(code, 4)
        if to >= 0:
            add_squares(acc, rows, 16, BIT[0, to], BIT[1, to], flip)
        if origin >= 0:
            add_squares(acc, rows, 17, BIT[0, origin], BIT[1, origin], flip)
    to_lo = 0
    to_hi = 0
    from_lo = 0
    from_hi = 0
    for i in range(st[NBARRED]):
        barred = st[BARRED + i]
        to = field(barred, 25)
        origin = field(barred, 4)
        if to >= 0:
            to_lo |= BIT[0, to]
            to_hi |= BIT[1, to]
        if origin >= 0:
            from_lo |= BIT[0, origin]
            from_hi |= BIT[1, origin]
    add_squares(acc, rows, 18, to_lo, to_hi, flip)
    add_squares(acc, rows, 19, from_lo, from_hi, flip)
    if st[PHASE] == PLAY:
        add_plane(acc, sums, 20, repetitions(st, hist) / 2.0)
    add_plane(acc, sums, 21, st[PASSES] / 2.0)
    add_plane(acc, sums, 22, 1.0 if seat_to_move(st) == seat else 0.0)
    add_plane(acc, sums, 24, 0.0 if st[PHASE] == PLAY else 1.0)
    add_plane(acc, sums, 25, st[MOVES] / cfg[C_MAX_TURNS])
    prior = 0.0
    if head[2] != 0.0:
        prior = evaluate(st, weights)
        if seat != 0:
            prior = -prior
    out = head[0] + head[1] * prior
    for j in range(hidden):
        out += w2[j] * common.table_tanh(acc[j] + prior * u1[j])
    return LEARNED_CAP * math.tanh(out)


# --- Whole loops -----------------------------------------------------------------------------------


@njit(cache=True)
def new_history(start_hist, room):
    """A history table holding ``start_hist``'s columns, with room for ``room`` more."""
    used = start_hist.shape[1]
    hist = np.empty((HIST_WORDS, used + room), dtype=np.int64)
    hist[:, :used] = start_hist
    return hist


@njit(cache=True)
def perft(st, hist, depth, bulk, cfg, moves, children, saved, units):
    """Leaves at exactly ``depth`` plies.

    ``hist`` is shared: a move writes only at or above the last column, which is put back after each
    move. ``moves``, ``children`` and ``saved`` hold a row per level, ``units`` is scratch.
    """
    if depth == 0:
        return 1
    if st[END] != END_NONE:
        return 0
    level = depth - 1
    if depth == 1 and bulk:
        return generate(st, cfg, moves[level], units, COUNT, NO_BITS)
    n = generate(st, cfg, moves[level], units, GEN, NO_BITS)
    total = 0
    child = children[level]
    last = st[NHIST] - 1
    keep = saved[level]
    keep[:] = hist[:, last]
    for i in range(n):
        child[:] = st
        play(child, moves[level, i], cfg, hist)
        total += perft(child, hist, depth - 1, bulk, cfg, moves, children, saved, units)
        hist[:, last] = keep
    return total


@njit(cache=True)
def perft_pairs(st, start_hist, roots, first, step, depth, bulk, cfg):
    """The leaves ``depth`` plies below pairs ``first``, ``first + step`` ... of moves of ``roots``.

    Pair ``i`` is ``roots[2 * i]`` then ``roots[2 * i + 1]``, played from ``st`` (left as it is). The
    scratch is made once for all the pairs.
    """
    hist = new_history(start_hist, depth + 4)  # the moves write only past the start's columns
    levels = max(depth, 1)
    moves = np.empty((levels, MAX_MOVES), dtype=np.int64)
    children = np.empty((levels, SIZE), dtype=np.int64)
    saved = np.empty((levels, HIST_WORDS), dtype=np.int64)
    units = np.empty((MAX_UNITS, UNIT_WORDS), dtype=np.int64)
    total = 0
    for pair in range(first, roots.shape[0] // 2, step):
        child = st.copy()
        play(child, roots[2 * pair], cfg, hist)
        play(child, roots[2 * pair + 1], cfg, hist)
        total += perft(child, hist, depth, bulk, cfg, moves, children, saved, units)
    return total


@njit(cache=True)
def play_games(start, start_hist, first, last, seed, cfg, returns_out, plies, record_moves, record_from):
    """Play games ``first`` .. ``last - 1`` of a batch (see :func:`run_batch`)."""
    st = np.empty_like(start)
    out = np.empty(MAX_MOVES, dtype=np.int64)
    units = np.empty((MAX_UNITS, UNIT_WORDS), dtype=np.int64)
    base = start_hist.shape[1]
    hist = new_history(start_hist, min(cfg[C_MAX_TURNS], 4096) + 4)
    for g in range(first, last):
        rng = common.game_stream(seed, g)
        st[:] = start
        hist[:, :base] = start_hist
        played = 0
        row = g - record_from
        while st[END] == END_NONE:
            rng, bits = splitmix(rng)
            move = generate(st, cfg, out, units, PICK, bits)
            if 0 <= row < record_moves.shape[0] and played < record_moves.shape[1]:
                record_moves[row, played] = move
            if st[NHIST] + 2 > hist.shape[1]:
                hist = common.grow_columns(hist, 2 * hist.shape[1])
            play(st, move, cfg, hist)
            played += 1
        seat = winner_seat(st)
        value = 0.0 if seat < 0 else (1.0 if seat == 0 else -1.0)
        returns_out[g, 0] = value
        returns_out[g, 1] = -value if value != 0.0 else 0.0
        plies[g] = played


PLAYOUTS, PERFT = 0, 1


@njit(cache=True, parallel=True)
def run_batch(
    task, start, start_hist, count, seed, cfg, returns_out, plies, record_moves, record_from, roots, depth,
    bulk, leaves,
):  # fmt: skip
    """A batch spread over numba's threads: :data:`PLAYOUTS` or :data:`PERFT`.

    One parallel loop serves both, since each costs seconds to compile.

    :data:`PLAYOUTS`: ``count`` uniformly random games from ``start`` (the toss: each seat with probability
    1/2) into ``returns_out`` and ``plies`` (:func:`play_games`), in blocks. Game ``g`` uses its own
    SplitMix64 stream from ``seed`` and ``g``, so it depends neither on the batch nor on the threads; its
    moves go into row ``g - record_from`` of ``record_moves`` while there is one.

    :data:`PERFT`: for each of the ``count`` pairs of moves of ``roots`` (a move of ``start``, then a
    move of the position it leads to), the leaves ``depth`` plies below them, each block's sum into
    ``leaves`` (:func:`perft_pairs`, every ``blocks``-th pair): a position's grandchildren spread the
    work over the threads more evenly than its children. Both batches make their scratch once per block
    (fresh memory costs a page fault per page, and the threads would queue for the kernel's memory map).
    """
    blocks = min(count, 64)
    for b in prange(blocks):
        if task == PLAYOUTS:
            first, last = count * b // blocks, count * (b + 1) // blocks
            play_games(
                start, start_hist, first, last, seed, cfg, returns_out, plies, record_moves, record_from
            )
        else:  # every blocks-th row, so that each block takes some of the large subtrees and the small
            leaves[b] = perft_pairs(start, start_hist, roots, np.int64(b), blocks, depth, bulk, cfg)


# --- Alpha-beta --------------------------------------------------------------------------------------

# ctx: the common alpha-beta counters (common.C_NODES ...), then the root's ply, the table's
# generation and the searching seat.
C_ROOT_PLY, C_GENERATION, C_ROOT_SEAT = range(4, 7)
CTX_SIZE = 7
EXACT, LOWER, UPPER = 0, 1, 2
MAX_PLY = 64
TT_WORDS = KEY_WORDS + 2
SEARCH_MOVES = 1 << 13


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
    """The whole position (everything ``key()`` holds) as :data:`TT_WORDS` words; its table hash.

    The repetition key, the hush context, passes and opening fields, and a hash of the moves barred
    this turn (the one part kept as a hash).
    """
    for w in range(8):
        row[w] = st[w]
    row[8] = (st[HELD] + 1) | (st[SHOO] + 1) << 8 | st[SIDE] << 16 | st[ST0] << 20 | st[ST1] << 24
    row[9] = st[SH0] | st[SH1] << 4 | st[PA0] << 8 | st[PA1] << 12
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
    return common.mix64(
        np.uint64(st[HASH])
        ^ common.mix64(np.uint64(row[KEY_WORDS]) + np.uint64(0x9E3779B97F4A7C15))
        ^ np.uint64(row[KEY_WORDS + 1])
    )


@njit(cache=True, inline="always")
def perspective(st, root_seat):
    """+1 where the searching seat moves (and at the end), -1 where the other seat does."""
    seat = seat_to_move(st)
    return -1.0 if seat >= 0 and seat != root_seat else 1.0


@njit(cache=True)
def negamax(
    st, hist, depth, alpha, beta, ply, ctx, deadline, cfg, weights, tt_keys, tt_info, tt_move, tt_value,
    history, moves, scores, children, saved, key, units, net,
):  # fmt: skip
    """The value of ``st`` from its :func:`perspective`, searched ``depth`` decisions with alpha-beta.

    The agents' values: the searching seat's return at the end (a win discounted by the plies it takes),
    the evaluation at the horizon: the hand-written one, or where ``net`` holds a network (its hidden
    layer is not empty) the learned one (:func:`learned_value`) for the side to move there. Negamax
    flips the sign only where the seat to move changes (a HUSH under ``hush=optional`` hands the move
    back to the hushed side; under the penalties the hushing side moves again).
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
        if net[6].shape[0] > 0:  # the learned evaluation, for the side to move
            mover = seat_to_move(st)
            if mover >= 0:
                return learned_value(st, hist, cfg, weights, net, mover)
        value = evaluate(st, weights)
        return sign * (value if root_seat == 0 else -value)

    row = key[ply]
    h = table_key(st, row)
    mask = tt_keys.shape[0] - 1
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
    n = generate(st, cfg, level, units, GEN, NO_BITS)
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
    keep[:] = hist[:, last]
    original_alpha = alpha
    best_value = -INF
    best_move = level[0]
    for i in range(n):
        move = common.pick_next(level, order, i, n)
        child[:] = st
        play(child, move, cfg, hist)
        if perspective(child, root_seat) == sign:
            value = negamax(
                child, hist, depth - 1, alpha, beta, ply + 1, ctx, deadline, cfg, weights, tt_keys, tt_info,
                tt_move, tt_value, history, moves, scores, children, saved, key, units, net,
            )  # fmt: skip
        else:
            value = -negamax(
                child, hist, depth - 1, -beta, -alpha, ply + 1, ctx, deadline, cfg, weights, tt_keys,
                tt_info, tt_move, tt_value, history, moves, scores, children, saved, key, units, net,
            )  # fmt: skip
        hist[:, last] = keep
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
    start, start_hist, root_moves, max_depth, node_limit, seconds, cfg, weights, tt_keys, tt_info, tt_move,
    tt_value, history, generation, root_scores, stats, net,
):  # fmt: skip
    """Iterative deepening negamax from ``start`` over ``root_moves`` (an order that breaks ties).

    Fills ``root_scores`` with each root move's value in the deepest completed iteration (in the order
    of ``root_moves`` as given) and ``stats`` with (nodes, depth completed); returns (best move index,
    its value). The first iteration always completes; later ones stop when ``node_limit`` nodes (0: no
    limit) or ``seconds`` (0: no limit) are spent, keeping the previous iteration's move unless a move
    searched since beat it. Stops early on a forced result (|value| > 0.99). ``net``: the learned
    evaluation laid out for :func:`learned_value`, or its arrays empty for the hand-written one.
    """
    n = root_moves.shape[0]
    ctx = np.zeros(CTX_SIZE, dtype=np.int64)
    ctx[C_NODE_LIMIT] = node_limit
    ctx[C_ROOT_PLY] = start[PLY]
    ctx[C_GENERATION] = generation
    ctx[C_ROOT_SEAT] = seat_to_move(start)
    deadline = common.deadline_after(seconds)
    hist = new_history(start_hist, MAX_PLY + 2)
    moves = np.empty((MAX_PLY, SEARCH_MOVES), dtype=np.int64)
    scores = np.empty((MAX_PLY, SEARCH_MOVES), dtype=np.int64)
    children = np.empty((MAX_PLY, SIZE), dtype=np.int64)
    saved = np.empty((MAX_PLY, HIST_WORDS), dtype=np.int64)
    key = np.empty((MAX_PLY, TT_WORDS), dtype=np.int64)
    units = np.empty((MAX_UNITS, UNIT_WORDS), dtype=np.int64)
    child = np.empty(SIZE, dtype=np.int64)
    keep = np.empty(HIST_WORDS, dtype=np.int64)
    last = start[NHIST] - 1
    keep[:] = hist[:, last]
    order, iteration, done, best_index, completed = common.new_root(n)
    best_value = -INF
    first_ply = np.int64(0)
    for depth in range(1, max_depth + 1):
        iteration_best = common.begin_iteration(ctx, depth, done, order)
        alpha = -INF
        for r in range(n):
            index = order[r]
            child[:] = start
            play(child, root_moves[index], cfg, hist)
            # ply is a variable, not a literal: a literal would compile a second overload of the
            # recursive negamax, which numba's cache cannot load back (numba issue #6713).
            if perspective(child, ctx[C_ROOT_SEAT]) == 1.0:
                value = negamax(
                    child, hist, depth - 1, alpha, INF, first_ply, ctx, deadline, cfg, weights, tt_keys,
                    tt_info, tt_move, tt_value, history, moves, scores, children, saved, key, units, net,
                )  # fmt: skip
            else:
                value = -negamax(
                    child, hist, depth - 1, -INF, -alpha, first_ply, ctx, deadline, cfg, weights, tt_keys,
                    tt_info, tt_move, tt_value, history, moves, scores, children, saved, key, units, net,
                )  # fmt: skip
            hist[:, last] = keep
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
    start, start_hist, root_moves, simulations, seconds, c, seed, low, scale, path_length, cfg, weights,
    tree, visits_out, values_out, stats,
):  # fmt: skip
    """UCT on the shared tree, with the evaluation at the leaves, from a root that is not over.

    The search of the ``mcts:rollout=0`` agent, compiled: each node sums both seats' values and the
    seat to move selects by its own mean (scaled to 0..1 by ``low`` and ``scale``); a decision node
    tries its moves in a shuffled order, one new child per simulation. There is no chance node: the
    toss, Shoo's only chance, comes before any root a seat searches from. Stops after
    ``simulations`` (0: no limit) or ``seconds`` (0: no limit, the clock read every 256 simulations).

    ``start_hist`` is the root's history columns. A node's position is its state array, then the
    history column it ends with, so the history of the line to a node is put back
    (:func:`restore_history`) before a move is played there and the third-repetition draw is judged as
    in the game. Lines are at most ``path_length`` plies. Fills ``visits_out`` and ``values_out`` (the
    mover's mean) per move of ``root_moves`` and ``stats`` with (simulations, nodes). ``tree`` is the
    room for the tree (``common.new_tree``, positions of :data:`SIZE` + :data:`HIST_WORDS` int64);
    returns the index of the most visited root move (ties: the better mean) and the tree's arrays for
    the next search.
    """
    moves, value, path, counts, limits, rng = common.scratch(
        MAX_MOVES, 2, path_length, simulations, seconds, c, seed, low, scale
    )
    units = np.empty((MAX_UNITS, UNIT_WORDS), dtype=np.int64)
    hist = new_history(start_hist, path_length + 2)
    st = start.copy()
    pending = np.zeros(SIZE + HIST_WORDS, dtype=np.int64)
    while True:
        count, mode, mover = 0, common.TERMINAL, 0
        if st[END] == END_NONE:  # never the toss: it comes only before the root (a seat to move)
            count = generate(st, cfg, moves, units, GEN, NO_BITS)
            mode, mover = common.DECISION, seat_to_move(st)
        value[0] = evaluate(st, weights)  # the returns where the game is over
        value[1] = -value[0]
        pending[:SIZE] = st
        if st[NHIST] > 0:
            pending[SIZE:] = hist[:, st[NHIST] - 1]
        tree, move, rng = common.step(
            tree, path, counts, limits, pending, moves, count, mode, mover, value, rng
        )
        if move < 0:
            break
        st[:] = pending[:SIZE]
        restore_history(tree[3], path, counts[common.DEPTH], hist)
        play(st, move, cfg, hist)
    return common.finish(tree, counts, root_moves, seat_to_move(start), visits_out, values_out, stats)


@njit(cache=True)
def restore_history(positions, path, depth, hist):
    """Put the history of the line from the root to ``path[depth]`` back in ``hist``.

    Each node keeps the history column it ends with; a move pushes one column and a HUSH takes back at
    most the column of the move it hushes, so writing each node's column, root first, gives the line's
    history (columns the line never reached keep the root's).
    """
    for i in range(depth + 1):
        row = positions[path[i]]
        nh = row[NHIST]
        if nh > 0:
            hist[:, nh - 1] = row[SIZE:]
