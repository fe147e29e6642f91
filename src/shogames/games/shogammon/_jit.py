# mypy: ignore-errors
# (numba compiles this module: its scalars are numpy's int64/float64, which mypy's int does not model.)
"""The compiled half of the Shogammon kernel: numba functions over one int64 array per state.

State array (int64, :data:`SIZE` long)::

    LOWER .. +80   each square's single piece or the bottom of its point (signed: Black > 0)
    UPPER .. +80   the top of a point, else 0
    HANDS .. +15   pieces in hand, ``8 * colour + kind``
    SIDE  the side to move    NDICE  dice left (0 before the roll)    DIE0, DIE1  the dice left, increasing
    TURNS  turns completed    PLY  plies    WINNER  the side that took the enemy king (-1: none)
    END  1 after a fourth repetition (repetition=fourfold)    HISTORY  positions in the history
    LAST_HASH  the hash the position added to the history last (0: none)

With ``repetition=fourfold`` the history itself (:func:`standing_hash` of each position that stood at
the start of a turn, oldest first) is kept in the ``work`` array from ``W_HISTORY``: a stack that the
loops share, since a position's history is that of its own line of play (the MCTS puts a line's back
with :func:`restore_history` before it plays on).

Move code (int64): ``kind | die << 3 | (origin + 1) << 6 | (to + 1) << 13 | promote << 20 | drop << 21 |
die2 << 24 | (origin2 + 1) << 27 | (to2 + 1) << 34 | promote2 << 41`` with the fields of
:class:`~shogames.games.shogammon.ShogammonMove` (kinds 0 roll, 1 act, 2 pair, 3 lose, 4 opening roll).

``cfg`` (int64) holds the settings: the die face of every kind (promoted kinds at kind + 8), then
``strict_dice``, ``opening_roll=backgammon``, ``point_capture=simultaneous``, ``drop_stack``,
``max_turns``, ``repetition=fourfold`` and the room for the history. ``steps`` (2 x 16 x 81 x 9:
count, then targets) and ``rays`` (2 x 16 x 81 x 4 x 9: length, then squares) are the geometry per
colour, kind and square, in the reference's order of directions.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange
from numba.types import Tuple, int64

from shogames.games.shogammon import (
    CONFIDENCE,
    FIRST_DROP_PLANE,
    FIRST_LOSE_ACTION,
    FIRST_PAIR_PLANE,
    HAND_BONUS,
    HAND_SIZES,
    MATERIAL_SCALE,
    NEXT_BEST_SHARE,
    POINT_BONUS,
)
from shogames.kernels import common
from shogames.kernels.common import U64, below, game_stream, splitmix

LOWER = 0
UPPER = 81
HANDS = 162
SIDE, NDICE, DIE0, DIE1, TURNS, PLY, WINNER, END, HISTORY, LAST_HASH = range(178, 188)
SIZE = 188

C_FACE = 0
C_STRICT, C_BACKGAMMON, C_SIMULTANEOUS, C_DROP_STACK, C_MAX_TURNS, C_FOURFOLD, C_HISTORY_ROOM = range(16, 23)
CFG_SIZE = 23
REPETITIONS = 4  # repetition=fourfold: the fourth time a position stands at the start of a turn draws

ROLL, ACT, PAIR, LOSE, OPEN = 0, 1, 2, 3, 4
PAWN, LANCE, KNIGHT, SILVER, GOLD, BISHOP, ROOK, KING = 1, 2, 3, 4, 5, 6, 7, 8

MAX_MOVES = 4096
I1 = int64[::1]  # a state array, the settings, a move buffer (in explicit signatures)
MAX_PART = 1024
# Work array regions: half moves, second halves, acts counted on the side, a scratch state, moves of
# the settle test, dice used per move (strict_dice).
W_HALVES = 0
W_SECONDS = W_HALVES + MAX_PART
W_ACTS = W_SECONDS + MAX_PART
W_SCRATCH = W_ACTS + MAX_PART
W_MOVES = W_SCRATCH + 192
W_USES = W_MOVES + MAX_MOVES
W_HISTORY = W_USES + MAX_MOVES
WORK_SIZE = W_HISTORY  # then cfg[C_HISTORY_ROOM] entries of history (repetition=fourfold)


@njit(cache=True, inline="always")
def code_of(kind, die, origin, to, promote, drop):
    """The code of one die's move (``origin`` -1 for a drop, ``to`` -1 for none)."""
    return kind | die << 3 | (origin + 1) << 6 | (to + 1) << 13 | promote << 20 | drop << 21


@njit(cache=True, inline="always")
def origin_of(code):
    return ((code >> 6) & 127) - 1


@njit(cache=True, inline="always")
def to_of(code):
    return ((code >> 13) & 127) - 1


@njit(cache=True, inline="always")
def zone(square, colour):
    row = square // 9
    return row <= 2 if colour == 0 else row >= 6


@njit(cache=True, inline="always")
def dead(kind, square, colour):
    """Whether an unpromoted ``kind`` on ``square`` could never move (P, L on the last rank, N last two)."""
    rank = square // 9 if colour == 0 else 8 - square // 9
    return (kind in (PAWN, LANCE) and rank == 0) or (kind == KNIGHT and rank <= 1)


@njit(cache=True)
def ended(st, cfg):
    """A king taken, a fourth repetition (repetition=fourfold), or the turn cap reached."""
    return st[WINNER] >= 0 or st[END] != 0 or (cfg[C_MAX_TURNS] > 0 and st[TURNS] >= cfg[C_MAX_TURNS])


# One signature: the counts start as the literal 0, which would compile a second copy.
@njit(Tuple((int64, int64))(I1, int64, int64, int64, int64, int64, int64, I1, int64, I1, int64), cache=True)
def add_target(st, colour, sign, kind, origin, to, die, acts, na, halves, nh):
    """Add one piece's moves to one square; returns the new counts.

    Acts go onto an empty square, an own single piece or an enemy single; halves onto an enemy point;
    nothing onto an own point. Promotion flags in the reference's order.
    """
    below = st[LOWER + to]
    above = st[UPPER + to]
    if above != 0 and below * sign > 0:
        return na, nh
    low, high = 0, 0
    if not (kind == GOLD or kind >= KING) and (zone(origin, colour) or zone(to, colour)):
        if dead(kind, to, colour):
            low = 1
            high = 1
        else:
            high = 1
    if above != 0:
        for flag in range(low, high + 1):
            halves[nh] = code_of(PAIR, die, origin, to, flag, 0)
            nh += 1
    else:
        for flag in range(low, high + 1):
            acts[na] = code_of(ACT, die, origin, to, flag, 0)
            na += 1
    return na, nh


@njit(cache=True, inline="always")
def own_kind(st, origin, sign):
    """The kind of the mobile piece on ``origin`` (a point's top, else the single) if of ``sign``, else 0."""
    piece = st[UPPER + origin]
    if piece == 0:
        piece = st[LOWER + origin]
    return piece * sign if piece * sign > 0 else 0


