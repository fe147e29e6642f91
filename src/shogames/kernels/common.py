# mypy: ignore-errors
# (numba compiles this module: its scalars are numpy's int64/float64, which mypy's int does not model.)
"""Compiled pieces every kernel shares: random numbers, the clock, the UCT tree, alpha-beta's budget.

The games' compiled modules (``shogames.games.<id>._jit``) call these from their own compiled
loops; numba compiles each call into the caller (small functions are marked ``inline="always"``), so
sharing them costs nothing at run time. A game's loops stay in its own module because a compiled
function that takes another compiled function as an argument cannot be loaded back from numba's cache.

**Random numbers**: SplitMix64 (Steele, Lea & Flood, OOPSLA 2014), one stream per game of a batch
(:func:`game_stream`), bounded numbers by Lemire's multiply-shift (:func:`below`).

**Alpha-beta** (iterative deepening, as the ``alphabeta`` agent): the node and time budget
(:func:`out_of_budget` over a ``ctx`` array whose first entries are ``C_NODES`` .. ``C_MAY_STOP``),
lazy move ordering (:func:`pick_next`) and the root's bookkeeping between iterations
(:func:`new_root`, :func:`begin_iteration`, :func:`root_record`, :func:`end_iteration`).

**The UCT tree** (used by every kernel's MCTS). Four arrays, grown by :func:`add_node` as needed and
kept by :class:`shogames.kernels.search.CompiledMCTS` for the next search (fresh memory costs a page
fault per 4 KiB on first touch, which was a quarter of a search's time):

- ``links`` (int64, one row per node): ``FIRST`` (the node's first slot in the pool), ``COUNT`` (its
  moves, or its chance outcomes), ``TRIED`` (decision nodes: children made so far), ``MODE`` (what the
  node is: :data:`DECISION`, :data:`TERMINAL` or how its chance outcome is drawn) and ``MOVER`` (the
  seat that chooses at a decision node).
- ``positions`` (the game's dtype, one row per node): the node's position.
- ``values`` (float64, one column per node): the visits (row ``VISITS``), the sum of each seat's
  values (row ``1 + seat``), then the node's own value per seat (row ``1 + seats + seat``: the
  evaluation, or the returns where the game is over, backed up again each time a simulation ends there).
- ``pool`` (int64, two rows, one column per slot): the moves (row ``MOVE``) and the children they
  lead to (row ``CHILD``; -1 while not made). A decision node's moves are stored in a shuffled order
  (the order in which they are tried); a chance node's outcomes in the game's order of legal moves.

A game's MCTS loop is then: for the pending position, find its moves, its mode and its value (the
game's own rules), then :func:`step` (:func:`add_node`, then :func:`walk`, which backs the value up
and walks down to the next move to play), play that move (the rules again), and repeat until
:func:`step` says the budget is spent; :func:`finish` gives the root moves' statistics.
"""

from __future__ import annotations

import math
import sys
import time

import numba
import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

U64 = np.uint64

# --- The clock and growing arrays ----------------------------------------------------------------------


@intrinsic
def popcount(typingctx, x):
    """The number of set bits of a 64-bit integer, signed or not (LLVM's ctpop: one CPU instruction)."""
    if not isinstance(x, types.Integer):
        return None
    sig = types.int64(x)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def lowest_bit(typingctx, x):
    """The index of the lowest set bit of a non-zero 64-bit integer, signed or not (LLVM's cttz)."""
    if not isinstance(x, types.Integer):
        return None
    sig = types.int64(x)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return sig, codegen


_CLOCK_MONOTONIC = 1  # Linux's <time.h>: the clock Python's time.perf_counter and time.monotonic read


