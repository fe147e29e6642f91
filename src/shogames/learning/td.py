"""Training a value network by self-play with TD(lambda), as TD-Gammon was trained (Tesauro, 1995).

The network (:class:`~shogames.learning.network.ValueNet`) plays both (or all) seats. At each move it
looks one move ahead: every legal move is played and the position after it (the *afterstate*) is valued
for the mover; the best is played, a move that wins at once always, and with probability ``epsilon`` a
random one (exploration). Chance outcomes are drawn with their probabilities. Deterministic games start
from ``opening`` random plies, so self-play does not repeat one game.

After each game every afterstate is a training example for every seat, with the lambda-return as its
target (Sutton & Barto, *Reinforcement Learning*, 2nd ed., section 12.1)::

    G[t] = (1 - lambda) * V(a[t+1]) + lambda * G[t+1],   G[last] = the seat's return

with ``V`` the network's value before the update, and the return of a finished game (on -1 .. 1) where a
game ends. This is the offline form of TD(lambda); the examples of one game are then learned in
minibatches with Adam (Kingma & Ba, 2015) on the squared error.

Everything random comes from the seed and the game's number (game ``i`` of a run with seed ``s`` is the
same game whether or not the run was resumed in between), so a run stopped at a checkpoint and resumed
gives the same weights as one that was not.

The strength over training is measured every ``eval_every`` games: ``eval_games`` games of one-turn greedy
with the network (``greedy:value=learned``) against one-turn greedy with the hand-written evaluation
(``greedy``), from the same random openings with the seats swapped, always the same openings.
"""

from __future__ import annotations

import io
import json
import math
import random
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from shogames.agents.greedy import GreedyAgent
from shogames.arena import random_opening, wilson_interval
from shogames.core.chance import random_plies, sample_chance
from shogames.core.protocol import CHANCE, Game, State
from shogames.core.registry import game_class
from shogames.core.settings import parse_settings_text
from shogames.learning.network import PARAMETERS, ValueNet, WeightsError, return_scale, to_unit
from shogames.match import play_game

LABELS = ("values", "choices", "ties")
"""What a run with a teacher fits the network to: the searched values, the search's choices, or its
choices among the hand-written evaluation's ties."""

RANKED_LABELS = ("choices", "ties")
"""The labels a run fits by ranking a turn's ends (:class:`~shogames.learning.choices.ChoiceTraining`)."""

MAX_PLIES = 2000
"""A self-play game still going after this many plies is cut off (and bootstrapped from its last value)."""


@dataclass(frozen=True)
class TrainingOptions:
    """How a network is trained: its size, the TD(lambda) and Adam settings, the budget and the seed.

    Args:
        games: the budget: how many self-play games to learn from.
        hidden: the hidden layer's size.
        prior: whether the hand-written evaluation is an input (see :mod:`~shogames.learning.network`).
        trace: lambda, the weight of later values in the targets (0: one step; 1: the game's result).
        learning_rate: Adam's step size.
        batch: the examples per Adam step.
        epsilon: the share of self-play moves played at random.
        opening: random plies at the start of each self-play game (and of each evaluation game).
        eval_every: self-play games between two measures of strength (0: never).
        eval_games: games in each measure (an even number: each opening with both seats).
        seed: the seed of everything random.
        round: self-play games played with the same weights before learning from them (in their order).
            A round's games can be played at once, in processes or on Ray (:meth:`Training.run`); with 1
            each game is played with the weights learned from all the games before it.
        teacher: 0 for TD(lambda); else the positions the game kernel's alpha-beta searches to label each
            position with its value, and the network is fitted to those labels instead
            (:mod:`~shogames.learning.searched`).
        children: with a teacher, how many of a decision's moves (drawn at random) have their position
            labelled.
        epochs: with a teacher, the passes over all the labelled positions at the end of each round.
        labels: with a teacher, what the network is fitted to: ``values`` (the searched values of
            positions, :mod:`~shogames.learning.searched`) or ``choices`` (the turns the search plays,
            ranked above the turn's other ends, :mod:`~shogames.learning.choices`) or ``ties`` (the
            search's choices among the turn's ends that tie for the hand-written evaluation, the network
            scaled to decide only those ties; needs ``prior``).
    """

    games: int = 2000
    hidden: int = 64
    prior: bool = False
    trace: float = 0.7
    learning_rate: float = 1e-3
    batch: int = 64
    epsilon: float = 0.05
    opening: int = 4
    eval_every: int = 250
    eval_games: int = 100
    seed: int = 0
    round: int = 1
    teacher: int = 0
    children: int = 6
    epochs: int = 10
    labels: str = "values"

    def check(self) -> None:
        """Raise ``ValueError`` naming the first setting out of its range."""
        checks = [
            (self.games >= 0, f"games is 0 or more, got {self.games}"),
            (self.hidden >= 1, f"hidden is 1 or more, got {self.hidden}"),
            (0.0 <= self.trace <= 1.0, f"trace (lambda) is from 0 to 1, got {self.trace}"),
            (self.learning_rate > 0, f"learning_rate is above 0, got {self.learning_rate}"),
            (self.batch >= 1, f"batch is 1 or more, got {self.batch}"),
            (0.0 <= self.epsilon <= 1.0, f"epsilon is from 0 to 1, got {self.epsilon}"),
            (self.opening >= 0, f"opening is 0 or more, got {self.opening}"),
            (self.eval_every >= 0, f"eval_every is 0 or more, got {self.eval_every}"),
            (
                self.eval_games >= 2 and self.eval_games % 2 == 0,
                f"eval_games is an even number, got {self.eval_games}",
            ),
            (self.round >= 1, f"round is 1 or more, got {self.round}"),
            (self.teacher >= 0, f"teacher is 0 (TD) or a number of positions, got {self.teacher}"),
            (self.children >= 1, f"children is 1 or more, got {self.children}"),
            (self.epochs >= 1, f"epochs is 1 or more, got {self.epochs}"),
            (self.labels in LABELS, f"labels is one of {', '.join(LABELS)}, got {self.labels!r}"),
            (
                self.labels != "ties" or self.prior,
                "labels ties breaks the hand-written evaluation's ties, so it needs the prior",
            ),
        ]
        for ok, message in checks:
            if not ok:
                raise ValueError(message)


