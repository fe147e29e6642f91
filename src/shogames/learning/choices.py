"""Training a value network on the moves the game kernel's search chooses, round by round.

Fitting a network to positions' searched values (:mod:`~shogames.learning.searched`) asks it to be right
about every position; one-turn greedy play only asks it to rank the positions one turn can reach. Where the
hand-written evaluation ranks those well but not best, and most of a value's error is shared by a turn's
positions, a network fitted to values learns corrections larger than the differences it should keep (Sho's
and Shogammon's experiments in ``docs/strength.md``). Here the network learns the ranking itself: at each
decision it is shown the position at the end of the turn the search chose and some others the turn could
reach, and it is fitted to pick the search's, by the softmax of its values over them (learning to rank:
C. Burges et al., "Learning to rank using gradient descent", ICML 2005; the search as the teacher of a
player's choices, as in behaviour cloning).

The positions come in rounds of ``round`` games (:class:`~shogames.learning.td.TrainingOptions`), as with
:mod:`~shogames.learning.searched`:

- **Play.** In game ``i`` seat ``i mod players`` is one-turn greedy with the network of the round's start,
  every other seat one-turn greedy with the hand-written evaluation; a share ``epsilon`` of moves is
  random. The first round's network (made with a prior, not yet trained) ranks as the hand-written
  evaluation does. Later rounds show the positions the network's own play reaches (DAgger: S. Ross,
  G. Gordon and J. A. Bagnell, AISTATS 2011).
- **Labels.** At each turn's start (the first move of a seat after a chance outcome or another seat's
  move) with two or more distinct positions at the turn's end, none of them over, the kernel's plain
  alpha-beta plays the turn, searching ``teacher`` positions for each of its moves; the position it ends
  in is the decision's chosen position, and ``children`` other positions at the turn's end, drawn at
  random, are its alternatives. The turn is followed as the greedy agent follows it (up to
  :data:`TURN_PLIES` moves of one seat).
- **Fit.** At the end of a round a network is made afresh from the seed and fitted to every decision so
  far: ``epochs`` passes in shuffled minibatches of ``batch`` decisions with Adam on the ranking loss
  (:meth:`ValueNet.choice_gradients <shogames.learning.network.ValueNet.choice_gradients>`). The logits'
  scale is the power of two at which the fresh network (with the prior: the hand-written evaluation) fits
  the choices best, so the prior starts as sure of its ranking as the data say it should be.

With ``labels="ties"`` the network learns only to break the hand-written evaluation's ties. Where one
turn's best ends are worth exactly the same to the hand-written evaluation (half of one-turn greedy's
decisions in Shogammon, whose material counts whole pieces), greedy draws one at random; a correction
learned over all the turn's ends is larger than the differences elsewhere and reorders what the
hand-written evaluation ranks well. So a decision is labelled only where the turn's best ends tie
(within :data:`~shogames.agents.greedy.TIE`) and the search's turn is one of them; its alternatives are
the others of the tie (the turn is searched only there). The network needs the prior, and after each fit
its output weights are scaled to add up to :data:`TIE_BREAK` in absolute value: the correction then
moves no position's value by more than that, so the network ranks any two positions the hand-written
evaluation tells apart by more than twice that as it does (in Shogammon's greedy games no decision's
two best moves were found closer than that without tying), and decides its ties.

Everything random comes from the seed and the game's number, and each game searches with a searcher of
its own, so a run resumed, or played in processes or on Ray, gives the same weights as an unbroken one.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from shogames.agents.greedy import TIE, turn_ends
from shogames.core.kernel import Searcher
from shogames.core.protocol import Game, State
from shogames.learning.searched import SearchTraining
from shogames.learning.td import RANKED_LABELS, Training, TrainingOptions

TURN_PLIES = 3
"""Moves of one seat in a row that a turn's end follows (the greedy agent's default ``plies``)."""

SCALES = tuple(2.0**k for k in range(11))
"""The logits' scales tried on the fresh network before each fit (1 to 1,024)."""

TIE_BREAK = 1e-4
"""With ``labels="ties"``: the most the learned correction moves a position's value (before the tanh)."""