@njit(cache=True)
def pawn_on_file(st, col, sign):
    for row in range(9):
        square = row * 9 + col
        if st[LOWER + square] == sign * PAWN or st[UPPER + square] == sign * PAWN:
            return True
    return False


@njit(cache=True)
def actions(st, rules, colour, die, acts, halves):
    """The single moves and drops for ``die``, and the half moves onto enemy points; both counts.

    The moves go into ``acts`` and the halves into ``halves``, in the reference's order.
    """
    cfg, steps, rays = rules
    sign = 1 if colour == 0 else -1
    na = 0
    nh = 0
    for origin in range(81):
        piece = st[UPPER + origin]
        if piece == 0:
            piece = st[LOWER + origin]
        if piece * sign <= 0:
            continue
        kind = piece * sign
        if cfg[C_FACE + kind] != die:
            continue
        for i in range(steps[colour, kind, origin, 0]):
            na, nh = add_target(
                st, colour, sign, kind, origin, steps[colour, kind, origin, 1 + i], die, acts, na, halves, nh
            )
        for r in range(4):
            for i in range(rays[colour, kind, origin, r, 0]):
                to = rays[colour, kind, origin, r, 1 + i]
                na, nh = add_target(st, colour, sign, kind, origin, to, die, acts, na, halves, nh)
                if st[LOWER + to] != 0:
                    break
    drop_stack = cfg[C_DROP_STACK] != 0
    for kind in range(1, 8):
        if st[HANDS + 8 * colour + kind] == 0 or cfg[C_FACE + kind] != die:
            continue
        for to in range(81):
            below = st[LOWER + to]
            if below != 0 and not (drop_stack and below * sign > 0 and st[UPPER + to] == 0):
                continue
            if dead(kind, to, colour):
                continue
            if kind == PAWN and pawn_on_file(st, to % 9, sign):
                continue
            acts[na] = code_of(ACT, die, -1, to, 0, kind)
            na += 1
    return na, nh


@njit(cache=True)
def pairs(st, rules, colour, halves, nh, second, out, work):
    """Point captures completing each half with another piece and the ``second`` die; returns the count."""
    cfg = rules[0]
    n = 0
    seconds = work[W_SECONDS : W_SECONDS + MAX_PART]
    acts = work[W_ACTS : W_ACTS + MAX_PART]
    if cfg[C_SIMULTANEOUS]:
        _, ns = actions(st, rules, colour, second, acts, seconds)
        for h in range(nh):
            half = halves[h]
            for s in range(ns):
                other = seconds[s]
                if origin_of(other) != origin_of(half) and to_of(other) == to_of(half):
                    out[n] = half | second << 24 | (origin_of(other) + 1) << 27 | (to_of(other) + 1) << 34
                    out[n] |= ((other >> 20) & 1) << 41
                    n += 1
        return n
    for h in range(nh):
        half = halves[h]
        origin = origin_of(half)
        upper = st[UPPER + origin]
        lower = st[LOWER + origin]
        if upper != 0:
            st[UPPER + origin] = 0
        else:
            st[LOWER + origin] = 0
        _, ns = actions(st, rules, colour, second, acts, seconds)
        st[UPPER + origin] = upper
        st[LOWER + origin] = lower
        for s in range(ns):
            other = seconds[s]
            if to_of(other) == to_of(half):
                out[n] = half | second << 24 | (origin_of(other) + 1) << 27 | (to_of(other) + 1) << 34
                out[n] |= ((other >> 20) & 1) << 41
                n += 1
    return n


@njit(cache=True, inline="always")
def base(kind):
    return kind - 8 if kind > KING else kind


@njit(cache=True)
def lift(st, origin, promote, sign):
    """Take the mobile piece off ``origin`` (the top of a point, else the single piece)."""
    if st[UPPER + origin] != 0:
        piece = st[UPPER + origin]
        st[UPPER + origin] = 0
    else:
        piece = st[LOWER + origin]
        st[LOWER + origin] = 0
    if promote:
        piece += 8 * sign
    return piece


@njit(cache=True)
def apply_board(st, code):
    """Move the pieces of an act or a pair (dice, side and counters unchanged)."""
    colour = st[SIDE]
    sign = 1 if colour == 0 else -1
    kind = code & 7
    to = to_of(code)
    if kind == ACT:
        drop = (code >> 21) & 7
        if drop:
            if st[LOWER + to] != 0:
                st[UPPER + to] = sign * drop
            else:
                st[LOWER + to] = sign * drop
            st[HANDS + 8 * colour + drop] -= 1
            return
        piece = lift(st, origin_of(code), (code >> 20) & 1, sign)
        below = st[LOWER + to]
        if below == 0:
            st[LOWER + to] = piece
        elif below * sign > 0:
            st[UPPER + to] = piece
        else:
            captured = abs(below)
            if captured != KING:
                st[HANDS + 8 * colour + base(captured)] += 1
            else:
                st[WINNER] = colour
            st[LOWER + to] = piece
    elif kind == PAIR:
        first = lift(st, origin_of(code), (code >> 20) & 1, sign)
        second = lift(st, ((code >> 27) & 127) - 1, (code >> 41) & 1, sign)
        for captured in (abs(st[LOWER + to]), abs(st[UPPER + to])):
            if captured != KING:
                st[HANDS + 8 * colour + base(captured)] += 1
            else:
                st[WINNER] = colour
        st[LOWER + to] = first
        st[UPPER + to] = second


@njit(cache=True)
def dice_used(st, code, rules, work):
    """How many dice a first move lets the turn use (strict_dice): a pair or a king capture uses both."""
    kind = code & 7
    if kind == PAIR:
        return 2
    die = (code >> 3) & 7
    other = st[DIE1] if die == st[DIE0] else st[DIE0]
    scratch = work[W_SCRATCH : W_SCRATCH + SIZE]
    scratch[:] = st[:SIZE]
    used = 0
    if kind != LOSE:
        apply_board(scratch, code)
        if scratch[WINNER] >= 0:
            return 2
        used = 1
    na, _ = actions(
        scratch, rules, st[SIDE], other, work[W_ACTS : W_ACTS + MAX_PART],
        work[W_SECONDS : W_SECONDS + MAX_PART],
    )  # fmt: skip
    return used + (1 if na > 0 else 0)


@njit(cache=True)
def turn_moves(st, rules, out, work):
    """The moves for the dice left (0 when no die has a play), in the reference's order."""
    cfg = rules[0]
    colour = st[SIDE]
    halves = work[W_HALVES : W_HALVES + MAX_PART]
    if st[NDICE] == 1:
        na, _ = actions(st, rules, colour, st[DIE0], out, halves)
        return na
    low = st[DIE0]
    high = st[DIE1]
    n = 0
    played = False
    for order in range(1 if low == high else 2):
        first = low if order == 0 else high
        second = high if order == 0 else low
        na, nh = actions(st, rules, colour, first, out[n:], halves)
        np_ = pairs(st, rules, colour, halves, nh, second, out[n + na :], work)
        if na + np_ > 0:
            n += na + np_
            played = True
        else:
            out[n] = LOSE | first << 3
            n += 1
    if not played:
        return 0
    if cfg[C_STRICT]:
        most = 0
        for i in range(n):
            used = dice_used(st, out[i], rules, work)
            work[W_USES + i] = used
            if used > most:
                most = used
        kept = 0
        for i in range(n):
            if work[W_USES + i] == most:
                out[kept] = out[i]
                kept += 1
        n = kept
    return n


