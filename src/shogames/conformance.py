"""Random-play invariants that every game must satisfy, checked by :func:`check_game`.

Like Pgx's ``api_test``, :func:`check_game` plays random games and checks the protocol's promises at
every state it passes through: the moves and the mover agree with the end of the game; legal moves are
deterministic, without duplicates, and counted right; chance outcomes are exact and sum to 1;
:meth:`~shogames.core.protocol.State.play` leaves its input unchanged and refuses illegal moves; position
and move text round-trip; returns are in range (and sum to zero when the game says so); the game ends
within its length cap; and every game's record writes, reads back and replays to the same end.

A game's tests call it over its settings and presets (``tests/test_conformance.py`` does so for every
registered game)::

    check_game(make("shobu"), n_games=20, seed=0)
"""

from __future__ import annotations

import math
import pickle
import random
from collections.abc import Hashable
from fractions import Fraction
from typing import Any, NoReturn

from shogames.core.chance import sample_outcome
from shogames.core.errors import IllegalMoveError, NotationError, ShogamesError
from shogames.core.protocol import CHANCE, Game, State
from shogames.records import (
    Record,
    _move_text_problem,
    finish_record,
    game_from_record,
    parse_record,
    replay,
    start_record,
    write_record,
)

__all__ = ["check_game"]

_PICKLE_EVERY = 8
"""Every state is checked for equality with the state read from its text; every 8th ply and each final
state also through a pickle."""

_GARBAGE_MOVES = ("", "#?!", "\x00")
"""Texts that are a move in no game's notation; ``parse_move`` must refuse them."""