@intrinsic
def _monotonic_seconds(typingctx):
    """Seconds from libc's ``clock_gettime(CLOCK_MONOTONIC)``, called by its symbol name.

    A compiled call to a named C function is relinked when numba loads a kernel from its cache, so
    a kernel that reads the clock this way is compiled once per machine, not once per process (an
    ``objmode`` block, Python's clock, cannot be cached at all). ``struct timespec`` is two 64-bit
    integers on 64-bit Linux: the seconds and the nanoseconds.
    """
    sig = types.float64()

    def codegen(context, builder, signature, args):
        int64 = ir.IntType(64)
        timespec = ir.LiteralStructType([int64, int64])
        function_type = ir.FunctionType(ir.IntType(32), [ir.IntType(32), timespec.as_pointer()])
        clock_gettime = cgutils.get_or_insert_function(builder.module, function_type, "clock_gettime")
        reading = cgutils.alloca_once(builder, timespec)
        builder.call(clock_gettime, [ir.Constant(ir.IntType(32), _CLOCK_MONOTONIC), reading])
        zero = ir.Constant(ir.IntType(32), 0)
        seconds = builder.load(builder.gep(reading, [zero, zero]))
        nanoseconds = builder.load(builder.gep(reading, [zero, ir.Constant(ir.IntType(32), 1)]))
        double = ir.DoubleType()
        return builder.fadd(
            builder.sitofp(seconds, double),
            builder.fmul(builder.sitofp(nanoseconds, double), ir.Constant(double, 1e-9)),
        )

    return sig, codegen


if sys.platform.startswith("linux") and sys.maxsize > 2**32:

    @njit(cache=True)
    def clock():
        """Seconds from a monotonic clock (``CLOCK_MONOTONIC``, as ``time.perf_counter``), compiled."""
        return _monotonic_seconds()

else:  # pragma: no cover - other systems: Python's clock, which numba compiles again in each process

    @njit(cache=True)
    def clock():
        """Seconds from a monotonic clock (Python's ``time.perf_counter``), callable from compiled code."""
        with numba.objmode(now="float64"):
            now = time.perf_counter()
        return now


@njit(cache=True)
def deadline_after(seconds):
    """The clock reading ``seconds`` from now, or 0.0 (no deadline) when ``seconds`` is not positive."""
    return clock() + seconds if seconds > 0.0 else 0.0


@njit(cache=True)
def grow_columns(array, columns):
    """A copy of a 2-D array with room for ``columns`` columns (the new ones not set)."""
    bigger = np.empty((array.shape[0], columns), dtype=array.dtype)
    bigger[:, : array.shape[1]] = array
    return bigger


@njit(cache=True)
def grow_rows(array, rows):
    """A copy of a 2-D array with room for ``rows`` rows (the new ones not set).

    Nothing is written that is not needed, so that no memory is touched before it is used.
    """
    bigger = np.empty((rows, array.shape[1]), dtype=array.dtype)
    bigger[: array.shape[0]] = array
    return bigger


# --- Random numbers ------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def mix64(z):
    """SplitMix64's finaliser: 64 well-mixed bits from a uint64 (also the kernels' position hashes)."""
    z = (z ^ (z >> U64(30))) * U64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> U64(27))) * U64(0x94D049BB133111EB)
    return z ^ (z >> U64(31))


@njit(cache=True, inline="always")
def splitmix(state):
    """One step of SplitMix64: (next state, 64 random bits)."""
    state = state + U64(0x9E3779B97F4A7C15)
    return state, mix64(state)


@njit(cache=True, inline="always")
def below(bits, bound):
    """A number in ``0 .. bound - 1`` from 64 random bits (Lemire's multiply-shift, 32-bit precision)."""
    return np.int64(((bits >> U64(32)) * U64(bound)) >> U64(32))


@njit(cache=True)
def game_stream(seed, game):
    """The random stream of game number ``game`` of a batch: independent of the batch's size."""
    state = U64(seed) * U64(0xD1B54A32D192ED03) + U64(game) * U64(0x9E3779B97F4A7C15)
    state, _ = splitmix(state)
    return state


@njit(cache=True, inline="always")
def shuffle(moves, count, rng):
    """Shuffle ``moves[:count]`` in place (Fisher-Yates); returns the stream's next state."""
    for i in range(count - 1, 0, -1):
        rng, bits = splitmix(rng)
        j = below(bits, i + 1)
        moves[i], moves[j] = moves[j], moves[i]
    return rng


# --- Alpha-beta -----------------------------------------------------------------------------------------

# ctx (int64): an alpha-beta search's counters and limits; a game's search may add its own after these.
C_NODES, C_NODE_LIMIT, C_ABORT, C_MAY_STOP = range(4)
CHECK_EVERY = 1023  # nodes between two looks at the clock, minus one (a mask)
WIN_DISCOUNT = 1e-4  # the agents' rule: a win one ply later is worth this much less
INF = 1e9


