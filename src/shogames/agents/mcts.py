"""Monte Carlo tree search: UCT with chance nodes, any number of players, tree reuse and evaluations.

What it follows:

- UCT, the UCB1 rule applied to trees: Kocsis & Szepesvári, "Bandit based Monte-Carlo planning", ECML 2006;
  the survey of Browne et al., "A survey of Monte Carlo tree search methods", IEEE TCIAIG 4(1), 2012.
- More than two players: every node keeps the sum of the returns of every seat, and the seat to move at a
  node selects by its own return, the max^n backup of Sturtevant, "An analysis of UCT in multi-player
  games", Computers and Games 2008.
- Chance: a chance node's child is drawn with the outcome's exact probability (sampled chance nodes, as in
  Lanctot et al., "Monte Carlo *-minimax search", Computers and Games 2013).
- An evaluation in place of random rollouts, or after a short rollout: Lorentz, "Using evaluation
  functions in Monte-Carlo tree search", Theoretical Computer Science 644, 2016; AlphaGo (Silver et al.,
  Nature 529, 2016) mixes both.
- Decisive moves: a move that wins at once is played without searching (Teytaud & Teytaud, "On the huge
  benefit of decisive moves in Monte-Carlo tree search algorithms", IEEE CIG 2010).
- Tree reuse: the subtree under the position actually reached is kept for the next search.

The move played is the root's most visited child.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from itertools import accumulate
from typing import Any, ClassVar

from shogames.agents.base import Agent, register_agent
from shogames.agents.budget import Budget
from shogames.core.chance import sample_chance
from shogames.core.protocol import CHANCE, MoveT, State

_REUSE_DEPTH = 6  # how many plies below the old root a reused position is looked for


class _Node:
    """One position in the tree, with the sums of every seat's returns over the simulations through it."""

    __slots__ = ("children", "cumulative", "mover", "outcomes", "state", "sums", "untried", "visits")

    def __init__(self, state: State[Any], mover: int | None, agent: MCTSAgent) -> None:
        self.state = state
        self.mover = mover
        self.visits = 0
        self.sums = [0.0] * agent.players
        self.children: dict[Any, _Node] = {}
        self.untried: list[Any] = []
        self.outcomes: list[Any] = []
        self.cumulative: list[float] = []
        if mover == CHANCE:
            pairs = state.chance_outcomes()
            self.outcomes = [outcome for outcome, _ in pairs]
            self.cumulative = list(accumulate(float(probability) for _, probability in pairs))
        elif mover is not None:
            self.untried = list(state.legal_moves())
            agent.rng.shuffle(self.untried)