class _Checker:
    """The context of one random game, for messages that say where a check failed."""

    def __init__(self, game: Game[Any], game_number: int) -> None:
        self.game = game
        self.game_number = game_number

    def fail(self, state: State[Any] | None, problem: str) -> NoReturn:
        where = f"{self.game.id} ({self.game.settings_text() or 'default settings'}), game {self.game_number}"
        if state is None:
            raise AssertionError(f"{where}: {problem}")
        try:
            position = repr(state.to_text())
        except Exception as error:  # the message must not hide the first problem behind a second one
            position = f"<to_text() raised {type(error).__name__}: {error}>"
        raise AssertionError(f"{where}, ply {_ply(state)}: {problem}\n  position: {position}")

    def require(self, condition: bool, state: State[Any] | None, problem: str) -> None:
        if not condition:
            self.fail(state, problem)

    # --- The checks at one state ----------------------------------------------------------------------

    def check_state(self, state: State[Any], ply: int) -> list[Any]:
        """Check one state; return its legal moves."""
        game = self.game
        require = self.require
        require(state.game.id == game.id, state, f"state.game is {state.game.id!r}, not {game.id!r}")
        require(state.ply == ply, state, f"state.ply is {state.ply}, but {ply} moves were played")
        terminal = state.is_terminal()
        moves = list(state.legal_moves())
        again = list(state.legal_moves())
        require(moves == again, state, "legal_moves() gave a different list on a second call")
        require(
            bool(moves) == (not terminal),
            state,
            f"is_terminal() is {terminal} but legal_moves() has {len(moves)} moves",
        )
        require(len(set(moves)) == len(moves), state, f"legal_moves() has duplicates: {moves!r}")
        count = state.count_legal_moves()
        require(count == len(moves), state, f"count_legal_moves() is {count}, legal_moves() has {len(moves)}")
        self.check_mover(state, terminal)
        self.check_returns(state, terminal)
        if state.to_move == CHANCE:
            self.check_chance(state, moves)
        elif not terminal:
            try:
                state.chance_outcomes()
            except ValueError:
                pass
            else:
                self.fail(state, "chance_outcomes() did not raise ValueError at a state that is not chance")
        self.check_move_texts(state, moves)
        restored = self.check_position_text(state, moves)
        self.check_value(state, moves, restored, pickled=terminal or state.ply % _PICKLE_EVERY == 0)
        return moves

    def check_value(
        self, state: State[Any], moves: list[Any], restored: State[Any], *, pickled: bool
    ) -> None:
        """A state is a value: hashable, equal to its text's state and (when ``pickled``) its pickled copy."""
        try:
            key_hash = hash(state.key())
        except TypeError as error:
            self.fail(state, f"key() is not hashable: {error}")
        others = [("the state read from its text", restored)]
        if pickled:
            try:
                copy = pickle.loads(pickle.dumps(state))
            except Exception as error:  # pickle raises many kinds of error
                self.fail(state, f"the state does not pickle: {type(error).__name__}: {error}")
            others.insert(0, ("its unpickled copy", copy))
        for what, other in others:
            self.require(other == state, state, f"the state is not equal (==) to {what}")
            self.require(hash(other) == hash(state), state, f"the state and {what} hash differently")
        if not pickled:
            return
        self.require(
            copy.key() == state.key() and hash(copy.key()) == key_hash, state, "a pickle changed key()"
        )
        self.require(
            copy.to_text() == state.to_text(), state, f"a pickle changed the text to {copy.to_text()!r}"
        )
        self.require(list(copy.legal_moves()) == moves, state, "the unpickled state has other legal moves")
        self.require(copy.game == self.game, state, "the unpickled state's game is not equal to the game")

    def check_mover(self, state: State[Any], terminal: bool) -> None:
        to_move = state.to_move
        if terminal:
            self.require(to_move is None, state, f"the game is over but to_move is {to_move!r}, not None")
            self.require(state.termination() is not None, state, "the game is over but termination() is None")
            return
        self.require(to_move is not None, state, "to_move is None but the game is not over")
        if to_move == CHANCE:
            self.require(self.game.has_chance, state, "to_move is CHANCE but game.has_chance is False")
        else:
            self.require(
                isinstance(to_move, int) and 0 <= to_move < self.game.num_players,
                state,
                f"to_move is {to_move!r}, neither CHANCE nor a seat from 0 to {self.game.num_players - 1}",
            )
        self.require(not state.is_truncated(), state, "is_truncated() is True but the game is not over")
        self.require(state.termination() is None, state, "termination() is not None but the game is not over")

    def check_returns(self, state: State[Any], terminal: bool) -> None:
        game = self.game
        returns = tuple(state.returns())
        self.require(
            len(returns) == game.num_players,
            state,
            f"returns() has {len(returns)} values for {game.num_players} seats: {returns}",
        )
        if not terminal:
            self.require(
                all(value == 0 for value in returns), state, f"returns() before the end are {returns}"
            )
            return
        self.require(
            all(game.min_utility <= value <= game.max_utility for value in returns),
            state,
            f"returns {returns} leave [min_utility, max_utility] = [{game.min_utility}, {game.max_utility}]",
        )
        if game.is_zero_sum:
            self.require(
                math.isclose(sum(returns), 0.0, abs_tol=1e-9),
                state,
                f"returns {returns} of a zero-sum game add up to {sum(returns)}",
            )

    def check_chance(self, state: State[Any], moves: list[Any]) -> None:
        outcomes = list(state.chance_outcomes())
        outcome_moves = [move for move, _ in outcomes]
        self.require(
            outcome_moves == moves,
            state,
            f"chance_outcomes() moves {outcome_moves!r} differ from legal_moves() {moves!r}",
        )
        for move, probability in outcomes:
            self.require(
                isinstance(probability, Fraction) and probability > 0,
                state,
                f"chance outcome {move!r} has probability {probability!r}, not a Fraction above 0",
            )
        total = sum((probability for _, probability in outcomes), Fraction(0))
        self.require(total == 1, state, f"chance probabilities add up to {total}, not exactly 1")

    def check_move_texts(self, state: State[Any], moves: list[Any]) -> None:
        for move in moves:
            text = state.move_to_text(move)
            problem = _move_text_problem(text)
            self.require(
                problem is None, state, f"move {move!r} has text {text!r}, unusable in a record: {problem}"
            )
            try:
                parsed = state.parse_move(text)
            except ShogamesError as error:
                self.fail(state, f"parse_move({text!r}) of legal move {move!r} raised {error!r}")
            self.require(parsed == move, state, f"parse_move({text!r}) is {parsed!r}, not the move {move!r}")
        for garbage in _GARBAGE_MOVES:
            try:
                parsed = state.parse_move(garbage)
            except (NotationError, IllegalMoveError):
                continue
            self.fail(state, f"parse_move({garbage!r}) returned {parsed!r} instead of raising NotationError")

    def check_position_text(self, state: State[Any], moves: list[Any]) -> State[Any]:
        """The state read back from the text agrees with the state; return it."""
        text = state.to_text()
        try:
            copy: State[Any] = self.game.state_from_text(text)
        except ShogamesError as error:
            self.fail(state, f"state_from_text(to_text()) raised {error!r}")
        facts = [
            ("to_text()", text, copy.to_text()),
            ("key()", state.key(), copy.key()),
            ("to_move", state.to_move, copy.to_move),
            ("ply", state.ply, copy.ply),
            ("is_terminal()", state.is_terminal(), copy.is_terminal()),
            ("returns()", tuple(state.returns()), tuple(copy.returns())),
            (
                "legal move texts",
                [state.move_to_text(move) for move in moves],
                [copy.move_to_text(move) for move in copy.legal_moves()],
            ),
        ]
        for what, original, restored in facts:
            self.require(
                original == restored,
                state,
                f"the state read back from to_text() has {what} {restored!r}, not {original!r}",
            )
        return copy

    def check_illegal_move(
        self, state: State[Any], moves: list[Any], foreign: Any, foreign_text: str
    ) -> None:
        """Play and parse a move taken from another state: it must work only if it is legal here."""
        before = (state.to_text(), state.key())
        legal = set(moves)
        if foreign in legal:
            self.require(state.is_legal(foreign), state, f"is_legal({foreign!r}) is False for a legal move")
            return
        self.require(not state.is_legal(foreign), state, f"is_legal({foreign!r}) is True for an illegal move")
        try:
            state.play(foreign)
        except IllegalMoveError:
            pass
        else:
            self.fail(state, f"play({foreign!r}) of an illegal move did not raise IllegalMoveError")
        self.require((state.to_text(), state.key()) == before, state, "a refused play() changed the state")
        try:
            parsed = state.parse_move(foreign_text)
        except (NotationError, IllegalMoveError):
            return
        self.require(
            parsed in legal,
            state,
            f"parse_move({foreign_text!r}) returned {parsed!r}, which is not legal here",
        )

    def check_play(self, state: State[Any], move: Any) -> State[Any]:
        """Play a legal move, checking that the input state is left as it was."""
        before: tuple[str, Hashable] = (state.to_text(), state.key())
        after = state.play(move)
        self.require(
            (state.to_text(), state.key()) == before,
            state,
            f"play({state.move_to_text(move)!r}) changed the state it was called on (was {before[0]!r})",
        )
        fast = state.play_unchecked(move)
        self.require(
            fast.key() == after.key(),
            state,
            f"play_unchecked({state.move_to_text(move)!r}) reached another key than play()",
        )
        self.require(after.ply == state.ply + 1, state, f"play() moved ply from {state.ply} to {after.ply}")
        self.require(
            (after == state) == (after.key() == state.key()),
            state,
            "== disagrees with key(): the states before and after a move compare "
            + ("equal with different keys" if after == state else "unequal with equal keys"),
        )
        return after