@njit(cache=True)
def out_of_budget(ctx, deadline):
    """Count one node; say (and remember in ``ctx``) whether the node or time budget is spent.

    Only once ``ctx[C_MAY_STOP]`` is set (the first iteration of iterative deepening always completes).
    """
    ctx[C_NODES] += 1
    if ctx[C_MAY_STOP]:
        over_nodes = ctx[C_NODE_LIMIT] > 0 and ctx[C_NODES] >= ctx[C_NODE_LIMIT]
        if over_nodes or (deadline > 0.0 and (ctx[C_NODES] & CHECK_EVERY) == 0 and clock() >= deadline):
            ctx[C_ABORT] = 1
    return ctx[C_ABORT] != 0


@njit(cache=True, inline="always")
def pick_next(moves, scores, i, n):
    """Lazy selection sort: bring the best-scored of ``moves[i:n]`` and its score to ``i``; return it.

    The first of equal scores is picked. Cut-offs usually come after a few moves, so the moves are sorted
    only as far as they are searched.
    """
    pick = i
    for j in range(i + 1, n):
        if scores[j] > scores[pick]:
            pick = j
    move = moves[pick]
    moves[pick] = moves[i]
    moves[i] = move
    score = scores[pick]
    scores[pick] = scores[i]
    scores[i] = score
    return move


VALUE_LOW, VALUE_HIGH = -1.0, 1.0
"""Every value of a kernel's alpha-beta lies within these (results within +-1, evaluations inside them):
Star1's bounds on the outcomes of a chance node not yet searched."""


@njit(cache=True, inline="always")
def star1_window(alpha, beta, total, left, chance):
    """Star1 (Ballard 1983) for one outcome of a chance node searched in the window (alpha, beta).

    ``total`` is the sum of each outcome searched so far times its chance, ``left`` the chance of the
    outcomes not yet searched (this one's ``chance`` included). Returns (cut_low, cut_high, low, high):
    the node's mean falls inside (alpha, beta) only if this outcome's value falls inside (cut_low,
    cut_high), whatever the later outcomes give within VALUE_LOW .. VALUE_HIGH; (low, high) is that window
    within the bounds, the one to search the outcome in (empty where no value can bring the mean inside).
    """
    cut_low = (alpha - total - (left - chance) * VALUE_HIGH) / chance
    cut_high = (beta - total - (left - chance) * VALUE_LOW) / chance
    return cut_low, cut_high, max(cut_low, VALUE_LOW), min(cut_high, VALUE_HIGH)


@njit(cache=True, inline="always")
def star1_cut(value, total, chance, left, cut_low, cut_high):
    """Whether an outcome's ``value`` cuts its chance node off (:func:`star1_window`), and the bound then.

    ``left`` is the chance of the outcomes after this one. The bound is the node's mean with every later
    outcome at the bound on its side: at most alpha, or at least beta (fail-soft, as a cut-off at a
    decision returns).
    """
    if value <= cut_low:
        return True, total + chance * value + left * VALUE_HIGH
    if value >= cut_high:
        return True, total + chance * value + left * VALUE_LOW
    return False, 0.0


@njit(cache=True)
def new_root(n):
    """The root's bookkeeping before the first iteration of ``n`` root moves.

    Returns (the order, in the root moves' given order; each move's value in the iteration; whether it
    was searched; the best move's index, the first; the depth completed, 0).
    """
    order = np.arange(n)
    return order, np.zeros(n, dtype=np.float64), np.zeros(n, dtype=np.bool_), order[0], 0


@njit(cache=True, inline="always")
def begin_iteration(ctx, depth, done, order):
    """Before the iteration to ``depth``; returns its best so far, the first move of ``order``.

    The budget may stop the iteration unless it is the first, and no root move is searched yet.
    """
    ctx[C_MAY_STOP] = 1 if depth > 1 else 0
    done[:] = False
    return order[0]


@njit(cache=True, inline="always")
def root_record(iteration, done, index, value, alpha, best):
    """Record root move ``index``'s value in this iteration; returns the new (alpha, best index)."""
    iteration[index] = value
    done[index] = True
    if value > alpha:
        return value, index
    return alpha, best


@njit(cache=True)
def root_order(iteration, root_scores, order, within_order):
    """After a completed iteration: keep its scores and give the next iteration's order, best first.

    A stable sort keeps, among equal values, the root moves' given order, or with ``within_order``
    the order of the iteration just searched (``order``).
    """
    root_scores[:] = iteration
    if within_order:
        return order[np.argsort(-iteration[order], kind="mergesort")]
    return np.argsort(-iteration, kind="mergesort")