@dataclass
class ChoiceTraining(SearchTraining):
    """A run that fits the network to the search's choices (see the module's docs).

    Each game's :class:`~shogames.learning.td.Examples` hold its decisions one after another: the rows of
    a decision are its chosen position (target 1) and then its alternatives (target 0).
    """

    scale: float = 1.0

    @classmethod
    def start(cls, game: Game[Any], options: TrainingOptions, *, command: str = "") -> Training:
        """A new run for ``game``, checked to have a kernel alpha-beta to choose its moves with.

        Raises:
            ValueError: ``options.teacher`` is 0, ``options.labels`` is neither ``choices`` nor
                ``ties``, or another option out of its range (:meth:`TrainingOptions.check`, which
                refuses ``ties`` without the prior).
            KernelUnavailableError: the game (or these settings) has no kernel alpha-beta.
        """
        if options.labels not in RANKED_LABELS:
            raise ValueError("a run on the search's choices needs labels='choices' or 'ties'")
        return super().start(game, options, command=command)

    def _labelled(
        self,
        state: State[Any],
        moves: Sequence[Any],
        new_turn: bool,
        searcher: Searcher[Any],
        rng: random.Random,
    ) -> list[tuple[State[Any], int, float]]:
        """At a turn's start, the search's turn (label 1) and other ends of the turn (0), for the mover.

        With ``labels="ties"``, only where the turn's best ends tie, and only those ends.
        """
        seat = state.to_move
        assert seat is not None and seat >= 0, "asked only where a seat is to move"
        if not new_turn or len(moves) < 2:
            return []
        options = self.options
        ties = options.labels == "ties"
        decision = _decision(state, seat, searcher, options.teacher, options.children, rng, ties=ties)
        return [(position, seat, target) for position, target in decision]

    def fit(self) -> float:
        """Make the network afresh and fit it to every decision so far; the last pass's mean loss."""
        options = self.options
        network, adam = self._fresh()
        x, p, chosen = self._stacked()
        starts = np.flatnonzero(chosen > 0.5)
        ends = np.append(starts[1:], len(chosen))
        losses: list[float] = []
        if len(starts):
            losses_by_scale = network.choice_losses(x, p, chosen, SCALES)
            self.scale = SCALES[losses_by_scale.index(min(losses_by_scale))]
        for epoch in range(options.epochs):
            order = np.random.default_rng([options.seed, self.games_done, epoch]).permutation(len(starts))
            losses = []
            for first in range(0, len(order), options.batch):
                picked = order[first : first + options.batch]
                rows = np.concatenate([np.arange(starts[d], ends[d]) for d in picked])
                loss, grads = network.choice_gradients(x[rows], p[rows], chosen[rows], self.scale)
                adam.step(network, grads, options.learning_rate)
                losses.append(loss)
        if options.labels == "ties":
            total = float(np.abs(network.arrays["w2"]).sum())
            if total > 0:
                network.arrays["w2"] = (network.arrays["w2"] * (TIE_BREAK / total)).astype(np.float32)
        self.network, self.adam = network, adam
        self.loss = float(np.mean(losses)) if losses else 0.0
        return self.loss

    @property
    def decisions(self) -> int:
        """The decisions labelled so far."""
        return sum(int(np.count_nonzero(e.targets > 0.5)) for e in self.examples)


def _decision(
    state: State[Any],
    seat: int,
    searcher: Searcher[Any],
    nodes: int,
    children: int,
    rng: random.Random,
    *,
    ties: bool = False,
) -> list[tuple[State[Any], float]]:
    """The turn the search plays from ``state`` (target 1) and up to ``children`` others (target 0).

    Empty where the turn's ends are fewer than two distinct positions or one of them ends the game (a
    win at once the greedy agent always takes, whatever its evaluation). With ``ties`` only the ends the
    hand-written evaluation values best (within :data:`~shogames.agents.greedy.TIE`) count, and the
    decision is empty where they are fewer than two or the search's turn is not one of them.
    """
    distinct: dict[Any, State[Any]] = {}
    for end in turn_ends(state, seat, TURN_PLIES):
        if end.is_terminal():
            return []
        distinct.setdefault(end.key(), end)
    if ties:
        values = {key: end.evaluate()[seat] for key, end in distinct.items()}
        best = max(values.values())
        distinct = {key: end for key, end in distinct.items() if values[key] >= best - TIE}
    if len(distinct) < 2:
        return []
    chosen = state
    for _ in range(TURN_PLIES):
        if chosen.is_terminal() or chosen.to_move != seat:
            break
        chosen = chosen.play_unchecked(searcher.search(chosen, work=nodes).move)
    others = [key for key in distinct if key != chosen.key()]
    if len(others) == len(distinct):
        return []
    picked = rng.sample(others, min(children, len(others)))
    return [(chosen, 1.0), *((distinct[key], 0.0) for key in picked)]