@njit(cache=True)
def legal_moves(st, rules, out, work):
    """The legal moves in the reference's order: the rolls (or opening rolls) before a roll."""
    cfg = rules[0]
    if ended(st, cfg):
        return 0
    if st[NDICE] == 0:
        n = 0
        if cfg[C_BACKGAMMON] and st[TURNS] == 0:
            for black in range(1, 7):
                for white in range(1, 7):
                    if black != white:
                        out[n] = OPEN | black << 3 | white << 24
                        n += 1
        else:
            for low in range(1, 7):
                for high in range(low, 7):
                    out[n] = ROLL | low << 3 | high << 24
                    n += 1
        return n
    n = turn_moves(st, rules, out, work)
    if n == 0:
        out[0] = LOSE | st[DIE0] << 3
        n = 1
    return n


@njit(cache=True)
def standing_hash(st):
    """A 64-bit hash of what a repetition compares: the board, both hands and the side to move."""
    h = common.mix64(U64(st[SIDE] + 1) * U64(0x9E3779B97F4A7C15))
    for i in range(HANDS + 16):
        h = common.mix64(h ^ (U64(st[i] + 32) << U64(8 * (i % 7))))
    return np.int64(h >> U64(1))


@njit(cache=True)
def remember(st, cfg, work):
    """repetition=fourfold: add the position standing at the start of a turn to the history in ``work``.

    ``st[HISTORY]`` is how many positions the history holds (``work[W_HISTORY:]``, a stack shared by
    the loops: a position's history is its line of play's); the fourth time a position stands there,
    the game ends in a draw (``st[END]``), as the reference's ``ShogammonState`` judges it.
    """
    h = standing_hash(st)
    n = st[HISTORY]
    if n >= cfg[C_HISTORY_ROOM]:
        raise ValueError("the Shogammon kernel's history of positions is longer than it holds")
    seen = 1
    for i in range(n):
        if work[W_HISTORY + i] == h:
            seen += 1
    work[W_HISTORY + n] = h
    st[HISTORY] = n + 1
    st[LAST_HASH] = h
    if seen >= REPETITIONS:
        st[END] = 1


@njit(cache=True)
def end_turn(st, cfg, work):
    st[NDICE] = 0
    st[DIE0] = 0
    st[DIE1] = 0
    if st[WINNER] < 0:
        st[SIDE] = 1 - st[SIDE]
        st[TURNS] += 1
        if cfg[C_FOURFOLD]:
            remember(st, cfg, work)


@njit(cache=True)
def settle(st, rules, work):
    """The settle test, after a roll or a turn's first move: a turn whose dice have no play ends at once."""
    cfg = rules[0]
    if (
        not ended(st, cfg)
        and st[NDICE] > 0
        and turn_moves(st, rules, work[W_MOVES : W_MOVES + MAX_MOVES], work) == 0
    ):
        end_turn(st, cfg, work)


@njit(cache=True)
def play(st, code, rules, work):
    """Play a legal move (a roll included) on ``st``."""
    if play_unsettled(st, code, rules[0], work):
        settle(st, rules, work)


@njit(cache=True)
def play_unsettled(st, code, cfg, work):
    """Play ``code`` on ``st`` up to the :func:`settle` test; returns whether it is due (dice are left)."""
    kind = code & 7
    die = (code >> 3) & 7
    die2 = (code >> 24) & 7
    st[PLY] += 1
    if kind == ROLL or kind == OPEN:  # noqa: SIM109 -- compiled by numba
        if kind == OPEN:  # the higher die starts and plays both
            st[SIDE] = 0 if die > die2 else 1
        st[NDICE] = 2
        st[DIE0] = min(die, die2)
        st[DIE1] = max(die, die2)
        return True
    before = st[NDICE]
    other = st[DIE1] if die == st[DIE0] else st[DIE0]
    if kind != LOSE:
        apply_board(st, code)
    if st[WINNER] >= 0 or kind == PAIR or before == 1:
        end_turn(st, cfg, work)
        return False
    st[NDICE] = 1
    st[DIE0] = other
    st[DIE1] = 0
    return True


@njit(cache=True)
def black_return(st):
    """Black's return at the end: +1, -1, or 0 when no king was taken."""
    if st[WINNER] == 0:
        return 1.0
    if st[WINNER] == 1:
        return -1.0
    return 0.0


@njit(cache=True, inline="always")
def signed_worth(piece, worth):
    return worth[piece] if piece > 0 else -worth[-piece]


@njit(cache=True)
def threats(st, rules, worth, colour):
    """The chance that ``colour`` takes the enemy king, and the worth of its captures.

    The worth is the best capture's plus a third of the next best, each weighted by the chance that a
    face moving an attacker shows.
    """
    cfg, steps, rays = rules
    sign = 1 if colour == 0 else -1
    faces = np.zeros(81, dtype=np.int64)
    for origin in range(81):
        kind = own_kind(st, origin, sign)
        if kind == 0:
            continue
        bit = 1 << cfg[C_FACE + kind]
        for i in range(steps[colour, kind, origin, 0]):
            to = steps[colour, kind, origin, 1 + i]
            if st[LOWER + to] * sign < 0 and st[UPPER + to] == 0:
                faces[to] |= bit
        for r in range(4):
            for i in range(rays[colour, kind, origin, r, 0]):
                to = rays[colour, kind, origin, r, 1 + i]
                if st[LOWER + to] != 0:
                    if st[LOWER + to] * sign < 0 and st[UPPER + to] == 0:
                        faces[to] |= bit
                    break
    king = 0.0
    best = 0.0
    next_best = 0.0
    ndice = st[NDICE]
    for square in range(81):
        able = faces[square]
        if able == 0:
            continue
        if ndice > 0:
            chance = 0.0
            if ((able >> st[DIE0]) & 1) != 0 or (ndice == 2 and ((able >> st[DIE1]) & 1) != 0):
                chance = 1.0
        else:
            count = 0
            for face in range(1, 7):
                count += (able >> face) & 1
            chance = 1.0 - ((6 - count) / 6) ** 2
        target = -sign * st[LOWER + square]
        if target == KING:
            king = chance
        else:
            gain = chance * worth[target]
            if gain > best:
                next_best = best
                best = gain
            elif gain > next_best:
                next_best = gain
    return king, best + next_best / NEXT_BEST_SHARE