def _ply(state: State[Any]) -> str:
    try:
        return str(state.ply)
    except Exception:
        return "?"


def _play_one(game: Game[Any], game_number: int, seed: int, rng: random.Random, probe: random.Random) -> None:
    checker = _Checker(game, game_number)
    state: State[Any] = game.new_initial_state()
    record = start_record(game, ["random"] * game.num_players, seed=seed)
    previous: tuple[State[Any], list[Any]] | None = None
    forfeit: tuple[State[Any], Record] | None = None
    ply = 0
    while True:
        try:
            moves = checker.check_state(state, ply)
            if previous is not None and previous[1]:
                earlier, earlier_moves = previous
                foreign = probe.choice(earlier_moves)
                checker.check_illegal_move(state, moves, foreign, earlier.move_to_text(foreign))
            if not moves:
                break
            checker.require(
                ply < game.max_game_length,
                state,
                f"the game is not over after max_game_length = {game.max_game_length} plies",
            )
            if state.to_move == CHANCE:
                move = sample_outcome(state.chance_outcomes(), rng)
            else:
                move = rng.choice(moves)
            if ply == _FORFEIT_PLY:
                forfeit = (state, Record(dict(record.headers), list(record.moves)))
            record.add_move(state.move_to_text(move))
            previous = (state, moves)
            state = checker.check_play(state, move)
            ply += 1
        except AssertionError:
            raise
        except Exception as error:  # a crash in the game's code: say where it happened
            checker.fail(state, f"unexpected {type(error).__name__}: {error}")
    _check_record(checker, record, state)
    if forfeit is not None:
        _check_forfeit(checker, forfeit[1], forfeit[0])


_FORFEIT_PLY = 6
"""The ply at which each random game is also recorded as given up by a seat, to check the forfeit record."""