@njit(cache=True)
def end_iteration(
    aborted, order, done, iteration, root_scores, best_index, best_value, iteration_best, alpha, depth,
    completed, within_order=False,
):  # fmt: skip
    """The root's bookkeeping after an iteration of iterative deepening (completed or ``aborted``).

    Returns (the next order, the best move's index, its value, the depth completed, whether to stop):
    an aborted iteration keeps the previous best unless a move searched since beat it
    (:func:`better_after_abort`); a completed one gives its best (the next order by
    :func:`root_order`, ties as ``within_order`` says) and stops on a forced result.
    """
    if aborted:
        index, value, changed = better_after_abort(order, done, iteration, best_index)
        if changed:
            return order, index, value, completed, True
        return order, best_index, best_value, completed, True
    next_order = root_order(iteration, root_scores, order, within_order)
    return next_order, iteration_best, alpha, depth, abs(alpha) > 0.99


@njit(cache=True)
def better_after_abort(order, done, iteration, best_index):
    """The best root move after an iteration stopped by the budget.

    The previous best move is searched first, so a move of this iteration that beat it is better
    still; returns (the index, its value, whether it changed).
    """
    first = order[0]
    best_value = iteration[best_index]
    changed = False
    if done[first]:
        for r in range(order.shape[0]):
            index = order[r]
            if done[index] and iteration[index] > max(iteration[first], iteration[best_index]):
                best_index = index
                best_value = iteration[index]
                changed = True
    return best_index, best_value, changed


# --- The UCT tree --------------------------------------------------------------------------------------

FIRST, COUNT, TRIED, MODE, MOVER = range(5)
VISITS = 0
MOVE, CHILD = 0, 1

TERMINAL = -1
"""Node mode: the game is over."""
DECISION = 0
"""Node mode: a seat chooses a move (UCB1)."""
TWO_DICE = 1
"""Node mode: two dice thrown, the 21 unordered throws in order (1-1, 1-2, .., 6-6) at their chances."""
OPENING_ROLL = 2
"""Node mode: one die each until they differ: the 30 ordered rolls (first die, then the other), each 1/30."""
UNIFORM = 3
"""Node mode: one of the node's outcomes, each as likely."""

PATH_LENGTH = (1 << 16) + 2
NODES, USED, SIMS, DEPTH = range(4)  # the search's counts (an int64 array)


@njit(cache=True)
def scratch(max_moves, seats, path_length, simulations, seconds, c, seed, low, scale):
    """What a search's loop needs besides the tree: (moves, value, path, counts, limits, rng).

    A move buffer of ``max_moves``, a value per seat, a path of ``path_length`` nodes, the counts
    (``NODES``, ``USED``, ``SIMS``, ``DEPTH``), the limits :func:`walk` takes and the random stream.
    """
    moves = np.empty(max_moves, dtype=np.int64)
    value = np.zeros(seats, dtype=np.float64)
    path = np.empty(path_length, dtype=np.int64)
    counts = np.zeros(4, dtype=np.int64)
    limits = (simulations, deadline_after(seconds), c, low, scale)
    return moves, value, path, counts, limits, game_stream(seed, 0)


@njit(cache=True)
def new_tree(capacity, seats, width, position):
    """Room for a tree of ``capacity`` nodes (more are added by growing it) for ``seats`` seats.

    ``width`` is the pool's room per node; ``position`` is a position row of the game (its length and
    dtype make the positions array). Returns (links, values, pool, positions). Nothing is set: a
    node's entries are written as it is added (:func:`add_node`), so the arrays can be used again for
    the next search without clearing them, and memory is not touched before it is needed.
    """
    links = np.empty((capacity, 5), dtype=np.int64)
    values = np.empty((1 + 2 * seats, capacity), dtype=np.float64)
    pool = np.empty((2, width * capacity), dtype=np.int64)
    positions = np.empty((capacity, position.shape[0]), dtype=position.dtype)
    return links, values, pool, positions