@njit(cache=True)
def evaluate(st, rules, worth):
    """Black's value of ``ShogammonState.evaluate`` (White's is its negative), same operations."""
    cfg = rules[0]
    if ended(st, cfg):
        return black_return(st)
    score = 0.0
    for square in range(81):
        lower = st[LOWER + square]
        if lower != 0:
            upper = st[UPPER + square]
            if upper != 0:
                score += POINT_BONUS * (signed_worth(lower, worth) + signed_worth(upper, worth))
            else:
                score += signed_worth(lower, worth)
    for kind in range(1, 8):
        score += HAND_BONUS * worth[kind] * (st[HANDS + kind] - st[HANDS + 8 + kind])
    side = st[SIDE]
    king, gain = threats(st, rules, worth, side)
    score += gain if side == 0 else -gain
    value = CONFIDENCE * math.tanh(score / MATERIAL_SCALE)
    if king != 0.0:
        mover = value if side == 0 else -value
        mover = CONFIDENCE * king + (1.0 - king) * mover
        value = mover if side == 0 else -mover
    return value


LEARNED_CAP = 0.98
"""The learned search's horizon values are clipped to +-this: below the search's forced result (0.99)."""


@njit(cache=True)
def add_plane(acc, sums, plane, value):
    """Add ``value`` times ``plane``'s first-layer rows summed (a plane of one number everywhere)."""
    if value != 0.0:
        row = sums[plane]
        for j in range(acc.shape[0]):
            acc[j] += value * row[j]


@njit(cache=True)
def learned_score(st, rules, worth, work, net, seat):
    """The learned evaluation of ``st`` (going on) for ``seat``: the network's output before its ``tanh``.

    The network of ``shogames.learning.network`` over the observation
    ``ShogammonState.observation_tensor`` gives ``seat`` (the planes of :func:`observe_row`, seen by
    ``seat`` rather than by the side to move), built here from the state's words: only the squares that
    hold a piece add their first-layer rows, and each constant plane (hands, dice, flags) adds its rows'
    sum times its number. ``net`` is (``rows``: the first layer by plane, cell and hidden unit; ``sums``:
    each plane's rows summed; ``b1``, ``u1``, ``w2``; ``head``: ``b2``, ``c``, 1 where the hand-written
    evaluation is an input, and the most the hidden layer can add to the output (:func:`horizon_value`);
    ``acc``: room for the hidden layer), as
    ``shogames.games.shogammon.kernel.compiled_network`` lays a ``ValueNet`` out. With the hand-written
    evaluation as an input the output is ``c`` times it plus the network's correction, on its scale.
    """
    return network_score(st, rules, work, net, seat, network_prior(st, rules, worth, net, seat))


@njit(cache=True)
def network_prior(st, rules, worth, net, seat):
    """The hand-written evaluation of ``st`` for ``seat`` where ``net`` reads it as an input, else 0."""
    if net[5][2] == 0.0:
        return 0.0
    value = evaluate(st, rules, worth)
    return value if seat == 0 else -value


@njit(cache=True)
def network_score(st, rules, work, net, seat, prior):
    """:func:`learned_score` given ``prior``: the hand-written evaluation for ``seat``.

    ``prior`` is 0 where the network does not read the hand-written evaluation.
    """
    rows, sums, b1, u1, w2, head, acc = net
    cfg = rules[0]
    hidden = acc.shape[0]
    for j in range(hidden):
        acc[j] = b1[j] + prior * u1[j]
    sign = 1 if seat == 0 else -1
    for square in range(81):
        lower = st[LOWER + square]
        if lower == 0:
            continue
        cell = square if seat == 0 else 80 - square
        side = 0 if lower * sign > 0 else 2 * KIND_PLANES
        kind = abs(lower)
        row = rows[side + (kind - 1 if kind <= 12 else kind - 2), cell]
        for j in range(hidden):
            acc[j] += row[j]
        upper = st[UPPER + square]
        if upper != 0:
            kind = abs(upper)
            row = rows[side + KIND_PLANES + (kind - 1 if kind <= 12 else kind - 2), cell]
            for j in range(hidden):
                acc[j] += row[j]
    for kind in range(1, 8):
        for other in range(2):
            count = st[HANDS + 8 * (seat if other == 0 else 1 - seat) + kind]
            if count != 0:
                add_plane(acc, sums, OWN_HAND_PLANE + 7 * other + kind - 1, count / HAND_SIZES[kind])
    if st[NDICE] == 2 and st[DIE0] == st[DIE1]:
        add_plane(acc, sums, DICE_PLANE + st[DIE0] - 1, 1.0)
    else:
        for k in range(st[NDICE]):
            add_plane(acc, sums, DICE_PLANE + st[DIE0 + k] - 1, 0.5)
    if st[NDICE] == 1:
        add_plane(acc, sums, FLAG_PLANE, 1.0)
    if st[SIDE] == seat:
        add_plane(acc, sums, FLAG_PLANE + 1, 1.0)
    if seat == 0:
        add_plane(acc, sums, FLAG_PLANE + 2, 1.0)
    if cfg[C_FOURFOLD] and st[HISTORY] > 0:
        h = standing_hash(st)
        seen = 0
        for i in range(st[HISTORY]):
            if work[W_HISTORY + i] == h:
                seen += 1
        add_plane(acc, sums, FLAG_PLANE + 3, seen / REPETITIONS)
    if cfg[C_MAX_TURNS] > 0:
        add_plane(acc, sums, FLAG_PLANE + 4, st[TURNS] / cfg[C_MAX_TURNS])
    score = head[0] + head[1] * prior
    for j in range(hidden):
        score += w2[j] * math.tanh(acc[j])
    return score


@njit(cache=True)
def perft(st, depth, bulk, rules, moves, work, children):
    """Leaves at exactly ``depth`` plies, rolls included; ``moves`` and ``children`` are per-level space."""
    cfg = rules[0]
    if depth == 0:
        return 1
    if ended(st, cfg):
        return 0
    level = depth - 1
    n = legal_moves(st, rules, moves[level], work)
    if depth == 1 and bulk:
        return n
    total = 0
    child = children[level]
    for i in range(n):
        child[:] = st
        play(child, moves[level, i], rules, work)
        total += perft(child, depth - 1, bulk, rules, moves, work, children)
    return total


@njit(cache=True, parallel=True)
def parallel_perft(st, roots, depth, bulk, rules, work):
    """:func:`perft` to ``depth`` (1 or more) from ``st``, whose legal moves are ``roots``.

    The root's moves are spread over numba's threads, each subtree counted with space of its own.
    """
    leaves = np.zeros(roots.shape[0], dtype=np.int64)
    for i in prange(roots.shape[0]):
        leaves[i] = perft_after(st, roots[i], depth - 1, bulk, rules, work)
    return leaves.sum()


@njit(cache=True)
def perft_after(st, move, depth, bulk, rules, work):
    """:func:`perft` to ``depth`` after ``move`` from ``st`` (left as it is), with space of its own.

    Its work array starts with ``st``'s history, copied from ``work``.
    """
    child = st.copy()
    mine = own_work(work, st)
    play(child, move, rules, mine)
    levels = max(depth, 1)
    moves = np.empty((levels, MAX_MOVES), dtype=np.int64)
    children = np.empty((levels, SIZE), dtype=np.int64)
    return perft(child, depth, bulk, rules, moves, mine, children)