def _check_forfeit(checker: _Checker, record: Record, state: State[Any]) -> None:
    """A seat gives up here: the game's forfeit returns are in range and its record replays."""
    game = checker.game
    loser = state.ply % game.num_players
    returns = tuple(state.forfeit_returns(loser))
    checker.require(
        len(returns) == game.num_players
        and all(game.min_utility <= value <= game.max_utility for value in returns)
        and (not game.is_zero_sum or math.isclose(sum(returns), 0.0, abs_tol=1e-9))
        and returns[loser] == min(returns),
        state,
        f"forfeit_returns({loser}) is {returns}: one value per seat, in range, zero-sum when the game is, "
        "and the least for the seat that gives up",
    )
    try:
        finish_record(record, state, resigned=loser)
        replayed = replay(parse_record(write_record(record))).final_state
    except Exception as error:
        checker.fail(state, f"the record of seat {loser} resigning here does not replay: {error}")
    checker.require(
        replayed.key() == state.key(), state, "the record of a resignation replays to another key"
    )


def _check_record(checker: _Checker, record: Any, final: State[Any]) -> None:
    try:
        finish_record(record, final)
        text = write_record(record)
        back = parse_record(text)
        checker.require(
            back.headers == record.headers and back.moves == record.moves,
            final,
            f"the record read back differs from the one written:\n{text}",
        )
        rebuilt = game_from_record(back)
        checker.require(
            rebuilt.id == checker.game.id and dict(rebuilt.settings) == dict(checker.game.settings),
            final,
            f"the Settings header {record.headers['Settings']!r} rebuilds the settings "
            f"{rebuilt.settings_text()!r}",
        )
        replayed = replay(back).final_state
    except AssertionError:
        raise
    except Exception as error:
        checker.fail(final, f"the game's record does not round-trip: {type(error).__name__}: {error}")
    checker.require(
        replayed.key() == final.key(),
        final,
        f"replaying the record reached the key {replayed.key()!r}, not {final.key()!r}",
    )


def check_game(game: Game[Any], *, n_games: int = 20, seed: int = 0) -> None:
    """Play random games and check the protocol's invariants at every state.

    Moves are drawn from ``random.Random(seed)``: uniformly among the legal moves at a seat's turn, and
    with exactly their probabilities at chance nodes, so a seed gives the same games every time. The
    game's id must be registered (the record check rebuilds the game from its record).

    At every state it checks that:

    * ``legal_moves()`` is empty exactly when ``is_terminal()``; ``to_move`` is ``None`` exactly then,
      else CHANCE (only if ``game.has_chance``) or a seat; ``termination()`` is set exactly then;
      ``is_truncated()`` only then;
    * ``legal_moves()`` gives the same list twice, without duplicates; ``count_legal_moves()`` agrees;
    * at chance nodes, ``chance_outcomes()`` lists the legal moves in order, each with a
      :class:`~fractions.Fraction` above 0, summing exactly to 1; elsewhere it raises ValueError;
    * returns have one value per seat, all 0 before the end, within ``[min_utility, max_utility]`` at
      the end, and summing to 0 when ``game.is_zero_sum``;
    * every legal move's text can stand on a record line and ``parse_move`` reads it back to the move;
      ``parse_move`` refuses garbage;
    * ``game.state_from_text(state.to_text())`` has the same text, key, mover, ply (so the length cap
      still applies), end, returns and legal move texts;
    * the state is a value: ``hash(key())`` works; the state equals (``==``, same hash) the state read from
      its text and (every 8th ply and at the end) its copy through :mod:`pickle`, which has the same key,
      text and legal moves; and ``==`` between a state and the next agrees with their keys;
    * ``play`` leaves its input unchanged, agrees with ``play_unchecked`` and adds one ply; a move taken
      from the previous state is refused by ``play`` (and ``is_legal``) unless it is legal here, and
      ``parse_move`` of its text never returns an illegal move;
    * the game ends within ``game.max_game_length`` plies;

    that the game's :meth:`~shogames.core.protocol.State.forfeit_returns` at ply 6 are in range (the least
    for the seat that gives up) and the record of that resignation replays;
    and that each game's record (:func:`~shogames.records.start_record`, moves,
    :func:`~shogames.records.finish_record`) writes, reads back equal, rebuilds the same settings and
    replays to the same final key.

    Args:
        game: the game to check, with the settings to check it under.
        n_games: how many random games to play.
        seed: the seed of the random choices.

    Raises:
        AssertionError: the first violation, with the game id, settings, game number, ply and position.
    """
    rng = random.Random(seed)
    # A second stream picks the probe moves, so the games played depend on the seed alone.
    probe = random.Random(f"probe {seed}")
    for game_number in range(n_games):
        _play_one(game, game_number, seed, rng, probe)
