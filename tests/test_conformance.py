"""Every registered game, under every preset, keeps the protocol's promises in random play.

The second half checks the checker: deliberately broken variants of the toy dice race must fail.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Self

import pytest

from game_cases import preset_cases
from shogames.conformance import check_game
from shogames.core.chance import sample_outcome
from shogames.core.errors import NotationError, SettingsError
from shogames.core.protocol import CHANCE, Game, State
from shogames.core.registry import available_games, game_class, make
from shogames.core.settings import Setting
from toy_games import DIE, DiceRaceGame, DiceRaceState, registered_game_ids

# Games whose random games run long get a shorter length cap and fewer games here, so that the suite stays
# quick: every state is still checked, and the cap itself is one of the endings checked.
_SHORTER: dict[str, tuple[dict[str, object], int]] = {
    "shoo": ({"max_turns": 150}, 8),
    "shogammon": ({"max_turns": 150}, 8),
}

_SUITE_SHARE = 4
"""The suite plays a quarter of each case's random games (at least one); ``--run-slow`` plays them all. The
games of a seed are the same whatever their number, so the suite's are the first of the full run's."""


def _cap_and_games(game_id: str) -> tuple[dict[str, object], int]:
    """The settings (a shorter length cap) and the number of random games of the full check of a game."""
    return _SHORTER.get(game_id, ({}, 20))


@pytest.mark.parametrize(("game_id", "preset"), preset_cases())
def test_game_conforms(game_id: str, preset: str | None) -> None:
    settings, n_games = _cap_and_games(game_id)
    check_game(make(game_id, preset, **settings), n_games=max(1, n_games // _SUITE_SHARE), seed=0)


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "preset"), preset_cases())
def test_game_conforms_over_all_its_random_games(game_id: str, preset: str | None) -> None:
    # The same check over every random game of the full count (8 or 20 a case); run with --run-slow.
    settings, n_games = _cap_and_games(game_id)
    check_game(make(game_id, preset, **settings), n_games=n_games, seed=0)


# --- Every value of every setting ----------------------------------------------------------------------

# Settings that only act together with others are swept in that company.
_CONTEXT: dict[tuple[str, str], dict[str, object]] = {
    ("sho", "four_player_mode"): {"players": 4},
    ("sho", "team_coins"): {"players": 4},
    ("sho", "team_win"): {"players": 4, "team_coins": "separate"},
    ("sho", "previous_winner"): {"players": 4, "first_player": "previous_winner"},
    ("sho", "flexible_bonus"): {"flexible_para": "on"},
    ("shogammon", "custom_map"): {"die_map": "custom"},
}
# Values beyond each setting's choices and bounds: text settings have no list of values.
_MORE_VALUES: dict[tuple[str, str], list[object]] = {
    ("shogammon", "custom_map"): ["1:PL,2:NS,3:G,4:B,5:R,6:K"],
}
# The length caps of the sweep: short, so that every value is played through in the suite's budget.
_SWEEP_CAPS: dict[str, dict[str, object]] = {
    "shoo": {"max_turns": 60},
    "shogammon": {"max_turns": 40},
    "shobu": {"max_turns": 60},
    "sho": {"max_turns": 60},
}


_SLOW = {("shoo", "max_turns", 1000)}
"""Sweep cases that play long random games (the length cap itself at its default)."""


def _values(setting: Setting) -> list[object]:
    if setting.choices:
        return list(setting.choices)
    if isinstance(setting.default, bool):
        return [False, True]
    if isinstance(setting.default, int):
        bounds = (setting.minimum, setting.default, setting.maximum)
        return [*sorted({value for value in bounds if value is not None})]
    return [setting.default]


def _setting_cases() -> list[Any]:
    cases: list[Any] = []
    for cls in sorted(available_games(), key=lambda cls: cls.id):
        for setting in cls.setting_specs:
            values = _values(setting) + _MORE_VALUES.get((cls.id, setting.name), [])
            cases.extend(
                pytest.param(
                    cls.id,
                    setting.name,
                    value,
                    id=f"{cls.id}-{setting.name}={value}",
                    marks=[pytest.mark.slow] if (cls.id, setting.name, value) in _SLOW else [],
                )
                for value in values
            )
    return cases


def _check_setting_value(game_id: str, name: str, value: object, n_games: int) -> None:
    """Random games of ``game_id`` with the setting at ``value`` (in its company, under the sweep's cap)."""
    settings = {**_SWEEP_CAPS.get(game_id, {}), **_CONTEXT.get((game_id, name), {}), name: value}
    try:
        game = make(game_id, None, **settings)
    except SettingsError as error:
        # Only values that the setting's own checks refuse in this company are skipped.
        pytest.skip(f"{name}={value} is refused with {settings}: {error}")
    assert game.settings[name] == value
    check_game(game, n_games=n_games, seed=1)


@pytest.mark.parametrize(("game_id", "name", "value"), _setting_cases())
def test_every_setting_value_conforms(game_id: str, name: str, value: object) -> None:
    _check_setting_value(game_id, name, value, n_games=1)


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "name", "value"), _setting_cases())
def test_every_setting_value_conforms_in_a_second_game(game_id: str, name: str, value: object) -> None:
    # The first two random games of each value (the suite plays the first of them); run with --run-slow.
    _check_setting_value(game_id, name, value, n_games=2)


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "name", "value"), _setting_cases())
def test_every_setting_value_conforms_in_long_games(game_id: str, name: str, value: object) -> None:
    # The same sweep with the suite's usual caps and more games, for rare paths (a capture inside a home
    # area, a hush after a shoo); run with --run-slow.
    settings = {**_SHORTER.get(game_id, ({}, 0))[0], **_CONTEXT.get((game_id, name), {}), name: value}
    try:
        game = make(game_id, None, **settings)
    except SettingsError as error:
        pytest.skip(f"{name}={value} is refused with {settings}: {error}")
    check_game(game, n_games=8, seed=2)


