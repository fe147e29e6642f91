# mypy: ignore-errors
# (numba compiles this module: its scalars are numpy's int64, which mypy's int does not model.)
"""The compiled half of the tic-tac-toe kernel: numba functions over plain integers and numpy arrays.

Everything here is compiled on first call and cached on disk (``cache=True``); :mod:`.kernel` wraps it.

Position (int64 scalars, the fields of :class:`~toy_games.tictactoe.TicTacToePosition`): ``crosses`` and
``noughts`` (bitboards, bit ``row * size + column``), ``seat`` (0 X, 1 O), ``over`` (0 or 1) and ``winner``
(-1 for none). A move is the square's index.

Rule tables are arguments, not globals: ``lines`` (int64, every winning run as a bitboard) and ``full`` (the
bitboard of every square), so one compiled kernel serves every board size and a test can pass a broken table.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from shogames.kernels.common import below, game_stream, splitmix
from toy_games.tictactoe import OPEN_LINE_WEIGHT

NO_WINNER = -1


@njit(cache=True, inline="always")
def count_bits(bits):
    """The number of set bits of a non-negative int64 (one loop per set bit)."""
    count = 0
    while bits:
        bits &= bits - 1
        count += 1
    return count


@njit(cache=True, inline="always")
def has_line(marks, lines):
    """Whether ``marks`` holds one of the winning runs."""
    for index in range(lines.shape[0]):  # noqa: SIM110 (a loop compiles; any() of a generator does not)
        if marks & lines[index] == lines[index]:
            return True
    return False


@njit(cache=True, inline="always")
def play(crosses, noughts, seat, square, lines, full):
    """The position after ``seat`` marks the empty ``square``: (crosses, noughts, seat, over, winner)."""
    bit = np.int64(1) << square
    if seat == 0:
        crosses |= bit
        won = has_line(crosses, lines)
    else:
        noughts |= bit
        won = has_line(noughts, lines)
    winner = seat if won else NO_WINNER
    over = 1 if won or (crosses | noughts) == full else 0
    return crosses, noughts, 1 - seat, over, winner


@njit(cache=True, inline="always")
def fill_moves(crosses, noughts, over, full, moves):
    """Write the legal moves (the empty squares, lowest first; none when over) to ``moves``; their count."""
    if over:
        return 0
    empty = full & ~(crosses | noughts)
    count = 0
    square = 0
    while empty:
        if empty & 1:
            moves[count] = square
            count += 1
        empty >>= 1
        square += 1
    return count


@njit(cache=True)
def legal_moves(crosses, noughts, over, full, moves):
    """:func:`fill_moves`, callable from Python."""
    return fill_moves(crosses, noughts, over, full, moves)


@njit(cache=True)
def play_move(crosses, noughts, seat, square, lines, full):
    """:func:`play`, callable from Python."""
    return play(crosses, noughts, seat, square, lines, full)


@njit(cache=True)
def judge(crosses, noughts, lines, full):
    """(over, winner) of the marks on the board, found from the marks alone."""
    if has_line(crosses, lines):
        return 1, 0
    if has_line(noughts, lines):
        return 1, 1
    return (1 if (crosses | noughts) == full else 0), NO_WINNER


@njit(cache=True)
def evaluate(crosses, noughts, over, winner, lines):
    """X's value: its returns once the game is over, else the reference's open-line estimate."""
    if over:
        if winner == NO_WINNER:
            return 0.0
        return 1.0 if winner == 0 else -1.0
    score = 0.0
    for index in range(lines.shape[0]):
        x = count_bits(crosses & lines[index])
        o = count_bits(noughts & lines[index])
        if o == 0:
            score += x * x
        elif x == 0:
            score -= o * o
    value = score * OPEN_LINE_WEIGHT
    return value / (1.0 + abs(value))


@njit(cache=True)
def perft_below(crosses, noughts, seat, over, depth, bulk, lines, full):
    """The leaves ``depth`` moves below a position (:func:`shogames.core.perft.perft`'s count)."""
    if depth == 0:
        return 1
    if over:
        return 0
    empty = full & ~(crosses | noughts)
    if depth == 1 and bulk:
        return count_bits(empty)
    total = 0
    square = 0
    while empty:
        if empty & 1:
            c, n, s, o, _ = play(crosses, noughts, seat, square, lines, full)
            total += perft_below(c, n, s, o, depth - 1, bulk, lines, full)
        empty >>= 1
        square += 1
    return total


@njit(cache=True, parallel=True)
def perft(crosses, noughts, seat, over, depth, bulk, lines, full):
    """Perft with the root's moves spread over numba's threads (the count does not depend on them)."""
    if depth <= 1:
        return perft_below(crosses, noughts, seat, over, depth, bulk, lines, full)
    moves = np.empty(64, dtype=np.int64)
    count = fill_moves(crosses, noughts, over, full, moves)
    leaves = np.zeros(count, dtype=np.int64)
    for index in prange(count):
        c, n, s, o, _ = play(crosses, noughts, seat, moves[index], lines, full)
        leaves[index] = perft_below(c, n, s, o, depth - 1, bulk, lines, full)
    return leaves.sum()


@njit(cache=True, parallel=True)
def random_playouts(start, first_game, seed, lines, full, returns, plies, record):
    """Play games ``first_game .. first_game + len(plies) - 1`` of a seeded batch, spread over threads.

    Game ``g`` draws from ``game_stream(seed, g)`` only, so it is the same game in any batch and on any
    number of threads. Fills ``returns`` (one row per game: X's and O's) and ``plies``; the moves of the
    first ``record.shape[0]`` games go to ``record`` (one row per game, one column per ply).
    """
    for index in prange(plies.shape[0]):
        rng = game_stream(seed, first_game + index)
        crosses, noughts, seat, over, winner = start[0], start[1], start[2], start[3], start[4] - 1
        moves = np.empty(64, dtype=np.int64)
        ply = 0
        while not over:
            count = fill_moves(crosses, noughts, over, full, moves)
            rng, bits = splitmix(rng)
            square = moves[below(bits, count)]
            if index < record.shape[0]:
                record[index, ply] = square
            crosses, noughts, seat, over, winner = play(crosses, noughts, seat, square, lines, full)
            ply += 1
        plies[index] = ply
        if winner != NO_WINNER:
            returns[index, winner] = 1.0
            returns[index, 1 - winner] = -1.0


# --- Batches of games (the batched environment) ---------------------------------------------------------


@njit(cache=True, parallel=True)
def batch_reset(states, rows):
    """Empty the board of every row where ``rows`` is true: X to move."""
    for row in prange(states.shape[0]):
        if rows[row]:
            for column in range(5):
                states[row, column] = 0


@njit(cache=True, parallel=True)
def batch_step(states, actions, lines, full, returns, terminated):
    """Mark each going row's square ``actions[row]`` (its action id); fill the ended rows' returns."""
    for row in prange(states.shape[0]):
        returns[row, 0] = 0.0
        returns[row, 1] = 0.0
        terminated[row] = False
        if states[row, 3]:
            continue
        crosses, noughts, seat, over, winner = play(
            states[row, 0], states[row, 1], states[row, 2], actions[row], lines, full
        )
        states[row, 0], states[row, 1], states[row, 2] = crosses, noughts, seat
        states[row, 3], states[row, 4] = over, winner + 1
        if over:
            terminated[row] = True
            if winner != NO_WINNER:
                returns[row, winner] = 1.0
                returns[row, 1 - winner] = -1.0


@njit(cache=True, parallel=True)
def batch_observe(states, squares, out):
    """Each row's three planes (own marks, the other's, observer to move) from its seat to move's view."""
    for row in prange(states.shape[0]):
        over = states[row, 3]
        seat = 0 if over else states[row, 2]
        own = states[row, 0] if seat == 0 else states[row, 1]
        other = states[row, 1] if seat == 0 else states[row, 0]
        for square in range(squares):
            out[row, square] = np.float32((own >> square) & 1)
            out[row, squares + square] = np.float32((other >> square) & 1)
            out[row, 2 * squares + square] = np.float32(0.0 if over else 1.0)


@njit(cache=True, parallel=True)
def batch_mask(states, squares, out):
    """Each row's empty squares (none once over)."""
    for row in prange(states.shape[0]):
        taken = states[row, 0] | states[row, 1]
        over = states[row, 3]
        for square in range(squares):
            out[row, square] = not over and not (taken >> square) & 1
