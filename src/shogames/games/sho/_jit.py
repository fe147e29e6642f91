# mypy: ignore-errors
# (numba compiles this module: its scalars are numpy's int64/float64, which mypy's int does not model.)
"""The compiled half of the Sho kernel: numba functions over one int64 array per state.

State array (int64), for a game with ``goal`` positions (``cfg[GOAL]``)::

    0 seat   1 phase (0 throw, 1 move, 2 draw of the first seat)   2 pa ra count
    3 first throw's low face (0: none)   4 its high face   5 turns   6 ply   7 winning side (-1: none)
    8 how many values   9 .. 9+MAX_VALUES-1 the values, increasing
    HAND .. +3 coins in hand per side   OFF .. +3 borne off   ENTERED .. +3 whether the side has entered
    PLACED .. +3 the sides placed so far, in order (``play_to_placings``)   S_NPLACED how many
    S_FOLLOWING 1 in the reference's follow phase (phase is then 1, move: a seat is to move)
    S_MOVED the stack that may not move in the follow phase (-1: none)   S_BONUS the follow phase's
    earned throw   S_BANKED banked throws (``para_mode=pool``)
    OWNER .. +goal-1 the side owning each position (-1: empty)   OWNER+goal .. the stacks' sizes
    OWNER+2*goal .. whether each position's stack is a Sho-mo (``opening_kill=topup3_on_shomo``)

Move code (int64): ``kind | source << 3 | coins << 11 | low << 16 | high << 19 | n << 22`` and then the
``n`` spent values, 4 bits each from bit 26; a single value (``n`` = 1) takes 16 bits from bit 26 (under
``para_mode=ios`` or ``flexible_para`` one value may pass 15). Kinds as in :mod:`shogames.games.sho`:
0 throw, 1 move, 2 enter, 3 pass, 4 rethrow, 5 draw of the first seat, whose seat is in ``coins``.

``cfg`` (int64) holds the settings (the ``C_*`` indices).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange
from numba.types import Tuple, boolean, float64, int64, void

from shogames.games.sho import (
    CONFIDENCE,
    DANGER,
    DANGER_LATER,
    HAND_EXTRA,
    MERGE,
    NUMBERED_VALUES,
    OVERSHOOT,
    REACH_SPAN,
    STEP,
    TEMPERATURE,
    THROW_AHEAD,
)
from shogames.kernels import common
from shogames.kernels.common import below, game_stream, splitmix

# Settings (cfg indices).
(
    C_GOAL, C_COINS, C_CAP, C_SIDES, C_PLAYERS, C_MAX_TURNS, C_ANY_SUBSET, C_EXACT, C_OPENING_SIZE,
    C_BONUS12, C_PARA_SIZE, C_N_PLUS_1, C_REOPEN_EMPTY, C_SIX_THREE, C_TRIPLE, C_LAST_KILL, C_ALLOW_PASS,
    C_SHARED, C_IOS, C_POOL, C_FLEXIBLE, C_FLEX_EITHER, C_OVERFLOW, C_PLACINGS, C_TOPUP, C_PARTNERS,
    C_TEAM_FIRST,
) = range(27)  # fmt: skip
CFG_SIZE = 27

MAX_VALUES = 16
S_SEAT, S_PHASE, S_PARAS, S_FIRST_LOW, S_FIRST_HIGH, S_TURNS, S_PLY, S_WINNER, S_NVALUES = range(9)
S_VALUES = 9
HAND = S_VALUES + MAX_VALUES
OFF = HAND + 4
ENTERED = OFF + 4
PLACED = ENTERED + 4
S_NPLACED = PLACED + 4
S_FOLLOWING = S_NPLACED + 1
S_MOVED = S_FOLLOWING + 1
S_BONUS = S_MOVED + 1
S_BANKED = S_BONUS + 1
OWNER = S_BANKED + 1

THROW_PHASE, MOVE_PHASE, FIRST_PHASE = 0, 1, 2
FOLLOW_PHASE = 3  # the reference's follow phase: MOVE_PHASE with S_FOLLOWING set in the array
THROW, MOVE, ENTER, PASS, RETHROW, FIRST = 0, 1, 2, 3, 4, 5
PLACE, STACK, KILL, BEAR_OFF, BLOCKED = 0, 1, 2, 3, -1
MAX_MOVES = 4096
ENUMERATED_VALUES = 12  # the most values to spend that legal_moves enumerates (their sub-multisets)
SUBSETS_ROOM = 1 << ENUMERATED_VALUES  # the most distinct sub-multisets of those values

# Explicit signatures for helpers off the hot path: callers pass constants (a flag, a length of 1, a count
# of 0), and without a signature numba compiles a copy for each literal value (entries_and_moves had 12).
# The hot move generator keeps them: legal_moves with a signature (a first_only tested at run time) or
# with its subset loop in a function of its own made perft 8-11% slower (measured).
I1 = int64[::1]  # a state array, the settings, a move buffer
F1 = float64[::1]
WORK = Tuple((int64[:, ::1], I1, int64[:, ::1], I1))  # kernel.new_work(): subsets, lengths, counting, moves


@njit(cache=True)
def state_size(goal, topup):
    """The length of a state array for ``goal`` positions (Sho-mo flags only with ``topup``)."""
    return OWNER + (3 if topup else 2) * goal


@njit(cache=True)
def side_of(seat, cfg):
    """The side whose coins ``seat`` moves (teams sharing coins: seats 1, 3 and 2, 4)."""
    return seat % 2 if cfg[C_SHARED] else seat


@njit(cache=True, inline="always")
def partners(a, b, cfg):
    """Whether sides ``a`` and ``b`` are one team (a side and itself; partners with separate coins)."""
    return a == b or (cfg[C_PARTNERS] != 0 and (a + 2) % 4 == b)


@njit(cache=True)
def ended(st, cfg):
    """Whether the game is over: a winner, or the turn cap."""
    return st[S_WINNER] >= 0 or st[S_TURNS] >= cfg[C_MAX_TURNS]


@njit(cache=True, inline="always")
def placed(st, side):
    """Whether ``side`` has finished and taken a place (``play_to_placings``)."""
    for i in range(st[S_NPLACED]):  # noqa: SIM110 -- numba compiles loops, not generators
        if st[PLACED + i] == side:
            return True
    return False


@njit(cache=True)
def find_winner(st, cfg):
    """Set the winner as the reference's constructor does.

    With placings, the first placed side once all but one have placed; otherwise the first side with
    every coin borne off (with separate team coins and ``team_win=both``, its partner's too).
    """
    if st[S_WINNER] >= 0:
        return
    sides = cfg[C_SIDES]
    if cfg[C_PLACINGS]:
        if st[S_NPLACED] >= sides - 1:
            st[S_WINNER] = st[PLACED]
        return
    coins = cfg[C_COINS]
    for side in range(sides):
        if st[OFF + side] == coins and (
            not cfg[C_PARTNERS] or cfg[C_TEAM_FIRST] or st[OFF + (side + 2) % 4] == coins
        ):
            st[S_WINNER] = side
            return


@njit(cache=True)
def opening(st, side, cfg):
    """Whether ``side`` enters under the opening rules (R5-R7)."""
    hand = st[HAND + side]
    if hand == 0:
        return False
    if cfg[C_REOPEN_EMPTY]:
        goal = cfg[C_GOAL]
        for position in range(goal):  # noqa: SIM110 -- numba compiles loops, not generators
            if st[OWNER + position] == side:
                return False
        return True
    return hand == cfg[C_COINS]


@njit(cache=True)
def landing(st, side, coins, target, cfg):
    """What ``coins`` coins of ``side`` arriving on ``target`` do: PLACE, STACK, KILL, BEAR_OFF, BLOCKED."""
    goal = cfg[C_GOAL]
    if target >= goal:
        if cfg[C_EXACT] and target != goal:
            return BLOCKED
        return BEAR_OFF
    owner = st[OWNER + target]
    if owner < 0:
        return PLACE
    size = st[OWNER + goal + target]
    if owner == side:
        return STACK if coins + size <= cfg[C_CAP] else BLOCKED
    if cfg[C_PARTNERS] and (side + 2) % 4 == owner:
        return BLOCKED  # a partner's stack (separate team coins) can be neither joined nor killed
    return KILL if size <= coins else BLOCKED


@njit(cache=True)
def entry_size(st, side, target, cfg):
    """How many coins an entry of ``side`` onto ``target`` brings."""
    hand = st[HAND + side]
    if not opening(st, side, cfg):
        return 1
    size = cfg[C_OPENING_SIZE]
    low, high = st[S_FIRST_LOW], st[S_FIRST_HIGH]
    if low == 1 and high == 1:
        size = cfg[C_PARA_SIZE]
    elif low == 1 and high == 2 and cfg[C_BONUS12]:
        size = 3
    size = min(size, hand, cfg[C_CAP])
    goal = cfg[C_GOAL]
    if target < goal:
        owner = st[OWNER + target]
        if owner >= 0 and cfg[C_N_PLUS_1] and not (cfg[C_PARTNERS] and (side + 2) % 4 == owner):
            size = min(max(size, st[OWNER + goal + target] + 1), hand, cfg[C_CAP])
    return size


@njit(cache=True)
def subsets(st, cfg, out, lengths, tmp):
    """The distinct sub-multisets of the values one move may spend, in the reference's order.

    Sorted by size, then lexicographically (``sorted(..., key=(len, subset))``); with
    ``para_subsets=single_or_total`` only the single values and the whole; with ``para_mode=pool`` only
    the single values. Writes ``out[i, :lengths[i]]`` and returns how many.
    """
    n = st[S_NVALUES]
    values = st[S_VALUES : S_VALUES + n]
    if n == 1:
        out[0, 0] = values[0]
        lengths[0] = 1
        return 1
    # Distinct values and their multiplicities.
    distinct = tmp[0]
    counts = tmp[1]
    counts[:n] = 0
    m = 0
    for i in range(n):
        if m > 0 and distinct[m - 1] == values[i]:
            counts[m - 1] += 1
        else:
            distinct[m] = values[i]
            counts[m] = 1
            m += 1
    total = 0
    if cfg[C_POOL]:
        for i in range(m):
            out[total, 0] = distinct[i]
            lengths[total] = 1
            total += 1
        return total
    if not cfg[C_ANY_SUBSET]:
        # The single values and the whole, in tuple order (a tuple sorts after its own prefix).
        for i in range(m):
            out[total, 0] = distinct[i]
            lengths[total] = 1
            total += 1
            if i == 0:
                out[total, :n] = values
                lengths[total] = n
                total += 1
        return total
    # Every choice of 0..counts[i] copies of each distinct value, the empty one excepted.
    choice = tmp[2]
    choice[:m] = 0
    while True:
        i = 0
        while i < m and choice[i] == counts[i]:
            choice[i] = 0
            i += 1
        if i == m:
            break
        choice[i] += 1
        length = 0
        for j in range(m):
            for _ in range(choice[j]):
                out[total, length] = distinct[j]
                length += 1
        lengths[total] = length
        total += 1
    # Insertion sort by (length, values).
    for a in range(1, total):
        b = a
        while b > 0 and subset_before(out, lengths, b, b - 1):
            for k in range(max(lengths[b], lengths[b - 1])):
                out[b, k], out[b - 1, k] = out[b - 1, k], out[b, k]
            lengths[b], lengths[b - 1] = lengths[b - 1], lengths[b]
            b -= 1
    return total


@njit(cache=True)
def subset_before(out, lengths, a, b):
    """Whether subset ``a`` sorts before subset ``b``: shorter first, then lexicographically."""
    if lengths[a] != lengths[b]:
        return lengths[a] < lengths[b]
    for k in range(lengths[a]):
        if out[a, k] != out[b, k]:
            return out[a, k] < out[b, k]
    return False


@njit(cache=True)
def move_code(kind, source, coins, subset, length):
    """A move's code (see the module docstring)."""
    code = kind | (source << 3) | (coins << 11) | (length << 22)
    for k in range(length):
        code |= subset[k] << (26 + 4 * k)
    return code


@njit(cache=True, inline="always")
def move_value(move, k, length):
    """The ``k``-th value a move code spends (of ``length``)."""
    if length == 1:
        return (move >> 26) & 0xFFFF
    return (move >> (26 + 4 * k)) & 15


@njit(cache=True)
def splitting(st, cfg):
    """Whether the step's single value comes from a flexible pa ra and may be split (R17)."""
    return cfg[C_FLEXIBLE] != 0 and st[S_PARAS] > 0 and st[S_PHASE] == MOVE_PHASE and st[S_FOLLOWING] == 0


@njit(int64(I1, I1, int64, int64, I1, int64, I1, int64, boolean), cache=True)
def entries_and_moves(st, cfg, side, value, subset, length, out, n, first_only):
    """Write the entry (or entries) and stack moves spending ``subset`` (sum ``value``) from ``out[n]``.

    Returns the new count; with ``first_only``, stops at the first move.
    """
    goal = cfg[C_GOAL]
    if n + goal + 2 > out.shape[0]:
        raise ValueError("more legal moves than the Sho kernel's move buffer holds")
    hand = st[HAND + side]
    if hand:
        coins = entry_size(st, side, value, cfg)
        if landing(st, side, coins, value, cfg) != BLOCKED:
            out[n] = move_code(ENTER, 0, coins, subset, length)
            n += 1
            if first_only:
                return n
        if (
            cfg[C_SIX_THREE]
            and length == 1
            and value == 9
            and st[S_FIRST_LOW] == 3
            and st[S_FIRST_HIGH] == 6
            and st[ENTERED + side]
            and hand == cfg[C_COINS]
            and st[OWNER + 9] < 0
            and coins != cfg[C_COINS]
        ):
            out[n] = move_code(ENTER, 0, cfg[C_COINS], subset, length)
            n += 1
    for source in range(1, goal):
        if st[OWNER + source] == side:
            coins = st[OWNER + goal + source]
            if landing(st, side, coins, source + value, cfg) != BLOCKED:
                out[n] = move_code(MOVE, source, 0, subset, length)
                n += 1
                if first_only:
                    return n
    return n


@njit(Tuple((int64, boolean))(I1, I1, int64, I1, WORK, boolean), cache=True)
def follow_or_split_moves(st, cfg, side, out, work, first_only):
    """The moves of the follow phase, or of a flexible pa ra's first part, from ``out[0]``.

    Returns (how many, whether the last is the overflow's pass).
    """
    goal = cfg[C_GOAL]
    subset_values = work[0]
    n = 0
    if st[S_FOLLOWING]:
        # The second part of a flexible pa ra, or a finishing overflow: another stack on the track.
        value = st[S_VALUES]
        subset_values[0, 0] = value
        moved = st[S_MOVED]
        for source in range(1, goal):
            if (
                st[OWNER + source] == side
                and source != moved
                and landing(st, side, st[OWNER + goal + source], source + value, cfg) != BLOCKED
            ):
                out[n] = move_code(MOVE, source, 0, subset_values[0], 1)
                n += 1
                if first_only:
                    return n, False
        if cfg[C_OVERFLOW] and moved < 0 and st[S_PARAS] == 0 and n:
            out[n] = PASS  # the overflow may be left unused
            return n + 1, True
        return n, False
    # A flexible pa ra: any first part from 1 to the whole.
    for part in range(1, st[S_VALUES] + 1):
        subset_values[0, 0] = part
        n = entries_and_moves(st, cfg, side, part, subset_values[0], 1, out, n, first_only)
        if first_only and n:
            return n, False
    return n, False


@njit(cache=True)
def legal_moves(st, cfg, out, work, first_only):
    """Write the legal moves' codes to ``out`` in the reference's order; return how many.

    With ``first_only``, stop at the first one (to learn whether there is any). The loop over the
    subsets is :func:`entries_and_moves` written out: called from here, it cost 8-11% of perft.
    """
    if ended(st, cfg):
        return 0
    phase = st[S_PHASE]
    n = 0
    if phase == FIRST_PHASE:
        for seat in range(cfg[C_PLAYERS]):
            out[n] = FIRST | (seat << 11)
            n += 1
        return n
    if phase == THROW_PHASE:
        for low in range(1, 7):
            for high in range(low, 7):
                out[n] = THROW | (low << 16) | (high << 19)
                n += 1
        return n
    side = side_of(st[S_SEAT], cfg)
    goal = cfg[C_GOAL]
    subset_values, lengths, tmp, _ = work
    passing = False
    if st[S_FOLLOWING] or (cfg[C_FLEXIBLE] and st[S_PARAS] > 0):
        n, passing = follow_or_split_moves(st, cfg, side, out, work, first_only)
        if first_only and n:
            return n
    else:
        if st[S_NVALUES] > ENUMERATED_VALUES:
            raise ValueError("more values to spend than the Sho kernel enumerates")
        count = subsets(st, cfg, subset_values, lengths, tmp)
        hand = st[HAND + side]
        for s in range(count):
            if n + goal + 2 > out.shape[0]:
                raise ValueError("more legal moves than the Sho kernel's move buffer holds")
            length = lengths[s]
            value = 0
            for k in range(length):
                value += subset_values[s, k]
            if hand:
                coins = entry_size(st, side, value, cfg)
                if landing(st, side, coins, value, cfg) != BLOCKED:
                    out[n] = move_code(ENTER, 0, coins, subset_values[s], length)
                    n += 1
                    if first_only:
                        return n
                if (
                    cfg[C_SIX_THREE]
                    and length == 1
                    and value == 9
                    and st[S_FIRST_LOW] == 3
                    and st[S_FIRST_HIGH] == 6
                    and st[ENTERED + side]
                    and hand == cfg[C_COINS]
                    and st[OWNER + 9] < 0
                    and coins != cfg[C_COINS]
                ):
                    out[n] = move_code(ENTER, 0, cfg[C_COINS], subset_values[s], length)
                    n += 1
            for source in range(1, goal):
                if st[OWNER + source] == side:
                    coins = st[OWNER + goal + source]
                    if landing(st, side, coins, source + value, cfg) != BLOCKED:
                        out[n] = move_code(MOVE, source, 0, subset_values[s], length)
                        n += 1
                        if first_only:
                            return n
    if cfg[C_IOS] and st[S_PARAS] and st[S_NVALUES] == 1 and st[S_VALUES] == 2 * st[S_PARAS]:
        out[n] = RETHROW
        n += 1
    if n and cfg[C_ALLOW_PASS] and not passing:
        out[n] = PASS
        n += 1
    return n


@njit(void(I1, int64), cache=True)
def insert_value(st, value):
    """Add ``value`` to the increasing values."""
    n = st[S_NVALUES]
    if n >= MAX_VALUES:
        raise ValueError("more values to spend than the Sho kernel holds")
    i = n
    while i > 0 and st[S_VALUES + i - 1] > value:
        st[S_VALUES + i] = st[S_VALUES + i - 1]
        i -= 1
    st[S_VALUES + i] = value
    st[S_NVALUES] = n + 1


@njit(cache=True)
def remove_value(st, value):
    """Remove one ``value`` from the values."""
    n = st[S_NVALUES]
    for i in range(n):
        if st[S_VALUES + i] == value:
            for j in range(i, n - 1):
                st[S_VALUES + j] = st[S_VALUES + j + 1]
            st[S_NVALUES] = n - 1
            return


@njit(cache=True)
def new_step(st):
    """The same seat throws again: a throw phase with no pa ra, no first throw, no follow-up (values kept)."""
    st[S_PHASE] = THROW_PHASE
    st[S_PARAS] = 0
    st[S_FIRST_LOW] = 0
    st[S_FIRST_HIGH] = 0
    st[S_FOLLOWING] = 0
    st[S_MOVED] = -1
    st[S_BONUS] = 0


@njit(cache=True)
def end_turn(st, cfg):
    """Pass the dice to the next seat (skipping placed players); unused values and banked throws are lost."""
    players = cfg[C_PLAYERS]
    seat = (st[S_SEAT] + 1) % players
    if st[S_NPLACED]:
        while placed(st, side_of(seat, cfg)):
            seat = (seat + 1) % players
    st[S_SEAT] = seat
    st[S_NVALUES] = 0
    st[S_BANKED] = 0
    new_step(st)
    st[S_TURNS] += 1


@njit(cache=True)
def close(st, cfg):
    """A finished game keeps nothing to spend (the reference's constructor): one position, one array."""
    if ended(st, cfg):
        st[S_NVALUES] = 0
        st[S_BANKED] = 0
        new_step(st)


@njit(cache=True)
def settle(st, cfg, work):
    """The settle test, after a ply that leaves values to spend.

    A finished game keeps nothing (:func:`close`); a seat with no legal move ends its turn at once, in
    the same ply (R13, :func:`no_move`).
    """
    if ended(st, cfg):
        close(st, cfg)
    elif legal_moves(st, cfg, work[3], work, True) == 0:
        no_move(st, cfg)


@njit(cache=True)
def no_move(st, cfg):
    """The seat has no legal move: its turn ends.

    A banked throw (``para_mode=pool``), or the throw a flexible pa ra's first part earned, comes next
    instead.
    """
    if st[S_BANKED]:
        st[S_NVALUES] = 0
        new_step(st)
        st[S_BANKED] -= 1
    elif st[S_FOLLOWING] and st[S_BONUS]:
        st[S_NVALUES] = 0
        new_step(st)
    else:
        end_turn(st, cfg)


@njit(cache=True)
def play(st, move, cfg, work):
    """Play ``move`` on the state array ``st`` in place."""
    if play_unsettled(st, move, cfg):
        settle(st, cfg, work)


@njit(cache=True)
def play_unsettled(st, move, cfg):
    """Play ``move`` on ``st`` up to the :func:`settle` test; returns whether it is due.

    It is due where the ply leaves the seat values to spend (which it may have no legal move for) or
    ends the game while it held values.
    """
    kind = move & 7
    st[S_PLY] += 1
    if kind == THROW:
        return play_throw(st, (move >> 16) & 7, (move >> 19) & 7, cfg)
    if kind == MOVE or kind == ENTER:  # noqa: SIM109 -- compiled by numba
        return play_spend(st, move, cfg)
    if kind == FIRST:
        st[S_SEAT] = (move >> 11) & 31
        st[S_PHASE] = THROW_PHASE
    elif kind == PASS:
        if st[S_FOLLOWING] and st[S_BONUS]:
            st[S_NVALUES] = 0
            new_step(st)
        else:
            end_turn(st, cfg)
    else:  # RETHROW: throw again, for 2 (more with chained pa ra) + the new throw
        st[S_PHASE] = THROW_PHASE
    return False


@njit(cache=True)
def play_throw(st, low, high, cfg):
    """A throw of ``low`` and ``high``; returns whether :func:`settle` is due (the seat is to move).

    A pa ra (1,1) adds a 2 and throws again (under ``para_mode=ios`` it moves 2 now, or throws again);
    any other throw adds its sum, or after pa ra under ``ios`` or ``flexible_para`` makes one value.
    """
    if st[S_FIRST_LOW] == 0:
        st[S_FIRST_LOW] = low
        st[S_FIRST_HIGH] = high
    if low == 1 and high == 1:
        st[S_PARAS] += 1
        if cfg[C_TRIPLE] and st[S_PARAS] == 3:
            st[S_WINNER] = side_of(st[S_SEAT], cfg)
            close(st, cfg)
            return False
        if not cfg[C_IOS]:
            insert_value(st, 2)
            return False
        st[S_NVALUES] = 1
        st[S_VALUES] = 2 * st[S_PARAS]
    elif (cfg[C_IOS] or cfg[C_FLEXIBLE]) and st[S_PARAS]:
        st[S_NVALUES] = 1
        st[S_VALUES] = 2 * st[S_PARAS] + low + high
    else:
        insert_value(st, low + high)
    st[S_PHASE] = MOVE_PHASE
    return True


@njit(cache=True)
def play_spend(st, move, cfg):
    """An entry or a stack's move; returns whether :func:`settle` is due.

    The coins land (:func:`land`), Sho-mo are kept (:func:`mark_shomo`), and the step goes on as the
    landing earned (:func:`after_spending`).
    """
    goal = cfg[C_GOAL]
    side = side_of(st[S_SEAT], cfg)
    length = (move >> 22) & 15
    value = 0
    for k in range(length):
        value += move_value(move, k, length)
    source = (move >> 3) & 255
    if move & 7 == ENTER:
        coins = (move >> 11) & 31
        target = value
        opened = cfg[C_TOPUP] != 0 and opening(st, side, cfg)
        st[HAND + side] -= coins
        st[ENTERED + side] = 1
    else:
        coins = st[OWNER + goal + source]
        target = source + value
        opened = False
        st[OWNER + source] = -1
        st[OWNER + goal + source] = 0
    result = landing(st, side, coins, target, cfg)
    was_shomo = False
    victim_shomo = False
    if cfg[C_TOPUP]:
        shomo = OWNER + 2 * goal
        was_shomo = move & 7 == MOVE and st[shomo + source] != 0
        victim_shomo = result == KILL and st[shomo + target] != 0
        st[shomo + source] = 0
        if target < goal:
            st[shomo + target] = 0
    victim = land(st, side, coins, target, result, cfg)
    if cfg[C_TOPUP] and (result == PLACE or result == KILL):  # noqa: SIM109 -- compiled by numba
        mark_shomo(st, side, coins, target, victim_shomo, was_shomo or opened, cfg)
    earned = STACK <= result <= KILL  # a stack or a kill earns another throw
    if result == KILL and cfg[C_LAST_KILL] and not on_track(st, victim, cfg):
        earned = False  # the victim's last stack: the turn ends
    find_winner(st, cfg)
    return after_spending(st, move, length, value, target, result, earned, cfg)


@njit(cache=True)
def land(st, side, coins, target, result, cfg):
    """Put ``coins`` of ``side`` on ``target`` as ``result`` says; returns the side killed (-1: none)."""
    goal = cfg[C_GOAL]
    if result == BEAR_OFF:
        st[OFF + side] += coins
        if cfg[C_PLACINGS] and st[OFF + side] == cfg[C_COINS]:
            st[PLACED + st[S_NPLACED]] = side
            st[S_NPLACED] += 1
        return -1
    if result == STACK:
        st[OWNER + goal + target] += coins
        return -1
    victim = st[OWNER + target]  # -1 where the coins are placed on an empty position
    if result == KILL:
        st[HAND + victim] += st[OWNER + goal + target]
    st[OWNER + target] = side
    st[OWNER + goal + target] = coins
    return victim


@njit(cache=True)
def mark_shomo(st, side, coins, target, victim_shomo, stays_shomo, cfg):
    """``opening_kill=topup3_on_shomo``: after coins are placed or kill on ``target``.

    The killer of a Sho-mo is topped up to 3 coins from the hand; else an opening stack, or one that
    moved unchanged, is a Sho-mo.
    """
    if victim_shomo and coins < 3 and st[HAND + side]:
        extra = min(3 - coins, st[HAND + side], cfg[C_CAP] - coins)
        st[HAND + side] -= extra
        st[OWNER + cfg[C_GOAL] + target] += extra
    elif stays_shomo:
        st[OWNER + 2 * cfg[C_GOAL] + target] = 1


@njit(cache=True)
def on_track(st, side, cfg):
    """Whether ``side`` has a stack on the track."""
    for position in range(cfg[C_GOAL]):  # noqa: SIM110 -- numba compiles loops, not generators
        if st[OWNER + position] == side:
            return True
    return False


@njit(cache=True)
def remove_values(st, move, length):
    """Remove the values a move spent from the values to spend."""
    for k in range(length):
        remove_value(st, move_value(move, k, length))


@njit(boolean(I1, int64, int64, int64, int64, int64, boolean, I1), cache=True)
def after_spending(st, move, length, value, target, result, earned, cfg):
    """The step after a move spent ``value`` (``earned``: it stacked or killed); whether to settle.

    Under ``para_mode=pool`` the values are spent one per move and earned throws are banked. A flexible
    pa ra's first part, or a finishing overflow, leaves a follow-up move; an earned throw starts a new
    step (keeping the values not spent); otherwise the turn ends.
    """
    if cfg[C_POOL] and not (result == KILL and not earned):  # a kill that ended the turn (last kill)
        st[S_BANKED] += 1 if earned else 0
        remove_values(st, move, length)
        if ended(st, cfg):
            close(st, cfg)
            return False
        if st[S_NVALUES]:
            return True
        if st[S_BANKED]:
            new_step(st)
            st[S_BANKED] -= 1
        else:
            end_turn(st, cfg)
        return False
    goal = cfg[C_GOAL]
    following = st[S_FOLLOWING] != 0
    if following:
        if st[S_BONUS]:
            earned = True  # the first part of the split stacked or killed (flexible_bonus=either)
        st[S_FOLLOWING] = 0
        st[S_MOVED] = -1
        st[S_BONUS] = 0
    elif splitting(st, cfg) and value < st[S_VALUES]:
        # The first part of a split pa ra: the rest must move a different stack.
        st[S_BONUS] = 1 if earned and cfg[C_FLEX_EITHER] else 0
        st[S_MOVED] = target if target < goal else -1
        st[S_VALUES] -= value
        st[S_FOLLOWING] = 1
        return True
    if result == BEAR_OFF and cfg[C_OVERFLOW] and target > goal and not following:
        # The excess of a move that bears off may move a second stack.
        st[S_NVALUES] = 1
        st[S_VALUES] = target - goal
        st[S_FOLLOWING] = 1
        st[S_PARAS] = 0
        st[S_MOVED] = -1
        st[S_BONUS] = 0
        return True
    if earned:
        if cfg[C_IOS] or cfg[C_FLEXIBLE] or following:
            st[S_NVALUES] = 0
        else:
            remove_values(st, move, length)
        new_step(st)
    elif ended(st, cfg):
        close(st, cfg)
    else:
        end_turn(st, cfg)
    return False


@njit(cache=True)
def returns(st, cfg, out):
    """Every seat's return: the winning team's seats get +1, the others share the loss; 0 without a winner.

    Under ``play_to_placings`` each place has its value, from +1 for the first to -1 for the last; the
    sides still playing share the places left.
    """
    players = cfg[C_PLAYERS]
    winner = st[S_WINNER]
    if winner < 0:
        out[:players] = 0.0
        return
    if cfg[C_PLACINGS]:
        last = cfg[C_SIDES] - 1
        count = st[S_NPLACED]
        extra = 0 if placed(st, winner) else 1  # a triple pa ra ends the game: the next place is its
        taken = count + extra
        shared = 0.0
        if taken <= last:
            total = 0.0
            for rank in range(taken, last + 1):
                total += 1.0 - 2.0 * rank / last
            shared = total / (last + 1 - taken)
        for seat in range(players):
            side = side_of(seat, cfg)
            value = shared
            for rank in range(count):
                if st[PLACED + rank] == side:
                    value = 1.0 - 2.0 * rank / last
            if extra and side == winner:
                value = 1.0 - 2.0 * count / last
            out[seat] = value
        return
    win_returns(winner, cfg, out, 1.0, False)


@njit(void(int64, I1, F1, float64, boolean), cache=True)
def win_returns(side, cfg, out, share, add):
    """Every seat's return when ``side`` wins (its team +1, the others share the loss) into ``out``.

    With ``add``, ``share`` times the returns are added to ``out`` instead.
    """
    players = cfg[C_PLAYERS]
    won = 0
    for seat in range(players):
        if partners(side, side_of(seat, cfg), cfg):
            won += 1
    lost = players - won
    for seat in range(players):
        value = 1.0 if partners(side, side_of(seat, cfg), cfg) else -won / lost
        if add:
            out[seat] += share * value
        else:
            out[seat] = value


@njit(cache=True)
def entry_threat(st, side, cfg):
    """The biggest stack an entry of ``side`` could kill (0: no coins in hand)."""
    hand = st[HAND + side]
    if hand == 0:
        return 0
    if not opening(st, side, cfg):
        return 1
    if cfg[C_N_PLUS_1]:
        return min(hand, cfg[C_CAP])
    return min(cfg[C_OPENING_SIZE], hand, cfg[C_CAP])


@njit(cache=True)
def evaluate(st, cfg, reach, out):
    """The reference's evaluation (``ShoState.evaluate``), the same operations in the same order."""
    if ended(st, cfg):
        returns(st, cfg, out)
        return
    goal = cfg[C_GOAL]
    sides = cfg[C_SIDES]
    players = cfg[C_PLAYERS]
    lone = goal / STEP + OVERSHOOT
    in_hand = lone + HAND_EXTRA
    steps = np.empty(sides, dtype=np.float64)
    entry = np.empty(sides, dtype=np.int64)
    for side in range(sides):
        steps[side] = in_hand * st[HAND + side]
        entry[side] = entry_threat(st, side, cfg)
    order = np.full(sides, -1, dtype=np.int64)
    ranked = 0
    for step in range(players):
        s = side_of((st[S_SEAT] + step) % players, cfg)
        if order[s] < 0:
            order[s] = ranked
            ranked += 1
    for position in range(1, goal):
        side = st[OWNER + position]
        if side < 0:
            continue
        coins = st[OWNER + goal + position]
        cost = (goal - position) / STEP + OVERSHOOT
        rank = order[side]
        safe_before = 1.0
        safe_after = 1.0
        alone = 1.0
        for behind in range(max(1, position - REACH_SPAN), position):
            other = st[OWNER + behind]
            if other < 0:
                continue
            chance = reach[position - behind]
            if other == side:
                alone *= 1.0 - chance
            elif st[OWNER + goal + behind] >= coins and not partners(side, other, cfg):
                if order[other] < rank:
                    safe_before *= 1.0 - chance
                else:
                    safe_after *= 1.0 - chance
        if position < reach.shape[0]:
            chance = reach[position]
            for other in range(sides):
                if other == side:
                    if st[HAND + side]:
                        alone *= 1.0 - chance
                elif entry[other] >= coins and not partners(side, other, cfg):
                    if order[other] < rank:
                        safe_before *= 1.0 - chance
                    else:
                        safe_after *= 1.0 - chance
        threat = (1.0 - safe_before) + DANGER_LATER * (1.0 - safe_after)
        steps[side] += (
            cost + DANGER * threat * (coins * in_hand - cost) - min(1.0, MERGE * (1.0 - alone)) * cost
        )
    mover = side_of(st[S_SEAT], cfg)
    held = 0.0
    for i in range(st[S_NVALUES]):
        held += st[S_VALUES + i]
    if st[S_PHASE] == THROW_PHASE:
        steps[mover] -= THROW_AHEAD + held / STEP
    elif st[S_PHASE] != FIRST_PHASE:
        steps[mover] -= held / STEP
    fewest = steps.min()
    weights = np.empty(sides, dtype=np.float64)
    total = 0.0
    for side in range(sides):
        weights[side] = math.exp(-TEMPERATURE * (steps[side] - fewest))
        total += weights[side]
    out[:players] = 0.0
    for side in range(sides):
        win_returns(side, cfg, out, CONFIDENCE * weights[side] / total, True)


@njit(cache=True)
def perft(st, depth, bulk, cfg, moves, work, children):
    """Leaves at exactly ``depth`` plies, throws included.

    ``moves`` (depth x MAX_MOVES) and ``children`` (depth x state size) are scratch space per level.
    """
    if depth == 0:
        return 1
    if ended(st, cfg):
        return 0
    level = depth - 1
    n = legal_moves(st, cfg, moves[level], work, False)
    if depth == 1 and bulk:
        return n
    total = 0
    child = children[level]
    for i in range(n):
        child[:] = st
        play(child, moves[level, i], cfg, work)
        total += perft(child, depth - 1, bulk, cfg, moves, work, children)
    return total


@njit(cache=True, parallel=True)
def parallel_perft(st, roots, depth, bulk, cfg):
    """:func:`perft` to ``depth`` (1 or more) from ``st``, whose legal moves are ``roots``.

    The root's moves are spread over numba's threads, each subtree counted with scratch space of its own.
    """
    leaves = np.zeros(roots.shape[0], dtype=np.int64)
    for i in prange(roots.shape[0]):
        leaves[i] = perft_after(st, roots[i], depth - 1, bulk, cfg)
    return leaves.sum()


@njit(cache=True)
def perft_after(st, move, depth, bulk, cfg):
    """:func:`perft` to ``depth`` after ``move`` from ``st`` (left as it is), with scratch of its own."""
    child = st.copy()
    work = new_work()
    play(child, move, cfg, work)
    levels = max(depth, 1)
    moves = np.empty((levels, MAX_MOVES), dtype=np.int64)
    children = np.empty((levels, st.shape[0]), dtype=np.int64)
    return perft(child, depth, bulk, cfg, moves, work, children)


@njit(cache=True)
def new_work():
    """Scratch space for :func:`legal_moves`: subsets, their lengths, counting space, moves."""
    return (
        np.zeros((SUBSETS_ROOM, MAX_VALUES), dtype=np.int64),
        np.zeros(SUBSETS_ROOM, dtype=np.int64),
        np.zeros((3, MAX_VALUES), dtype=np.int64),
        np.zeros(MAX_MOVES, dtype=np.int64),
    )


# --- Alpha-beta: expectimax over the throws, paranoid for three or four players --------------------

# ctx: the common alpha-beta counters (common.C_NODES ...), then the searching seat, the root's ply and
# whether a throw's outcomes are searched in Star1's windows (SearchOptions.star).
AB_NODES, AB_LIMIT, AB_ABORT, AB_MAY_STOP = (
    common.C_NODES,
    common.C_NODE_LIMIT,
    common.C_ABORT,
    common.C_MAY_STOP,
)
AB_ROOT_SEAT, AB_ROOT_PLY, AB_STAR = 4, 5, 6
WIN_DISCOUNT = common.WIN_DISCOUNT
HISTORY_BITS = 16
INF = math.inf


@njit(cache=True)
def position_key(st):
    """A 64-bit hash of everything in a state array but the ply (the reference's ``key()``)."""
    h = np.uint64(0xCBF29CE484222325)
    for i in range(st.shape[0]):
        if i != S_PLY:
            h = (h ^ np.uint64(st[i] + 2)) * np.uint64(0x100000001B3)
    h = (h ^ (h >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    h = (h ^ (h >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return h ^ (h >> np.uint64(31))


@njit(cache=True)
def history_slot(move):
    """The history table's slot of a move code."""
    h = np.uint64(move) * np.uint64(0x9E3779B97F4A7C15)
    return np.int64(h >> np.uint64(64 - HISTORY_BITS))


@njit(cache=True)
def is_chance(st, cfg):
    """Whether the dice (or the draw of the first seat) are to be thrown: a chance node."""
    return not ended(st, cfg) and (st[S_PHASE] == THROW_PHASE or st[S_PHASE] == FIRST_PHASE)


@njit(cache=True, inline="always")
def outcome_chance(phase, move, cfg):
    """The chance of a chance move at ``phase``: 1/36 for a double throw, 2/36 for two faces.

    The draw of the first seat is 1 in the number of players.
    """
    if phase == FIRST_PHASE:
        return 1.0 / cfg[C_PLAYERS]
    return (1.0 if ((move >> 16) & 7) == ((move >> 19) & 7) else 2.0) / 36.0


# The scratch arrays go one by one: passed as one tuple, the recursion cost 10% of the search (measured).
@njit(cache=True)
def ab_value(
    st, depth, alpha, beta, level, ctx, deadline, cfg, reach, work, children, moves, scores, out, tt_keys,
    tt_moves, history,
):  # fmt: skip
    """The value of ``st`` for the searching seat (``ctx[AB_ROOT_SEAT]``), searched ``depth`` decisions.

    The ``alphabeta`` agent's search: the returns at the end (a win worth ``WIN_DISCOUNT`` less per ply
    from the root), the evaluation at the horizon; a chance node is the probability-weighted mean of its
    outcomes (each searched with a full window, as in expectiminimax, or with ``ctx[AB_STAR]`` in Star1's
    window, the node cut off once the mean cannot reach inside its own) and does not use up depth unless
    it follows another chance node; the searching seat maximises and every other seat minimises its
    value (the paranoid reduction). ``level`` indexes the scratch rows (``children``, ``moves``,
    ``scores``); the table (``tt_keys``, ``tt_moves``) and ``history`` only order moves.
    """
    if common.out_of_budget(ctx, deadline):
        return 0.0
    root = ctx[AB_ROOT_SEAT]
    if ended(st, cfg):
        returns(st, cfg, out)
        return out[root] * (1.0 - WIN_DISCOUNT * (st[S_PLY] - ctx[AB_ROOT_PLY]))
    phase = st[S_PHASE]
    too_many = phase == THROW_PHASE and st[S_NVALUES] >= ENUMERATED_VALUES
    if depth <= 0 or level >= children.shape[0] or too_many:
        # The horizon; also a throw that could leave more values than legal_moves enumerates, which only
        # a chain of a dozen throws (pa ra after pa ra) in a deep search reaches.
        evaluate(st, cfg, reach, out)
        return out[root]
    child = children[level]
    n = legal_moves(st, cfg, moves[level], work, False)
    if phase == THROW_PHASE or phase == FIRST_PHASE:  # noqa: SIM109 -- compiled by numba
        total = 0.0
        left = 1.0  # the chance of the outcomes not yet searched, this one included
        for i in range(n):
            move = moves[level, i]
            probability = outcome_chance(phase, move, cfg)
            low, high = -INF, INF  # the window this outcome's value is searched in
            cut_low, cut_high = -INF, INF
            if ctx[AB_STAR]:  # Star1: this outcome's window, from the node's and the outcomes so far
                cut_low, cut_high, low, high = common.star1_window(alpha, beta, total, left, probability)
                if low >= high:  # no value within the bounds brings the mean inside (alpha, beta)
                    return total + left * (
                        common.VALUE_HIGH if cut_low >= common.VALUE_HIGH else common.VALUE_LOW
                    )
            child[:] = st
            play(child, move, cfg, work)
            below = depth - 1 if is_chance(child, cfg) else depth  # a throw after a throw counts
            value = ab_value(
                child, below, low, high, level + 1, ctx, deadline, cfg, reach, work, children, moves,
                scores, out, tt_keys, tt_moves, history,
            )  # fmt: skip
            if ctx[AB_ABORT]:
                return 0.0
            left -= probability
            cut, bound = common.star1_cut(value, total, probability, left, cut_low, cut_high)
            if cut:
                return bound
            total += probability * value
        return total
    maximising = st[S_SEAT] == root
    key = position_key(st)
    slot = np.int64(key & np.uint64(tt_keys.shape[0] - 1))
    tt_move = tt_moves[slot] if tt_keys[slot] == key else -1
    for i in range(n):
        move = moves[level, i]
        scores[level, i] = (1 << 40) if move == tt_move else history[history_slot(move)]
    best_value = -INF if maximising else INF
    best_move = moves[level, 0]
    for i in range(n):
        # Lazy selection sort: cut-offs usually come after a few moves, so sort only as far as needed.
        pick = i
        for j in range(i + 1, n):
            if scores[level, j] > scores[level, pick]:
                pick = j
        move = moves[level, pick]
        moves[level, pick] = moves[level, i]
        moves[level, i] = move
        scores[level, pick] = scores[level, i]
        child[:] = st
        play(child, move, cfg, work)
        value = ab_value(
            child, depth - 1, alpha, beta, level + 1, ctx, deadline, cfg, reach, work, children, moves,
            scores, out, tt_keys, tt_moves, history,
        )  # fmt: skip
        if ctx[AB_ABORT]:
            return 0.0
        if maximising:
            if value > best_value:
                best_value = value
                best_move = move
                if value > alpha:
                    alpha = value
        elif value < best_value:
            best_value = value
            best_move = move
            if value < beta:
                beta = value
        if alpha >= beta:
            history[history_slot(move)] += depth * depth
            break
    tt_keys[slot] = key
    tt_moves[slot] = best_move
    return best_value


@njit(cache=True)
def maxn_value(st, depth, level, ctx, deadline, cfg, reach, work, children, moves, values, out):
    """Fill ``values[level]`` with every seat's value of ``st``, searched ``depth`` decisions: max-n.

    Max-n (Luckhardt & Irani, 1986) with expectation at the throws: the seat to move picks the child
    best for itself (the first of equals, in the legal order), and each seat's value is that child's;
    a throw's values are the probability-weighted means of its outcomes', and a throw uses up depth
    only where it follows another throw, as in :func:`ab_value`. Values are the returns at the end (a
    win worth ``WIN_DISCOUNT`` less per ply from the root) and the evaluation at the horizon. Nothing is
    pruned: no bound holds between seats that each maximise their own value.
    """
    players = cfg[C_PLAYERS]
    result = values[level]
    if common.out_of_budget(ctx, deadline):
        result[:players] = 0.0
        return
    if ended(st, cfg):
        returns(st, cfg, out)
        discount = 1.0 - WIN_DISCOUNT * (st[S_PLY] - ctx[AB_ROOT_PLY])
        for seat in range(players):
            result[seat] = out[seat] * discount
        return
    phase = st[S_PHASE]
    too_many = phase == THROW_PHASE and st[S_NVALUES] >= ENUMERATED_VALUES
    if depth <= 0 or level + 1 >= children.shape[0] or too_many:
        evaluate(st, cfg, reach, out)
        result[:players] = out[:players]
        return
    child = children[level]
    below_values = values[level + 1]
    n = legal_moves(st, cfg, moves[level], work, False)
    if phase == THROW_PHASE or phase == FIRST_PHASE:  # noqa: SIM109 -- compiled by numba
        result[:players] = 0.0
        for i in range(n):
            move = moves[level, i]
            probability = outcome_chance(phase, move, cfg)
            child[:] = st
            play(child, move, cfg, work)
            below = depth - 1 if is_chance(child, cfg) else depth
            maxn_value(child, below, level + 1, ctx, deadline, cfg, reach, work, children, moves, values, out)
            if ctx[AB_ABORT]:
                return
            for seat in range(players):
                result[seat] += probability * below_values[seat]
        return
    mover = st[S_SEAT]
    best = -INF
    for i in range(n):
        child[:] = st
        play(child, moves[level, i], cfg, work)
        maxn_value(child, depth - 1, level + 1, ctx, deadline, cfg, reach, work, children, moves, values, out)
        if ctx[AB_ABORT]:
            return
        if below_values[mover] > best:
            best = below_values[mover]
            result[:players] = below_values[:players]


@njit(cache=True)
def alphabeta(
    root, root_moves, max_depth, node_limit, seconds, cfg, reach, work, tt_keys, tt_moves, history,
    root_scores, stats, maxn, star,
):  # fmt: skip
    """Iterative deepening from ``root`` (a seat to move) over ``root_moves`` (an order that breaks ties).

    The searching seat is the one to move at the root; :func:`ab_value` gives each root move's value.
    Fills ``root_scores`` with each root move's value in the deepest completed iteration (in the order
    of ``root_moves`` as given; a move cut off has only an upper bound) and ``stats`` with (nodes, depth
    completed); returns (best move index, its value). The first iteration always completes; later ones
    stop when ``node_limit`` nodes (0: no limit) or ``seconds`` (0: no limit) are spent, keeping the
    previous iteration's move unless a move searched since beat it. Stops early on a forced result
    (|value| > 0.99). Each iteration searches the best moves of the last one first.

    With ``star``, each throw's outcomes are searched in Star1's windows (:func:`ab_value`): the same
    values in fewer positions. With ``maxn``, each root move's value is the searching seat's max-n value
    (:func:`maxn_value`) instead of its paranoid one, with the same deepening, budget, tie and early-stop
    rules.
    """
    n = root_moves.shape[0]
    ctx = np.zeros(8, dtype=np.int64)
    ctx[AB_LIMIT] = node_limit
    ctx[AB_ROOT_SEAT] = root[S_SEAT]
    ctx[AB_ROOT_PLY] = root[S_PLY]
    ctx[AB_STAR] = star
    deadline = common.deadline_after(seconds)
    levels = 2 * max_depth + 4  # each decision, and each throw that follows a throw, takes a level
    size = root.shape[0]
    children = np.empty((levels, size), dtype=np.int64)
    moves = np.empty((levels, MAX_MOVES), dtype=np.int64)
    scores = np.empty((levels, MAX_MOVES), dtype=np.int64)
    values = np.zeros((levels, 4), dtype=np.float64)  # max-n: every seat's values, one row a level
    out = np.zeros(4, dtype=np.float64)
    child = np.empty(size, dtype=np.int64)
    order, iteration, done, best_index, completed = common.new_root(n)
    best_value = -INF
    seat = root[S_SEAT]
    # level is a variable, not the literal 0: a literal would compile a second overload of the
    # recursive ab_value, which numba's cache cannot load back (numba issue #6713).
    first_level = np.int64(0)
    for depth in range(1, max_depth + 1):
        iteration_best = common.begin_iteration(ctx, depth, done, order)
        alpha = -INF
        for r in range(n):
            index = order[r]
            child[:] = root
            play(child, root_moves[index], cfg, work)
            if maxn:
                maxn_value(
                    child, depth - 1, first_level, ctx, deadline, cfg, reach, work, children, moves, values,
                    out,
                )  # fmt: skip
                value = values[0, seat]
            else:
                value = ab_value(
                    child, depth - 1, alpha, INF, first_level, ctx, deadline, cfg, reach, work, children,
                    moves, scores, out, tt_keys, tt_moves, history,
                )  # fmt: skip
            if ctx[AB_ABORT]:
                break
            alpha, iteration_best = common.root_record(iteration, done, index, value, alpha, iteration_best)
        # Ties keep the order of the iteration just searched (Sho's root order since its first version).
        order, best_index, best_value, completed, stop = common.end_iteration(
            ctx[AB_ABORT] != 0, order, done, iteration, root_scores, best_index, best_value, iteration_best,
            alpha, depth, completed, True,
        )  # fmt: skip
        if stop:
            break
    stats[0] = ctx[AB_NODES]
    stats[1] = completed
    return best_index, best_value


@njit(cache=True, parallel=True)
def random_playouts(start, first, games, blocks, seed, cfg, returns_out, plies, record):
    """Play random games ``first`` .. ``first + games - 1`` from ``start``: exact dice, random moves.

    Game ``g`` uses its own SplitMix64 stream from ``seed`` and ``g``, so its moves do not depend on the
    other games or on how the games are shared among numba's threads (``blocks`` blocks of games, one
    for each thread: numba's threads cannot be counted here without losing the cache). A throw is two
    independent dice (so each of the 21 unordered throws has its exact probability). Game ``g``'s
    returns and plies go into row ``g - first`` of ``returns_out`` and ``plies``, and its moves into that
    row of ``record`` while there is one.
    """
    blocks = max(1, min(games, blocks))
    for block in prange(blocks):
        play_random_games(
            start, first, first + block * games // blocks, first + (block + 1) * games // blocks, seed, cfg,
            returns_out, plies, record,
        )  # fmt: skip
    return games


@njit(cache=True)
def play_random_games(start, first, begin, end, seed, cfg, returns_out, plies, record):
    """Games ``begin`` .. ``end - 1`` of :func:`random_playouts` (from game ``first``), one after the other.

    After a ply that calls for the settle test (:func:`play_unsettled`), the legal moves are generated
    in full, not only the first: the next ply chooses among them.
    """
    st = np.empty_like(start)
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    work = new_work()
    out = np.empty(4, dtype=np.float64)
    for g in range(begin, end):
        rng = game_stream(seed, g)
        st[:] = start
        row = g - first
        recording = row < record.shape[0]
        played = 0
        count = -1  # the legal moves in ``moves`` where the settle test made them, else -1
        while not ended(st, cfg):
            phase = st[S_PHASE]
            if phase == THROW_PHASE or phase == FIRST_PHASE:  # noqa: SIM109 -- compiled by numba
                rng, move = chance_draw(st, rng, cfg)
            else:
                if count < 0:
                    count = legal_moves(st, cfg, moves, work, False)
                rng, bits = splitmix(rng)
                move = moves[below(bits, count)]
            if recording and played < record.shape[1]:
                record[row, played] = move
            played += 1
            count = -1
            if play_unsettled(st, move, cfg):
                if ended(st, cfg):
                    close(st, cfg)
                else:
                    count = legal_moves(st, cfg, moves, work, False)
                    if count == 0:
                        no_move(st, cfg)
                        count = -1
        returns(st, cfg, out)
        for seat in range(cfg[C_PLAYERS]):
            returns_out[row, seat] = out[seat]
        plies[row] = played


# --- Rollouts ----------------------------------------------------------------------------------------


@njit(cache=True)
def chance_draw(st, rng, cfg):
    """A chance move drawn with its exact chance: two independent dice, or the draw of the first seat.

    Returns the stream's next state and the move's code.
    """
    if st[S_PHASE] == FIRST_PHASE:
        rng, bits = splitmix(rng)
        return rng, FIRST | (below(bits, cfg[C_PLAYERS]) << 11)
    rng, bits = splitmix(rng)
    a = below(bits, 6) + 1
    rng, bits = splitmix(rng)
    b = below(bits, 6) + 1
    return rng, THROW | (min(a, b) << 16) | (max(a, b) << 19)


@njit(cache=True)
def greedy_move(st, cfg, reach, work, moves, child, out):
    """The legal move whose position the evaluation values best for the seat to move (the first of equals).

    One move ahead (what ``kernel-alphabeta:depth=1`` searches, but for the order of equals); a move that
    wins at once is valued at the win.
    """
    n = legal_moves(st, cfg, moves, work, False)
    seat = st[S_SEAT]
    best = -INF
    move = moves[0]
    for i in range(n):
        child[:] = st
        play(child, moves[i], cfg, work)
        evaluate(child, cfg, reach, out)
        if out[seat] > best:
            best = out[seat]
            move = moves[i]
    return move


@njit(cache=True)
def greedy_playout(st, rng, cfg, reach, work, moves, child, out, record):
    """Play ``st`` (in place) to the end: the dice from the stream ``rng``, every seat's move greedy.

    Each seat plays :func:`greedy_move`; ``out`` receives the returns. The moves go into ``record`` while
    it has room (a test replays them in the reference); returns the plies played.
    """
    played = 0
    while not ended(st, cfg):
        if is_chance(st, cfg):
            rng, move = chance_draw(st, rng, cfg)
        else:
            move = greedy_move(st, cfg, reach, work, moves, child, out)
        if played < record.shape[0]:
            record[played] = move
        play(st, move, cfg, work)
        played += 1
    returns(st, cfg, out)
    return played


@njit(cache=True)
def rollouts(root, codes, playouts, seconds, seed, cfg, reach, work, means_out, counts_out, stats):
    """Value each root move by the mean return of greedy playouts after it; the chosen move's index.

    The root seat's return is averaged over playouts to the end of the game in which every seat plays
    :func:`greedy_move` (Monte Carlo rollouts of a base policy: G. Tesauro and G. R. Galperin, "On-line
    policy improvement using Monte-Carlo search", NIPS 1996). Playout ``k`` after every root move throws
    the dice of one stream (``game_stream(seed, k)``), common random numbers, so the moves are compared
    on the same luck. ``playouts`` (the whole decision's) is shared by sequential halving (Z. Karnin,
    T. Koren and O. Somekh, "Almost optimal exploration in multi-armed bandits", ICML 2013): in each of
    ceil(log2(moves)) rounds the moves still in play get equal shares, and the better half goes on. With
    ``playouts`` 0 every move gets playouts until ``seconds`` (which also stops a budgeted search, after
    a whole playout of each move still in play, so that they keep equal counts). Equal means are
    told apart by the evaluation after the move. Fills ``means_out`` and ``counts_out`` per root move
    and ``stats`` with (playouts, plies played).
    """
    n = codes.shape[0]
    seat = root[S_SEAT]
    st = np.empty_like(root)
    child = np.empty_like(root)
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    out = np.empty(4, dtype=np.float64)
    no_record = np.empty(0, dtype=np.int64)
    prior = np.empty(n, dtype=np.float64)
    totals = np.zeros(n, dtype=np.float64)
    counts_out[:] = 0
    for i in range(n):
        st[:] = root
        play(st, codes[i], cfg, work)
        evaluate(st, cfg, reach, out)
        prior[i] = out[seat]
    alive = np.arange(n)
    left = n
    rounds = 1
    while (1 << rounds) < n:
        rounds += 1
    if playouts <= 0:
        rounds = 1
    deadline = common.deadline_after(seconds)
    done = 0
    total = 0
    plies = 0
    stopped = False
    keys = np.empty(n, dtype=np.float64)
    for r in range(rounds):
        share = max(1, playouts // (left * rounds)) if playouts > 0 else 1 << 62
        for k in range(done, done + share):
            for a in range(left):
                i = alive[a]
                st[:] = root
                play(st, codes[i], cfg, work)
                stream = game_stream(seed, k)
                plies += greedy_playout(st, stream, cfg, reach, work, moves, child, out, no_record)
                totals[i] += out[seat]
                counts_out[i] += 1
                total += 1
            done = k + 1
            if deadline > 0.0 and common.clock() >= deadline:
                stopped = True
                break
        if stopped or r == rounds - 1 or left == 1:
            break
        for a in range(left):
            i = alive[a]
            keys[a] = -(totals[i] / counts_out[i] + 1e-6 * prior[i])
        order = np.argsort(keys[:left], kind="mergesort")
        kept = alive[:left][order].copy()
        left = (left + 1) // 2
        alive[:left] = kept[:left]
    best = alive[0]
    best_key = -INF
    for a in range(left):
        i = alive[a]
        key = totals[i] / counts_out[i] + 1e-6 * prior[i]
        if key > best_key:
            best_key = key
            best = i
    for i in range(n):
        means_out[i] = totals[i] / counts_out[i] if counts_out[i] else prior[i]
    stats[0] = total
    stats[1] = plies
    return best


# --- MCTS ---------------------------------------------------------------------------------------------


@njit(cache=True)
def mcts(
    root, root_moves, simulations, seconds, c, seed, low, scale, cfg, reach, work, tree, visits_out,
    values_out, stats,
):  # fmt: skip
    """UCT for any number of players with sampled chance nodes and the evaluation at the leaves.

    The search of the ``mcts:rollout=0`` agent (max^n backup: each node sums every seat's values and
    the seat to move selects by its own mean, scaled to 0..1 by ``low`` and ``scale``), compiled, on
    the tree of ``shogames.kernels.common``. A chance node draws its outcome with the exact probability;
    a decision
    node tries its moves in a shuffled order, one new child per simulation. Stops after ``simulations``
    (0: no limit) or ``seconds`` (0: no limit, the clock read every 256 simulations). Fills
    ``visits_out`` and ``values_out`` (the mover's mean) per move of ``root_moves`` (the root's legal
    moves) and ``stats`` with (simulations, nodes). ``tree`` is the room for the tree
    (``common.new_tree``); returns the index of the most visited root move (ties: the better mean)
    and the tree's arrays, grown where they had to be, for the next search.
    """
    moves, value, path, counts, limits, rng = common.scratch(
        MAX_MOVES, cfg[C_PLAYERS], common.PATH_LENGTH, simulations, seconds, c, seed, low, scale
    )
    pending = root.copy()
    while True:
        count, mode = 0, common.TERMINAL
        if not ended(pending, cfg):
            count = legal_moves(pending, cfg, moves, work, False)
            mode = node_mode(pending[S_PHASE])
        evaluate(pending, cfg, reach, value)  # the returns where the game is over
        tree, move, rng = common.step(
            tree, path, counts, limits, pending, moves, count, mode, pending[S_SEAT], value, rng
        )
        if move < 0:
            break
        play(pending, move, cfg, work)
    return common.finish(tree, counts, root_moves, root[S_SEAT], visits_out, values_out, stats)


@njit(cache=True)
def node_mode(phase):
    """The tree's node mode for a phase: a seat's move, a throw of two dice, or the draw of the first seat."""
    if phase == MOVE_PHASE:
        return common.DECISION
    return common.UNIFORM if phase == FIRST_PHASE else common.TWO_DICE


# --- The batch of games (ShoBatch): action ids, observations, masks ------------------------------------


@njit(cache=True)
def spend_code(st, move, length, cfg):
    """The code of the values a move spends (``ShoGame.spend_codes``); -1 beyond the numbering."""
    if cfg[C_IOS] or st[S_FOLLOWING]:
        return 0
    if cfg[C_FLEXIBLE]:
        return move_value(move, 0, 1) - 1 if splitting(st, cfg) else 0
    if cfg[C_POOL] or not cfg[C_ANY_SUBSET]:
        return move_value(move, 0, 1) - 2 if length == 1 else 11
    n = st[S_NVALUES]
    if n > NUMBERED_VALUES:
        return -1
    mask = 0
    place = 0
    for k in range(length):  # both increasing: equal values take their first places
        value = move_value(move, k, length)
        while st[S_VALUES + place] < value:
            place += 1
        mask |= 1 << place
        place += 1
    return mask - 1


@njit(cache=True)
def move_action(st, move, cfg, codes):
    """The action id of the legal move code ``move`` (``ShoState.move_to_action``); -1 beyond numbering."""
    kind = move & 7
    specials = cfg[C_GOAL] * codes
    if kind == PASS:
        return specials
    if kind == RETHROW:
        return specials + 1
    length = (move >> 22) & 15
    source = (move >> 3) & 255
    if kind == ENTER:
        value = 0
        for k in range(length):
            value += move_value(move, k, length)
        if (move >> 11) & 31 != entry_size(st, side_of(st[S_SEAT], cfg), value, cfg):
            return specials + 2  # the six-three entry of all the coins
        source = 0
    code = spend_code(st, move, length, cfg)
    if code < 0 or code >= codes:
        return -1
    return source * codes + code


@njit(cache=True)
def advance_chance(st, cfg, work, rng):
    """Sample throws (and the draw of the first seat) until a seat is to move or the game is over.

    The dice are drawn as in :func:`play_random_games`: two independent faces, or a uniform seat.
    Returns the stream's next state.
    """
    while not ended(st, cfg):
        phase = st[S_PHASE]
        if phase == THROW_PHASE:
            rng, bits = splitmix(rng)
            a = below(bits, 6) + 1
            rng, bits = splitmix(rng)
            b = below(bits, 6) + 1
            move = THROW | (min(a, b) << 16) | (max(a, b) << 19)
        elif phase == FIRST_PHASE:
            rng, bits = splitmix(rng)
            move = FIRST | (below(bits, cfg[C_PLAYERS]) << 11)
        else:
            break
        play(st, move, cfg, work)
    return rng


@njit(cache=True)
def batch_streams(seed, size):
    """Each row's random stream: :func:`~shogames.kernels.common.game_stream` of the seed and the row."""
    streams = np.empty(size, dtype=np.uint64)
    for row in range(size):
        streams[row] = game_stream(seed, row)
    return streams


@njit(cache=True, parallel=True)
def batch_reset(states, rows, start, streams, cfg, subsets, lengths, counting, moves):
    """Start ``start`` again in every row where ``rows`` is true, then sample chance up to a decision.

    The rows are shared among ``len(moves)`` blocks, one per thread, each with its scratch space.
    """
    size = states.shape[0]
    blocks = moves.shape[0]
    for block in prange(blocks):
        work = (subsets[block], lengths[block], counting[block], moves[block])
        for row in range(block * size // blocks, (block + 1) * size // blocks):
            if rows[row]:
                states[row, :] = start
                streams[row] = advance_chance(states[row], cfg, work, streams[row])


@njit(cache=True, parallel=True)
def batch_decode(states, actions, cfg, codes, subsets, lengths, counting, moves, found):
    """Each row's move code for its action id, into ``found`` (-1: not legal there; -2: the game is over).

    The row's legal moves are generated and the one whose id is the action is taken.
    """
    size = states.shape[0]
    blocks = moves.shape[0]
    for block in prange(blocks):
        work = (subsets[block], lengths[block], counting[block], moves[block])
        listed = np.empty(MAX_MOVES, dtype=np.int64)
        for row in range(block * size // blocks, (block + 1) * size // blocks):
            st = states[row]
            found[row] = -1
            if ended(st, cfg):
                found[row] = -2
                continue
            count = legal_moves(st, cfg, listed, work, False)
            for i in range(count):
                if move_action(st, listed[i], cfg, codes) == actions[row]:
                    found[row] = listed[i]
                    break


@njit(cache=True, parallel=True)
def batch_play(states, found, streams, cfg, subsets, lengths, counting, moves, returns_out, ends):
    """Play each row's move code (rows with a negative code are left), then chance up to a decision.

    A row whose game ends here gets its returns in ``returns_out`` and 1 (by the rules) or 2 (the turn
    cap) in ``ends``; every other row gets zeros.
    """
    size = states.shape[0]
    blocks = moves.shape[0]
    for block in prange(blocks):
        work = (subsets[block], lengths[block], counting[block], moves[block])
        out = np.empty(4, dtype=np.float64)
        for row in range(block * size // blocks, (block + 1) * size // blocks):
            st = states[row]
            ends[row] = 0
            returns_out[row, :] = 0.0
            if found[row] < 0:
                continue
            play(st, found[row], cfg, work)
            streams[row] = advance_chance(st, cfg, work, streams[row])
            if ended(st, cfg):
                returns(st, cfg, out)
                for seat in range(cfg[C_PLAYERS]):
                    returns_out[row, seat] = out[seat]
                ends[row] = 1 if st[S_WINNER] >= 0 else 2


@njit(cache=True, parallel=True)
def batch_legal_mask(states, cfg, codes, subsets, lengths, counting, moves, mask, beyond):
    """Each row's legal action ids as true in ``mask`` (all false once over).

    ``beyond[row]`` is set where a legal move lies beyond the numbering.
    """
    size = states.shape[0]
    blocks = moves.shape[0]
    for block in prange(blocks):
        work = (subsets[block], lengths[block], counting[block], moves[block])
        listed = np.empty(MAX_MOVES, dtype=np.int64)
        for row in range(block * size // blocks, (block + 1) * size // blocks):
            st = states[row]
            mask[row, :] = False
            beyond[row] = False
            if ended(st, cfg):
                continue
            count = legal_moves(st, cfg, listed, work, False)
            for i in range(count):
                action = move_action(st, listed[i], cfg, codes)
                if action < 0:
                    beyond[row] = True
                else:
                    mask[row, action] = True


@njit(cache=True)
def observe_row(st, seat, cfg, out):
    """The observation of ``seat`` (``ShoState.observation_tensor``) into ``out`` (planes x places)."""
    goal = cfg[C_GOAL]
    coins = cfg[C_COINS]
    players = cfg[C_PLAYERS]
    sides = cfg[C_SIDES]
    out[:, :] = 0.0
    order = np.empty(4, dtype=np.int64)
    seen = 0
    for offset in range(players):
        side = side_of((seat + offset) % players, cfg)
        new = True
        for k in range(seen):
            if order[k] == side:
                new = False
        if new:
            order[seen] = side
            seen += 1
    for k in range(sides):
        side = order[k]
        out[k, 0] = st[HAND + side] / coins
        out[k, goal] = st[OFF + side] / coins
        for position in range(1, goal):
            if st[OWNER + position] == side:
                out[k, position] = st[OWNER + goal + position] / coins
        out[sides + k, :] = 1.0 if st[ENTERED + side] else 0.0
        for rank in range(st[S_NPLACED]):
            if st[PLACED + rank] == side:
                out[2 * sides + k, :] = (1 + rank) / sides
    plane = 3 * sides
    playing = not ended(st, cfg)
    if playing:
        out[plane + (st[S_SEAT] - seat) % players, :] = 1.0
    plane += players
    if playing:
        phase = 3 if st[S_FOLLOWING] else st[S_PHASE]
        out[plane + phase, :] = 1.0
    plane += 4
    for i in range(st[S_NVALUES]):
        out[plane, min(st[S_VALUES + i], goal)] += 1.0
    out[plane + 1, :] = st[S_PARAS] / 3
    low, high = st[S_FIRST_LOW], st[S_FIRST_HIGH]
    out[plane + 2, :] = 1.0 if low == 1 and high == 1 else 0.0
    out[plane + 3, :] = 1.0 if low == 1 and high == 2 else 0.0
    out[plane + 4, :] = 1.0 if low == 3 and high == 6 else 0.0
    if st[S_MOVED] >= 0:
        out[plane + 5, st[S_MOVED]] = 1.0
    out[plane + 6, :] = st[S_BONUS]
    out[plane + 7, :] = st[S_BANKED]
    if cfg[C_TOPUP]:
        for position in range(goal):
            if st[OWNER + 2 * goal + position]:
                out[plane + 8, position] = 1.0
    out[plane + 9, :] = st[S_TURNS] / cfg[C_MAX_TURNS]


@njit(cache=True, parallel=True)
def batch_observe(states, cfg, out):
    """Each row's observation from its seat to move's view (seat 0 once over), into ``out``."""
    for row in prange(states.shape[0]):
        st = states[row]
        seat = 0 if ended(st, cfg) else st[S_SEAT]
        observe_row(st, seat, cfg, out[row])