def test_the_sweep_covers_the_settings_that_random_play_never_met() -> None:
    # Shoo's hush, capture_in_home, mount_escape and stable_drop were only ever played at their defaults.
    swept = {(case.values[0], case.values[1], case.values[2]) for case in _setting_cases()}
    for name, values in {
        "hush": ["optional", "automatic", "lose-move", "shoo-off", "off"],
        "capture_in_home": ["place-inside", "anywhere", "immune"],
        "mount_escape": ["on", "off"],
        "stable_drop": ["adjacent", "anywhere"],
    }.items():
        assert {("shoo", name, value) for value in values} <= swept
    assert len(swept) > 80


def test_toy_game_is_among_the_cases() -> None:
    ids = {case.values[0] for case in preset_cases()}
    assert DiceRaceGame.id in ids
    assert {cls.id for cls in available_games()} <= ids


def _failure(game: Game[Any], seed: int) -> str:
    with pytest.raises(AssertionError) as info:
        check_game(game, n_games=5, seed=seed)
    return str(info.value)


def test_check_game_is_deterministic_and_uses_its_seed() -> None:
    # A game whose returns are wrong fails at the end of the first game won, a position that the random
    # choices decide: the same seed gives the same failure, another seed another.
    game = _broken(_UnevenReturns)
    assert _failure(game, seed=0) == _failure(game, seed=0)
    assert _failure(game, seed=0) != _failure(game, seed=1)
    for seed in (1, 2, 3):
        check_game(DiceRaceGame("sprint"), n_games=10, seed=seed)


def test_chance_sampling_follows_the_exact_probabilities() -> None:
    rng = random.Random(5)
    draws = [sample_outcome(DIE, rng) for _ in range(6000)]
    for face, probability in DIE:
        assert abs(draws.count(face) / len(draws) - float(probability)) < 0.03
    assert sample_outcome([("only", Fraction(1))], rng) == "only"


# --- Broken games: the checker must catch each ----------------------------------------------------------


class _BrokenGame(DiceRaceGame):
    """A dice race whose states are of another class; subclasses choose the class."""

    state_class: type[DiceRaceState] = DiceRaceState

    def new_initial_state(self) -> DiceRaceState:
        return self.state_class(self, (0, 0), 0, None, 0)

    def state_from_text(self, text: str) -> DiceRaceState:
        state = super().state_from_text(text)
        return self.state_class(self, state.pos, state.turn, state.throw, state.count)


def _broken(state_class: type[DiceRaceState], **settings: object) -> DiceRaceGame:
    name = f"Broken{state_class.__name__}"
    game_class = type(name, (_BrokenGame,), {"state_class": state_class, "__module__": __name__})
    globals()[name] = game_class  # so that pickle finds the class, as the checker pickles every state
    game = game_class(**settings)
    assert isinstance(game, DiceRaceGame)
    return game


class _LopsidedDie(DiceRaceState):
    def chance_outcomes(self) -> Sequence[tuple[int, Fraction]]:
        return [(face, Fraction(1, 4)) for face, _ in DIE]