@njit(cache=True, inline="always")
def add_node(links, values, pool, positions, counts, position, moves, count, mode, mover, value, rng):
    """Add the next node at ``position`` with ``moves[:count]`` (shuffled at a decision node).

    ``value`` (one per seat) is the node's value: the evaluation, or the returns where the game is
    over. ``counts`` holds the nodes and the pool's slots taken. Returns the arrays (grown when full)
    and the stream's next state.
    """
    node = counts[NODES]
    used = counts[USED]
    if node == links.shape[0]:
        links = grow_rows(links, 2 * node)
        values = grow_columns(values, 2 * node)
        positions = grow_rows(positions, 2 * node)
    if used + count > pool.shape[1]:
        pool = grow_columns(pool, 2 * pool.shape[1] + count)
    if mode == DECISION:
        rng = shuffle(moves, count, rng)
    else:  # a chance node's children are looked up by outcome (a decision node's only once made)
        pool[CHILD, used : used + count] = -1
    positions[node] = position
    seats = value.shape[0]
    for row in range(1 + seats):
        values[row, node] = 0.0
    for seat in range(seats):
        values[1 + seats + seat, node] = value[seat]
    pool[MOVE, used : used + count] = moves[:count]
    links[node, FIRST] = used
    links[node, COUNT] = count
    links[node, TRIED] = 0
    links[node, MODE] = mode
    links[node, MOVER] = mover
    counts[NODES] = node + 1
    counts[USED] = used + count
    return links, values, pool, positions, rng


@njit(cache=True, inline="always")
def chance_index(mode, count, bits):
    """An outcome's index at a chance node of ``mode``, drawn from 64 random bits with its chance."""
    a = below(bits, 6)
    if mode == OPENING_ROLL:
        return a * 5 + below(bits << U64(32), 5)
    if mode == UNIFORM:
        return below(bits, count)
    b = below(bits << U64(32), 6)  # the low 32 bits make the second die
    low, high = min(a, b), max(a, b)
    # Index of (low, high) among the 21 throws ordered by low, then high (both from 0 here).
    return low * 6 - (low * (low - 1)) // 2 + (high - low)


@njit(cache=True, inline="always")
def uct_child(links, values, pool, node, c, low, scale):
    """The child of decision node ``node`` with the best UCB1 score for its mover.

    A child's value is its mover's mean scaled to 0..1 by ``low`` and ``scale``.
    """
    column = 1 + links[node, MOVER]
    log_visits = math.log(values[VISITS, node])
    first = links[node, FIRST]
    best = -1
    best_score = -1e300
    for i in range(links[node, TRIED]):
        child = pool[CHILD, first + i]
        v = values[VISITS, child]
        score = (values[column, child] / v - low) * scale + c * math.sqrt(log_visits / v)
        if score > best_score:
            best_score = score
            best = child
    return best


@njit(cache=True, inline="always")
def descend(links, values, pool, path, new, c, low, scale, rng):
    """Walk from the root to where the next simulation ends: UCB1 at decisions, sampled chance.

    Stops at a node with an untried move or an outcome not drawn before (the slot's child becomes
    node ``new``), or at a node where the game is over. Fills ``path[:depth + 1]``; returns (the node,
    depth, the slot of the new child or -1 at a game's end, the stream's next state).
    """
    current = 0
    depth = 0
    path[0] = 0
    while True:
        mode = links[current, MODE]
        if mode == TERMINAL:
            return current, depth, -1, rng
        if mode == DECISION:
            tried = links[current, TRIED]
            if tried < links[current, COUNT]:
                links[current, TRIED] = tried + 1
                slot = links[current, FIRST] + tried
                pool[CHILD, slot] = new
                return current, depth, slot, rng
            current = uct_child(links, values, pool, current, c, low, scale)
        else:
            rng, bits = splitmix(rng)
            slot = links[current, FIRST] + chance_index(mode, links[current, COUNT], bits)
            child = pool[CHILD, slot]
            if child < 0:
                pool[CHILD, slot] = new
                return current, depth, slot, rng
            current = child
        depth += 1
        if depth + 1 >= path.shape[0]:  # room for the new node too
            raise ValueError("the MCTS path is longer than the kernel holds")
        path[depth] = current


@njit(cache=True, inline="always")
def back_up(values, path, depth, leaf, counts, simulations, deadline):
    """Add node ``leaf``'s own value to every node of ``path[:depth + 1]``; count the simulation.

    Returns whether the budget is spent: ``simulations`` of them (0: no limit), or the ``deadline``
    passed (0.0: none), looked at every 256 simulations.
    """
    seats = (values.shape[0] - 1) // 2
    for i in range(depth + 1):
        row = path[i]
        values[VISITS, row] += 1.0
        for seat in range(seats):
            values[1 + seat, row] += values[1 + seats + seat, leaf]
    counts[SIMS] += 1
    sims = counts[SIMS]
    return (simulations > 0 and sims >= simulations) or (
        deadline > 0.0 and (sims & 255) == 0 and clock() >= deadline
    )


