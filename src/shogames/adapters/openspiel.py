"""Every registered game as an OpenSpiel game (extra ``openspiel``: ``pip install 'shogames[openspiel]'``).

Importing this module registers each game of the registry with OpenSpiel as a Python game under the short
name ``shogames_<id>``; its settings are the game's parameters, with their defaults, and the parameter
``preset`` names one of its presets (empty for none)::

    import pyspiel
    import shogames.adapters.openspiel

    game = pyspiel.load_game("shogames_sho(players=4,max_turns=200)")
    state = game.new_initial_state()

A setting given with a value other than its default replaces the preset's value; a setting left at its
default keeps the preset's. OpenSpiel's game strings give ``, ( ) =`` a meaning, so a text setting holding
one of them (a list such as ``1:P,2:LN``) is written with those characters and ``%`` percent-encoded
(``1:P%2C2:LN``, :func:`encode_text`).

The adapter reads the protocol only: ``State.legal_actions`` (ascending, and empty for a seat that is not
to move), ``State.chance_outcomes`` (OpenSpiel gets the exact fractions as floats), ``State.play_action``,
the move's notation as each action's string, ``State.returns`` (returns per seat, so partners in a team
each get the team's result), and ``State.observation_tensor`` and ``State.observation_string`` through
:meth:`OpenSpielGame.make_py_observer`. A game cut by its length cap is terminal in OpenSpiel, with the
returns the game gives it.

OpenSpiel clones a Python state by deep-copying its attributes and serializes it by pickling them: the
adapter keeps one immutable shogames state, which clones share, so a clone costs no copy of the position.

Playthrough files (``tests/data/openspiel/``) are written by
``python -m shogames.adapters.openspiel playthroughs tests/data/openspiel`` (``--help`` for the options).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar, Final

import numpy as np
import numpy.typing as npt
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame  # type: ignore[import-untyped]

from shogames.adapters import seat_count_settings, short_game_settings
from shogames.core.errors import SettingsError
from shogames.core.protocol import CHANCE, Game, State
from shogames.core.registry import available_games, load_reference, register
from shogames.core.settings import SettingValue

SHORT_NAME_PREFIX: Final = "shogames_"
"""What every game's OpenSpiel short name starts with; the game id follows."""

PRESET_PARAMETER: Final = "preset"
"""The game parameter that names a preset (the empty string for none)."""

PLAYTHROUGH_TURNS: Final = 8
"""The length cap, in turns, of the games the playthrough files record (where the game has the cap)."""

PLAYTHROUGH_SEED: Final = 24
"""The seed of the random actions the playthrough files record."""


def short_name(game_id: str) -> str:
    """The OpenSpiel short name of a game: ``shogames_<id>``.

    >>> short_name("shobu")
    'shogames_shobu'
    """
    return SHORT_NAME_PREFIX + game_id


_RESERVED: Final = "%,()="
"""The characters of a text setting written percent-encoded in an OpenSpiel parameter (``%`` first)."""


def encode_text(value: str) -> str:
    """A text setting's value as an OpenSpiel parameter: ``% , ( ) =`` percent-encoded.

    >>> encode_text("1:P,2:LN")
    '1:P%2C2:LN'
    """
    for character in _RESERVED:
        value = value.replace(character, f"%{ord(character):02X}")
    return value


def decode_text(value: str) -> str:
    """A text setting's value read back from an OpenSpiel parameter (the inverse of :func:`encode_text`).

    >>> decode_text("1:P%2C2:LN")
    '1:P,2:LN'
    """
    for character in reversed(_RESERVED):
        value = value.replace(f"%{ord(character):02X}", character)
    return value


def parameter_value(value: SettingValue) -> SettingValue:
    """A setting's value as an OpenSpiel parameter: text percent-encoded, numbers and truth values as is."""
    return encode_text(value) if isinstance(value, str) else value


