"""Training a value network on positions labelled by the game kernel's search, round by round.

TD(lambda) (:mod:`~shogames.learning.td`) learns from the results of self-play. In a game where a
search sees much further than the evaluation at its leaves, the search's values are a better teacher:
each is a deterministic function of the position, free of the noise of one game's result. This module
fits the network to them, as chess programs' evaluations are trained on positions scored by deeper
searches (the NNUE networks of Stockfish and others).

The positions come in rounds of ``round`` games (:class:`~shogames.learning.td.TrainingOptions`):

- **Play.** In game ``i`` seat ``i mod players`` is one-turn greedy with the network of the round's start
  (``greedy:value=learned``), every other seat one-turn greedy with the hand-written evaluation; a share
  ``epsilon`` of moves is random. The first round's network, made with a prior and not yet trained, ranks
  moves as the hand-written evaluation does, so the first round is hand-written greedy against itself.
- **Labels.** At each decision, ``children`` of its moves (drawn at random) have the position after them
  labelled. A position where a seat is to move is searched by the kernel's plain alpha-beta for
  ``teacher`` positions; its value (on -1 .. 1) is the label for that seat, and in a two-player zero-sum
  game its negation the other seat's. A position before a chance outcome (the dice to throw) is labelled,
  in a two-player zero-sum game, with the average of its outcomes' labels weighted by their chances.
- **Fit.** At the end of a round a network is made afresh from the seed and fitted to every position
  labelled so far: ``epochs`` passes in shuffled minibatches with Adam on the squared error.

The network plays the next round, so the later rounds label the positions its own play reaches (what
imitation learning calls DAgger: S. Ross, G. Gordon and J. A. Bagnell, "A reduction of imitation
learning and structured prediction to no-regret online learning", AISTATS 2011). Fitting to positions of
hand-written greedy alone leaves the network blind where its own play leads.

Everything random comes from the seed and the game's number, and each game searches with a searcher of
its own, so a game's labels depend on the seed, its number and the round's network only: a run resumed
from a checkpoint, or one whose games were played in processes or on Ray, gives the same weights as an
unbroken run in one process.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from shogames.agents.greedy import GreedyAgent
from shogames.core.chance import random_plies, sample_chance
from shogames.core.kernel import KernelUnavailableError, Searcher, require_kernel
from shogames.core.protocol import CHANCE, Game, State
from shogames.learning.network import ValueNet, WeightsError, return_scale, to_unit
from shogames.learning.td import MAX_PLIES, Adam, CurvePoint, Examples, Training, TrainingOptions


@dataclass
class SearchTraining(Training):
    """A run that fits the network to positions labelled by the kernel's search (see the module's docs).

    Make one with :meth:`start` or :meth:`Training.resume` (``options.teacher`` above 0), then call
    :meth:`run`. ``examples`` holds every game's labelled positions, in the games' order.
    """

    examples: list[Examples] = field(default_factory=list)
    loss: float = 0.0

    @classmethod
    def start(cls, game: Game[Any], options: TrainingOptions, *, command: str = "") -> Training:
        """A new run for ``game``, checked to have a kernel alpha-beta to label positions with.

        Raises:
            ValueError: ``options.teacher`` is 0 (that is TD(lambda): :class:`Training`).
            KernelUnavailableError: the game (or these settings) has no kernel alpha-beta.
        """
        if options.teacher < 1:
            raise ValueError("a run labelled by search needs a teacher of 1 position or more")
        _searcher(game)
        return super().start(game, options, command=command)

    # --- labelled games --------------------------------------------------------------------------------

    def self_play(self, index: int) -> Examples:
        """Play game number ``index`` (greedy with the network against hand-written greedy) and label it."""
        game = self.game
        options = self.options
        rng = self._rng(index)
        searcher = _searcher(game)
        low, high = return_scale(game)
        prior = self.network.prior
        agents = self._players(index)
        state = random_plies(game.new_initial_state(), options.opening, rng)
        rows: list[list[float]] = []
        priors: list[float] = []
        targets: list[float] = []
        plies = 0
        new_turn = True  # a seat's first move after the dice or another seat's move
        while not state.is_terminal() and plies < MAX_PLIES:
            seat = state.to_move
            if seat == CHANCE:
                state = state.play_unchecked(sample_chance(state, rng))
                new_turn = True
                continue
            assert seat is not None
            moves = state.legal_moves()
            for position, labelled_seat, target in self._labelled(state, moves, new_turn, searcher, rng):
                rows.append(position.observation_tensor(labelled_seat))
                if prior:
                    priors.append(to_unit(position.evaluate()[labelled_seat], low, high))
                targets.append(target)
            if len(moves) > 1 and rng.random() < options.epsilon:
                move = moves[rng.randrange(len(moves))]
            else:
                move = agents[seat].select_move(state)
            state = state.play_unchecked(move)
            new_turn = state.to_move != seat
            plies += 1
        return self._game_examples(rows, priors, targets, plies)

    def _labelled(
        self,
        state: State[Any],
        moves: Sequence[Any],
        new_turn: bool,
        searcher: Searcher[Any],
        rng: random.Random,
    ) -> list[tuple[State[Any], int, float]]:
        """The positions labelled at this decision, each with the seat it is labelled for and its label.

        ``children`` of the moves, drawn at random, have the position after them labelled by the search.
        """
        low, high = return_scale(self.game)
        labelled: list[tuple[State[Any], int, float]] = []
        for i in sorted(rng.sample(range(len(moves)), min(self.options.children, len(moves)))):
            child = state.play_unchecked(moves[i])
            for seat, value in _labels(child, searcher, self.options.teacher, low, high):
                labelled.append((child, seat, value))
        return labelled

    def _players(self, index: int) -> list[GreedyAgent]:
        """Game ``index``'s players: greedy with the round's network at seat ``index`` mod the players."""
        learned_seat = index % self.game.num_players
        return [
            GreedyAgent(seed=index * 10 + seat, network=self.network)
            if seat == learned_seat
            else GreedyAgent(seed=index * 10 + seat)
            for seat in range(self.game.num_players)
        ]

    def _game_examples(
        self, rows: list[list[float]], priors: list[float], targets: list[float], plies: int
    ) -> Examples:
        """A game's labelled rows as arrays (priors of 0 for a network without one)."""
        x = np.array(rows, dtype=np.float32).reshape(len(rows), self.network.inputs)
        p = np.array(priors, dtype=np.float32) if self.network.prior else np.zeros(len(rows), np.float32)
        return Examples(x, p, np.array(targets, dtype=np.float32), plies)

    # --- fitting ---------------------------------------------------------------------------------------

    def _fresh(self) -> tuple[ValueNet, Adam]:
        """A network made afresh from the seed, with this run's header, and its optimiser."""
        options = self.options
        network = ValueNet.new(self.network.inputs, options.hidden, prior=options.prior, seed=options.seed)
        network.info = self.network.info
        return network, Adam.new(network)

    def fit(self) -> float:
        """Make the network afresh and fit it to every labelled position so far; the last pass's loss."""
        options = self.options
        network, adam = self._fresh()
        x, p, y = self._stacked()
        losses: list[float] = []
        for epoch in range(options.epochs):
            order = np.random.default_rng([options.seed, self.games_done, epoch]).permutation(len(y))
            losses = []
            for start in range(0, len(y), options.batch):
                rows = order[start : start + options.batch]
                loss, grads = network.gradients(x[rows], p[rows], y[rows])
                adam.step(network, grads, options.learning_rate)
                losses.append(loss)
        self.network, self.adam = network, adam
        self.loss = float(np.mean(losses)) if losses else 0.0
        return self.loss

    def _stacked(self) -> tuple[NDArray[np.float32], NDArray[np.float32], NDArray[np.float32]]:
        """Every labelled position so far as one batch: observations, priors and labels."""
        if not self.examples:
            none = np.zeros(0, np.float32)
            return np.zeros((0, self.network.inputs), np.float32), none, none
        return (
            np.concatenate([e.x for e in self.examples]),
            np.concatenate([e.p for e in self.examples]),
            np.concatenate([e.targets for e in self.examples]),
        )

    @property
    def positions(self) -> int:
        """The labelled positions so far (each labelled seat counted)."""
        return sum(len(e.targets) for e in self.examples)

    # --- the run ---------------------------------------------------------------------------------------

    def _run_rounds(
        self,
        pool: ProcessPoolExecutor | None,
        ray: str | None,
        checkpoint: Path | None,
        checkpoint_every: int,
        on_game: Callable[[int, float], None] | None,
        on_measure: Callable[[CurvePoint], None] | None,
    ) -> None:
        """Play, label and fit round by round until the budget (``options.games``) is spent.

        The network is refitted at the end of each round, and the run measured (every ``eval_every``
        games, at a round's end) and checkpointed there; ``checkpoint_every`` is not used. Within a
        round the games are played one by one in this process (so a stop loses none of them), or all at
        once in the pool's processes or on Ray; the weights are the same.
        """
        options = self.options
        every = options.eval_every
        while self.games_done < options.games:
            first = self.games_done
            left_in_round = options.round - first % options.round
            count = 1 if pool is None and ray is None else min(left_in_round, options.games - first)
            began = time.perf_counter()
            played = self._play_round(first, count, pool, ray)
            self.seconds += time.perf_counter() - began
            for index in range(first, first + count):
                self.examples.append(played[index])
                self.games_done += 1
                if on_game is not None:
                    on_game(self.games_done, self.loss)
            finished = self.games_done == options.games
            if self.games_done % options.round == 0 or finished:
                began = time.perf_counter()
                self.fit()
                self.seconds += time.perf_counter() - began
                if on_game is not None:
                    on_game(self.games_done, self.loss)
                if every and (self.games_done % every == 0 or finished):
                    self._measure(on_measure)
                if checkpoint is not None:
                    self.save(checkpoint)

    # --- files -----------------------------------------------------------------------------------------

    def _stamp(self) -> None:
        super()._stamp()
        self.network.info["positions"] = self.positions

    def _checkpoint_arrays(self) -> dict[str, NDArray[Any]]:
        """The optimiser's moments, every labelled position and the last fit's loss."""
        extra = super()._checkpoint_arrays()
        extra["data_x"], extra["data_p"], extra["data_y"] = self._stacked()
        extra["data_rows"] = np.array([len(e.targets) for e in self.examples], dtype=np.int64)
        extra["data_plies"] = np.array([e.plies for e in self.examples], dtype=np.int64)
        extra["loss"] = np.array([self.loss], dtype=np.float64)
        return extra

    def _restore(self, extra: dict[str, NDArray[Any]]) -> None:
        """Take back the labelled positions of a checkpoint written by :meth:`save`."""
        try:
            x, p, y = extra["data_x"], extra["data_p"], extra["data_y"]
            rows, plies = extra["data_rows"], extra["data_plies"]
            self.loss = float(extra["loss"][0])
        except KeyError as error:
            raise WeightsError(f"the checkpoint holds no labelled positions (no {error})") from None
        if len(rows) != self.games_done or int(rows.sum()) != len(y):
            raise WeightsError("the checkpoint's labelled positions do not add up to its games")
        self.examples = []
        start = 0
        for count, played in zip(rows.tolist(), plies.tolist(), strict=True):
            end = start + count
            self.examples.append(Examples(x[start:end], p[start:end], y[start:end], played))
            start = end