@dataclass
class CurvePoint:
    """One measure of strength: after ``games`` self-play games, the score against hand-written greedy."""

    games: int
    score: float
    low: float
    high: float
    seconds: float

    def line(self) -> str:
        """The point in words: games, score and its 95% interval."""
        return (
            f"after {self.games:,} games: {100 * self.score:.1f}% "
            f"({100 * self.low:.0f}-{100 * self.high:.0f}%) against greedy"
        )


@dataclass
class Adam:
    """Adam's moments for each array of a network, and its step count."""

    first: dict[str, NDArray[np.float32]]
    second: dict[str, NDArray[np.float32]]
    steps: int = 0

    @classmethod
    def new(cls, network: ValueNet) -> Adam:
        """Zero moments shaped as ``network``'s arrays."""
        zeros = {name: np.zeros_like(network.arrays[name]) for name in PARAMETERS}
        return cls(zeros, {name: array.copy() for name, array in zeros.items()})

    def step(self, network: ValueNet, grads: dict[str, NDArray[np.float32]], rate: float) -> None:
        """Move ``network``'s arrays one Adam step down ``grads``."""
        self.steps += 1
        beta1, beta2, tiny = 0.9, 0.999, 1e-8
        correction = rate * math.sqrt(1 - beta2**self.steps) / (1 - beta1**self.steps)
        for name in PARAMETERS:
            if not network.prior and name in ("u1", "c"):
                continue
            g = grads[name]
            self.first[name] = beta1 * self.first[name] + (1 - beta1) * g
            self.second[name] = beta2 * self.second[name] + (1 - beta2) * g * g
            network.arrays[name] -= (
                correction * self.first[name] / (np.sqrt(self.second[name]) + tiny)
            ).astype(np.float32)


@dataclass
class Examples:
    """One self-play game's training examples: inputs, priors and lambda-return targets."""

    x: NDArray[np.float32]
    p: NDArray[np.float32]
    targets: NDArray[np.float32]
    plies: int