def game_type(game_class: type[Game[Any]]) -> pyspiel.GameType:
    """The OpenSpiel game type of a game: what holds under every setting.

    The seats range over what :func:`shogames.adapters.seat_count_settings` finds; the game is explicitly
    stochastic when its default settings, a preset or a seat count has chance, and zero-sum when all of
    them are (a game made with settings that break it is refused, see :class:`OpenSpielGame`).

    Raises:
        ValueError: a setting of the game is called like the preset parameter.
    """
    names = [spec.name for spec in game_class.setting_specs]
    if PRESET_PARAMETER in names:
        raise ValueError(f"{game_class.id} has a setting named {PRESET_PARAMETER!r}, the preset's parameter")
    seat_settings = seat_count_settings(game_class)
    variants = [
        game_class(),
        *(game_class(preset) for preset in game_class.presets),
        *(game_class(None, **settings) for settings in seat_settings.values()),
    ]
    chance = any(game.has_chance for game in variants)
    zero_sum = all(game.is_zero_sum for game in variants)
    parameters = {spec.name: parameter_value(spec.default) for spec in game_class.setting_specs}
    parameters[PRESET_PARAMETER] = ""
    stochastic = pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    return pyspiel.GameType(
        short_name=short_name(game_class.id),
        long_name=f"shogames {game_class.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=stochastic if chance else pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(seat_settings),
        min_num_players=min(seat_settings),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


def game_from_parameters(game_class: type[Game[Any]], parameters: Mapping[str, object]) -> Game[Any]:
    """The shogames game that OpenSpiel parameters describe.

    OpenSpiel hands over every parameter, given or not, so a setting counts as given when its value
    differs from its default: it then replaces the preset's value. Text values are decoded
    (:func:`decode_text`).

    Raises:
        SettingsError: an unknown preset or parameter, or a value the game refuses.
    """
    given = dict(parameters)
    preset = given.pop(PRESET_PARAMETER, "") or None
    if preset is not None and not isinstance(preset, str):
        raise SettingsError(f"the parameter {PRESET_PARAMETER!r} names a preset, got {preset!r}")
    specs = {spec.name: spec for spec in game_class.setting_specs}
    unknown = sorted(set(given) - set(specs))
    if unknown:
        raise SettingsError(f"{game_class.id} has no setting {', '.join(unknown)}")
    decoded = {name: decode_text(value) if isinstance(value, str) else value for name, value in given.items()}
    explicit = {name: value for name, value in decoded.items() if value != specs[name].default}
    return game_class(preset, **explicit)


def game_info(game: Game[Any]) -> pyspiel.GameInfo:
    """The OpenSpiel game info of a game under its settings, from the protocol."""
    return pyspiel.GameInfo(
        num_distinct_actions=game.num_distinct_actions,
        max_chance_outcomes=game.max_chance_outcomes,
        num_players=game.num_players,
        min_utility=game.min_utility,
        max_utility=game.max_utility,
        utility_sum=0.0 if game.is_zero_sum else None,
        max_game_length=game.max_game_length,
    )


class OpenSpielGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no types
    """A shogames game as an OpenSpiel game; :func:`register_games` makes one subclass per game.

    Args:
        params: the OpenSpiel parameters: the settings, and ``preset``.

    Raises:
        SettingsError: the parameters do not describe a game (see :func:`game_from_parameters`), or
            their game is not zero-sum while the registered type says every game is.
        NotImplementedError: the game does not number its moves or has no observation tensor.
    """

    game_class: ClassVar[type[Game[Any]]]
    """The shogames game class this OpenSpiel game plays."""
    spiel_type: ClassVar[pyspiel.GameType]
    """The OpenSpiel game type registered for :attr:`game_class`."""

    def __init__(self, params: Mapping[str, object] | None = None) -> None:
        parameters = dict(params or {})
        game = game_from_parameters(self.game_class, parameters)
        if self.spiel_type.utility == pyspiel.GameType.Utility.ZERO_SUM and not game.is_zero_sum:
            raise SettingsError(f"{game!r} is not zero-sum, but {short_name(game.id)} is registered so")
        info = game_info(game)
        game.observation_shape  # noqa: B018 -- refuse a game with no observation tensor here, not later
        super().__init__(self.spiel_type, info, parameters)
        self.shogames_game = game

    def new_initial_state(self) -> OpenSpielState:
        """The state before the first move."""
        return OpenSpielState(self, self.shogames_game.new_initial_state())

    def make_py_observer(
        self,
        iig_obs_type: pyspiel.IIGObservationType | None = None,
        params: Mapping[str, object] | None = None,
    ) -> TensorObserver | IIGObserverForPublicInfoGame:
        """The observer OpenSpiel asks for: the game's tensor and string, or the history for an infostate.

        Every game here has perfect information: the default observation (and any observation without
        perfect recall) is :meth:`State.observation_tensor` and :meth:`State.observation_string`; an
        information state (perfect recall) is the history of actions, as for OpenSpiel's own games of
        public information.
        """
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return TensorObserver(self.shogames_game, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class _Shared:
    """Holds an immutable shogames state: a deep copy (OpenSpiel's clone) shares it instead of copying."""

    __slots__ = ("state",)

    def __init__(self, state: State[Any]) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, object]) -> _Shared:
        return self

    def __getstate__(self) -> State[Any]:
        return self.state

    def __setstate__(self, state: State[Any]) -> None:
        self.state = state