def _searcher(game: Game[Any]) -> Searcher[Any]:
    """A new plain alpha-beta of ``game``'s kernel (so one game's labels do not depend on another's)."""
    searcher = require_kernel(game).alphabeta()
    if searcher is None:
        raise KernelUnavailableError(f"{game.name}'s kernel has no alpha-beta to label positions with")
    return searcher


def _labels(
    state: State[Any], searcher: Searcher[Any], nodes: int, low: float, high: float
) -> list[tuple[int, float]]:
    """The seats ``state`` is labelled for, each with its label (see the module's docs); may be empty."""
    game = state.game
    two_zero_sum = game.num_players == 2 and game.is_zero_sum
    if state.is_terminal():
        return []
    seat = state.to_move
    if seat == CHANCE:
        if not two_zero_sum:
            return []
        value = _first_seat_value(state, searcher, nodes, low, high)
        return [(0, value), (1, -value)]
    assert seat is not None
    value = searcher.search(state, work=nodes).value
    return [(seat, value), (1 - seat, -value)] if two_zero_sum else [(seat, value)]


CHANCE_DEPTH = 2
"""Chance outcomes followed in a row before a label; past them the hand-written evaluation is the label
(Sho's pa ra may throw again and again: a chain of two has a chance of 1 in 441)."""


def _first_seat_value(
    state: State[Any], searcher: Searcher[Any], nodes: int, low: float, high: float, depth: int = 0
) -> float:
    """Seat 0's label of ``state`` in a two-player zero-sum game: chance outcomes averaged."""
    if state.is_terminal():
        return to_unit(state.returns()[0], low, high)
    seat = state.to_move
    if seat == CHANCE:
        if depth >= CHANCE_DEPTH:
            return to_unit(state.evaluate()[0], low, high)
        return sum(
            float(chance)
            * _first_seat_value(state.play_unchecked(outcome), searcher, nodes, low, high, depth + 1)
            for outcome, chance in state.chance_outcomes()
        )
    value = searcher.search(state, work=nodes).value
    return value if seat == 0 else -value