class _FloatDie(DiceRaceState):
    def chance_outcomes(self) -> Sequence[tuple[int, Fraction]]:
        return [(face, float(p)) for face, p in DIE]  # type: ignore[misc]  # the bug under test


class _MutatingPlay(DiceRaceState):
    def play_unchecked(self, move: int) -> Self:
        after = super().play_unchecked(move)
        object.__setattr__(self, "count", self.count + 1)  # the bug: play changes its input
        return after


class _DuplicateMoves(DiceRaceState):
    def legal_moves(self) -> Sequence[int]:
        moves = list(super().legal_moves())
        return moves + moves[:1]


class _NeverEnds(DiceRaceState):
    """Ignores the length cap, and only ever advances by 1 (so nobody reaches 50 in time)."""

    def is_terminal(self) -> bool:
        return self.winner is not None

    def is_truncated(self) -> bool:
        return False

    def legal_moves(self) -> Sequence[int]:
        if self.is_terminal():
            return []
        return [face for face, _ in DIE] if self.throw is None else [1]


class _ForgetfulText(DiceRaceState):
    def to_text(self) -> str:
        return f"{self.pos[0]},{self.pos[1]} {self.turn} - {self.count}"  # loses the throw


class _AmbiguousMoveText(DiceRaceState):
    def move_to_text(self, move: int) -> str:
        return "d" if self.throw is None else "+"


class _GreedyParser(DiceRaceState):
    def parse_move(self, text: str) -> int:
        if text in ("d1", "d2", "d3", "+1", "+2", "+3"):
            return int(text[1:])  # the bug: never checks legality
        return super().parse_move(text)


class _LaxParser(DiceRaceState):
    def parse_move(self, text: str) -> int:
        try:
            return super().parse_move(text)
        except NotationError:
            return self.legal_moves()[0] if self.legal_moves() else 1


class _WrongMover(DiceRaceState):
    @property
    def to_move(self) -> int | None:
        if self.is_terminal():
            return None
        return CHANCE if self.throw is None else self.turn + 2  # the bug: no such seat


class _UnevenReturns(DiceRaceState):
    def returns(self) -> tuple[float, ...]:
        winner = self.winner
        return (0.0, 0.0) if winner is None else (2.0, -1.0)


class _MiscountedMoves(DiceRaceState):
    def count_legal_moves(self) -> int:
        return 3


class _LaxPlay(DiceRaceState):
    def play(self, move: int) -> Self:
        return self.play_unchecked(move)  # skips the legality check


class _CrashingDiagramText(DiceRaceState):
    def move_to_text(self, move: int) -> str:
        if self.count > 3:
            raise IndexError("no such move text")
        return super().move_to_text(move)


class _UnstableOrder(DiceRaceState):
    calls = 0

    def legal_moves(self) -> Sequence[int]:
        _UnstableOrder.calls += 1
        moves = list(super().legal_moves())
        return moves[::-1] if _UnstableOrder.calls % 2 else moves


class _UnhashableKey(DiceRaceState):
    def key(self) -> Any:
        return [*self.pos, self.turn, self.throw or 0, self.count]


class _Unpicklable(DiceRaceState):
    def __reduce__(self) -> Any:
        raise TypeError("this state holds an open file")


class _IdentityEquality(DiceRaceState):
    __eq__ = object.__eq__
    __hash__ = object.__hash__


class _RewardingForfeit(DiceRaceState):
    def forfeit_returns(self, loser: int) -> tuple[float, ...]:
        return (1.0, -1.0) if loser == 0 else (-1.0, 1.0)  # the bug: the seat that gives up wins


BROKEN = [
    (_RewardingForfeit, "the least for the seat that gives up"),
    (_UnhashableKey, "key() is not hashable"),
    (_Unpicklable, "the state does not pickle: TypeError: this state holds an open file"),
    (_IdentityEquality, "the state is not equal (==) to its unpickled copy"),
    (_LopsidedDie, "chance probabilities add up to 3/4, not exactly 1"),
    (_FloatDie, "not a Fraction above 0"),
    (_MutatingPlay, "changed the state it was called on"),
    (_DuplicateMoves, "legal_moves() has duplicates"),
    (_NeverEnds, "not over after max_game_length = 20 plies"),
    (_ForgetfulText, "the state read back from to_text() has key()"),
    (_AmbiguousMoveText, "parse_move('d') of legal move 1 raised NotationError"),
    (_GreedyParser, "which is not legal here"),
    (_LaxParser, "instead of raising NotationError"),
    (_WrongMover, "neither CHANCE nor a seat from 0 to 1"),
    (_UnevenReturns, "returns (2.0, -1.0) leave [min_utility, max_utility]"),
    (_MiscountedMoves, "count_legal_moves() is 3"),
    (_LaxPlay, "did not raise IllegalMoveError"),
    (_CrashingDiagramText, "unexpected IndexError: no such move text"),
    (_UnstableOrder, "legal_moves() gave a different list on a second call"),
]


