# mypy: ignore-errors
# (numba compiles this module: its scalars are numpy's uint64/int64, which mypy's int does not model.)
"""The compiled half of the Shobu kernel: numba functions over plain integers and numpy arrays.

Everything here is compiled on first call (``cache=True`` keeps the machine code on disk, so later
processes load it in a fraction of a second). :mod:`shogames.games.shobu.kernel` wraps it for Python callers.

Position: the reference's encoding (``shogames.games.shobu``): bit ``16 * board + 4 * rank + file`` of a
uint64 per colour, plus the seat to move (0 Black, 1 White), the turns played and the winner (-1 none)
as int64. The no-turn loss is not stored: like the reference, it follows from counting the turns.

Move code (int64): ``passive_from | aggressive_from << 6 | direction << 12 | distance << 15``; the pass
of ``no_turn=pass`` is :data:`PASS_CODE` (distance 0).

Rule tables are arguments, not globals: ``rules = (shifts, masks, plans)`` where ``shifts[d, k]`` and
``masks[d, k]`` say how to shift a bitboard ``k + 1`` steps in direction ``d`` (see the reference's
``_RAYS``) and ``plans[seat, h]`` is (passive board mask, aggressive boards mask) for homeboard ``h``.
Numba freezes globals into the machine code; tables passed in can be altered by a test, which is how the
differential tests show that a broken rule is caught. The loops turn the shifts into rotations once
(:func:`rotations`) and keep each direction's values in locals.

Sources: for a position and a direction ``d``, the squares from which a passive or an aggressive move of
one or two steps can start (:func:`direction_sources`). A ply's sources are kept as ``level[d, j]``
(uint64, 8 x 6): ``j`` = passive 1, aggressive 1, passive 2, aggressive 2, then the aggressive sources
of 1 and 2 steps that push a stone off its board (captures, which the search tries first). The turns of
a (homeboard, direction, distance) are the passive sources on that homeboard times the aggressive sources
on the boards of the other colour, so counting them is a product of popcounts.

The batch loops (:func:`random_playouts`, :func:`perft`) spread games (root moves for perft) over
numba's threads with ``prange``; game ``g`` depends only on the seed and ``g``, so a batch's results do
not depend on the number of threads.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from shogames.games.shobu import BOARD_WORTH, MATERIAL_SPREAD, VALUE_SCALE
from shogames.kernels import common
from shogames.kernels.common import (
    C_ABORT,
    C_NODE_LIMIT,
    C_NODES,
    INF,
    WIN_DISCOUNT,
    below,
    deadline_after,
    game_stream,
    lowest_bit,
    mix64,
    out_of_budget,
    pick_next,
    popcount,
    splitmix,
    table_tanh,
)

U64 = np.uint64
ZERO = np.uint64(0)
ONE = np.uint64(1)
BOARD0 = np.uint64(0xFFFF)
PASS_CODE = 0
MAX_MOVES = 1024  # 2 homeboards x 4 stones x 8 directions x 2 distances x 8 aggressive stones
# What generate() writes: every turn, only the captures, or only the turns that are not captures.
ALL_TURNS, CAPTURES, QUIET_TURNS = 0, 1, 2


# --- The rules ----------------------------------------------------------------------------------------


@njit(cache=True)
def rotate_right(bits, amount):
    """``bits`` rotated right by ``amount`` (1-63) bits: one instruction (LLVM turns this into ``ror``)."""
    return (bits >> amount) | (bits << (U64(64) - amount))


@njit(cache=True)
def rotations(rules):
    """Per direction ``d`` and ``k + 1`` steps, the right rotation that stands for the table's shift.

    Shifting by ``s`` (left when negative) then masking equals rotating right by ``s mod 64`` then masking,
    because the mask keeps only squares whose target is on the same board: the bits that wrap around are
    masked off. A rotation needs no branch on the shift's sign.
    """
    shifts = rules[0]
    out = np.empty((8, 3), dtype=np.uint64)
    for d in range(8):
        for k in range(3):
            out[d, k] = U64(shifts[d, k] & 63)
    return out


@njit(cache=True)
def direction_sources(own, opp, empty, occupied, d, rot, masks):
    """(passive 1, aggressive 1, passive 2, aggressive 2): where moves in direction ``d`` may start.

    Passive and aggressive moves of one and two steps, on all four boards (the reference's ``_sources``).
    """
    r1 = rot[d, 0]
    r2 = rot[d, 1]
    m1 = masks[d, 0]
    m2 = masks[d, 1]
    empty1 = rotate_right(empty, r1) & m1
    opp1 = rotate_right(opp, r1) & m1
    opp2 = rotate_right(opp, r2) & m2
    passive1 = own & empty1
    passive2 = passive1 & rotate_right(empty, r2) & m2
    # One step: onto an empty square, or onto an opponent whose next square is empty or off the board.
    aggressive1 = own & (empty1 | (opp1 & ~(rotate_right(occupied, r2) & m2)))
    # Two steps: no own stone on the path, at most one opponent, and a pushed stone needs room beyond.
    aggressive2 = (
        own
        & m2
        & ~((rotate_right(own, r1) & m1) | (rotate_right(own, r2) & m2))
        & ~(opp1 & opp2)
        & (~(opp1 | opp2) | ~(rotate_right(occupied, rot[d, 2]) & masks[d, 2]))
    )
    return passive1, aggressive1, passive2, aggressive2


@njit(cache=True, inline="always")
def fill_sources(own, opp, seat, rot, masks, plans, level):
    """Fill ``level`` with a position's sources (see the module docstring); return its number of turns."""
    passive_home0 = plans[seat, 0, 0]
    aggressive_home0 = plans[seat, 0, 1]
    passive_home1 = plans[seat, 1, 0]
    aggressive_home1 = plans[seat, 1, 1]
    occupied = own | opp
    empty = ~occupied
    count = 0
    for d in range(8):
        passive1, aggressive1, passive2, aggressive2 = direction_sources(
            own, opp, empty, occupied, d, rot, masks
        )
        opp1 = rotate_right(opp, rot[d, 0]) & masks[d, 0]
        opp2 = rotate_right(opp, rot[d, 1]) & masks[d, 1]
        level[d, 0] = passive1
        level[d, 1] = aggressive1
        level[d, 2] = passive2
        level[d, 3] = aggressive2
        level[d, 4] = aggressive1 & opp1 & ~masks[d, 1]
        level[d, 5] = aggressive2 & (opp1 | opp2) & ~masks[d, 2]
        count += (
            popcount(passive1 & passive_home0) * popcount(aggressive1 & aggressive_home0)
            + popcount(passive2 & passive_home0) * popcount(aggressive2 & aggressive_home0)
            + popcount(passive1 & passive_home1) * popcount(aggressive1 & aggressive_home1)
            + popcount(passive2 & passive_home1) * popcount(aggressive2 & aggressive_home1)
        )
    return count


@njit(cache=True)
def sources(own, opp, seat, rot, masks, plans, level):
    """:func:`fill_sources` as a call, for the loops that are not hot enough to inline it."""
    return fill_sources(own, opp, seat, rot, masks, plans, level)


@njit(cache=True, inline="always")
def turn_count(own, opp, seat, rot, masks, plans):
    """How many legal turns the side with stones ``own`` has, from popcounts (nothing stored)."""
    passive_home0 = plans[seat, 0, 0]
    aggressive_home0 = plans[seat, 0, 1]
    passive_home1 = plans[seat, 1, 0]
    aggressive_home1 = plans[seat, 1, 1]
    occupied = own | opp
    empty = ~occupied
    count = 0
    for d in range(8):
        passive1, aggressive1, passive2, aggressive2 = direction_sources(
            own, opp, empty, occupied, d, rot, masks
        )
        count += (
            popcount(passive1 & passive_home0) * popcount(aggressive1 & aggressive_home0)
            + popcount(passive2 & passive_home0) * popcount(aggressive2 & aggressive_home0)
            + popcount(passive1 & passive_home1) * popcount(aggressive1 & aggressive_home1)
            + popcount(passive2 & passive_home1) * popcount(aggressive2 & aggressive_home1)
        )
    return count


@njit(cache=True, inline="always")
def any_turn(own, opp, seat, rot, masks, plans):
    """Whether the side with ``own`` has a legal turn: :func:`turn_count` > 0, stopping at the first."""
    passive_home0 = plans[seat, 0, 0]
    aggressive_home0 = plans[seat, 0, 1]
    passive_home1 = plans[seat, 1, 0]
    aggressive_home1 = plans[seat, 1, 1]
    occupied = own | opp
    empty = ~occupied
    for d in range(8):
        passive1, aggressive1, passive2, aggressive2 = direction_sources(
            own, opp, empty, occupied, d, rot, masks
        )
        if (passive1 & passive_home0) and (aggressive1 & aggressive_home0):
            return True
        if (passive2 & passive_home0) and (aggressive2 & aggressive_home0):
            return True
        if (passive1 & passive_home1) and (aggressive1 & aggressive_home1):
            return True
        if (passive2 & passive_home1) and (aggressive2 & aggressive_home1):
            return True
    return False


@njit(cache=True)
def generate(seat, level, plans, kind, skip, out, n):
    """Append turns to ``out[n:]`` in the reference's order, leaving out the code ``skip``; return the end.

    ``kind``: :data:`ALL_TURNS`, :data:`CAPTURES` or :data:`QUIET_TURNS` (see the module docstring's
    sources). Order: homeboard, direction, distance, passive square, aggressive square (squares lowest
    first). A side with no turn gets none here; the caller adds the pass where the settings allow it.
    """
    for h in range(2):
        passive_mask = plans[seat, h, 0]
        aggressive_mask = plans[seat, h, 1]
        for d in range(8):
            for k in range(2):
                passive = level[d, 2 * k] & passive_mask
                aggressive = level[d, 2 * k + 1]
                if kind == CAPTURES:
                    aggressive = level[d, 4 + k]
                elif kind == QUIET_TURNS:
                    aggressive &= ~level[d, 4 + k]
                aggressive &= aggressive_mask
                if passive == ZERO or aggressive == ZERO:
                    continue
                head = (d << 12) | ((k + 1) << 15)
                while passive:
                    p = lowest_bit(passive)
                    passive &= passive - ONE
                    rest = aggressive
                    while rest:
                        a = lowest_bit(rest)
                        rest &= rest - ONE
                        move = head | p | (a << 6)
                        if move != skip:
                            out[n] = move
                            n += 1
    return n


@njit(cache=True)
def nth_bit(bits, index):
    """The square of the ``index``-th set bit of ``bits``, lowest first."""
    for _ in range(index):
        bits &= bits - ONE
    return lowest_bit(bits)


@njit(cache=True, inline="always")
def any_board_empty(bits):
    """Whether one of the four boards holds none of ``bits``' stones."""
    return (
        (bits & BOARD0) == ZERO
        or (bits & (BOARD0 << U64(16))) == ZERO
        or (bits & (BOARD0 << U64(32))) == ZERO
        or (bits & (BOARD0 << U64(48))) == ZERO
    )


@njit(cache=True, inline="always")
def play(own, opp, move, shifts, masks):
    """Play a turn for the side whose stones are ``own``: returns (own, opp, whether it cleared a board).

    The passive stone moves, then the aggressive stone, pushing a stone on its path one square further
    (off the board when that square is off the board).
    """
    distance = (move >> 15) & 3
    if distance == 0:
        return own, opp, False
    direction = (move >> 12) & 7
    passive_from = move & 63
    aggressive_from = (move >> 6) & 63
    delta = shifts[direction, 0]
    step = delta * distance
    own ^= (ONE << U64(passive_from)) | (ONE << U64(passive_from + step))
    own ^= (ONE << U64(aggressive_from)) | (ONE << U64(aggressive_from + step))
    path = ONE << U64(aggressive_from + delta)
    if distance == 2:
        path |= ONE << U64(aggressive_from + 2 * delta)
    hit = opp & path
    if hit:
        opp ^= hit
        if (ONE << U64(aggressive_from)) & masks[direction, distance]:
            opp |= ONE << U64(aggressive_from + (distance + 1) * delta)
    return own, opp, any_board_empty(opp)


@njit(cache=True)
def play_state(black, white, seat, turns, winner, move, rules):
    """The state after ``move`` as (black, white, seat, turns, winner)."""
    if seat == 0:
        own, opp = black, white
    else:
        own, opp = white, black
    own, opp, cleared = play(own, opp, move, rules[0], rules[1])
    if cleared:
        winner = seat
    if seat == 0:
        return own, opp, 1, turns + 1, winner
    return opp, own, 0, turns + 1, winner


@njit(cache=True)
def outcome(seat, turns, winner, count, max_turns, no_turn_pass):
    """-1 while the game goes on, else the winner (0, 1) or 2 for a draw by the length cap.

    The reference's order: a cleared board, then the length cap, then (``no_turn=lose``) no turn left.
    """
    if winner >= 0:
        return winner
    if turns >= max_turns:
        return 2
    if count == 0 and not no_turn_pass:
        return 1 - seat
    return -1


@njit(cache=True, inline="always")
def material(black, white):
    """Black's evaluation before ``tanh``: the concave per-board worth of Black's minus White's stones.

    The worth of a board holding 0-4 of a side's stones is the reference's ``BOARD_WORTH``.
    """
    score = 0
    for board in range(4):
        shift = U64(16 * board)
        score += (
            BOARD_WORTH[popcount((black >> shift) & BOARD0)]
            - BOARD_WORTH[popcount((white >> shift) & BOARD0)]
        )
    return score


@njit(cache=True)
def black_value(black, white, result):
    """Black's evaluation: the returns when over (``result`` from :func:`outcome`), else the estimate."""
    if result == 0:
        return 1.0
    if result == 1:
        return -1.0
    if result == 2:
        return 0.0
    return VALUE_SCALE * math.tanh(material(black, white) / MATERIAL_SPREAD)


@njit(cache=True)
def position_facts(black, white, seat, turns, winner, max_turns, no_turn_pass, rules, moves):
    """For the Python wrapper: (outcome, number of legal moves written to ``moves``, Black's value)."""
    _, masks, plans = rules
    level = np.empty((8, 6), dtype=np.uint64)
    if seat == 0:
        count = sources(black, white, seat, rotations(rules), masks, plans, level)
    else:
        count = sources(white, black, seat, rotations(rules), masks, plans, level)
    result = outcome(seat, turns, winner, count, max_turns, no_turn_pass)
    n = 0
    if result < 0:
        n = generate(seat, level, plans, np.int64(ALL_TURNS), np.int64(-1), moves, np.int64(0))
        if n == 0:
            moves[0] = PASS_CODE
            n = 1
    return result, n, black_value(black, white, result)


# --- Perft --------------------------------------------------------------------------------------------


@njit(cache=True)
def perft(black, white, seat, turns, winner, depth, bulk, max_turns, no_turn_pass, rules):
    """Leaves at exactly ``depth`` plies (a position that ends earlier adds nothing).

    ``bulk``: count the last level from popcounts; otherwise generate every leaf turn and play it. From
    depth 2 on, the root's turns are spread over numba's threads (:func:`perft_children`).
    """
    if depth == 0:
        return 1
    if winner >= 0:
        return 0
    rot = rotations(rules)
    if seat == 0:
        own, opp = black, white
    else:
        own, opp = white, black
    if depth == 1 or turns >= max_turns:
        src = np.empty((1, 8, 6), dtype=np.uint64)
        return perft_node(own, opp, seat, turns, depth, bulk, max_turns, no_turn_pass, rules, rot, src)
    _, masks, plans = rules
    level = np.empty((8, 6), dtype=np.uint64)
    count = sources(own, opp, seat, rot, masks, plans, level)
    if count == 0 and not no_turn_pass:
        return 0
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    n = generate(seat, level, plans, np.int64(ALL_TURNS), np.int64(-1), moves, np.int64(0))
    if n == 0:
        moves[0] = PASS_CODE
        n = 1
    return perft_children(own, opp, seat, turns, depth, bulk, max_turns, no_turn_pass, rules, rot, moves[:n])


@njit(cache=True, parallel=True)
def perft_children(own, opp, seat, turns, depth, bulk, max_turns, no_turn_pass, rules, rot, moves):
    """The leaves below each of ``moves`` (turns at a position, ``depth`` >= 2), summed over threads."""
    total = 0
    for i in prange(moves.shape[0]):
        total += perft_child(
            own, opp, seat, turns, depth, bulk, max_turns, no_turn_pass, rules, rot, moves[i]
        )
    return total


@njit(cache=True)
def perft_child(own, opp, seat, turns, depth, bulk, max_turns, no_turn_pass, rules, rot, move):
    """The leaves below ``move`` at a position (``depth`` >= 2), with this call's own scratch."""
    new_own, new_opp, cleared = play(own, opp, move, rules[0], rules[1])
    if cleared:
        return 0
    src = np.empty((depth - 1, 8, 6), dtype=np.uint64)
    return perft_node(
        new_opp, new_own, 1 - seat, turns + 1, depth - 1, bulk, max_turns, no_turn_pass, rules, rot, src
    )


@njit(cache=True)
def perft_node(own, opp, seat, turns, depth, bulk, max_turns, no_turn_pass, rules, rot, src):
    """Perft below a position with no winner yet, ``depth`` >= 1, the side to move holding ``own``.

    Interior levels generate each turn and play it in the same loop (no move list); the level above
    the bulk-counted leaves counts each child's turns in place (:func:`turn_count`) instead of
    descending. ``src[depth - 1]`` holds this level's sources.
    """
    if turns >= max_turns:
        return 0
    shifts, masks, plans = rules
    level = src[depth - 1]
    count = sources(own, opp, seat, rot, masks, plans, level)
    if count == 0:
        if not no_turn_pass:
            return 0
        if depth == 1:
            return 1  # the pass: its leaf is the same stones with the other side to move
        return perft_node(
            opp, own, 1 - seat, turns + 1, depth - 1, bulk, max_turns, no_turn_pass, rules, rot, src
        )
    if depth == 1:
        if bulk:
            return count
        return play_every_turn(own, opp, seat, level, rules)[0]
    other = 1 - seat
    last = depth == 2 and bulk
    child_capped = turns + 1 >= max_turns
    total = 0
    for h in range(2):
        passive_mask = plans[seat, h, 0]
        aggressive_mask = plans[seat, h, 1]
        for d in range(8):
            delta = shifts[d, 0]
            for k in range(2):
                passive = level[d, 2 * k] & passive_mask
                aggressive = level[d, 2 * k + 1] & aggressive_mask
                if passive == ZERO or aggressive == ZERO:
                    continue
                step = shifts[d, k]
                room = masks[d, k + 1]  # squares whose stone, pushed k + 2 squares, stays on the board
                while passive:
                    p = lowest_bit(passive)
                    passive &= passive - ONE
                    own_after_passive = own ^ (ONE << U64(p)) ^ (ONE << U64(p + step))
                    rest = aggressive
                    while rest:
                        a = lowest_bit(rest)
                        rest &= rest - ONE
                        new_own = own_after_passive ^ (ONE << U64(a)) ^ (ONE << U64(a + step))
                        path = ONE << U64(a + delta)
                        if k == 1:
                            path |= ONE << U64(a + 2 * delta)
                        hit = opp & path
                        new_opp = opp ^ hit
                        if hit and (ONE << U64(a)) & room:
                            new_opp |= ONE << U64(a + (k + 2) * delta)
                        if any_board_empty(new_opp) or child_capped:
                            continue  # the game is over after this turn: no leaves below it
                        if last:
                            leaves = turn_count(new_opp, new_own, other, rot, masks, plans)
                            total += leaves if leaves else (1 if no_turn_pass else 0)
                        else:
                            total += perft_node(
                                new_opp, new_own, other, turns + 1, depth - 1, bulk, max_turns, no_turn_pass,
                                rules, rot, src,
                            )  # fmt: skip
    return total


@njit(cache=True)
def play_every_turn(own, opp, seat, level, rules):
    """Generate every legal turn and build the position after it; return (how many, a checksum).

    Perft's last level without bulk counting: the same turns as :func:`generate` and the same positions
    as :func:`play`, fused into one loop so that no move code is written and read back. Every leaf's
    stones and board-clearing flag go into the checksum, so the compiler cannot skip building them
    (``tests/test_kernel_shobu.py`` checks it against the reference's positions).
    """
    shifts, masks, plans = rules
    count = 0
    checksum = ZERO
    for h in range(2):
        passive_mask = plans[seat, h, 0]
        aggressive_mask = plans[seat, h, 1]
        for d in range(8):
            delta = shifts[d, 0]
            for k in range(2):
                passive = level[d, 2 * k] & passive_mask
                aggressive = level[d, 2 * k + 1] & aggressive_mask
                if passive == ZERO or aggressive == ZERO:
                    continue
                step = shifts[d, k]
                room = masks[d, k + 1]  # squares whose stone, pushed k + 2 squares, stays on the board
                while passive:
                    p = lowest_bit(passive)
                    passive &= passive - ONE
                    own_after_passive = own ^ (ONE << U64(p)) ^ (ONE << U64(p + step))
                    rest = aggressive
                    while rest:
                        a = lowest_bit(rest)
                        rest &= rest - ONE
                        new_own = own_after_passive ^ (ONE << U64(a)) ^ (ONE << U64(a + step))
                        path = ONE << U64(a + delta)
                        if k == 1:
                            path |= ONE << U64(a + 2 * delta)
                        hit = opp & path
                        new_opp = opp ^ hit
                        if hit and (ONE << U64(a)) & room:
                            new_opp |= ONE << U64(a + (k + 2) * delta)
                        checksum ^= (
                            (new_own * U64(0x9E3779B97F4A7C15)) ^ new_opp ^ U64(any_board_empty(new_opp))
                        )
                        count += 1
    return count, np.int64(checksum >> U64(1))


@njit(cache=True)
def leaf_checksum(own, opp, seat, rules):
    """:func:`play_every_turn` at one position (for :meth:`ShobuKernel.leaf_checksum`)."""
    _, masks, plans = rules
    level = np.empty((8, 6), dtype=np.uint64)
    sources(own, opp, seat, rotations(rules), masks, plans, level)
    return play_every_turn(own, opp, seat, level, rules)


# --- Random playouts ----------------------------------------------------------------------------------


@njit(cache=True, parallel=True)
def random_playouts(start, games, seed, max_turns, no_turn_pass, rules, returns, plies, record):
    """Play ``games`` uniformly random games from ``start``; fill ``returns[g]`` and ``plies[g]``.

    ``start`` is (black, white, seat, turns, winner + 1) as uint64. Game ``g`` uses its own stream
    (:func:`game_stream`), so a batch's first games do not depend on its size or on how the games are
    spread over numba's threads (``prange``). When ``record`` has rows, game ``g``'s move codes go to
    ``record[g]``.
    """
    rot = rotations(rules)
    for g in prange(games):
        random_playout(start, np.int64(g), seed, max_turns, no_turn_pass, rules, rot, returns, plies, record)
    return games


@njit(cache=True)
def random_playout(start, g, seed, max_turns, no_turn_pass, rules, rot, returns, plies, record):
    """Game ``g`` of :func:`random_playouts`, every ply in this one loop.

    A uniformly random turn is the ``index``-th of :func:`generate`'s order for a uniform ``index``: each
    ply computes the sources of the eight directions (:func:`direction_sources`), the turns of each
    (homeboard, direction, distance) bucket as a product of popcounts, draws ``index``, finds its bucket
    and its two stones, and plays the turn, without generating the others.
    """
    shifts, masks, plans = rules
    src = np.empty((8, 4), dtype=np.uint64)
    bucket = np.empty(32, dtype=np.int64)
    rng = game_stream(seed, g)
    black = start[0]
    white = start[1]
    seat = np.int64(start[2])
    turns = np.int64(start[3])
    winner = np.int64(start[4]) - 1
    recording = g < record.shape[0]
    played = 0
    result = -1
    while True:
        if winner >= 0:
            result = winner
            break
        if turns >= max_turns:
            result = 2
            break
        if seat == 0:
            own, opp = black, white
        else:
            own, opp = white, black
        occupied = own | opp
        empty = ~occupied
        passive_home0 = plans[seat, 0, 0]
        aggressive_home0 = plans[seat, 0, 1]
        passive_home1 = plans[seat, 1, 0]
        aggressive_home1 = plans[seat, 1, 1]
        count = 0
        for d in range(8):
            passive1, aggressive1, passive2, aggressive2 = direction_sources(
                own, opp, empty, occupied, d, rot, masks
            )
            src[d, 0] = passive1
            src[d, 1] = aggressive1
            src[d, 2] = passive2
            src[d, 3] = aggressive2
            c = popcount(passive1 & passive_home0) * popcount(aggressive1 & aggressive_home0)
            bucket[2 * d] = c
            count += c
            c = popcount(passive2 & passive_home0) * popcount(aggressive2 & aggressive_home0)
            bucket[2 * d + 1] = c
            count += c
            c = popcount(passive1 & passive_home1) * popcount(aggressive1 & aggressive_home1)
            bucket[16 + 2 * d] = c
            count += c
            c = popcount(passive2 & passive_home1) * popcount(aggressive2 & aggressive_home1)
            bucket[17 + 2 * d] = c
            count += c
        if count == 0:
            if not no_turn_pass:
                result = 1 - seat
                break
            move = PASS_CODE
        else:
            rng, bits = splitmix(rng)
            index = below(bits, count)
            b = 0
            while index >= bucket[b]:
                index -= bucket[b]
                b += 1
            h = b >> 4
            d = (b >> 1) & 7
            k = b & 1
            passive = src[d, 2 * k] & plans[seat, h, 0]
            aggressive = src[d, 2 * k + 1] & plans[seat, h, 1]
            n_aggressive = np.uint32(popcount(aggressive))
            quotient = np.uint32(index) // n_aggressive  # 32-bit division: quicker than 64-bit
            p = nth_bit(passive, quotient)
            a = nth_bit(aggressive, np.uint32(index) - quotient * n_aggressive)
            move = (d << 12) | ((k + 1) << 15) | p | (a << 6)
            # Play it (as :func:`play`): the passive stone, then the aggressive one with any push.
            delta = shifts[d, 0]
            step = delta * (k + 1)
            own ^= (ONE << U64(p)) | (ONE << U64(p + step)) | (ONE << U64(a)) | (ONE << U64(a + step))
            path = ONE << U64(a + delta)
            if k == 1:
                path |= ONE << U64(a + 2 * delta)
            hit = opp & path
            if hit:
                opp ^= hit
                if (ONE << U64(a)) & masks[d, k + 1]:
                    opp |= ONE << U64(a + (k + 2) * delta)
            if any_board_empty(opp):
                winner = seat
            if seat == 0:
                black, white = own, opp
            else:
                black, white = opp, own
        if recording and played < record.shape[1]:
            record[g, played] = move
        seat = 1 - seat
        turns += 1
        played += 1
    value = black_value(black, white, result)
    returns[g, 0] = value
    returns[g, 1] = -value
    plies[g] = played


# --- Alpha-beta ---------------------------------------------------------------------------------------

# ctx (int64): the search's counters and limits (the first four are shogames.kernels.common's).
C_ROOT_TURNS, C_GENERATION, C_MAX_TURNS, C_PASS = range(4, 8)
# The search's options (:class:`~shogames.core.kernel.SearchOptions`): principal variation search, killer
# moves, the plies of captures searched past the horizon (quiescence), late move reductions, aspiration
# windows at the root and the null move's reduction; then whether a null move's search is under way.
C_PVS, C_KILLERS, C_QUIESCENCE, C_REDUCTIONS, C_ASPIRATION, C_NULL_MOVE, C_IN_NULL = range(8, 15)
CTX_SIZE = 15
EXTEND = 5
"""``options[EXTEND]``: how many times its node budget the search may spend while its best move changes."""
NULL_MOVE = 6
"""``options[NULL_MOVE]``: the plies a null move's search is reduced by (0: no null moves)."""
ASPIRATION_MATERIAL = 2.0
"""With aspiration windows, the root's window reaches this far either side of the last iteration's score
with the material evaluation (a stone taken from a full board is worth 2)."""
ASPIRATION_LEARNED = 40.0
"""The same with a learned evaluation (scores of :data:`LEARNED_SCALE` a unit of value: 0.04)."""
FULL_DEPTH_QUIET = 3
"""With late move reductions, the quiet turns searched to full depth first at a node, before the rest are
searched one ply shallower."""
KILLER_ORDER = np.int64(1) << np.int64(60)
"""A killer move's sort key among the quiet turns: above every history counter."""
# Transposition table entry (four uint64): black, white, info, score (an int64: scores are whole numbers).
# Info: move (17 bits) | depth << 17 (8 bits) | bound << 25 (2 bits) | seat << 27 | generation << 28.
EXACT, LOWER, UPPER = 0, 1, 2
MAX_PLY = 128
# The search compares scores, not values: a score is the material difference (an integer, see
# :func:`material`) at the horizon, +-(WIN_SCORE - plies) for a game won or lost that many plies from the
# root, and 0 for a draw. Values (:func:`score_value`) are a strictly increasing, odd function of scores,
# so every comparison, cut and table bound of the search is the same in either; scores spare the tanh
# at every leaf, and the root turns its scores into values.
WIN_SCORE = 10_000.0
# Stages of a node's turns (see negamax): the table's move, the captures, the other turns, none left.
TABLE_MOVE, CAPTURE_STAGE, QUIET_STAGE, NO_STAGE = range(4)


@njit(cache=True, inline="always")
def position_hash(black, white, seat):
    """A 64-bit hash of a position (a SplitMix64 finaliser over both colours and the side to move)."""
    return mix64(black ^ (white * U64(0x9E3779B97F4A7C15)) ^ U64(seat + 1) * U64(0xC2B2AE3D27D4EB4F))


@njit(cache=True, inline="always")
def terminal_score(result, seat, turns, root_turns):
    """The score for ``seat`` of a finished game (``result`` from :func:`outcome`)."""
    if result == 2:
        return 0.0
    score = WIN_SCORE - (turns - root_turns)
    return score if result == seat else -score


@njit(cache=True)
def score_value(score):
    """The value of a search score: the evaluation of a material difference, or a discounted result.

    A win ``plies`` plies from the root is worth ``1 - WIN_DISCOUNT * plies`` (the agents' rule), a
    material difference ``d`` the reference's evaluation ``VALUE_SCALE * tanh(d / MATERIAL_SPREAD)``.
    """
    if score > WIN_SCORE / 2:
        return 1.0 - WIN_DISCOUNT * (WIN_SCORE - score)
    if score < -WIN_SCORE / 2:
        return -(1.0 - WIN_DISCOUNT * (WIN_SCORE + score))
    return VALUE_SCALE * math.tanh(score / MATERIAL_SPREAD)


LEARNED_SCALE = 1000.0
"""A learned value ``v`` (-1 .. 1) is the score ``round(LEARNED_SCALE * v)``: whole, and far from a win's."""


@njit(cache=True, inline="always")
def add_stones(acc, rows, seat, plane, bits, sign):
    """Add (``sign`` 1) or take away (-1) the first-layer rows of the stones ``bits`` of ``plane``."""
    size = acc.shape[0]
    while bits:
        bit = lowest_bit(bits)
        bits &= bits - ONE
        for k in range(size):
            acc[k] += sign * rows[seat, plane, bit, k]


@njit(cache=True, inline="always")
def sum_stones(acc, rows, view, own, opp):
    """Set ``acc`` to the first-layer rows of ``view``'s stones ``own`` (plane 0) and ``opp`` (plane 1)."""
    acc[:] = 0.0
    add_stones(acc, rows, view, 0, own, 1.0)
    add_stones(acc, rows, view, 1, opp, 1.0)


@njit(cache=True, inline="always")
def update_stones(acc, parent, rows, view, old_own, old_opp, own, opp):
    """Set ``acc`` to ``parent``'s sums (of ``old_own``, ``old_opp``) changed to those of ``own``, ``opp``.

    Only the stones a move took away or put down are taken away or added (NNUE's incremental update).
    """
    for k in range(acc.shape[0]):
        acc[k] = parent[k]
    add_stones(acc, rows, view, 0, old_own & ~own, -1.0)
    add_stones(acc, rows, view, 0, own & ~old_own, 1.0)
    add_stones(acc, rows, view, 1, old_opp & ~opp, -1.0)
    add_stones(acc, rows, view, 1, opp & ~old_opp, 1.0)


@njit(cache=True, inline="always")
def score_from_stones(acc, black, white, seat, turns, max_turns, net):
    """The learned score (:func:`learned_score`) from ``acc``, the sum of the stones' first-layer rows."""
    _, base, progress, u1, w2, head, _ = net
    prior = 0.0
    if head[2] != 0.0:
        mat = np.float64(material(black, white))
        prior = VALUE_SCALE * math.tanh((mat if seat == 0 else -mat) / MATERIAL_SPREAD)
    fraction = min(turns, max_turns) / max_turns
    z = head[0] + head[1] * prior
    for k in range(base.shape[0]):
        z += table_tanh(acc[k] + base[k] + fraction * progress[k] + prior * u1[k]) * w2[k]
    return np.float64(round(LEARNED_SCALE * math.tanh(z)))


@njit(cache=True)
def learned_score(black, white, seat, turns, max_turns, net):
    """The learned evaluation's score of a position for the side to move ``seat`` (see :data:`LEARNED_SCALE`).

    ``net`` is the network laid out for bitboards (``bitboard_network``): ``rows[seat, plane, bit]``
    is the first layer's weights of a stone of the observer (plane 0) or the opponent (plane 1) on
    ``bit``, as :func:`view_cell` places it in ``seat``'s observation; ``base`` adds the biases and the
    plane of ones ("observer to move"), ``progress`` the plane of turns over ``max_turns``; ``u1`` and
    ``head`` (``b2``, ``c``, whether there is a prior) take the prior, the hand-written evaluation;
    ``hidden`` is room for sums of stones (three, then the quiescence nodes' rows, see
    :data:`QUIESCENCE_ROWS`). The same operations as ``ValueNet.forward`` on the reference's
    observation, with float32 sums in another order.
    """
    acc = net[6][0]
    own, opp = (black, white) if seat == 0 else (white, black)
    sum_stones(acc, net[0], seat, own, opp)
    return score_from_stones(acc, black, white, seat, turns, max_turns, net)


@njit(cache=True, inline="always")
def horizon_learned(b, w, other, turns, winner, ctx, rot, masks, plans, net, parent, old_own, old_opp):
    """:func:`leaf_score` with the learned evaluation, updated from the position before the move.

    ``parent`` is the sum of the stones' rows of the position before the move in ``other``'s view
    (``old_own`` its stones, ``old_opp`` the mover's). Only the stones the move changed are added or
    taken away (a turn moves two stones and may push a third), as an efficiently updatable network
    does (NNUE).
    """
    result = leaf_result(b, w, other, turns, winner, ctx, rot, masks, plans)
    if result >= 0:
        return terminal_score(result, other, turns, ctx[C_ROOT_TURNS])
    acc = net[6][2]
    own, opp = (b, w) if other == 0 else (w, b)
    update_stones(acc, parent, net[0], other, old_own, old_opp, own, opp)
    return score_from_stones(acc, b, w, other, turns, ctx[C_MAX_TURNS], net)


QUIESCENCE_ROWS = 3
"""The learned network's scratch rows (``net[6]``) from this one on hold the sums of the stones'
first-layer rows of the quiescence nodes, row ``QUIESCENCE_ROWS + 2 * ply + view`` for the node at ``ply``
seen by seat ``view``. A node's sums in its own view come from its parent's in that view, changed by the
stones the capture moved (NNUE's incremental update); a node sums its stones in the other view only when
it has captures to search, for its children."""


@njit(cache=True, inline="always")
def fill_view(net, ply, view, black, white):
    """Sum the first-layer rows of the stones of (``black``, ``white``) seen by ``view`` in ``ply``'s row."""
    own, opp = (black, white) if view == 0 else (white, black)
    sum_stones(net[6][QUIESCENCE_ROWS + 2 * ply + view], net[0], view, own, opp)


@njit(cache=True, inline="always")
def child_view(net, ply, view, black, white, b, w):
    """Fill ``ply + 1``'s row seen by ``view`` for (``b``, ``w``), one move after ``ply``'s position.

    That position is (``black``, ``white``): its sums in that view, less the rows of the stones the move
    took away and plus those it put down.
    """
    parent = net[6][QUIESCENCE_ROWS + 2 * ply + view]
    acc = net[6][QUIESCENCE_ROWS + 2 * (ply + 1) + view]
    old_own, old_opp, own, opp = (black, white, b, w) if view == 0 else (white, black, w, b)
    update_stones(acc, parent, net[0], view, old_own, old_opp, own, opp)


@njit(cache=True, inline="always")
def leaf_result(black, white, seat, turns, winner, ctx, rot, masks, plans):
    """A horizon node's result (see :func:`outcome`), or -1 while it goes on.

    Past the turn limit it is a draw; without a turn for ``seat`` (where passing is not allowed) it is
    lost. It asks only whether a turn exists (:func:`any_turn`), not how many.
    """
    result = winner
    if result < 0:
        if turns >= ctx[C_MAX_TURNS]:
            result = 2
        elif not ctx[C_PASS]:
            own, opp = (black, white) if seat == 0 else (white, black)
            if not any_turn(own, opp, seat, rot, masks, plans):
                result = 1 - seat
    return result


@njit(cache=True)
def root_value(score, net):
    """A root move's value from its score: :func:`score_value`, or the learned value where ``net`` has one."""
    if net[1].shape[0] > 0 and -WIN_SCORE / 2 < score < WIN_SCORE / 2:
        return score / LEARNED_SCALE
    return score_value(score)


@njit(cache=True, inline="always")
def evaluation_score(black, white, seat, turns, ctx, net):
    """The evaluation's score for the side to move ``seat``, before any result is looked at.

    The learned one where ``net`` holds a network (its ``base`` is not empty), else the material.
    """
    if net[1].shape[0] > 0:
        return learned_score(black, white, seat, turns, ctx[C_MAX_TURNS], net)
    score = np.float64(material(black, white))
    return score if seat == 0 else -score


@njit(cache=True, inline="always")
def leaf_score(black, white, seat, turns, winner, ctx, rot, masks, plans, net):
    """A horizon node's score for the side to move: the result if the game is over, else the evaluation.

    The evaluation is the material, or the learned one where ``net`` holds a network (its ``base`` is
    not empty). It asks only whether a turn exists (:func:`any_turn`), not how many.
    """
    result = leaf_result(black, white, seat, turns, winner, ctx, rot, masks, plans)
    if result >= 0:
        return terminal_score(result, seat, turns, ctx[C_ROOT_TURNS])
    return evaluation_score(black, white, seat, turns, ctx, net)


@njit(cache=True)
def horizon_score(black, white, seat, turns, winner, ctx, deadline, rot, masks, plans, net):
    """A node at the horizon searched by itself (the root's children at depth 1): counted, then scored."""
    if out_of_budget(ctx, deadline):
        return 0.0
    return leaf_score(black, white, seat, turns, winner, ctx, rot, masks, plans, net)


@njit(cache=True)
def quiesce(
    black, white, seat, turns, winner, alpha, beta, left, ply, ctx, deadline, rules, rot, src, moves, net
):  # fmt: skip
    """The score of a position past the horizon: the evaluation, or better, ``left`` plies of captures on.

    The side to move may stand on the evaluation (it need not capture) or push a stone off a board; the
    opponent may answer with captures in turn, while ``left`` > 0. A position where a stone is about to
    be pushed off is not valued as if it were quiet (quiescence search, as chess engines do for captures).
    Each position is counted as a node. With a learned evaluation the caller has put this position's
    sums of stones in its own view in ``ply``'s row (:func:`fill_view`, :func:`child_view`).
    """
    if out_of_budget(ctx, deadline):
        return 0.0
    if winner >= 0:
        return terminal_score(winner, seat, turns, ctx[C_ROOT_TURNS])
    if turns >= ctx[C_MAX_TURNS]:
        return 0.0
    shifts, masks, plans = rules
    learned = net[1].shape[0] > 0
    if learned:
        acc = net[6][QUIESCENCE_ROWS + 2 * ply + seat]
        best = score_from_stones(acc, black, white, seat, turns, ctx[C_MAX_TURNS], net)
    else:
        best = evaluation_score(black, white, seat, turns, ctx, net)
    if left <= 0 or best >= beta or ply + 1 >= MAX_PLY:  # no captures searched: is there a turn at all?
        result = leaf_result(black, white, seat, turns, winner, ctx, rot, masks, plans)
        return terminal_score(result, seat, turns, ctx[C_ROOT_TURNS]) if result >= 0 else best
    own, opp = (black, white) if seat == 0 else (white, black)
    level = src[ply]
    count = fill_sources(own, opp, seat, rot, masks, plans, level)
    if count == 0:
        return best if ctx[C_PASS] else terminal_score(1 - seat, seat, turns, ctx[C_ROOT_TURNS])
    alpha = max(alpha, best)
    codes = moves[ply]
    n = generate(seat, level, plans, CAPTURES, -1, codes, 0)
    if learned and n > 0:  # the children's own view is the opponent's
        fill_view(net, ply, 1 - seat, black, white)
    for i in range(n):
        new_own, new_opp, cleared = play(own, opp, codes[i], shifts, masks)
        x = seat if cleared else winner
        b, w = (new_own, new_opp) if seat == 0 else (new_opp, new_own)
        if learned:
            child_view(net, ply, 1 - seat, black, white, b, w)
        value = -quiesce(
            b, w, 1 - seat, turns + 1, x, -beta, -alpha, left - 1, ply + 1, ctx, deadline, rules, rot, src,
            moves, net,
        )  # fmt: skip
        if ctx[C_ABORT]:
            return 0.0
        if value > best:
            best = value
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    return best


@njit(cache=True)
def negamax(
    black, white, seat, turns, winner, depth, alpha, beta, ply, ctx, deadline, rules, rot, table, history,
    src, moves, scores, net, killers,
):  # fmt: skip
    """The score (see :data:`WIN_SCORE`) of the position for the side to move, searched ``depth`` >= 1 plies.

    Scores stand for the agents' values (:func:`score_value`): results at the end (a win discounted by
    the plies it takes), the evaluation at the horizon, always from the side to move's point of view.

    Turns are generated in stages, each only when the search gets to it: the table's move, then the
    captures (a stone pushed off its board), then the other turns, by the history heuristic above the
    last ply (a ply above the horizon only captures change the evaluation, so they go unsorted). The
    children at the horizon are scored in this loop (:func:`leaf_score`), each counted as a node as if
    searched by a call, or searched on through their captures (:func:`quiesce`).

    Options in ``ctx``: with ``C_PVS`` every move after the first is searched with a null window
    first, and again with the full window only if it beats ``alpha`` (principal variation search); with
    ``C_KILLERS`` the last two quiet turns that cut at this ply (``killers[ply]``) are tried first of the
    quiet turns; with ``C_REDUCTIONS`` the quiet turns after the first :data:`FULL_DEPTH_QUIET` at a
    node ``depth`` >= 3 are searched one ply shallower with a null window first, and again at full depth
    only where that beats ``alpha`` (late move reductions); with ``C_NULL_MOVE`` = R and ``C_PVS``, a
    node searched with a null window (not on the principal variation) whose evaluation already reaches
    ``beta`` first lets the opponent move twice: if a search of that ``depth - 1 - R`` plies deep (or
    its captures alone, where that is under one ply) still reaches ``beta``, the node is cut off
    without a turn searched (null move pruning, as chess engines do; never two null moves in a line).
    """
    if out_of_budget(ctx, deadline):
        return 0.0
    if winner >= 0:
        return terminal_score(winner, seat, turns, ctx[C_ROOT_TURNS])
    if turns >= ctx[C_MAX_TURNS]:
        return 0.0
    shifts, masks, plans = rules
    if seat == 0:
        own, opp = black, white
    else:
        own, opp = white, black
    level = src[ply]
    count = fill_sources(own, opp, seat, rot, masks, plans, level)
    if count == 0 and not ctx[C_PASS]:
        return terminal_score(1 - seat, seat, turns, ctx[C_ROOT_TURNS])

    slot = np.int64(position_hash(black, white, seat) & U64(table.shape[0] - 1))
    entry = table[slot]
    tt_move = -1
    if entry[0] == black and entry[1] == white and ((entry[2] >> U64(27)) & ONE) == U64(seat):
        info = np.int64(entry[2])
        tt_move = info & 0x1FFFF
        if (info >> 28) == ctx[C_GENERATION] and ((info >> 17) & 0xFF) >= depth:
            bound = (info >> 25) & 3
            stored = np.float64(np.int64(entry[3]))
            if bound == EXACT:
                return stored
            if bound == LOWER:
                alpha = max(alpha, stored)
            else:
                beta = min(beta, stored)
            if alpha >= beta:
                return stored

    other = 1 - seat
    if (
        ctx[C_NULL_MOVE] > 0
        and ctx[C_IN_NULL] == 0
        and count > 0
        and depth >= 2
        and ctx[C_PVS] != 0
        and beta - alpha <= 1.0
        and abs(beta) < WIN_SCORE / 2
        and evaluation_score(black, white, seat, turns, ctx, net) >= beta
    ):
        null_depth = depth - 1 - ctx[C_NULL_MOVE]
        ctx[C_IN_NULL] = 1
        if null_depth >= 1:
            value = -negamax(
                black, white, other, turns + 1, winner, null_depth, -beta, -beta + 1.0, ply + 1, ctx,
                deadline, rules, rot, table, history, src, moves, scores, net, killers,
            )  # fmt: skip
        else:
            if net[1].shape[0] > 0:
                fill_view(net, ply + 1, other, black, white)
            value = -quiesce(
                black, white, other, turns + 1, winner, -beta, -beta + 1.0, ctx[C_QUIESCENCE], ply + 1, ctx,
                deadline, rules, rot, src, moves, net,
            )  # fmt: skip
        ctx[C_IN_NULL] = 0
        if ctx[C_ABORT]:
            return 0.0
        if value >= beta:
            return beta  # not the null line's value: a win found there is not this position's

    codes = moves[ply]
    order = scores[ply]
    n = 0
    stage = CAPTURE_STAGE
    if count == 0:
        codes[0] = PASS_CODE
        n = 1
        stage = NO_STAGE
    elif tt_move >= 0:
        codes[0] = tt_move
        n = 1
    sorted_from = MAX_MOVES
    quiet_from = MAX_MOVES
    original_alpha = alpha
    best_value = -INF
    best_move = -1
    horizon = depth == 1 or ply + 1 >= MAX_PLY - 1
    learned = horizon and net[1].shape[0] > 0
    if learned and ctx[C_QUIESCENCE] > 0:  # the children's quiescence starts from this position's sums
        fill_view(net, ply, other, black, white)
    elif learned:  # the children's sums of stones start from this position's, in the opponent's view
        sum_stones(net[6][1], net[0], other, opp, own)
    i = 0
    while True:
        if i == n:
            if stage == NO_STAGE:
                break
            if stage == CAPTURE_STAGE:
                n = generate(seat, level, plans, stage, tt_move, codes, n)
            else:
                start = n
                quiet_from = start
                n = generate(seat, level, plans, stage, tt_move, codes, n)
                if not horizon:
                    sorted_from = start
                    for j in range(start, n):
                        order[j] = history[codes[j]]
                    if ctx[C_KILLERS]:
                        for j in range(start, n):
                            if codes[j] == killers[ply, 0]:
                                order[j] = KILLER_ORDER + 1
                            elif codes[j] == killers[ply, 1]:
                                order[j] = KILLER_ORDER
            stage += 1
            continue
        move = pick_next(codes, order, i, n) if i >= sorted_from else codes[i]
        i += 1
        new_own, new_opp, cleared = play(own, opp, move, shifts, masks)
        x = seat if cleared else winner
        if seat == 0:
            b, w = new_own, new_opp
        else:
            b, w = new_opp, new_own
        if horizon:
            if ctx[C_QUIESCENCE] > 0:
                if learned:
                    child_view(net, ply, other, black, white, b, w)
                value = -quiesce(
                    b, w, other, turns + 1, x, -beta, -alpha, ctx[C_QUIESCENCE], ply + 1, ctx, deadline,
                    rules, rot, src, moves, net,
                )  # fmt: skip
                if ctx[C_ABORT]:
                    return 0.0
            elif out_of_budget(ctx, deadline):
                return 0.0
            elif learned:
                value = -horizon_learned(
                    b, w, other, turns + 1, x, ctx, rot, masks, plans, net, net[6][1], opp, own
                )  # fmt: skip
            else:
                value = -leaf_score(b, w, other, turns + 1, x, ctx, rot, masks, plans, net)
        else:
            late = ctx[C_REDUCTIONS] != 0 and depth >= 3 and i - 1 >= quiet_from + FULL_DEPTH_QUIET
            value = -INF
            if late:  # searched a ply shallower first, in full only where that beats alpha
                value = -negamax(
                    b, w, other, turns + 1, x, depth - 2, -(alpha + 1.0), -alpha, ply + 1, ctx, deadline,
                    rules, rot, table, history, src, moves, scores, net, killers,
                )  # fmt: skip
                if ctx[C_ABORT]:
                    return 0.0
            if not late or value > alpha:
                null_window = ctx[C_PVS] != 0 and i > 1
                value = -negamax(
                    b, w, other, turns + 1, x, depth - 1, -(alpha + 1.0) if null_window else -beta, -alpha,
                    ply + 1, ctx, deadline, rules, rot, table, history, src, moves, scores, net, killers,
                )  # fmt: skip
                if ctx[C_ABORT]:
                    return 0.0
                if null_window and alpha < value < beta:
                    value = -negamax(
                        b, w, other, turns + 1, x, depth - 1, -beta, -alpha, ply + 1, ctx, deadline, rules,
                        rot, table, history, src, moves, scores, net, killers,
                    )  # fmt: skip
                    if ctx[C_ABORT]:
                        return 0.0
        if value > best_value:
            best_value = value
            best_move = move
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    history[move] += depth * depth
                    if i - 1 >= quiet_from and killers[ply, 0] != move:
                        killers[ply, 1] = killers[ply, 0]
                        killers[ply, 0] = move
                    break
    if best_value <= original_alpha:
        bound = UPPER
    elif best_value >= beta:
        bound = LOWER
    else:
        bound = EXACT
    entry[0] = black
    entry[1] = white
    entry[2] = U64(
        best_move | (min(depth, 255) << 17) | (bound << 25) | (seat << 27) | (ctx[C_GENERATION] << 28)
    )
    entry[3] = U64(np.int64(best_value))
    return best_value


@njit(cache=True)
def alphabeta(
    black, white, seat, turns, winner, root_moves, max_depth, node_limit, seconds, max_turns, no_turn_pass,
    rules, table, history, generation, root_scores, stats, net, options,
):  # fmt: skip
    """Iterative deepening negamax from the root, over ``root_moves`` (an order that breaks ties).

    ``net`` is a learned evaluation laid out for bitboards (see :func:`learned_score`), or arrays of
    length 0 for the material evaluation. ``options`` (int64) turns on principal variation search,
    killer moves, the plies of quiescence and late move reductions (see :func:`negamax`), aspiration
    windows, ``options[NULL_MOVE]`` the null move's reduction (all 0 for the plain search), and
    ``options[EXTEND]``: with ``K`` > 1 the search goes on past ``node_limit`` while its best move
    changes, finishing iterations (and starting new ones while the last one changed the best move) up to
    ``K * node_limit`` nodes. With aspiration windows each
    iteration after the first searches the root within :data:`ASPIRATION_MATERIAL` (or
    :data:`ASPIRATION_LEARNED`) of the last iteration's score, and again with the window open on the
    side it fails: below for the first move, above for any move that reaches the top (the value is the
    plain search's; it only saves positions).

    Fills ``root_scores`` with each root move's value in the deepest completed iteration (in the order
    of ``root_moves`` as given) and ``stats`` with (nodes, depth completed); returns (best move index,
    its value). The first iteration always completes; later ones stop when ``node_limit`` nodes (0: no
    limit) or ``seconds`` (0: no limit) are spent, keeping the previous iteration's move unless a move
    searched since beat it. Stops early on a forced result (|value| > 0.99). ``table`` is the
    transposition table (rows of four uint64, see above) and ``history`` the history heuristic's
    counters, indexed by move code; both are kept between searches, and ``generation`` tells this
    search's entries from older ones (which only order moves).
    """
    n = root_moves.shape[0]
    ctx = np.zeros(CTX_SIZE, dtype=np.int64)
    extend = max(options[EXTEND], 1)
    ctx[C_NODE_LIMIT] = node_limit * extend
    ctx[C_ROOT_TURNS] = turns
    ctx[C_GENERATION] = generation
    ctx[C_MAX_TURNS] = max_turns
    ctx[C_PASS] = no_turn_pass
    ctx[C_PVS] = options[0]
    ctx[C_KILLERS] = options[1]
    ctx[C_QUIESCENCE] = options[2]
    ctx[C_REDUCTIONS] = options[3]
    ctx[C_ASPIRATION] = options[4]
    ctx[C_NULL_MOVE] = options[NULL_MOVE]
    width = ASPIRATION_MATERIAL if net[1].shape[0] == 0 else ASPIRATION_LEARNED
    deadline = deadline_after(seconds)
    _, masks, plans = rules
    rot = rotations(rules)
    src = np.empty((MAX_PLY, 8, 6), dtype=np.uint64)
    moves = np.empty((MAX_PLY, MAX_MOVES), dtype=np.int64)
    scores = np.empty((MAX_PLY, MAX_MOVES), dtype=np.int64)
    killers = np.full((MAX_PLY, 2), -1, dtype=np.int64)
    order, iteration, done, best_index, completed = common.new_root(n)
    completed = np.int64(completed)  # not the literal 0: one compiled end_iteration, not two
    best_value = -INF
    best_score = 0.0  # the last completed iteration's, for the aspiration window
    first_ply = np.int64(1)
    for depth in range(1, max_depth + 1):
        iteration_best = common.begin_iteration(ctx, depth, done, order)
        alpha = -INF
        alpha_score = -INF
        high = INF
        if ctx[C_ASPIRATION] and completed > 0 and abs(best_score) < WIN_SCORE / 2:
            alpha_score = best_score - width
            high = best_score + width
        for r in range(n):
            index = order[r]
            b, w, s, t, x = play_state(black, white, seat, turns, winner, root_moves[index], rules)
            if depth == 1 and ctx[C_QUIESCENCE] > 0:
                if net[1].shape[0] > 0:
                    fill_view(net, first_ply, s, b, w)
                score = -quiesce(
                    b, w, s, t, x, -INF, -alpha_score, ctx[C_QUIESCENCE], first_ply, ctx, deadline, rules,
                    rot, src, moves, net,
                )  # fmt: skip
            elif depth == 1:
                score = -horizon_score(b, w, s, t, x, ctx, deadline, rot, masks, plans, net)
            else:
                # ply is a variable, not the literal 1: a literal would compile a second overload of the
                # recursive negamax, which numba's cache cannot load back (numba issue #6713).
                null_window = ctx[C_PVS] != 0 and r > 0
                score = -negamax(
                    b, w, s, t, x, depth - 1, -(alpha_score + 1.0) if null_window else -high, -alpha_score,
                    first_ply, ctx, deadline, rules, rot, table, history, src, moves, scores, net, killers,
                )  # fmt: skip
                if null_window and alpha_score < score < high and not ctx[C_ABORT]:
                    score = -negamax(
                        b, w, s, t, x, depth - 1, -high, -alpha_score, first_ply, ctx, deadline, rules, rot,
                        table, history, src, moves, scores, net, killers,
                    )  # fmt: skip
                if r == 0 and score <= alpha_score and not ctx[C_ABORT]:  # below the aspiration window
                    alpha_score = -INF
                    score = -negamax(
                        b, w, s, t, x, depth - 1, -high, INF, first_ply, ctx, deadline, rules, rot, table,
                        history, src, moves, scores, net, killers,
                    )  # fmt: skip
                if score >= high and not ctx[C_ABORT]:  # above it: a better move, its value searched in full
                    high = INF
                    bound = score
                    score = -negamax(
                        b, w, s, t, x, depth - 1, -INF, -alpha_score, first_ply, ctx, deadline, rules, rot,
                        table, history, src, moves, scores, net, killers,
                    )  # fmt: skip
                    if ctx[C_ABORT]:  # keep the move that beat the window
                        alpha, iteration_best = common.root_record(
                            iteration, done, index, root_value(bound, net), alpha, iteration_best
                        )
            if ctx[C_ABORT]:
                break
            alpha_score = max(alpha_score, score)
            alpha, iteration_best = common.root_record(
                iteration, done, index, root_value(score, net), alpha, iteration_best
            )
        if not ctx[C_ABORT]:
            best_score = alpha_score
        last_best = best_index
        order, best_index, best_value, completed, stop = common.end_iteration(
            ctx[C_ABORT] != 0, order, done, iteration, root_scores, best_index, best_value, iteration_best,
            alpha, depth, completed,
        )  # fmt: skip
        if stop:
            break
        if extend > 1 and node_limit > 0 and ctx[C_NODES] >= node_limit and best_index == last_best:
            break  # past the budget, and the last iteration kept the best move: no need to extend
    stats[0] = ctx[C_NODES]
    stats[1] = completed
    return best_index, best_value


# --- MCTS ---------------------------------------------------------------------------------------------


@njit(cache=True)
def mcts(
    black, white, seat, turns, winner, root_moves, simulations, seconds, c, seed, low, scale, max_turns,
    no_turn_pass, rules, tree, visits_out, values_out, stats,
):  # fmt: skip
    """UCT on the shared tree, with the evaluation in place of rollouts, from a root that is not over.

    Each simulation walks down by UCB1 (the mover maximises its own mean value, scaled to 0..1 by
    ``low`` and ``scale``), adds one child (the next untried move of a node, in a per-node shuffled
    order), values it with :func:`black_value` and backs the value up. Stops after ``simulations`` (0:
    no limit) or ``seconds`` (0: no limit), checking the clock every 256 simulations. Fills
    ``visits_out`` and ``values_out`` (the mover's mean value) per move of ``root_moves`` (the root's
    turns in :func:`generate`'s order) and ``stats`` with (simulations, nodes). ``tree`` is the room for
    the tree (``common.new_tree``, positions as uint64 rows of five); returns the index of the most
    visited root move (ties: the better mean value) and the tree's arrays for the next search.
    """
    # A node's position: black, white, seat, turns, winner + 1 (uint64).
    pending = np.array([black, white, U64(seat), U64(turns), U64(winner + 1)], dtype=np.uint64)
    _, masks, plans = rules
    rot = rotations(rules)
    level = np.empty((8, 6), dtype=np.uint64)
    moves, value, path, counts, limits, rng = common.scratch(
        MAX_MOVES, 2, max_turns + 2, simulations, seconds, c, seed, low, scale
    )
    while True:
        b, w, s = pending[0], pending[1], np.int64(pending[2])
        if s == 0:
            count = sources(b, w, s, rot, masks, plans, level)
        else:
            count = sources(w, b, s, rot, masks, plans, level)
        result = outcome(s, np.int64(pending[3]), np.int64(pending[4]) - 1, count, max_turns, no_turn_pass)
        count, mode = 0, common.TERMINAL
        if result < 0:
            count = generate(s, level, plans, np.int64(ALL_TURNS), np.int64(-1), moves, np.int64(0))
            if count == 0:
                moves[0] = PASS_CODE
                count = 1
            mode = common.DECISION
        value[0] = black_value(b, w, result)
        value[1] = -value[0]
        tree, move, rng = common.step(tree, path, counts, limits, pending, moves, count, mode, s, value, rng)
        if move < 0:
            break
        play_row(pending, move, rules)
    return common.finish(tree, counts, root_moves, seat, visits_out, values_out, stats)


@njit(cache=True)
def play_row(row, move, rules):
    """Play ``move`` on a position stored as the kernel array ``[black, white, seat, turns, winner + 1]``."""
    b, w, s, t, x = play_state(
        row[0], row[1], np.int64(row[2]), np.int64(row[3]), np.int64(row[4]) - 1, move, rules
    )
    row[0] = b
    row[1] = w
    row[2] = U64(s)
    row[3] = U64(t)
    row[4] = U64(x + 1)


@njit(cache=True)
def decisive(black, white, seat, rules, moves, n):
    """The index of the first of ``moves[:n]`` that clears a board of the opponent's at once, or -1."""
    if seat == 0:
        own, opp = black, white
    else:
        own, opp = white, black
    for i in range(n):
        _, _, cleared = play(own, opp, moves[i], rules[0], rules[1])
        if cleared:
            return i
    return -1


# --- The batch of games (the batched environment) ------------------------------------------------------
#
# A batch holds one kernel array per row, ``rows[i] = [black, white, seat, turns, winner + 1]`` (uint64),
# and ``results[i]``: -1 while row ``i``'s game goes on, else :func:`outcome`'s result (0, 1: the winner,
# 2: the length cap). Actions are the protocol's ids in the mover's view (``shogames.games.shobu``):
# ``turn_table[id] = (passive bit, aggressive bit, direction, distance)`` as Black's turn; White's turn
# is the same on the table turned half round (bit ``b`` to ``63 - b``, direction ``d`` to ``d + 4``).
# The other way, ``square_index[g, s]`` numbers square ``s`` among the ``sizes[g]`` squares of group
# ``g = 2 * direction + distance - 1`` and ``offsets[g]`` is the group's first id. Shobu has no chance,
# so nothing is sampled between decisions.


@njit(cache=True, inline="always")
def row_outcome(black, white, seat, turns, winner, max_turns, no_turn_pass, rot, masks, plans):
    """-1 while a game goes on, else its result: :func:`outcome`, with the no-turn test stopping early."""
    if winner >= 0:
        return winner
    if turns >= max_turns:
        return 2
    if not no_turn_pass:
        if seat == 0:
            has = any_turn(black, white, seat, rot, masks, plans)
        else:
            has = any_turn(white, black, seat, rot, masks, plans)
        if not has:
            return 1 - seat
    return -1


@njit(cache=True, inline="always")
def action_move(action, seat, turn_table):
    """The move code of the turn with id ``action`` (below the table's length) for ``seat``."""
    p = turn_table[action, 0]
    a = turn_table[action, 1]
    d = turn_table[action, 2]
    if seat == 1:
        p = 63 - p
        a = 63 - a
        d = (d + 4) & 7
    return p | (a << 6) | (d << 12) | (turn_table[action, 3] << 15)


@njit(cache=True, inline="always")
def move_action(p, a, d, k, seat, square_index, offsets, sizes):
    """The action id of a turn: passive bit ``p``, aggressive bit ``a``, direction ``d``, distance ``k``."""
    if seat == 1:
        p = 63 - p
        a = 63 - a
        d = (d + 4) & 7
    g = 2 * d + k - 1
    n = sizes[g]
    home = (p >> 4) - 2
    other = (3 - home - (a >> 4)) >> 1
    return offsets[g] + (home * n + square_index[g, p & 15]) * 2 * n + other * n + square_index[g, a & 15]


@njit(cache=True, inline="always")
def turn_is_legal(own, opp, move, rot, masks):
    """Whether a turn whose boards fit the rules (as every id's do) can be played by the side with ``own``."""
    occupied = own | opp
    passive1, aggressive1, passive2, aggressive2 = direction_sources(
        own, opp, ~occupied, occupied, (move >> 12) & 7, rot, masks
    )
    passive, aggressive = (passive1, aggressive1) if (move >> 15) & 3 == 1 else (passive2, aggressive2)
    return (passive >> U64(move & 63)) & ONE != ZERO and (aggressive >> U64((move >> 6) & 63)) & ONE != ZERO


@njit(cache=True, inline="always")
def reset_row(rows, results, i, start, max_turns, no_turn_pass, rot, masks, plans):
    """Put ``start`` (a kernel array) in row ``i`` and judge it."""
    for field in range(5):
        rows[i, field] = start[field]
    results[i] = row_outcome(
        start[0], start[1], np.int64(start[2]), np.int64(start[3]), np.int64(start[4]) - 1,
        max_turns, no_turn_pass, rot, masks, plans,
    )  # fmt: skip


@njit(cache=True)
def batch_reset(rows, results, chosen, start, max_turns, no_turn_pass, rules):
    """Put ``start`` (a kernel array) in every row where ``chosen`` is true, and judge it (one thread)."""
    rot = rotations(rules)
    _, masks, plans = rules
    for i in range(rows.shape[0]):
        if chosen[i]:
            reset_row(rows, results, i, start, max_turns, no_turn_pass, rot, masks, plans)


@njit(cache=True, parallel=True)
def batch_reset_parallel(rows, results, chosen, start, max_turns, no_turn_pass, rules):
    """:func:`batch_reset` with the rows spread over numba's threads."""
    rot = rotations(rules)
    _, masks, plans = rules
    for i in prange(rows.shape[0]):
        if chosen[i]:
            reset_row(rows, results, i, start, max_turns, no_turn_pass, rot, masks, plans)


@njit(cache=True, inline="always")
def row_action_is_bad(rows, results, i, action, turn_ids, no_turn_pass, turn_table, rot, masks, plans):
    """Whether row ``i``'s game goes on and ``action`` is not legal there."""
    if results[i] >= 0:
        return False
    seat = np.int64(rows[i, 2])
    if seat == 0:
        own, opp = rows[i, 0], rows[i, 1]
    else:
        own, opp = rows[i, 1], rows[i, 0]
    if action == turn_ids and no_turn_pass:
        return any_turn(own, opp, seat, rot, masks, plans)
    if action < 0 or action >= turn_ids:
        return True
    return not turn_is_legal(own, opp, action_move(action, seat, turn_table), rot, masks)


@njit(cache=True, inline="always")
def step_row(
    rows, results, i, action, turn_ids, max_turns, no_turn_pass, turn_table, shifts, rot, masks, plans,
    returns, terminated, truncated,
):  # fmt: skip
    """Play the legal ``action`` in row ``i`` (a game going on) and judge the position after it."""
    seat = np.int64(rows[i, 2])
    if seat == 0:
        own, opp = rows[i, 0], rows[i, 1]
    else:
        own, opp = rows[i, 1], rows[i, 0]
    move = PASS_CODE if action == turn_ids else action_move(action, seat, turn_table)
    own, opp, cleared = play(own, opp, move, shifts, masks)
    winner = seat if cleared else -1
    turns = np.int64(rows[i, 3]) + 1
    if seat == 0:
        black, white = own, opp
    else:
        black, white = opp, own
    rows[i, 0] = black
    rows[i, 1] = white
    rows[i, 2] = U64(1 - seat)
    rows[i, 3] = U64(turns)
    rows[i, 4] = U64(winner + 1)
    result = row_outcome(black, white, 1 - seat, turns, winner, max_turns, no_turn_pass, rot, masks, plans)
    results[i] = result
    if result == 2:
        truncated[i] = True
    elif result >= 0:
        terminated[i] = True
        returns[i, result] = 1.0
        returns[i, 1 - result] = -1.0


@njit(cache=True)
def batch_step(
    rows, results, actions, max_turns, no_turn_pass, rules, turn_table, returns, terminated, truncated
):
    """Play each going row's action; return the first row whose action is not legal there, or -1.

    Every action is checked before any is played, so a batch with an illegal action is left as it was.
    Rows whose game is over are skipped. A row whose game ends gets its returns (float32, Black's then
    White's) and ``terminated`` (won) or ``truncated`` (the length cap). One thread.
    """
    shifts, masks, plans = rules
    rot = rotations(rules)
    turn_ids = turn_table.shape[0]
    for i in range(rows.shape[0]):
        if row_action_is_bad(
            rows, results, i, actions[i], turn_ids, no_turn_pass, turn_table, rot, masks, plans
        ):
            return i
    for i in range(rows.shape[0]):
        if results[i] < 0:
            step_row(
                rows, results, i, actions[i], turn_ids, max_turns, no_turn_pass, turn_table, shifts, rot,
                masks, plans, returns, terminated, truncated,
            )  # fmt: skip
    return -1


@njit(cache=True, parallel=True)
def batch_step_parallel(
    rows, results, actions, max_turns, no_turn_pass, rules, turn_table, returns, terminated, truncated
):
    """:func:`batch_step` with the turns played over numba's threads.

    The actions are checked on one thread first (a check is a few shifts), so that a step is one
    parallel region: on a busy machine each region waits for every thread to be scheduled.
    """
    shifts, masks, plans = rules
    rot = rotations(rules)
    turn_ids = turn_table.shape[0]
    for i in range(rows.shape[0]):
        if row_action_is_bad(
            rows, results, i, actions[i], turn_ids, no_turn_pass, turn_table, rot, masks, plans
        ):
            return i
    for i in prange(rows.shape[0]):
        if results[i] < 0:
            step_row(
                rows, results, i, actions[i], turn_ids, max_turns, no_turn_pass, turn_table, shifts, rot,
                masks, plans, returns, terminated, truncated,
            )  # fmt: skip
    return -1


@njit(cache=True, inline="always")
def view_cell(bit, seat):
    """The cell ``8 * row + column`` of a bit on the table in ``seat``'s view (rows from its side)."""
    if seat == 1:
        bit = 63 - bit
    board = bit >> 4
    row = ((bit >> 2) & 3) + (4 if board < 2 else 0)
    return 8 * row + (bit & 3) + 4 * (board & 1)


@njit(cache=True, inline="always")
def observe_row(rows, results, i, max_turns, out):
    """Row ``i``'s observation from its seat to move (seat 0 once over) into ``out[i]`` (4, 8, 8).

    The reference's planes: the observer's stones, the opponent's, ones when the observer is to move,
    and the turns played over ``max_turns`` (at most 1).
    """
    over = results[i] >= 0
    seat = 0 if over else np.int64(rows[i, 2])
    own = rows[i, seat]
    opp = rows[i, 1 - seat]
    for plane in range(2):
        for row in range(8):
            for column in range(8):
                out[i, plane, row, column] = 0.0
    while own:
        cell = view_cell(lowest_bit(own), seat)
        own &= own - ONE
        out[i, 0, cell >> 3, cell & 7] = 1.0
    while opp:
        cell = view_cell(lowest_bit(opp), seat)
        opp &= opp - ONE
        out[i, 1, cell >> 3, cell & 7] = 1.0
    to_move = 0.0 if over else 1.0
    progress = min(np.int64(rows[i, 3]), max_turns) / max_turns
    for row in range(8):
        for column in range(8):
            out[i, 2, row, column] = to_move
            out[i, 3, row, column] = progress


@njit(cache=True)
def batch_observe(rows, results, max_turns, out):
    """Each row's observation (:func:`observe_row`) into ``out`` (size, 4, 8, 8); one thread."""
    for i in range(rows.shape[0]):
        observe_row(rows, results, i, max_turns, out)


@njit(cache=True, parallel=True)
def batch_observe_parallel(rows, results, max_turns, out):
    """:func:`batch_observe` with the rows spread over numba's threads."""
    for i in prange(rows.shape[0]):
        observe_row(rows, results, i, max_turns, out)


@njit(cache=True, inline="always")
def mask_row(rows, results, i, no_turn_pass, rot, masks, plans, square_index, offsets, sizes, out):
    """Row ``i``'s legal action ids as a mask in ``out[i]``; all false once over."""
    for action in range(out.shape[1]):
        out[i, action] = False
    if results[i] >= 0:
        return
    seat = np.int64(rows[i, 2])
    if seat == 0:
        own, opp = rows[i, 0], rows[i, 1]
    else:
        own, opp = rows[i, 1], rows[i, 0]
    occupied = own | opp
    empty = ~occupied
    found = False
    for d in range(8):
        passive1, aggressive1, passive2, aggressive2 = direction_sources(
            own, opp, empty, occupied, d, rot, masks
        )
        for k in range(1, 3):
            passive_all = passive1 if k == 1 else passive2
            aggressive_all = aggressive1 if k == 1 else aggressive2
            for h in range(2):
                passive = passive_all & plans[seat, h, 0]
                aggressive = aggressive_all & plans[seat, h, 1]
                if passive == ZERO or aggressive == ZERO:
                    continue
                found = True
                while passive:
                    p = lowest_bit(passive)
                    passive &= passive - ONE
                    rest = aggressive
                    while rest:
                        a = lowest_bit(rest)
                        rest &= rest - ONE
                        out[i, move_action(p, a, d, k, seat, square_index, offsets, sizes)] = True
    if not found and no_turn_pass:
        out[i, offsets[15] + 4 * sizes[15] * sizes[15]] = True  # the pass, after the last turn id


@njit(cache=True)
def batch_legal_mask(rows, results, no_turn_pass, rules, square_index, offsets, sizes, out):
    """Each row's legal action ids as a mask in ``out`` (size, actions) (:func:`mask_row`); one thread."""
    rot = rotations(rules)
    _, masks, plans = rules
    for i in range(rows.shape[0]):
        mask_row(rows, results, i, no_turn_pass, rot, masks, plans, square_index, offsets, sizes, out)


@njit(cache=True, parallel=True)
def batch_legal_mask_parallel(rows, results, no_turn_pass, rules, square_index, offsets, sizes, out):
    """:func:`batch_legal_mask` with the rows spread over numba's threads."""
    rot = rotations(rules)
    _, masks, plans = rules
    for i in prange(rows.shape[0]):
        mask_row(rows, results, i, no_turn_pass, rot, masks, plans, square_index, offsets, sizes, out)