@njit(cache=True)
def own_work(work, st):
    """A new work array holding ``st``'s history from ``work`` (what a thread's line of play starts from)."""
    mine = np.empty_like(work)
    used = W_HISTORY + st[HISTORY]
    mine[:used] = work[:used]
    return mine


@njit(cache=True, parallel=True)
def random_playouts(start, first, games, blocks, seed, rules, returns_out, plies, record, work):
    """Play random games ``first`` .. ``first + games - 1`` from ``start``: two dice per roll, random moves.

    Game ``g`` uses its own SplitMix64 stream from ``seed`` and ``g``, so its moves do not depend on the
    other games or on how the games are shared among numba's threads (``blocks`` blocks of games, one
    per thread, each with its own copy of ``work`` and the start's history in it). The backgammon opening
    roll throws one die each until they differ. Game ``g``'s returns and plies go into row ``g - first``
    of ``returns_out`` and ``plies``, and its moves into that row of ``record`` while there is one.
    """
    blocks = max(1, min(games, blocks))
    for block in prange(blocks):
        play_random_games(
            start, first, first + block * games // blocks, first + (block + 1) * games // blocks, seed, rules,
            returns_out, plies, record, own_work(work, start),
        )  # fmt: skip
    return games


@njit(cache=True)
def play_random_games(start, first, begin, end, seed, rules, returns_out, plies, record, work):
    """Games ``begin`` .. ``end - 1`` of :func:`random_playouts` (from game ``first``), one after the other.

    The settle test's moves (:func:`play_unsettled`, then :func:`turn_moves`) are the next ply's choice.
    """
    cfg = rules[0]
    st = np.empty_like(start)
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    for g in range(begin, end):
        rng = game_stream(seed, g)
        st[:] = start
        row = g - first
        recording = row < record.shape[0]
        played = 0
        count = -1  # the legal moves in ``moves`` where the settle test made them, else -1
        while not ended(st, cfg):
            if st[NDICE] == 0:
                rng, bits = splitmix(rng)
                a = below(bits, 6) + 1
                rng, bits = splitmix(rng)
                b = below(bits, 6) + 1
                if cfg[C_BACKGAMMON] and st[TURNS] == 0:
                    while a == b:
                        rng, bits = splitmix(rng)
                        b = below(bits, 6) + 1
                    move = OPEN | a << 3 | b << 24
                else:
                    move = ROLL | min(a, b) << 3 | max(a, b) << 24
            else:
                if count < 0:
                    count = legal_moves(st, rules, moves, work)
                rng, bits = splitmix(rng)
                move = moves[below(bits, count)]
            if recording and played < record.shape[1]:
                record[row, played] = move
            played += 1
            count = -1
            if play_unsettled(st, move, cfg, work) and not ended(st, cfg):
                count = turn_moves(st, rules, moves, work)
                if count == 0:
                    end_turn(st, cfg, work)  # the dice have no play
                    count = -1
        value = black_return(st)
        returns_out[row, 0] = value
        returns_out[row, 1] = -value if value != 0.0 else 0.0
        plies[row] = played


# --- MCTS ---------------------------------------------------------------------------------------------


@njit(cache=True)
def mcts(
    root, root_moves, simulations, seconds, c, seed, low, scale, rules, worth, work, tree,
    visits_out, values_out, stats,
):  # fmt: skip
    """UCT on the shared tree, with sampled chance nodes and the evaluation at the leaves.

    The search of the ``mcts:rollout=0`` agent (each node sums both seats' values and the seat to move
    selects by its own mean, scaled to 0..1 by ``low`` and ``scale``), compiled. A roll is drawn with
    its exact probability; a decision node tries its moves in a shuffled order, one new child per
    simulation. Stops after ``simulations`` (0: no limit) or ``seconds`` (0: no limit, the clock read
    every 256 simulations). Fills ``visits_out`` and ``values_out`` (the mover's mean) per move of
    ``root_moves`` (the root's legal moves) and ``stats`` with (simulations, nodes). ``tree`` is the
    room for the tree (``common.new_tree``); returns the index of the most visited root move (ties:
    the better mean) and the tree's arrays, grown where they had to be, for the next search.
    """
    cfg = rules[0]
    moves, value, path, counts, limits, rng = common.scratch(
        MAX_MOVES, 2, common.PATH_LENGTH, simulations, seconds, c, seed, low, scale
    )
    pending = root.copy()
    while True:
        count, mode = 0, common.TERMINAL
        if not ended(pending, cfg):
            count = legal_moves(pending, rules, moves, work)
            mode = common.DECISION if pending[NDICE] > 0 else roll_mode(pending, cfg)
        value[0] = evaluate(pending, rules, worth)  # the returns where the game is over
        value[1] = -value[0]
        tree, move, rng = common.step(
            tree, path, counts, limits, pending, moves, count, mode, pending[SIDE], value, rng
        )
        if move < 0:
            break
        if cfg[C_FOURFOLD]:
            restore_history(tree[3], path, counts[common.DEPTH], root[HISTORY], work)
        play(pending, move, rules, work)
    return common.finish(tree, counts, root_moves, root[SIDE], visits_out, values_out, stats)


@njit(cache=True)
def restore_history(states, path, depth, root_history, work):
    """Put the history of the line from the root to ``path[depth]`` back in ``work`` (beyond the root's).

    Every node keeps the hash it added last (``LAST_HASH``) and how long its history is, so the nodes
    on the path give the history's entries after the root's.
    """
    for i in range(1, depth + 1):
        row = states[path[i]]
        if row[HISTORY] > root_history:
            work[W_HISTORY + row[HISTORY] - 1] = row[LAST_HASH]


@njit(cache=True)
def roll_mode(st, cfg):
    """How a roll is drawn before a turn: the backgammon opening roll, or two dice."""
    return common.OPENING_ROLL if cfg[C_BACKGAMMON] and st[TURNS] == 0 else common.TWO_DICE


# --- Alpha-beta (expectiminimax over the rolls) --------------------------------------------------------

MAX_LEVEL = 64  # the deepest line searched, in plies (rolls included); deeper is the horizon
HISTORY_MASK = (1 << 16) - 1  # the history heuristic's table: a move code's hash, 16 bits


@njit(cache=True, inline="always")
def roll_chance(code):
    """The probability of a roll: 1/36 for a double, 2/36 for two faces, 1/30 for an opening roll."""
    if code & 7 == OPEN:
        return 1.0 / 30.0
    return 1.0 / 36.0 if (code >> 3) & 7 == (code >> 24) & 7 else 2.0 / 36.0


@njit(cache=True, inline="always")
def root_sign(st, cfg, seat):
    """-1 where the opponent of ``seat`` chooses a move, else +1 (``seat`` chooses, chance, or the end)."""
    return -1.0 if not ended(st, cfg) and st[NDICE] > 0 and st[SIDE] != seat else 1.0


@njit(cache=True, inline="always")
def history_slot(code):
    return np.int64(common.mix64(U64(code)) & U64(HISTORY_MASK))