@pytest.mark.parametrize(("state_class", "words"), BROKEN, ids=[cls.__name__ for cls, _ in BROKEN])
def test_check_game_catches_a_broken_game(state_class: type[DiceRaceState], words: str) -> None:
    settings = {"target": 50, "max_plies": 20} if state_class is _NeverEnds else {}
    game = _broken(state_class, **settings)
    message = _failure(game, seed=0)
    assert words in message
    assert message.startswith(f"toy_dice_race ({game.settings_text()}), game ")
    assert ", ply " in message
    assert "\n  position: '" in message


def test_chance_nodes_need_has_chance() -> None:
    class NoChance(DiceRaceGame):
        @property
        def has_chance(self) -> bool:
            return False

    with pytest.raises(AssertionError, match=r"to_move is CHANCE but game\.has_chance is False"):
        check_game(NoChance(), n_games=1)


class _DrawsAreWins(DiceRaceState):
    def returns(self) -> tuple[float, ...]:
        return (1.0, 1.0) if self.is_terminal() else (0.0, 0.0)


def test_zero_sum_is_checked() -> None:
    with pytest.raises(AssertionError, match=r"returns \(1.0, 1.0\) of a zero-sum game add up to 2.0"):
        check_game(_broken(_DrawsAreWins), n_games=3)


class _UnreadableSettings(_BrokenGame):
    def settings_text(self) -> str:
        return "target=10 max_plies=80 colour=red"


def test_record_round_trip_is_checked() -> None:
    with pytest.raises(AssertionError, match="record does not round-trip: SettingsError"):
        check_game(_UnreadableSettings(), n_games=1)


# --- States are values -------------------------------------------------------------------------------


def _random_state(game_id: str, plies: int, seed: int = 0, **settings: object) -> State[Any]:
    rng = random.Random(seed)
    state: State[Any] = make(game_id, None, **settings).new_initial_state()
    for _ in range(plies):
        if state.is_terminal():
            break
        if state.to_move == CHANCE:
            state = state.play_unchecked(sample_outcome(state.chance_outcomes(), rng))
        else:
            state = state.play_unchecked(rng.choice(list(state.legal_moves())))
    return state


@pytest.mark.parametrize("game_id", registered_game_ids())
def test_states_of_one_position_are_equal_hashable_and_picklable(game_id: str) -> None:
    first, second = make(game_id).new_initial_state(), make(game_id).new_initial_state()
    assert first == second and hash(first) == hash(second)
    assert len({first, second}) == 1
    later = _random_state(game_id, 30)
    assert later != first
    assert later == make(game_id).state_from_text(later.to_text())
    assert {later: "seen"}[make(game_id).state_from_text(later.to_text())] == "seen"
    copy = pickle.loads(pickle.dumps(later))
    assert copy == later and hash(copy) == hash(later) and copy.to_text() == later.to_text()
    other_settings = make(game_id, None, **_other_settings(game_id)).new_initial_state()
    assert other_settings != first  # equal keys under other settings are another game's position
    assert make(game_id) == make(game_id) and make(game_id) != other_settings.game


def _other_settings(game_id: str) -> dict[str, object]:
    """Settings other than the defaults: the first setting's first other value that the game accepts."""
    for spec in game_class(game_id).setting_specs:
        for value in _values(spec):
            if value == spec.default:
                continue
            try:
                make(game_id, None, **{spec.name: value})
            except SettingsError:
                continue
            return {spec.name: value}
    raise AssertionError(f"{game_id} has no setting with another value")


def test_a_long_shoo_game_pickles_with_its_history() -> None:
    # Shoo keeps the chain of earlier positions for the repetition draw: thousands of plies deep.
    state = _random_state("shoo", 5000, seed=3, max_turns=3000)
    assert state.ply > 1500
    copy = pickle.loads(pickle.dumps(state))
    assert copy == state
    for move in list(state.legal_moves())[:5]:
        assert copy.play(move) == state.play(move)
        assert copy.play(move).is_terminal() == state.play(move).is_terminal()
