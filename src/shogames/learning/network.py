"""The value network: a seat's observation in, that seat's expected return out.

The network reads what :meth:`State.observation_tensor <shogames.core.protocol.State.observation_tensor>`
gives a seat (every game's research encoding, planes from that seat's view), so it needs no code of any
game. It has one hidden layer of ``tanh`` units and a ``tanh`` output on the scale of the returns mapped to
-1 .. 1 (:func:`return_scale`)::

    h = tanh(x @ w1 + p * u1 + b1)
    v = tanh(h @ w2 + b2 + c * p)

where ``x`` is the flattened observation and ``p`` the *prior*: the game's hand-written evaluation of the
position for that seat (:meth:`State.evaluate <shogames.core.protocol.State.evaluate>`), on the same -1 .. 1
scale. A network made with ``prior=False`` has ``u1 = c = 0`` fixed and never evaluates the position the
hand-written way: it is learned from the observation alone. With ``prior=True`` it starts as a copy of the
hand-written evaluation (``c = 1``, small ``w1``) and learns corrections to it, as gnubg's networks read
hand-made features beside the raw board.

Weights are stored as float32 in a NumPy ``.npz`` file with a JSON header (:class:`ValueNet.save`): the
game and settings they were trained for, the observation's shape, the training command, budget and seed.
A shipped file of the 256-input Shobu network with 64 hidden units is about 70 KB.
"""

from __future__ import annotations

import io
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np
from numpy.typing import NDArray

from shogames.core.errors import SettingsError
from shogames.core.protocol import Game, State
from shogames.learning._jit import first_layer, weight_gradient

FORMAT = "shogames-value-1"
"""The ``format`` field of a weights file's header: bumped when the layout of the arrays changes."""

PARAMETERS = ("w1", "u1", "b1", "w2", "b2", "c")
"""The arrays of a network, in a fixed order (the file's and the optimiser's)."""


class WeightsError(SettingsError):
    """A weights file that cannot be read, or that was trained for another game or observation."""


def return_scale(game: Game[Any]) -> tuple[float, float]:
    """``(low, high)``: the returns of ``game`` that the network's -1 and +1 stand for."""
    return game.min_utility, game.max_utility


def to_unit(value: float, low: float, high: float) -> float:
    """A return (or evaluation) on ``low .. high`` mapped to -1 .. 1."""
    return 2.0 * (value - low) / (high - low) - 1.0