# The transposition table (``table``: keys int64, values float64, depths int64, each a power of two long;
# length 0: none) holds the value of a position before its roll, the chance node where a turn's moves
# played in either order meet (the first die's move then the second's, or the second's first). Such a
# value is exact (each roll is searched with a full window, or, with Star1, found inside its window: a
# node cut off is not stored) and taken only at the same depth, so the search returns the plain
# search's values in fewer positions. Its key (:func:`table_key`) holds what the value depends on.
TABLE_DEPTH = 1  # chance nodes with at least this much depth left are looked up and stored


@njit(cache=True)
def table_key(st, ctx, cfg, work):
    """The transposition table's key of ``st`` before its roll (never 0, the empty slot).

    The board, both hands and the side to move (:func:`standing_hash`), the plies and turns played (a
    win's discount and the turn cap), the searching side and the root's ply (the value's point of view
    and discount), and with ``repetition=fourfold`` the positions of the history, as a multiset (how
    often each stood is what a repetition counts).
    """
    h = U64(standing_hash(st))
    h = common.mix64(h ^ (U64(st[PLY]) << U64(32)) ^ U64(st[TURNS]))
    h = common.mix64(h ^ (U64(ctx[AB_ROOT_PLY]) << U64(8)) ^ U64(ctx[AB_SEAT]))
    if cfg[C_FOURFOLD]:
        total = U64(0)
        for i in range(st[HISTORY]):
            total += common.mix64(U64(work[W_HISTORY + i]))
        h = common.mix64(h ^ total)
    return np.int64(h | U64(1))


# ctx (int64): the common alpha-beta counters (common.C_NODES ...), then the searching side, the root's ply,
# whether depth counts whole turns (SearchOptions.turns) rather than moves, whether a roll's outcomes
# are searched in Star1's windows (SearchOptions.star) and how many moves the move filter keeps at a
# decision two or more deep (SearchOptions.move_filter; 0: every move).
AB_SEAT, AB_ROOT_PLY, AB_TURNS, AB_STAR, AB_FILTER = 4, 5, 6, 7, 8
AB_SIZE = 9


@njit(cache=True, inline="always")
def depth_after(st, child, depth, ctx, cfg):
    """The depth left below ``child``, a move's child of ``st``: one less (a move's worth).

    With ``ctx[AB_TURNS]``, one less only where the move ended the turn, so that the horizon falls
    between turns, never after one die.
    """
    if ctx[AB_TURNS] and not ended(child, cfg) and child[NDICE] > 0 and child[SIDE] == st[SIDE]:
        return depth
    return depth - 1


@njit(cache=True)
def horizon_value(st, alpha, beta, sign, rules, worth, work, net, seat):
    """The learned evaluation of the horizon ``st``, lazily: exact where it could fall in the window.

    The value is for the side to move there (``sign``), clipped to +-:data:`LEARNED_CAP`, in alpha-beta's
    terms for the window (``alpha``, ``beta``). The output is ``b2 + c * prior`` plus the hidden layer's
    part, which ``net``'s ``head[3]`` bounds (the sum of ``|w2|``, each ``tanh`` being within +-1).
    Where the whole range that bound allows lies at or below ``alpha`` (at or above ``beta``), its top
    (bottom) is returned without the hidden layer: a bound on the same side of the window as the exact
    value, so the search cuts where it would have, visits the same positions and finds the same values
    and moves. The shipped network moves no value by more than 0.0001, so the hidden layer runs only
    near the window's edges.
    """
    head = net[5]
    prior = network_prior(st, rules, worth, net, seat)
    if head[3] != math.inf:  # a bound (none: the whole network at every horizon)
        guess = head[0] + head[1] * prior
        low = sign * min(max(guess - head[3], -LEARNED_CAP), LEARNED_CAP)
        high = sign * min(max(guess + head[3], -LEARNED_CAP), LEARNED_CAP)
        if low > high:
            low, high = high, low
        if high <= alpha:
            return high
        if low >= beta:
            return low
    value = network_score(st, rules, work, net, seat, prior)
    return sign * min(max(value, -LEARNED_CAP), LEARNED_CAP)


FILTER_SCALE = 1e12  # the filter's evaluations as the integer scores the lazy sort compares


@njit(cache=True)
def filter_moves(st, n, keep, level, ctx, rules, worth, work, moves, scores, child):
    """Bring the moves the filter keeps to the front of ``moves[level, :n]``, best first; return how many.

    Those are the ``keep`` moves whose child the hand-written evaluation values best for the side to
    move at ``st``, and every other move valued as the last of those (so that the choice never depends
    on the moves' order). The values are compared as ``int64(value * FILTER_SCALE)``; each child
    valued counts as a node.
    """
    side = st[SIDE]
    for i in range(n):
        child[:] = st
        play(child, moves[level, i], rules, work)
        value = evaluate(child, rules, worth)
        if side != 0:
            value = -value
        scores[level, i] = np.int64(value * FILTER_SCALE)
    ctx[common.C_NODES] += n
    for i in range(keep):
        common.pick_next(moves[level], scores[level], i, n)
    last = scores[level, keep - 1]
    kept = keep
    for i in range(keep, n):  # the moves valued as the last kept, in the order they stand
        if scores[level, i] == last:
            moves[level, kept], moves[level, i] = moves[level, i], moves[level, kept]
            scores[level, kept], scores[level, i] = scores[level, i], scores[level, kept]
            kept += 1
    return kept