class MCTSAgent(Agent):
    """UCT for any number of players, with sampled chance nodes, tree reuse and an optional evaluation.

    Each iteration walks down the tree by UCB1 (each seat maximising its own mean return, scaled to 0..1),
    draws chance outcomes by their probabilities, adds one new node, values it and adds the values of
    every seat to each node on the way. A new node is valued by ``rollout`` uniformly random plies
    followed by the game's evaluation: ``rollout=0`` uses the evaluation at once, ``rollout=-1`` plays to
    the end of the game (plain Monte Carlo, no evaluation).

    Args:
        seed: the seed of the move order, the chance draws and the rollouts.
        iterations: simulations per move (0: no limit), the deterministic budget.
        seconds: the most seconds per move (0: no limit). With neither, 1,000 iterations.
        c: the exploration constant of UCB1.
        rollout: random plies before the evaluation; -1 to play to the end.
        reuse: 1 to keep the subtree of the position reached between moves, 0 to start afresh.
    """

    name = "mcts"
    parameters: ClassVar[Mapping[str, type]] = {
        "iterations": int,
        "seconds": float,
        "c": float,
        "rollout": int,
        "reuse": int,
    }

    def __init__(
        self,
        seed: int | None = None,
        *,
        iterations: int = 0,
        seconds: float = 0.0,
        c: float = 1.0,
        rollout: int = 0,
        reuse: int = 1,
    ) -> None:
        super().__init__(seed)
        if not iterations and not seconds:
            iterations = 1000
        self.budget = Budget(iterations or None, seconds or None)
        self.c = c
        self.rollout = rollout
        self.reuse = bool(reuse)
        self.players = 0
        self._low = -1.0
        self._scale = 0.5
        self._root: _Node | None = None
        self.last_visits: dict[Any, int] = {}
        """Visits of each root move in the last search."""
        self.last_values: dict[Any, float] = {}
        """Mean return of each root move for the seat that moved, in the last search."""
        self.reused = 0
        """Simulations kept from the previous search at the start of the last one."""

    def reset(self) -> None:
        """Drop the tree before a new game."""
        self._root = None

    def select_move(self, state: State[MoveT]) -> MoveT:
        """Search from ``state`` within the budget and return the most visited move."""
        moves = state.legal_moves()
        if not moves:
            raise ValueError("no legal moves: the game is over")
        seat = state.to_move
        assert seat is not None and seat >= 0, "agents are asked only where a seat is to move"
        if len(moves) == 1:
            return moves[0]
        game = state.game
        self.players = game.num_players
        self._low = game.min_utility
        self._scale = 1.0 / (game.max_utility - game.min_utility)
        for move in moves:  # decisive moves
            child = state.play_unchecked(move)
            if child.is_terminal() and child.returns()[seat] >= game.max_utility:
                return move
        root = self._reused_root(state)
        self.reused = root.visits
        budget = self.budget
        budget.start()
        while not budget.spent():
            self._simulate(root)
            budget.used += 1
        best = max(root.children.items(), key=lambda item: (item[1].visits, item[1].sums[seat]))[0]
        self.last_visits = {move: node.visits for move, node in root.children.items()}
        self.last_values = {move: node.sums[seat] / node.visits for move, node in root.children.items()}
        self._root = root.children[best] if self.reuse else None
        return best  # type: ignore[no-any-return]

    def _reused_root(self, state: State[Any]) -> _Node:
        """The node of ``state`` in the kept tree (searched a few plies down), or a fresh one."""
        old = self._root
        if old is not None:
            key = state.key()
            level = [old]
            for _ in range(_REUSE_DEPTH):
                for node in level:
                    if node.state.ply == state.ply and node.state.key() == key:
                        return node
                level = [child for node in level for child in node.children.values()]
                if not level:
                    break
        return _Node(state, state.to_move, self)

    def _simulate(self, root: _Node) -> None:
        path = [root]
        node = root
        while True:
            mover = node.mover
            if mover is None:
                values = node.state.returns()
                break
            if mover == CHANCE:
                index = _draw(node.cumulative, self.rng.random())
                outcome = node.outcomes[index]
                child = node.children.get(outcome)
                if child is None:
                    state = node.state.play_unchecked(outcome)
                    child = node.children[outcome] = _Node(state, state.to_move, self)
                    path.append(child)
                    values = self._value(state)
                    break
                node = child
                path.append(node)
                continue
            if node.untried:
                move = node.untried.pop()
                state = node.state.play_unchecked(move)
                child = node.children[move] = _Node(state, state.to_move, self)
                path.append(child)
                values = self._value(state)
                break
            node = self._select(node, mover)
            path.append(node)
        for visited in path:
            visited.visits += 1
            sums = visited.sums
            for seat, value in enumerate(values):
                sums[seat] += value

    def _select(self, node: _Node, mover: int) -> _Node:
        log_visits = math.log(node.visits)
        low, scale, c = self._low, self._scale, self.c
        best, best_score = None, -math.inf
        for child in node.children.values():
            visits = child.visits
            score = (child.sums[mover] / visits - low) * scale + c * math.sqrt(log_visits / visits)
            if score > best_score:
                best, best_score = child, score
        assert best is not None
        return best

    def _value(self, state: State[Any]) -> tuple[float, ...]:
        plies = self.rollout
        rng = self.rng
        while plies != 0 and not state.is_terminal():
            if state.to_move == CHANCE:
                state = state.play_unchecked(sample_chance(state, rng))
            else:
                moves = state.legal_moves()
                state = state.play_unchecked(moves[int(rng.random() * len(moves))])
            plies -= 1
        return state.evaluate()


def _draw(cumulative: list[float], point: float) -> int:
    """The index of the outcome a uniform ``point`` in [0, 1) falls on, by cumulative probabilities."""
    for index, bound in enumerate(cumulative):
        if point < bound:
            return index
    return len(cumulative) - 1


register_agent(MCTSAgent.name, MCTSAgent)