@dataclass
class Training:
    """A training run: the network, the optimiser, how far it got, and its strength so far.

    Make one with :meth:`start` or :meth:`resume`, then call :meth:`run`.
    """

    game: Game[Any]
    options: TrainingOptions
    network: ValueNet
    adam: Adam
    games_done: int = 0
    seconds: float = 0.0
    curve: list[CurvePoint] = field(default_factory=list)
    command: str = ""
    made_by: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def start(cls, game: Game[Any], options: TrainingOptions, *, command: str = "") -> Training:
        """A new run for ``game`` (with its settings), from freshly made weights."""
        options.check()
        try:
            inputs = math.prod(game.observation_shape)
        except NotImplementedError:
            raise WeightsError(f"{game.id} has no observation tensor for a network to read") from None
        network = ValueNet.new(inputs, options.hidden, prior=options.prior, seed=options.seed)
        training = cls(game, options, network, Adam.new(network), command=command)
        training._stamp()
        return training

    def _stamp(self) -> None:
        self.network.info = {
            "game": self.game.id,
            "settings": self.game.settings_text(),
            "players": self.game.num_players,
            "observation_shape": list(self.game.observation_shape),
            "options": asdict(self.options),
            "games": self.games_done,
            "seconds": round(self.seconds, 1),
            "command": self.command,
            "curve": [asdict(point) for point in self.curve],
            "made_by": self.made_by,
        }

    def note_code(self, code: dict[str, Any]) -> None:
        """Record the code that trains from here on (:func:`shogames.ui.train_command.code_identity`).

        The header keeps one entry for each code that trained the weights, in order: a run started and
        resumed on the same commit has one, a run resumed on other code (or on a changed tree) has more.
        The header takes it at the next save, as it takes the games played.
        """
        entry = {**code, "from_game": self.games_done}
        if not self.made_by or {k: v for k, v in self.made_by[-1].items() if k != "from_game"} != code:
            self.made_by.append(entry)

    # --- self-play -------------------------------------------------------------------------------------

    def _rng(self, index: int) -> random.Random:
        return random.Random(self.options.seed * 1_000_003 + index)

    def self_play(self, index: int) -> Examples:
        """Play self-play game number ``index`` with the current network and return its examples."""
        game = self.game
        rng = self._rng(index)
        state = random_plies(game.new_initial_state(), self.options.opening, rng)
        low, high = return_scale(game)
        top = game.max_utility
        afterstates: list[State[Any]] = []
        while not state.is_terminal() and len(afterstates) < MAX_PLIES:
            seat = state.to_move
            if seat == CHANCE:
                state = state.play_unchecked(sample_chance(state, rng))
                continue
            assert seat is not None
            moves = state.legal_moves()
            children = [state.play_unchecked(move) for move in moves]
            wins = [i for i, c in enumerate(children) if c.is_terminal() and c.returns()[seat] >= top]
            if wins:
                choice = wins[0]
            elif len(children) == 1:
                choice = 0
            elif rng.random() < self.options.epsilon:
                choice = rng.randrange(len(children))
            else:
                values = self.network.value_of(children, seat)
                best = max(values)
                ties = [i for i, v in enumerate(values) if v >= best - 1e-7]
                choice = ties[rng.randrange(len(ties))] if len(ties) > 1 else ties[0]
            state = children[choice]
            afterstates.append(state)
        return self._examples(afterstates, low, high)

    def _examples(self, afterstates: list[State[Any]], low: float, high: float) -> Examples:
        going = [s for s in afterstates if not s.is_terminal()]
        last = afterstates[-1] if afterstates else None
        xs, ps, targets = [], [], []
        if going and last is not None:
            for seat in range(self.game.num_players):
                x, p = self.network.encode(going, seat)
                values = self.network.values(x, p)
                if last.is_terminal():
                    following = to_unit(last.returns()[seat], low, high)
                else:  # cut off: bootstrap from the last value
                    following = float(values[-1])
                target = np.empty(len(going), dtype=np.float32)
                lam = self.options.trace
                g = following
                v_next = following
                for t in range(len(going) - 1, -1, -1):
                    g = (1.0 - lam) * v_next + lam * g
                    target[t] = g
                    v_next = float(values[t])
                xs.append(x)
                ps.append(p)
                targets.append(target)
        if not xs:
            inputs = self.network.inputs
            return Examples(
                np.zeros((0, inputs), np.float32),
                np.zeros(0, np.float32),
                np.zeros(0, np.float32),
                len(afterstates),
            )
        return Examples(np.concatenate(xs), np.concatenate(ps), np.concatenate(targets), len(afterstates))

    def learn(self, examples: Examples, index: int) -> float:
        """One pass of Adam over ``examples`` in shuffled minibatches; the mean loss."""
        n = len(examples.targets)
        if n == 0:
            return 0.0
        order = np.random.default_rng(self.options.seed * 7_919 + index).permutation(n)
        losses = []
        for start in range(0, n, self.options.batch):
            rows = order[start : start + self.options.batch]
            loss, grads = self.network.gradients(examples.x[rows], examples.p[rows], examples.targets[rows])
            self.adam.step(self.network, grads, self.options.learning_rate)
            losses.append(loss)
        return float(np.mean(losses))

    # --- strength --------------------------------------------------------------------------------------

    def measure(self, games: int | None = None) -> CurvePoint:
        """Score one-turn greedy with this network against greedy with the hand-written evaluation.

        ``games`` games (default: the options' ``eval_games``) from fixed random openings, each opening
        played with the network in each seat; in a game of more than two seats the other seats are all
        hand-written greedy, and the score is the network's share of the points.
        """
        started = time.perf_counter()
        count = games if games is not None else self.options.eval_games
        low, high = return_scale(self.game)
        points = 0.0
        players = self.game.num_players
        for number in range(count):
            opening_seed = 1_000_000 + number // 2
            start = (
                random_opening(self.game, self.options.opening, opening_seed)
                if self.options.opening
                else None
            )
            learned_seat = number % players if players > 2 else number % 2
            agents = [
                GreedyAgent(seed=opening_seed * 10 + seat, network=self.network)
                if seat == learned_seat
                else GreedyAgent(seed=opening_seed * 10 + seat)
                for seat in range(players)
            ]
            final, _ = play_game(self.game, agents, seed=opening_seed, start=start)
            points += (final.returns()[learned_seat] - low) / (high - low)
        score = points / count
        interval = wilson_interval(score, count)
        return CurvePoint(self.games_done, score, interval[0], interval[1], time.perf_counter() - started)

    # --- the run ---------------------------------------------------------------------------------------

    def run(
        self,
        *,
        checkpoint: Path | None = None,
        on_game: Callable[[int, float], None] | None = None,
        on_measure: Callable[[CurvePoint], None] | None = None,
        checkpoint_every: int = 100,
        jobs: int = 1,
        ray: str | None = None,
    ) -> None:
        """Train until the budget (``options.games``) is spent, measuring and checkpointing on the way.

        Self-play goes in rounds of ``options.round`` games, each played with the weights of the round's
        start; then the network learns from them one by one, in their order. The games of a round are
        played at once in ``jobs`` processes, or on a Ray cluster at ``ray``: the weights are the same
        either way, and the same as in one process.

        Args:
            checkpoint: where to save the run every ``checkpoint_every`` games and at the end (resume
                from it with :meth:`resume`).
            on_game: called after each game with the games done and that game's loss.
            on_measure: called with each measure of strength.
            checkpoint_every: games between checkpoints.
            jobs: processes that play a round's games (1: this one).
            ray: a Ray address (:mod:`shogames.ray_tasks`) to play the rounds' games on instead.
        """
        if self.options.eval_every and self.games_done == 0 and not self.curve:
            self._measure(on_measure)
        pool = ProcessPoolExecutor(max_workers=jobs) if jobs > 1 and ray is None else None
        try:
            self._run_rounds(pool, ray, checkpoint, checkpoint_every, on_game, on_measure)
        finally:
            if pool is not None:
                pool.shutdown(cancel_futures=True)
        self._stamp()

    def _run_rounds(
        self,
        pool: ProcessPoolExecutor | None,
        ray: str | None,
        checkpoint: Path | None,
        checkpoint_every: int,
        on_game: Callable[[int, float], None] | None,
        on_measure: Callable[[CurvePoint], None] | None,
    ) -> None:
        """The rounds of :meth:`run`: play each round's games, then learn from them one by one."""
        every = self.options.eval_every
        while self.games_done < self.options.games:
            began = time.perf_counter()
            first = self.games_done
            count = min(self.options.round, self.options.games - first)
            played = self._play_round(first, count, pool, ray)
            self.seconds += time.perf_counter() - began
            for index in range(first, first + count):
                began = time.perf_counter()
                loss = self.learn(played[index], index)
                self.games_done += 1
                self.seconds += time.perf_counter() - began
                if on_game is not None:
                    on_game(self.games_done, loss)
                finished = self.games_done == self.options.games
                if (
                    every
                    and (self.games_done % every == 0 or finished)
                    and (not self.curve or self.curve[-1].games != self.games_done)
                ):
                    self._measure(on_measure)
                if checkpoint is not None and (self.games_done % checkpoint_every == 0 or finished):
                    self.save(checkpoint)

    def _play_round(
        self, first: int, count: int, pool: ProcessPoolExecutor | None, ray: str | None
    ) -> dict[int, Examples]:
        """Self-play games ``first .. first + count - 1`` with the current weights, by their index."""
        if pool is None and ray is None:
            return {index: self.self_play(index) for index in range(first, first + count)}
        buffer = io.BytesIO()
        self.network.save(buffer)
        weights = buffer.getvalue()
        tasks = [
            SelfPlayTask(self.game.id, self.game.settings_text(), weights, self.options, index)
            for index in range(first, first + count)
        ]
        if ray is not None:
            from shogames.ray_tasks import run_on_ray

            results = run_on_ray(play_self_play_task, tasks, ray)
        else:
            assert pool is not None
            results = pool.map(play_self_play_task, tasks)
        return dict(results)

    def _measure(self, on_measure: Callable[[CurvePoint], None] | None) -> None:
        point = self.measure()
        self.curve.append(point)
        if on_measure is not None:
            on_measure(point)

    # --- files -----------------------------------------------------------------------------------------

    def save(self, path: Path) -> None:
        """Write a checkpoint: the weights and header, plus the optimiser's moments (written atomically)."""
        self._stamp()
        self._write(path, self._checkpoint_arrays())

    def _checkpoint_arrays(self) -> dict[str, NDArray[Any]]:
        """What a checkpoint holds beside the weights and the header: the optimiser's moments."""
        extra: dict[str, NDArray[Any]] = {f"adam_first_{name}": a for name, a in self.adam.first.items()}
        extra.update({f"adam_second_{name}": a for name, a in self.adam.second.items()})
        extra["adam_steps"] = np.array([self.adam.steps], dtype=np.int64)
        return extra

    def save_weights(self, path: Path) -> None:
        """Write the weights and header only (what ships in a game's package), atomically."""
        self._stamp()
        self._write(path, {})

    def _write(self, path: Path, extra: dict[str, NDArray[Any]]) -> None:
        """Write the network and ``extra`` to ``path`` through a ``.partial`` file, so no reader sees half."""
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".partial")
        with partial.open("wb") as out:
            self.network.save(out, **extra)
        partial.replace(path)

    @classmethod
    def resume(cls, game: Game[Any], path: Path, *, games: int | None = None, command: str = "") -> Training:
        """A run read back from the checkpoint at ``path``, to go on to ``games`` games (default: its budget).

        Raises:
            WeightsError: not a checkpoint, or one for another game or settings.
        """
        network, extra = ValueNet.load(path)
        network.check_game(game)
        try:
            options = TrainingOptions(**network.info["options"])
            first = {name: extra[f"adam_first_{name}"].astype(np.float32) for name in PARAMETERS}
            second = {name: extra[f"adam_second_{name}"].astype(np.float32) for name in PARAMETERS}
            steps = int(extra["adam_steps"][0])
            curve = [CurvePoint(**point) for point in network.info.get("curve", [])]
        except (KeyError, TypeError) as error:
            raise WeightsError(f"{path} is weights, not a training checkpoint (no {error})") from None
        if games is not None:
            options = replace(options, games=games)
        options.check()
        training = training_class(options)(
            game,
            options,
            network,
            Adam(first, second, steps),
            games_done=int(network.info.get("games", 0)),
            seconds=float(network.info.get("seconds", 0.0)),
            curve=curve,
            command=command or str(network.info.get("command", "")),
            made_by=list(network.info.get("made_by", [])),
        )
        training._restore(extra)
        return training

    def _restore(self, extra: dict[str, NDArray[Any]]) -> None:
        """Take back what a subclass keeps in a checkpoint beyond the weights and the optimiser."""