@njit(cache=True)
def expectiminimax(st, depth, alpha, beta, level, ctx, deadline, rules, worth, space):
    """The value of ``st`` searched ``depth`` decisions deep: expectiminimax with alpha-beta.

    The value is for the side to move there (the searching side ``ctx[AB_SEAT]`` at a roll or at the
    end): alpha-beta at the decisions, the rolls' mean at the chance nodes. The values of the
    ``alphabeta`` agent: the searching side's return at the end (a win worth ``WIN_DISCOUNT`` less per
    ply from ``ctx[AB_ROOT_PLY]``), the evaluation at the horizon, a chance node the probability-weighted
    mean of its rolls (each searched with a full window; a roll whose dice have no play, so that
    another roll follows, uses up a decision). ``space`` is (work, moves, scores, children, history,
    net, table): the work array, the per-ply buffers that ``level`` indexes, the history heuristic's
    table, the learned evaluation and the transposition table (see :data:`TABLE_DEPTH`).
    """
    if common.out_of_budget(ctx, deadline):
        return 0.0
    cfg = rules[0]
    work, moves, scores, children, history, net, table = space
    seat = ctx[AB_SEAT]
    sign = root_sign(st, cfg, seat)
    if ended(st, cfg):
        value = black_return(st) if seat == 0 else -black_return(st)
        return value * (1.0 - common.WIN_DISCOUNT * (st[PLY] - ctx[AB_ROOT_PLY]))
    if depth <= 0 or level >= MAX_LEVEL - 1:
        if net[6].shape[0] == 0:  # no hidden layer, no network: the hand-written evaluation
            value = evaluate(st, rules, worth)
            return sign * (value if seat == 0 else -value)
        return horizon_value(st, alpha, beta, sign, rules, worth, work, net, seat)
    n = legal_moves(st, rules, moves[level], work)
    child = children[level]
    if st[NDICE] == 0:
        keys, values, depths = table
        key = np.int64(0)
        slot = np.int64(0)
        if keys.shape[0] > 0 and depth >= TABLE_DEPTH:
            key = table_key(st, ctx, cfg, work)
            slot = key & (keys.shape[0] - 1)
            if keys[slot] == key and depths[slot] == depth:
                return values[slot]
        total = 0.0
        left = 1.0  # the chance of the rolls not yet searched, this one included
        for i in range(n):
            chance = roll_chance(moves[level, i])
            low, high = -common.INF, common.INF  # the window this roll's value is searched in
            cut_low, cut_high = -common.INF, common.INF
            if ctx[AB_STAR]:  # Star1: this outcome's window, from the node's and the outcomes so far
                cut_low, cut_high, low, high = common.star1_window(alpha, beta, total, left, chance)
                if low >= high:  # no value within the bounds brings the mean inside (alpha, beta)
                    return total + left * (
                        common.VALUE_HIGH if cut_low >= common.VALUE_HIGH else common.VALUE_LOW
                    )
            child[:] = st
            play(child, moves[level, i], rules, work)
            below_depth = depth - 1 if not ended(child, cfg) and child[NDICE] == 0 else depth
            mine = root_sign(child, cfg, seat) == 1.0
            if mine:
                value = expectiminimax(
                    child, below_depth, low, high, level + 1, ctx, deadline, rules, worth, space
                )
            else:
                value = -expectiminimax(
                    child, below_depth, -high, -low, level + 1, ctx, deadline, rules, worth, space
                )
            if ctx[common.C_ABORT]:
                return 0.0
            left -= chance
            cut, bound = common.star1_cut(value, total, chance, left, cut_low, cut_high)
            if cut:
                return bound
            total += chance * value
        if key != 0:
            keys[slot] = key
            values[slot] = total
            depths[slot] = depth
        return total
    keep = ctx[AB_FILTER]
    if keep > 0 and depth >= 2 and n > keep:
        n = filter_moves(st, n, keep, level, ctx, rules, worth, work, moves, scores, child)
    else:
        for i in range(n):
            scores[level, i] = history[history_slot(moves[level, i])]
    best = -common.INF
    for i in range(n):
        move = common.pick_next(moves[level], scores[level], i, n)
        child[:] = st
        play(child, move, rules, work)
        below = depth_after(st, child, depth, ctx, cfg)
        if root_sign(child, cfg, seat) == sign:
            value = expectiminimax(child, below, alpha, beta, level + 1, ctx, deadline, rules, worth, space)
        else:
            value = -expectiminimax(
                child, below, -beta, -alpha, level + 1, ctx, deadline, rules, worth, space
            )
        if ctx[common.C_ABORT]:
            return 0.0
        if value > best:
            best = value
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    history[history_slot(move)] += depth * depth
                    break
    return best


@njit(cache=True)
def alphabeta(
    root, root_moves, max_depth, node_limit, seconds, rules, worth, work, history, root_scores, stats, turns,
    star, net, table, keep,
):  # fmt: skip
    """Iterative deepening expectiminimax from ``root`` (a side to move) over ``root_moves``.

    ``root_moves``' order breaks ties. Fills ``root_scores`` with each root move's value in the deepest
    completed iteration (a move cut off has only a bound) and ``stats`` with (nodes, depth completed);
    returns (the best move's index, its value). The first iteration always completes; later ones stop
    when ``node_limit`` nodes (0: no limit) or ``seconds`` (0: no limit) are spent, keeping the
    previous iteration's move unless a move searched since beat it. Stops early on a forced result
    (|value| > 0.99). ``net`` values the horizon (:func:`expectiminimax`'s; arrays of length 0: the
    hand-written evaluation); ``table`` is the transposition table (arrays of length 0: none).
    """
    cfg = rules[0]
    n = root_moves.shape[0]
    ctx = np.zeros(AB_SIZE, dtype=np.int64)
    ctx[common.C_NODE_LIMIT] = node_limit
    seat = root[SIDE]
    ctx[AB_SEAT] = seat
    ctx[AB_ROOT_PLY] = root[PLY]
    ctx[AB_TURNS] = turns
    ctx[AB_STAR] = star
    ctx[AB_FILTER] = keep
    deadline = common.deadline_after(seconds)
    children = np.empty((MAX_LEVEL + 1, root.shape[0]), dtype=np.int64)
    space = (
        work,
        np.empty((MAX_LEVEL, MAX_MOVES), dtype=np.int64),
        np.empty((MAX_LEVEL, MAX_MOVES), dtype=np.int64),
        children,
        history,
        net,
        table,
    )
    child = children[MAX_LEVEL]
    order, iteration, done, best_index, none_completed = common.new_root(n)
    # The depth completed as an int64 from the start: typed as the literal 0, it would compile a second
    # copy of common.end_iteration.
    completed = np.int64(none_completed)
    best_value = -common.INF
    level = np.int64(1)  # a variable, not a literal: see numba issue #6713 in docs/kernels.md
    for depth in range(1, max_depth + 1):
        iteration_best = common.begin_iteration(ctx, depth, done, order)
        alpha = -common.INF
        for r in range(n):
            index = order[r]
            child[:] = root
            play(child, root_moves[index], rules, work)
            below = depth_after(root, child, depth, ctx, cfg)
            if root_sign(child, cfg, seat) == 1.0:
                value = expectiminimax(
                    child, below, alpha, common.INF, level, ctx, deadline, rules, worth, space
                )
            else:
                value = -expectiminimax(
                    child, below, -common.INF, -alpha, level, ctx, deadline, rules, worth, space
                )
            if ctx[common.C_ABORT]:
                break
            alpha, iteration_best = common.root_record(iteration, done, index, value, alpha, iteration_best)
        order, best_index, best_value, completed, stop = common.end_iteration(
            ctx[common.C_ABORT] != 0, order, done, iteration, root_scores, best_index, best_value,
            iteration_best, alpha, depth, completed,
        )  # fmt: skip
        if stop:
            break
    stats[0] = ctx[common.C_NODES]
    stats[1] = completed
    return best_index, best_value


# --- Batches of games (the batched environment, shogames.envs) -------------------------------------------
#
# A batch is one state array per row (``states``, rows x SIZE) and one SplitMix64 stream per row. Actions
# are the protocol's ids (ShogammonState.move_to_action): :func:`action_of` numbers a move code as the
# reference does, with ``directions`` (2 x 81 * 81: the direction index of a move from origin to to per
# colour, -1 off the lines) built by the kernel from ACTION_DIRECTIONS. ``repetition=fourfold`` has no
# compiled batch (its history would be one per row), so the work arrays here hold no history.