@njit(cache=True, inline="always")
def walk(links, values, pool, path, counts, limits, rng):
    """Back up the node just added, then walk down to where the next new node is due.

    Backs the new node's value up its path (not for the root), then descends (:func:`descend`),
    backing up the returns of every finished game it reaches again, until a slot is due for a new
    child. ``limits`` is (simulations, deadline, c, low, scale). Returns (the node to play from, the
    slot of the move to play, or -1 once the budget is spent, the stream's next state).
    """
    simulations, deadline, c, low, scale = limits
    node = counts[NODES] - 1
    if node > 0:
        depth = counts[DEPTH] + 1
        path[depth] = node
        if back_up(values, path, depth, node, counts, simulations, deadline):
            return node, -1, rng
    while True:
        current, depth, slot, rng = descend(links, values, pool, path, counts[NODES], c, low, scale, rng)
        counts[DEPTH] = depth
        if slot >= 0:
            return current, slot, rng
        if back_up(values, path, depth, current, counts, simulations, deadline):
            return current, -1, rng


@njit(cache=True, inline="always")
def step(tree, path, counts, limits, position, moves, count, mode, mover, value, rng):
    """One step of a search's loop: add a node, back its value up, walk down to the next move.

    Adds the node at ``position`` (:func:`add_node`), then :func:`walk`, and copies the position of
    the node to play from into ``position``. Returns the tree (grown where it had to be), the move to
    play there (-1 once the budget is spent) and the stream's next state.
    """
    links, values, pool, positions = tree
    links, values, pool, positions, rng = add_node(
        links, values, pool, positions, counts, position, moves, count, mode, mover, value, rng
    )
    tree = (links, values, pool, positions)
    current, slot, rng = walk(links, values, pool, path, counts, limits, rng)
    if slot < 0:
        return tree, -1, rng
    position[:] = positions[current]
    return tree, pool[MOVE, slot], rng


@njit(cache=True)
def finish(tree, counts, root_moves, seat, visits_out, values_out, stats):
    """Fill the results (:func:`report`) and ``stats`` (simulations, nodes).

    Returns (the best root move's index, the tree for the next search).
    """
    stats[0] = counts[SIMS]
    stats[1] = counts[NODES]
    links, values, pool, _ = tree
    return report(links, values, pool, root_moves, seat, visits_out, values_out), tree


@njit(cache=True)
def report(links, values, pool, root_moves, seat, visits_out, values_out):
    """Each root move's visits and ``seat``'s mean value, in ``root_moves``' order; the best index.

    The best root move is the most visited (ties: the better mean, then the earlier move).
    """
    k = root_moves.shape[0]
    first = links[0, FIRST]
    best_index = 0
    best_visits = -1.0
    best_mean = -1e300
    visits_out[:k] = 0
    values_out[:k] = 0.0
    for i in range(links[0, TRIED]):
        child = pool[CHILD, first + i]
        move = pool[MOVE, first + i]
        for r in range(k):
            if root_moves[r] == move:
                visits = values[VISITS, child]
                visits_out[r] = np.int64(visits)
                mean = values[1 + seat, child] / visits
                values_out[r] = mean
                if visits > best_visits or (visits == best_visits and mean > best_mean):
                    best_visits = visits
                    best_mean = mean
                    best_index = r
                break
    return best_index


# --- Learned evaluations ------------------------------------------------------------------------------

TANH_STEPS = 256
"""Points of :data:`TANH_TABLE` per unit: linear interpolation between them is within 2e-6 of tanh."""
TANH_TABLE = np.tanh(np.arange(-8 * TANH_STEPS, 8 * TANH_STEPS + 2) / TANH_STEPS)
"""tanh from -8 to 8 (and one step past): a learned evaluation's hidden layer, several times as fast as
libm's."""


@njit(cache=True, inline="always")
def table_tanh(x):
    """tanh(x) to within 2e-6: interpolated in :data:`TANH_TABLE`, +-1 to within 3e-7 beyond +-8."""
    if x >= 8.0:
        return 1.0
    if x <= -8.0:
        return -1.0
    f = (x + 8.0) * TANH_STEPS
    i = int(f)
    low = TANH_TABLE[i]
    return low + (f - i) * (TANH_TABLE[i + 1] - low)