@dataclass(frozen=True)
class SelfPlayTask:
    """One self-play game to play elsewhere (a process, a Ray worker): the game, the weights, its number."""

    game_id: str
    settings: str
    weights: bytes
    options: TrainingOptions
    index: int


def play_self_play_task(task: SelfPlayTask) -> tuple[int, Examples]:
    """Play the self-play game of ``task`` (:meth:`Training.self_play`); returns its number and examples."""
    cls = game_class(task.game_id)
    game = cls(None, **parse_settings_text(cls.setting_specs, task.settings))
    network, _ = ValueNet.load(task.weights)
    training = training_class(task.options)(game, task.options, network, Adam.new(network))
    return task.index, training.self_play(task.index)


def new_training(game: Game[Any], options: TrainingOptions, *, command: str = "") -> Training:
    """A new run of the kind ``options`` asks for: TD(lambda), or labels by search with a teacher."""
    return training_class(options).start(game, options, command=command)


def training_class(options: TrainingOptions) -> type[Training]:
    """The kind of run ``options`` asks for: TD(lambda) or, with a teacher, labels by search.

    :class:`Training`, :class:`~shogames.learning.searched.SearchTraining` (the searched values) or
    :class:`~shogames.learning.choices.ChoiceTraining` (the search's choices, or its choices among
    ties); the latter two are
    imported here, because they build on this module.
    """
    if not options.teacher:
        return Training
    if options.labels in RANKED_LABELS:
        from shogames.learning.choices import ChoiceTraining

        return ChoiceTraining
    from shogames.learning.searched import SearchTraining

    return SearchTraining


def curve_json(curve: list[CurvePoint]) -> str:
    """The learning curve as JSON lines (one point a line)."""
    return "".join(json.dumps(asdict(point)) + "\n" for point in curve)
