# mypy: ignore-errors
# (numba compiles this module: its scalars are numpy's int64/float64, which mypy's int does not model.)
"""The compiled half of the Sho kernel: numba functions over one int64 array per state.

State array (int64), for a game with ``goal`` positions (``cfg[GOAL]``)::

    0 seat   1 phase (0 throw, 1 move, 2 draw of the first seat)   2 pa ra count
    3 first throw's low face (0: none)   4 its high face   5 turns   6 ply   7 winning side (-1: none)
    8 how many values   9 .. 9+MAX_VALUES-1 the values, increasing
    HAND .. +3 coins in hand per side   OFF .. +3 borne off   ENTERED .. +3 whether the side has entered
    OWNER .. +goal-1 the side owning each position (-1: empty)   OWNER+goal .. the stacks' sizes

Move code (int64): ``kind | source << 3 | coins << 11 | low << 16 | high << 19 | n << 22`` and then the
``n`` spent values, 4 bits each from bit 26 (kinds as in :mod:`shogames.games.sho`: 0 throw, 1 move,
2 enter, 3 pass, 5 draw of the first seat, whose seat is in ``coins``).

``cfg`` (int64) holds the settings the kernel covers (the ``C_*`` indices); the others make
:func:`shogames.kernels.sho.make_kernel` return ``None``.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from shogames.kernels import _common_jit as common
from shogames.kernels._common_jit import below, splitmix

# Settings (cfg indices).
(
    C_GOAL, C_COINS, C_CAP, C_SIDES, C_PLAYERS, C_MAX_TURNS, C_ANY_SUBSET, C_EXACT, C_OPENING_SIZE,
    C_BONUS12, C_PARA_SIZE, C_N_PLUS_1, C_REOPEN_EMPTY, C_SIX_THREE, C_TRIPLE, C_LAST_KILL, C_ALLOW_PASS,
    C_SHARED,
) = range(18)  # fmt: skip
CFG_SIZE = 18

MAX_VALUES = 16
S_SEAT, S_PHASE, S_PARAS, S_FIRST_LOW, S_FIRST_HIGH, S_TURNS, S_PLY, S_WINNER, S_NVALUES = range(9)
S_VALUES = 9
HAND = S_VALUES + MAX_VALUES
OFF = HAND + 4
ENTERED = OFF + 4
OWNER = ENTERED + 4

THROW_PHASE, MOVE_PHASE, FIRST_PHASE = 0, 1, 2
THROW, MOVE, ENTER, PASS, FIRST = 0, 1, 2, 3, 5
PLACE, STACK, KILL, BEAR_OFF, BLOCKED = 0, 1, 2, 3, -1
MAX_MOVES = 4096

STEP = 7.0
OVERSHOOT = 0.56
HAND_EXTRA = 1.3
DANGER = 0.5
DANGER_LATER = 0.5
MERGE = 2.0
TEMPERATURE = 0.25
REACH_SPAN = 12


@njit(cache=True)
def state_size(goal):
    """The length of a state array for ``goal`` positions."""
    return OWNER + 2 * goal


@njit(cache=True)
def side_of(seat, cfg):
    """The side whose coins ``seat`` moves (teams sharing coins: seats 1, 3 and 2, 4)."""
    return seat % 2 if cfg[C_SHARED] else seat


@njit(cache=True)
def ended(st, cfg):
    """Whether the game is over: a winner, or the turn cap."""
    return st[S_WINNER] >= 0 or st[S_TURNS] >= cfg[C_MAX_TURNS]


@njit(cache=True)
def find_winner(st, cfg):
    """Set the winner to the first side with every coin borne off (the reference's constructor)."""
    if st[S_WINNER] < 0:
        for side in range(cfg[C_SIDES]):
            if st[OFF + side] == cfg[C_COINS]:
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
        if owner >= 0 and owner != side and cfg[C_N_PLUS_1]:
            size = min(max(size, st[OWNER + goal + target] + 1), hand, cfg[C_CAP])
    return size


@njit(cache=True)
def subsets(st, cfg, out, lengths, tmp):
    """The distinct sub-multisets of the values one move may spend, in the reference's order.

    Sorted by size, then lexicographically (``sorted(..., key=(len, subset))``); with
    ``para_subsets=single_or_total`` only the single values and the whole. Writes ``out[i, :lengths[i]]``
    and returns how many.
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


@njit(cache=True)
def legal_moves(st, cfg, out, work, first_only=False):
    """Write the legal moves' codes to ``out`` in the reference's order; return how many.

    With ``first_only``, stop at the first one (to learn whether there is any).
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
    if st[S_NVALUES] > 12:
        raise ValueError("more values to spend than the Sho kernel enumerates")
    subset_values, lengths, tmp, _ = work
    count = subsets(st, cfg, subset_values, lengths, tmp)
    for s in range(count):
        if n + goal + 2 > out.shape[0]:
            raise ValueError("more legal moves than the Sho kernel's move buffer holds")
        length = lengths[s]
        value = 0
        for k in range(length):
            value += subset_values[s, k]
        hand = st[HAND + side]
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
    if n and cfg[C_ALLOW_PASS]:
        out[n] = PASS
        n += 1
    return n


@njit(cache=True)
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
    """The same seat throws again: a throw phase with no pa ra and no first throw (values kept)."""
    st[S_PHASE] = THROW_PHASE
    st[S_PARAS] = 0
    st[S_FIRST_LOW] = 0
    st[S_FIRST_HIGH] = 0


@njit(cache=True)
def end_turn(st, cfg):
    """Pass the dice to the next seat; unused values are lost."""
    st[S_SEAT] = (st[S_SEAT] + 1) % cfg[C_PLAYERS]
    st[S_NVALUES] = 0
    new_step(st)
    st[S_TURNS] += 1


@njit(cache=True)
def settle(st, cfg, work):
    """A seat with no legal move ends its turn at once, in the same ply (R13)."""
    if not ended(st, cfg) and legal_moves(st, cfg, work[3], work, True) == 0:
        end_turn(st, cfg)


@njit(cache=True)
def play(st, move, cfg, work):
    """Play ``move`` on the state array ``st`` in place."""
    kind = move & 7
    st[S_PLY] += 1
    if kind == FIRST:
        st[S_SEAT] = (move >> 11) & 31
        st[S_PHASE] = THROW_PHASE
        return
    if kind == THROW:
        low = (move >> 16) & 7
        high = (move >> 19) & 7
        if st[S_FIRST_LOW] == 0:
            st[S_FIRST_LOW] = low
            st[S_FIRST_HIGH] = high
        if low == 1 and high == 1:
            st[S_PARAS] += 1
            if cfg[C_TRIPLE] and st[S_PARAS] == 3:
                st[S_NVALUES] = 0
                st[S_WINNER] = side_of(st[S_SEAT], cfg)
                return
            insert_value(st, 2)
            return
        insert_value(st, low + high)
        st[S_PHASE] = MOVE_PHASE
        settle(st, cfg, work)
        return
    if kind == PASS:
        end_turn(st, cfg)
        return
    goal = cfg[C_GOAL]
    side = side_of(st[S_SEAT], cfg)
    length = (move >> 22) & 15
    value = 0
    for k in range(length):
        value += (move >> (26 + 4 * k)) & 15
    if kind == ENTER:
        coins = (move >> 11) & 31
        target = value
        result = landing(st, side, coins, target, cfg)
        st[HAND + side] -= coins
        st[ENTERED + side] = 1
    else:
        source = (move >> 3) & 255
        coins = st[OWNER + goal + source]
        target = source + value
        result = landing(st, side, coins, target, cfg)
        st[OWNER + source] = -1
        st[OWNER + goal + source] = 0
    victim = -1
    if result == BEAR_OFF:
        st[OFF + side] += coins
    elif result == PLACE:
        st[OWNER + target] = side
        st[OWNER + goal + target] = coins
    elif result == STACK:
        st[OWNER + goal + target] += coins
    else:
        victim = st[OWNER + target]
        st[HAND + victim] += st[OWNER + goal + target]
        st[OWNER + target] = side
        st[OWNER + goal + target] = coins
    earned = STACK <= result <= KILL  # a stack or a kill earns another throw
    if result == KILL and cfg[C_LAST_KILL]:
        alive = False
        for position in range(goal):
            if st[OWNER + position] == victim:
                alive = True
        if not alive:
            earned = False
    find_winner(st, cfg)
    if earned:
        for k in range(length):
            remove_value(st, (move >> (26 + 4 * k)) & 15)
        new_step(st)
        return
    if ended(st, cfg):
        st[S_NVALUES] = 0  # the game is won: unused values are lost
        new_step(st)
        return
    end_turn(st, cfg)


@njit(cache=True)
def returns(st, cfg, out):
    """Every seat's return: the winning side's seats get +1, the others share the loss; 0 without a winner."""
    players = cfg[C_PLAYERS]
    winner = st[S_WINNER]
    if winner < 0:
        out[:players] = 0.0
        return
    won = 0
    for seat in range(players):
        if side_of(seat, cfg) == winner:
            won += 1
    lost = players - won
    for seat in range(players):
        out[seat] = 1.0 if side_of(seat, cfg) == winner else -won / lost


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
            elif st[OWNER + goal + behind] >= coins:
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
                elif entry[other] >= coins:
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
        steps[mover] -= 1.0 + held / STEP
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
        share = 0.95 * weights[side] / total
        won = 0
        for seat in range(players):
            if side_of(seat, cfg) == side:
                won += 1
        lost = players - won
        for seat in range(players):
            out[seat] += share * (1.0 if side_of(seat, cfg) == side else -won / lost)


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
    n = legal_moves(st, cfg, moves[level], work)
    if depth == 1 and bulk:
        return n
    total = 0
    child = children[level]
    for i in range(n):
        child[:] = st
        play(child, moves[level, i], cfg, work)
        total += perft(child, depth - 1, bulk, cfg, moves, work, children)
    return total


@njit(cache=True)
def random_playouts(start, games, seed, cfg, returns_out, plies, record, work):
    """Play ``games`` random games from ``start``: exact dice, uniformly random moves.

    Game ``g`` uses its own SplitMix64 stream from ``seed`` and ``g``. A throw is two independent dice
    (so each of the 21 unordered throws has its exact probability).
    """
    st = np.empty_like(start)
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    out = np.empty(4, dtype=np.float64)
    for g in range(games):
        rng = np.uint64(seed) * np.uint64(0xD1B54A32D192ED03) + np.uint64(g) * np.uint64(0x9E3779B97F4A7C15)
        rng, _ = splitmix(rng)
        st[:] = start
        played = 0
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
                n = legal_moves(st, cfg, moves, work)
                rng, bits = splitmix(rng)
                move = moves[below(bits, n)]
            if g < record.shape[0] and played < record.shape[1]:
                record[g, played] = move
            play(st, move, cfg, work)
            played += 1
        returns(st, cfg, out)
        for seat in range(cfg[C_PLAYERS]):
            returns_out[g, seat] = out[seat]
        plies[g] = played
    return games


# --- MCTS ---------------------------------------------------------------------------------------------


@njit(cache=True)
def mcts(
    root, root_moves, simulations, seconds, c, seed, low, scale, cfg, reach, work, tree, visits_out,
    values_out, stats,
):  # fmt: skip
    """UCT for any number of players with sampled chance nodes and the evaluation at the leaves.

    The search of the ``mcts:rollout=0`` agent (max^n backup: each node sums every seat's values and
    the seat to move selects by its own mean, scaled to 0..1 by ``low`` and ``scale``), compiled, on
    the tree of ``_common_jit``. A chance node draws its outcome with the exact probability; a decision
    node tries its moves in a shuffled order, one new child per simulation. Stops after ``simulations``
    (0: no limit) or ``seconds`` (0: no limit, the clock read every 256 simulations). Fills
    ``visits_out`` and ``values_out`` (the mover's mean) per move of ``root_moves`` (the root's legal
    moves) and ``stats`` with (simulations, nodes). ``tree`` is the room for the tree
    (``_common_jit.new_tree``); returns the index of the most visited root move (ties: the better mean)
    and the tree's arrays, grown where they had to be, for the next search.
    """
    moves, value, path, counts, limits, rng = common.scratch(
        MAX_MOVES, cfg[C_PLAYERS], common.PATH_LENGTH, simulations, seconds, c, seed, low, scale
    )
    pending = root.copy()
    while True:
        count, mode = 0, common.TERMINAL
        if not ended(pending, cfg):
            count = legal_moves(pending, cfg, moves, work)
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