@dataclass
class ValueNet:
    """A one-hidden-layer value network over a seat's observation (see the module's docstring).

    Args:
        arrays: the parameters, by the names of :data:`PARAMETERS`.
        prior: whether the hand-written evaluation is an input.
        info: the header kept with the weights (game, settings, shape, how they were trained).
    """

    arrays: dict[str, NDArray[np.float32]]
    prior: bool
    info: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def new(cls, inputs: int, hidden: int, *, prior: bool, seed: int) -> ValueNet:
        """A network with small random first-layer weights, zero output weights and ``c`` = 1 with a prior.

        With a prior it plays exactly as the hand-written evaluation does before any training (the output
        is ``tanh(p)``, increasing in ``p``); without, every position is worth 0 at first.
        """
        if inputs < 1 or hidden < 1:
            raise ValueError(
                f"a network needs at least one input and one hidden unit, got {inputs}, {hidden}"
            )
        rng = np.random.default_rng(seed)
        scale = 1.0 / math.sqrt(inputs)
        arrays = {
            "w1": (rng.standard_normal((inputs, hidden)) * scale).astype(np.float32),
            "u1": (rng.standard_normal(hidden) * 0.1 if prior else np.zeros(hidden)).astype(np.float32),
            "b1": np.zeros(hidden, dtype=np.float32),
            "w2": np.zeros(hidden, dtype=np.float32),
            "b2": np.zeros(1, dtype=np.float32),
            "c": np.full(1, 1.0 if prior else 0.0, dtype=np.float32),
        }
        return cls(arrays, prior)

    @property
    def inputs(self) -> int:
        """The length of the flattened observation the network reads."""
        return int(self.arrays["w1"].shape[0])

    @property
    def hidden(self) -> int:
        """The number of hidden units."""
        return int(self.arrays["w1"].shape[1])

    def forward(
        self, x: NDArray[np.float32], p: NDArray[np.float32]
    ) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """The values of a batch (rows of ``x``, priors ``p``) and the hidden layer (for the gradients)."""
        before_tanh, hidden = self._layers(x, p)
        return np.tanh(before_tanh).astype(np.float32, copy=False), hidden

    def _layers(
        self, x: NDArray[np.float32], p: NDArray[np.float32]
    ) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """The output before its ``tanh`` (which ranks as the value does) and the hidden layer."""
        a = self.arrays
        hidden = np.tanh(first_layer(x, a["w1"]) + np.outer(p, a["u1"]) + a["b1"])
        return hidden @ a["w2"] + a["b2"][0] + a["c"][0] * p, hidden

    def linear_values(self, x: NDArray[np.float32], p: NDArray[np.float32]) -> NDArray[np.float32]:
        """The outputs before their ``tanh`` (``h @ w2 + b2 + c * p``), which rank as the values do.

        With the prior as an input this is ``c`` times the hand-written evaluation plus the network's
        correction, on the evaluation's scale: what a search averages at chance nodes where the network
        only corrects the hand-written evaluation (Shogammon's kernel search).
        """
        return self._layers(x, p)[0]

    def values(self, x: NDArray[np.float32], p: NDArray[np.float32]) -> NDArray[np.float32]:
        """The values of a batch of observations (rows of ``x``) with their priors ``p`` (zeros without)."""
        return self.forward(x, p)[0]

    def choice_gradients(
        self, x: NDArray[np.float32], p: NDArray[np.float32], chosen: NDArray[np.float32], scale: float
    ) -> tuple[float, dict[str, NDArray[np.float32]]]:
        """The loss of a batch of choices and its gradient with respect to each array.

        The rows hold decisions one after another, each the position a teacher chose (``chosen`` 1)
        followed by positions of other moves (``chosen`` 0). A decision's logits are ``scale`` times the
        network's value before its output ``tanh`` (``h @ w2 + b2 + c * p``, which ranks positions as the
        value does); the loss is the mean over the decisions of the softmax's cross-entropy against the
        chosen position (the ranking loss of learning to rank, as in Burges et al.'s RankNet, 2005, with
        one relevant item a list).
        """
        before_tanh, hidden = self._layers(x, p)
        loss, dlogits = _choice_softmax(scale * before_tanh, chosen)
        return loss, self._backward(x, p, hidden, (dlogits * scale).astype(np.float32))

    def choice_losses(
        self,
        x: NDArray[np.float32],
        p: NDArray[np.float32],
        chosen: NDArray[np.float32],
        scales: Sequence[float],
    ) -> list[float]:
        """The loss of :meth:`choice_gradients` at each of ``scales``, the network run once."""
        before_tanh, _ = self._layers(x, p)
        return [_choice_softmax(scale * before_tanh, chosen)[0] for scale in scales]

    def gradients(
        self, x: NDArray[np.float32], p: NDArray[np.float32], targets: NDArray[np.float32]
    ) -> tuple[float, dict[str, NDArray[np.float32]]]:
        """The mean squared error over the batch (halved) and its gradient with respect to each array."""
        values, hidden = self.forward(x, p)
        error = values - targets
        loss = 0.5 * float(np.mean(error * error))
        dz = (error * (1.0 - values * values) / len(targets)).astype(np.float32)
        return loss, self._backward(x, p, hidden, dz)

    def _backward(
        self,
        x: NDArray[np.float32],
        p: NDArray[np.float32],
        hidden: NDArray[np.float32],
        dz: NDArray[np.float32],
    ) -> dict[str, NDArray[np.float32]]:
        """Each array's gradient, from the loss's gradient ``dz`` with respect to the pre-tanh output."""
        a = self.arrays
        dh = np.outer(dz, a["w2"]) * (1.0 - hidden * hidden)
        grads = {
            "w1": weight_gradient(x, dh.astype(np.float32)),
            "u1": p @ dh if self.prior else np.zeros_like(a["u1"]),
            "b1": dh.sum(axis=0),
            "w2": hidden.T @ dz,
            "b2": np.array([dz.sum()], dtype=np.float32),
            "c": np.array([p @ dz if self.prior else 0.0], dtype=np.float32),
        }
        return {name: np.asarray(g, dtype=np.float32) for name, g in grads.items()}

    # --- reading positions -----------------------------------------------------------------------------

    def check_game(self, game: Game[Any]) -> None:
        """Refuse a game whose observation this network was not made for.

        Raises:
            WeightsError: another game, another number of players, or an observation of another length
                (other settings).
        """
        wanted = self.info.get("game")
        if wanted is not None and wanted != game.id:
            raise WeightsError(f"these weights value {wanted} positions, not {game.id}")
        players = self.info.get("players")
        if players is not None and players != game.num_players:
            raise WeightsError(
                f"these weights value {wanted} games of {players} players, "
                f"and this game has {game.num_players}"
            )
        try:
            size = math.prod(game.observation_shape)
        except NotImplementedError:
            raise WeightsError(f"{game.id} has no observation tensor for a network to read") from None
        if size != self.inputs:
            raise WeightsError(
                f"these weights read observations of {self.inputs} numbers, and {game.id} with these "
                f"settings gives {size}: they were trained for the settings {self.info.get('settings', {})}"
            )

    def encode(
        self, states: Sequence[State[Any]], seat: int
    ) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """The inputs of ``states`` seen by ``seat``: observations (rows) and priors (zeros without one)."""
        x = np.array([state.observation_tensor(seat) for state in states], dtype=np.float32)
        if self.prior:
            low, high = return_scale(states[0].game)
            p = np.array([to_unit(state.evaluate()[seat], low, high) for state in states], dtype=np.float32)
        else:
            p = np.zeros(len(states), dtype=np.float32)
        return x, p

    def value_of(self, states: Sequence[State[Any]], seat: int) -> list[float]:
        """Each state's value for ``seat`` on -1 .. 1: its return if it is over, else the network's."""
        low, high = return_scale(states[0].game)
        result = [0.0] * len(states)
        going = [i for i, state in enumerate(states) if not state.is_terminal()]
        for i, state in enumerate(states):
            if state.is_terminal():
                result[i] = to_unit(state.returns()[seat], low, high)
        if going:
            x, p = self.encode([states[i] for i in going], seat)
            for i, value in zip(going, self.values(x, p).tolist(), strict=True):
                result[i] = value
        return result

    # --- files -----------------------------------------------------------------------------------------

    def save(self, target: Path | IO[bytes], **extra: NDArray[Any]) -> None:
        """Write the weights (float32), the header and any ``extra`` arrays (a checkpoint's optimiser)."""
        header = {"format": FORMAT, "prior": self.prior, **self.info}
        arrays: dict[str, NDArray[Any]] = {
            "header": np.frombuffer(json.dumps(header, sort_keys=True).encode(), dtype=np.uint8),
            **self.arrays,
            **extra,
        }
        np.savez_compressed(target, allow_pickle=False, **arrays)

    @classmethod
    def load(cls, source: Path | IO[bytes] | bytes) -> tuple[ValueNet, dict[str, NDArray[Any]]]:
        """Read weights written by :meth:`save`: the network and the file's other arrays.

        Raises:
            WeightsError: not such a file, a format this version does not read, or arrays of wrong shapes.
        """
        if isinstance(source, bytes):
            source = io.BytesIO(source)
        try:
            with np.load(source, allow_pickle=False) as data:
                contents = {name: np.asarray(data[name]) for name in data.files}
        except (OSError, ValueError, EOFError) as error:
            raise WeightsError(f"not a weights file (a NumPy .npz): {error}") from None
        header_bytes = contents.pop("header", None)
        if header_bytes is None:
            raise WeightsError("the file has no header: not a shogames weights file")
        try:
            header = json.loads(bytes(header_bytes.astype(np.uint8)).decode())
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise WeightsError(f"the weights file's header is not JSON: {error}") from None
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise WeightsError(f"the weights file is not in the format {FORMAT!r}")
        missing = [name for name in PARAMETERS if name not in contents]
        if missing:
            raise WeightsError(f"the weights file lacks the arrays {', '.join(missing)}")
        arrays = {name: contents.pop(name).astype(np.float32) for name in PARAMETERS}
        inputs, hidden = arrays["w1"].shape if arrays["w1"].ndim == 2 else (0, 0)
        shapes = {"u1": (hidden,), "b1": (hidden,), "w2": (hidden,), "b2": (1,), "c": (1,)}
        if inputs == 0 or any(arrays[name].shape != shape for name, shape in shapes.items()):
            raise WeightsError("the weights file's arrays do not fit together (shapes differ)")
        prior = bool(header.pop("prior", False))
        header.pop("format")
        return cls(arrays, prior, header), contents


def _choice_softmax(logits: NDArray[np.float32], chosen: NDArray[np.float32]) -> tuple[float, NDArray[Any]]:
    """The mean cross-entropy of each decision's softmax against its chosen (first) row, and its gradient.

    Raises:
        ValueError: the first row is not a chosen one (every decision starts with its choice).
    """
    starts = np.flatnonzero(chosen > 0.5)
    if len(starts) == 0 or starts[0] != 0:
        raise ValueError("each decision starts with its chosen position (the first row is chosen)")
    sizes = np.diff(np.append(starts, len(logits)))
    shifted = logits - np.repeat(np.maximum.reduceat(logits, starts), sizes)
    weights = np.exp(shifted)
    sums = np.add.reduceat(weights, starts)
    loss = float(np.mean(np.log(sums) - shifted[starts]))
    dlogits = weights / np.repeat(sums, sizes)
    dlogits[starts] -= 1.0
    return loss, dlogits / len(starts)