class OpenSpielState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships no types
    """One position of a shogames game as an OpenSpiel state.

    Args:
        game: the OpenSpiel game.
        state: the shogames state it starts from.
    """

    def __init__(self, game: OpenSpielGame, state: State[Any]) -> None:
        super().__init__(game)
        self._shared = _Shared(state)

    @property
    def shogames_state(self) -> State[Any]:
        """The shogames state of this position (immutable; applying an action replaces it)."""
        return self._shared.state

    def current_player(self) -> int:
        """The seat to move, ``PlayerId.CHANCE`` at a chance node or ``PlayerId.TERMINAL`` at the end."""
        mover = self.shogames_state.to_move
        if mover is None:
            return int(pyspiel.PlayerId.TERMINAL)
        if mover == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return mover

    def _legal_actions(self, player: int) -> list[int]:
        """The legal actions of ``player``, ascending; none for a seat that is not to move."""
        state = self.shogames_state
        if player != state.to_move:
            return []
        return state.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each chance outcome's id with its probability (the exact fraction as a float), by id."""
        state = self.shogames_state
        return sorted((state.move_to_action(move), float(chance)) for move, chance in state.chance_outcomes())

    def _apply_action(self, action: int) -> None:
        """Play the legal move or chance outcome ``action``.

        Raises:
            IllegalMoveError: no legal move here has this id.
        """
        self._shared = _Shared(self.shogames_state.play_action(int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        """A legal action of the mover in the game's notation; any other as ``action <id>``.

        Distinct legal moves of a state have distinct notations, so the strings of a state's actions are
        distinct, as OpenSpiel asks.
        """
        state = self.shogames_state
        if player == state.to_move and not state.is_terminal():
            try:
                return state.move_to_text(state.action_to_move(int(action)))
            except ValueError:  # not legal here (IllegalMoveError is a ValueError)
                pass
        kind = "chance outcome" if player == CHANCE else "action"
        return f"{kind} {action}"

    def is_terminal(self) -> bool:
        """Whether the game is over: won, drawn, or cut by its length cap."""
        return self.shogames_state.is_terminal()

    def returns(self) -> list[float]:
        """Every seat's return: the final values at the end, zeros before."""
        return [float(value) for value in self.shogames_state.returns()]

    def __str__(self) -> str:
        """The game's picture of the position."""
        return self.shogames_state.diagram()


class TensorObserver:
    """OpenSpiel's Python observer of a shogames game: the observation tensor and string of a seat.

    ``tensor`` is the flat float32 array OpenSpiel reads; ``dict["observation"]`` is the same memory in
    the game's :attr:`Game.observation_shape` (planes first).

    Raises:
        ValueError: observation parameters were given; there are none.
    """

    def __init__(self, game: Game[Any], params: Mapping[str, object] | None = None) -> None:
        if params:
            raise ValueError(f"shogames observations take no parameters, got {dict(params)!r}")
        shape = game.observation_shape
        self.tensor: npt.NDArray[np.float32] = np.zeros(math.prod(shape), np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: OpenSpielState, player: int) -> None:
        """Fill :attr:`tensor` with what ``player`` sees in ``state``."""
        self.tensor[:] = state.shogames_state.observation_tensor(player)

    def string_from(self, state: OpenSpielState, player: int) -> str:
        """What ``player`` sees in ``state``, as text."""
        return state.shogames_state.observation_string(player)


def register_game(game_class: type[Game[Any]]) -> type[OpenSpielGame]:
    """Register one game with OpenSpiel as ``shogames_<id>``; the OpenSpiel game class made for it."""
    spiel_type = game_type(game_class)
    attributes = {"game_class": game_class, "spiel_type": spiel_type, "__doc__": f"{game_class.name}."}
    spiel_class = type(f"OpenSpiel{game_class.__name__}", (OpenSpielGame,), attributes)
    pyspiel.register_game(spiel_type, spiel_class)
    return spiel_class


def register_games() -> list[str]:
    """Register every game of the registry that OpenSpiel does not know yet; the short names added.

    Importing this module calls it; call it again after registering a game with shogames.
    """
    known = set(pyspiel.registered_names())
    added = []
    for game_class in available_games():
        name = short_name(game_class.id)
        if name not in known:
            register_game(game_class)
            added.append(name)
    return added


def load(game_id: str, preset: str | None = None, **settings: SettingValue) -> pyspiel.Game:
    """The OpenSpiel game of ``game_id`` with a preset and settings, as ``pyspiel.load_game`` makes it."""
    parameters = {name: parameter_value(value) for name, value in settings.items()}
    if preset is not None:
        parameters[PRESET_PARAMETER] = preset
    return pyspiel.load_game(short_name(game_id), parameters)


def game_string(game_id: str, settings: Mapping[str, SettingValue]) -> str:
    """The string ``pyspiel.load_game`` reads for a game and settings: ``shogames_sho(players=4)``."""
    if not settings:
        return short_name(game_id)
    listed = ",".join(f"{name}={parameter_value(value)}" for name, value in settings.items())
    return f"{short_name(game_id)}({listed})"


def playthrough_cases(game_class: type[Game[Any]]) -> dict[str, str]:
    """The playthroughs recorded for a game: file name to OpenSpiel game string.

    One per number of seats the game can have (:func:`shogames.adapters.seat_count_settings`), each
    capped at :data:`PLAYTHROUGH_TURNS` turns where the game has the cap.
    """
    cases = {}
    short = short_game_settings(game_class, PLAYTHROUGH_TURNS)
    seat_settings = seat_count_settings(game_class)
    for seats, settings in seat_settings.items():
        suffix = "" if len(seat_settings) == 1 else f"_{seats}p"
        cases[f"{short_name(game_class.id)}{suffix}.txt"] = game_string(game_class.id, {**settings, **short})
    return cases


def write_playthroughs(folder: Path, games: Sequence[type[Game[Any]]] | None = None) -> list[Path]:
    """Write the playthrough file of every case of every game (:func:`playthrough_cases`) into ``folder``."""
    from open_spiel.python.algorithms import generate_playthrough  # type: ignore[import-untyped]

    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for game_class in games if games is not None else available_games():
        for file_name, spiel_string in playthrough_cases(game_class).items():
            text = generate_playthrough.playthrough(spiel_string, [], seed=PLAYTHROUGH_SEED)
            path = folder / file_name
            path.write_text(text, encoding="utf-8")
            written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: ``python -m shogames.adapters.openspiel playthroughs FOLDER``."""
    parser = argparse.ArgumentParser(
        prog="python -m shogames.adapters.openspiel",
        description="OpenSpiel tools for shogames' games.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    write = commands.add_parser(
        "playthroughs", help="write an OpenSpiel playthrough file per game and number of seats"
    )
    write.add_argument("folder", type=Path, help="where the files go (tests/data/openspiel)")
    write.add_argument(
        "--register",
        action="append",
        default=[],
        metavar="MODULE:CLASS",
        help="also register this game class first (a game of another package); may be repeated",
    )
    write.add_argument(
        "--game", action="append", default=[], metavar="ID", help="only this game (repeatable)"
    )
    arguments = parser.parse_args(argv)
    for reference in arguments.register:
        register(load_reference(reference))
    register_games()
    games = [cls for cls in available_games() if not arguments.game or cls.id in arguments.game]
    for path in write_playthroughs(arguments.folder, games):
        print(path)
    return 0


register_games()

if __name__ == "__main__":
    sys.exit(main())