KIND_PLANES = 14  # P L N S G B R K +P +L +N +S +B +R
OWN_HAND_PLANE = 4 * KIND_PLANES
DICE_PLANE = OWN_HAND_PLANE + 14
FLAG_PLANE = DICE_PLANE + 6  # one die played, observer to move, observer is Black, repetitions, cap
OBSERVATION_SIZE = (FLAG_PLANE + 5) * 81


@njit(cache=True)
def action_of(st, code, directions):
    """The action id of a move code at a decision of ``st`` (the reference's ``move_to_action``)."""
    kind = code & 7
    colour = st[SIDE]
    if kind == LOSE:
        return FIRST_LOSE_ACTION + ((code >> 3) & 7) - 1
    to = to_of(code)
    destination = to if colour == 0 else 80 - to
    drop = (code >> 21) & 7
    if kind == ACT and drop != 0:
        return (FIRST_DROP_PLANE - 1 + drop) * 81 + destination
    first = directions[colour, origin_of(code) * 81 + to] + 10 * ((code >> 20) & 1)
    if kind == ACT:
        return first * 81 + destination
    second = directions[colour, (((code >> 27) & 127) - 1) * 81 + to] + 10 * ((code >> 41) & 1)
    return (FIRST_PAIR_PLANE + 20 * first + second) * 81 + destination


@njit(cache=True)
def batch_streams(seed, size):
    """Each row's random stream: :func:`common.game_stream` of the seed and the row."""
    streams = np.empty(size, dtype=np.uint64)
    for row in range(size):
        streams[row] = game_stream(seed, row)
    return streams


@njit(cache=True)
def roll_to_decision(st, stream, rules, work):
    """Roll the dice from ``stream`` (as the playouts do) until a side must move or the game is over."""
    cfg = rules[0]
    while not ended(st, cfg) and st[NDICE] == 0:
        stream, bits = splitmix(stream)
        a = below(bits, 6) + 1
        stream, bits = splitmix(stream)
        b = below(bits, 6) + 1
        if cfg[C_BACKGAMMON] and st[TURNS] == 0:
            while a == b:
                stream, bits = splitmix(stream)
                b = below(bits, 6) + 1
            move = OPEN | a << 3 | b << 24
        else:
            move = ROLL | min(a, b) << 3 | max(a, b) << 24
        play(st, move, rules, work)
    return stream


@njit(cache=True)
def batch_row(st, stream, action, rules, directions, work, moves):
    """Play the action id ``action`` on a row at a decision, then the dice up to the next one.

    Returns the stream and the row's end: 0 going on (or already over: left as it is), 1 ended by the
    rules, 2 cut by the turn cap, -1 no legal move has that id (the row is left as it is).
    """
    cfg = rules[0]
    if ended(st, cfg):
        return stream, 0
    n = legal_moves(st, rules, moves, work)
    code = -1
    for i in range(n):
        if action_of(st, moves[i], directions) == action:
            code = moves[i]
            break
    if code < 0:
        return stream, -1
    play(st, code, rules, work)
    stream = roll_to_decision(st, stream, rules, work)
    if not ended(st, cfg):
        return stream, 0
    return stream, 1 if st[WINNER] >= 0 or st[END] != 0 else 2


@njit(cache=True, parallel=True)
def batch_play(states, streams, actions, stepping, resetting, start, blocks, rules, directions, status):
    """Step (``stepping``) every row by its action, or start a new game in the rows ``resetting`` names.

    ``status`` gets each row's end (:func:`batch_row`; 0 after a reset). The rows are shared among
    ``blocks`` blocks, one per thread, each with work space of its own; a row's game depends only on
    its own stream.
    """
    size = states.shape[0]
    blocks = max(1, min(size, blocks))
    for block in prange(blocks):
        work = np.empty(WORK_SIZE, dtype=np.int64)
        moves = np.empty(MAX_MOVES, dtype=np.int64)
        for row in range(block * size // blocks, (block + 1) * size // blocks):
            st = states[row]
            status[row] = 0
            if stepping:
                streams[row], status[row] = batch_row(
                    st, streams[row], actions[row], rules, directions, work, moves
                )
            elif resetting[row]:
                st[:] = start
                streams[row] = roll_to_decision(st, streams[row], rules, work)


@njit(cache=True, parallel=True)
def batch_mask(states, blocks, rules, directions, out):
    """Each row's legal action ids (``out``, rows x actions, all false once over)."""
    size = states.shape[0]
    blocks = max(1, min(size, blocks))
    for block in prange(blocks):
        work = np.empty(WORK_SIZE, dtype=np.int64)
        moves = np.empty(MAX_MOVES, dtype=np.int64)
        for row in range(block * size // blocks, (block + 1) * size // blocks):
            out[row, :] = False
            st = states[row]
            n = legal_moves(st, rules, moves, work)
            for i in range(n):
                out[row, action_of(st, moves[i], directions)] = True


@njit(cache=True, inline="always")
def fill(out, plane, value):
    for cell in range(plane * 81, plane * 81 + 81):
        out[cell] = value


@njit(cache=True)
def observe_row(st, cfg, out):
    """A row's observation from its side to move (Black once over), as the reference's observation_tensor."""
    out[:] = 0.0
    over = ended(st, cfg)
    seat = 0 if over else st[SIDE]
    sign = 1 if seat == 0 else -1
    for square in range(81):
        lower = st[LOWER + square]
        if lower == 0:
            continue
        cell = square if seat == 0 else 80 - square
        side = 0 if lower * sign > 0 else 2 * KIND_PLANES
        kind = abs(lower)
        out[(side + (kind - 1 if kind <= 12 else kind - 2)) * 81 + cell] = 1.0
        upper = st[UPPER + square]
        if upper != 0:
            kind = abs(upper)
            out[(side + KIND_PLANES + (kind - 1 if kind <= 12 else kind - 2)) * 81 + cell] = 1.0
    for kind in range(1, 8):
        for other in range(2):
            count = st[HANDS + 8 * (seat if other == 0 else 1 - seat) + kind]
            if count != 0:
                fill(out, OWN_HAND_PLANE + 7 * other + kind - 1, count / HAND_SIZES[kind])
    if st[NDICE] == 2 and st[DIE0] == st[DIE1]:
        fill(out, DICE_PLANE + st[DIE0] - 1, 1.0)
    else:
        for k in range(st[NDICE]):
            fill(out, DICE_PLANE + st[DIE0 + k] - 1, 0.5)
    if st[NDICE] == 1:
        fill(out, FLAG_PLANE, 1.0)
    if not over and st[SIDE] == seat:
        fill(out, FLAG_PLANE + 1, 1.0)
    if seat == 0:
        fill(out, FLAG_PLANE + 2, 1.0)
    if cfg[C_MAX_TURNS] > 0:
        fill(out, FLAG_PLANE + 4, st[TURNS] / cfg[C_MAX_TURNS])


@njit(cache=True, parallel=True)
def batch_observe(states, cfg, out):
    """Each row's observation (``out``, rows x 81 * 81) from its side to move's view."""
    for row in prange(states.shape[0]):
        observe_row(states[row], cfg, out[row])
