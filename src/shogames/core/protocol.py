"""The game protocol that every game implements, in OpenSpiel's shape.

A :class:`Game` holds the static facts of one game under fixed settings: its id and version, its players,
its length cap and the range of its returns. It makes states: :meth:`Game.new_initial_state` and
:meth:`Game.state_from_text`.

A :class:`State` is **immutable**: :meth:`State.play` returns the next state and leaves the old one as it
was, so agents and interfaces may keep states around freely. States are values: two states of the same
position compare equal (``==`` compares the games and :meth:`State.key`), hash alike, and pickle.

The player to move is a seat number ``0 .. num_players - 1``, or :data:`CHANCE` when the next move is a
chance outcome (a toss, a throw of dice), or ``None`` once the game is over. At a chance node
:meth:`State.legal_moves` lists the outcomes and :meth:`State.chance_outcomes` gives each with its exact
probability as a :class:`~fractions.Fraction`.

Moves are small hashable values chosen by each game. Every game turns them to text and back with
:meth:`State.move_to_text` and :meth:`State.parse_move`, and positions with :meth:`State.to_text` and
:meth:`Game.state_from_text`.

Actions and observations (the research surface, ``docs/research.md``): every game numbers its moves. A
seat's move is an *action*, an ``int`` in ``0 .. Game.num_distinct_actions - 1``, and a chance outcome is
an ``int`` in ``0 .. Game.max_chance_outcomes - 1``, as OpenSpiel numbers them.
:meth:`State.move_to_action` and :meth:`State.action_to_move` convert in the state where the move is
played, :meth:`State.legal_actions` lists the legal ones in ascending order, and
:meth:`State.observation_tensor` gives what a seat sees as a flat list of floats in the C order of
:attr:`Game.observation_shape`, whose first axis is the planes named by :attr:`Game.observation_planes`.
These are pure Python, like the rules; the adapters (:mod:`shogames.adapters`) turn them into numpy arrays.

Fast path: :meth:`State.play` checks that the move is legal. Search code that only plays moves taken from
:meth:`State.legal_moves` may call :meth:`State.play_unchecked`, which skips the check. A game may also
offer a compiled kernel (:attr:`Game.kernel`, :mod:`shogames.core.kernel`) for whole loops: perft, random
playouts and searches.

Glossary, shared by every game (``docs/adding-a-game.md`` has the game-specific cases): a *move* is one
decision of one player (or one chance outcome); a *ply* is one move played; *seat* numbers the players
from 0 in the order of :attr:`Game.player_names`; a *side* is the pieces a seat moves (in some games
several seats share one, or a seat's side is decided by the opening); a *turn* is one seat's whole go;
*returns* are the final payoffs per seat; the *winner* is the seat that won; the *length cap* is the
setting ``max_turns`` in every game, counted in turns, and ends a game as *truncated*;
:attr:`Game.max_game_length` is the bound in plies that follows from it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, Final, Generic, Literal, Self, TypeVar

from shogames.core.errors import IllegalMoveError
from shogames.core.settings import Setting, SettingValue, format_settings, resolve_settings

if TYPE_CHECKING:
    from shogames.core.kernel import Kernel

CHANCE: Final = -1
"""The value of :attr:`State.to_move` when the next move is a chance outcome."""

MoveT = TypeVar("MoveT", bound=Hashable)
StateT = TypeVar("StateT", bound="State[Any]")


@dataclass(frozen=True, slots=True)
class SuggestedClock:
    """The time control a game's players expect, offered first when a person sets up a game.

    Attributes:
        kind: ``"per_move"`` (a limit for each move) or ``"fischer"`` (a chess clock with increment).
        seconds: the limit for each move (``per_move``).
        minutes: each seat's time for the game (``fischer``).
        increment: seconds added after each move (``fischer``).
    """

    kind: Literal["per_move", "fischer"]
    seconds: float = 0
    minutes: float = 0
    increment: float = 0


class Game(ABC, Generic[StateT]):
    """One game under fixed, validated settings; the factory of its states.

    Subclasses set the class attributes and implement the abstract methods. Construct with settings as
    keyword arguments (``ShobuGame(max_turns=100)``), optionally starting from a named preset; the
    registry's :func:`shogames.make` does the same by game id.

    Args:
        preset: the name of one of :attr:`presets`, whose values replace the defaults.
        **settings: explicit setting values, which replace the preset's.

    Raises:
        SettingsError: an unknown preset or setting, or a value that is not allowed.
    """

    id: ClassVar[str]
    """Short snake_case identifier used by the registry, the CLI and records."""
    name: ClassVar[str]
    """The game's name for people."""
    version: ClassVar[int]
    """Rules version: changes only when behaviour (legal moves, results, notation) changes."""
    setting_specs: ClassVar[tuple[Setting, ...]] = ()
    """Every named setting, with its default."""
    presets: ClassVar[Mapping[str, Mapping[str, SettingValue]]] = {}
    """Named bundles of setting values (rulesets and variants)."""
    blurb: ClassVar[str] = ""
    """One line for people saying what the game is; menus show it under the game's name."""
    display_order: ClassVar[int] = 100
    """Where the game comes in menus for people: lowest first, then by id."""
    suggested_clock: ClassVar[SuggestedClock | None] = None
    """The clock a new game starts with in the browser's form, or ``None`` for no clock."""
    agent_levels: ClassVar[Mapping[str, str]] = {}
    """The agent spec of each difficulty level on the game's kernel (``"master":
    "kernel-alphabeta:nodes=2000000"``) where this game's differs from the default in
    :mod:`shogames.agents.levels`; ``docs/strength.md`` measures them."""
    reference_levels: ClassVar[Mapping[str, str]] = {}
    """The pure-Python agent spec of each level (``"hard": "alphabeta:depth=2"``), where this game's differs
    from the default, played where the kernel is missing (no numba, kernels off, settings it does not
    cover)."""
    move_theme_names: ClassVar[Mapping[str, str]] = {}
    """Every theme :meth:`State.move_themes` can name in this game, each with a line for people
    (``"push-off": "a stone is pushed off its board"``); puzzles are tagged with them
    (``docs/puzzles.md``)."""
    view_module: ClassVar[str | None] = None
    """The module that shows the game in the browser (``"shogames.games.shoo.view"``), imported only by
    the web app; ``None`` shows the position text with every move as a button. ``docs/adding-a-game.md``
    says what the module provides."""
    render_module: ClassVar[str | None] = None
    """The module whose ``board_svg(view, orientation=0, names=(), over=False)`` draws the view of
    :attr:`view_module` as SVG markup (``"shogames.games.shobu.render"``), for notebooks
    (:meth:`State._repr_svg_`) and :func:`shogames.drawing.board_svg`; ``None`` for a game without a
    drawing (a notebook then shows :meth:`State.diagram`)."""
    kernel_module: ClassVar[str | None] = None
    """The module whose ``make_kernel(game)`` builds the game's compiled kernel, imported only when
    :attr:`kernel` is first read; ``None`` for a game without one (``docs/kernels.md``)."""
    _kernel: Kernel[Any, Any] | None  # set on first use of :attr:`kernel`

    def __init__(self, preset: str | None = None, **settings: object) -> None:
        self.preset = preset
        self.settings: Mapping[str, SettingValue] = resolve_settings(
            self.setting_specs, self.presets, preset, settings
        )

    @property
    @abstractmethod
    def player_names(self) -> tuple[str, ...]:
        """The seats' names, in seat order (``("Black", "White")`` for Shobu)."""

    @property
    def num_players(self) -> int:
        """How many seats the game has."""
        return len(self.player_names)

    @property
    @abstractmethod
    def max_game_length(self) -> int:
        """The length cap: the most plies a game can last before it is cut as truncated."""

    @property
    def num_distinct_actions(self) -> int:
        """How many action ids a seat's move can have, for a network's policy head.

        Every move of these settings is one id in ``0 .. num_distinct_actions - 1``
        (:meth:`State.move_to_action`). The game's docs derive the number from the rules.

        Raises:
            NotImplementedError: the game has no action encoding.
        """
        raise NotImplementedError(f"{self.id} does not number its moves (no action encoding)")

    @property
    def max_chance_outcomes(self) -> int:
        """How many ids a chance outcome can have (``0 .. max_chance_outcomes - 1``); 0 without chance."""
        return 0

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """The shape of :meth:`State.observation_tensor`: planes first (:attr:`observation_planes`).

        Raises:
            NotImplementedError: the game has no observation tensor.
        """
        raise NotImplementedError(f"{self.id} has no observation tensor")

    @property
    def observation_planes(self) -> tuple[str, ...]:
        """What each plane of the observation holds, one name per index of the shape's first axis.

        Raises:
            NotImplementedError: the game has no observation tensor.
        """
        raise NotImplementedError(f"{self.id} has no observation tensor")

    @property
    def min_utility(self) -> float:
        """The smallest value any seat's return can take."""
        return -1.0

    @property
    def max_utility(self) -> float:
        """The largest value any seat's return can take."""
        return 1.0

    @property
    def is_zero_sum(self) -> bool:
        """Whether the returns of every terminal state add up to zero."""
        return True

    @property
    def has_chance(self) -> bool:
        """Whether any state of this game can have :data:`CHANCE` to move."""
        return False

    @abstractmethod
    def new_initial_state(self) -> StateT:
        """The state before the first move."""

    def start_position(self) -> StateT:
        """The first position where a seat moves on the board, after any opening decisions.

        Most games start there, so this is :meth:`new_initial_state`. A game whose opening is a toss or a
        choice of sides (Shoo) returns the position right after it. ``shogames legal`` and ``perft``
        start here by default.
        """
        return self.new_initial_state()

    @abstractmethod
    def state_from_text(self, text: str) -> StateT:
        """Read a position written by :meth:`State.to_text`.

        Raises:
            NotationError: the text is not a position of this game; the message says which part.
        """

    @property
    def kernel(self) -> Kernel[Any, Any] | None:
        """The compiled kernel for these settings, or ``None`` where there is none.

        ``None`` also when numba is missing or ``SHOGAMES_KERNELS=0``. Built on first use and kept
        (:mod:`shogames.core.kernel`).
        """
        try:
            return self._kernel
        except AttributeError:
            from shogames.core.kernel import load_kernel

            self._kernel = load_kernel(self)
            return self._kernel

    def settings_text(self) -> str:
        """The settings as ``name=value`` pairs, the form records and the CLI use."""
        return format_settings(self.settings)

    def __eq__(self, other: object) -> bool:
        """Games are equal when they are the same game under the same settings (presets aside)."""
        if not isinstance(other, Game):
            return NotImplemented
        return type(other) is type(self) and dict(other.settings) == dict(self.settings)

    def __hash__(self) -> int:
        return hash((type(self), tuple(sorted(self.settings.items()))))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.settings_text()})"


class State(ABC, Generic[MoveT]):
    """One position of a game, immutable, with everything needed to continue it.

    Subclasses implement the abstract methods; :meth:`play`, :meth:`is_legal`, :meth:`count_legal_moves`
    and :meth:`chance_outcomes` have general implementations that a game may replace with faster ones.
    """

    @property
    @abstractmethod
    def game(self) -> Game[Any]:
        """The game (with its settings) this state belongs to."""

    @property
    @abstractmethod
    def to_move(self) -> int | None:
        """The seat to move, :data:`CHANCE` at a chance node, or ``None`` when the game is over."""

    @property
    @abstractmethod
    def ply(self) -> int:
        """How many moves (chance outcomes included) have been played since the initial state."""

    @abstractmethod
    def legal_moves(self) -> Sequence[MoveT]:
        """Every legal move (or chance outcome) in a fixed, deterministic order; empty when terminal."""

    @abstractmethod
    def play_unchecked(self, move: MoveT) -> Self:
        """The state after ``move``, without checking that the move is legal (the search fast path).

        Only call it with a move from :meth:`legal_moves`: anything else gives an undefined state.
        """

    @abstractmethod
    def is_terminal(self) -> bool:
        """Whether the game is over (won, drawn by rule, or cut by the length cap)."""

    @abstractmethod
    def returns(self) -> tuple[float, ...]:
        """The payoff of every seat: final values when terminal, zeros before."""

    @abstractmethod
    def key(self) -> Hashable:
        """A hashable key equal for equal positions, for repetition and transposition tables."""

    @abstractmethod
    def to_text(self) -> str:
        """The position as text; :meth:`Game.state_from_text` reads it back to an equal key."""

    @abstractmethod
    def move_to_text(self, move: MoveT) -> str:
        """A move (legal in this state) in the game's notation."""

    @abstractmethod
    def parse_move(self, text: str) -> MoveT:
        """Read a move in the game's notation and check that it is legal here.

        Raises:
            NotationError: the text is not a move in this game's notation.
            IllegalMoveError: the move is well formed but not legal in this state.
        """

    def move_to_action(self, move: MoveT) -> int:
        """The action id of ``move``, a move (or chance outcome) of the side to move in this state.

        A seat's move gives an id below :attr:`Game.num_distinct_actions`, a chance outcome one below
        :attr:`Game.max_chance_outcomes`. Distinct legal moves of a state have distinct ids, and
        :meth:`action_to_move` gives the move back.

        Raises:
            NotImplementedError: the game has no action encoding.
            ValueError: the game is over, or ``move`` cannot be a move here.
        """
        raise NotImplementedError(f"{self.game.id} does not number its moves (no action encoding)")

    def action_to_move(self, action: int) -> MoveT:
        """The legal move (or chance outcome) with id ``action`` in this state.

        Raises:
            IllegalMoveError: no legal move here has this id; the message says which ids are legal.
        """
        for move in self.legal_moves():
            if self.move_to_action(move) == action:
                return move
        raise self._illegal_action(action)

    def _illegal_action(self, action: object) -> IllegalMoveError:
        """The error for an action id that is not legal here, saying which ids are."""
        if self.is_terminal():
            return IllegalMoveError(f"the game is over; no action can be played, got {action!r}")
        legal = self.legal_actions()
        shown = ", ".join(map(str, legal[:12])) + (", ..." if len(legal) > 12 else "")
        return IllegalMoveError(
            f"action {action!r} is not legal here; the legal actions are the {len(legal)} ids {shown}"
        )

    def legal_actions(self) -> list[int]:
        """The action ids of :meth:`legal_moves`, in ascending order; empty when the game is over."""
        return sorted(self.move_to_action(move) for move in self.legal_moves())

    def legal_action_mask(self) -> list[bool]:
        """For each action id, whether it is legal here.

        :attr:`Game.num_distinct_actions` entries, or :attr:`Game.max_chance_outcomes` at a chance node
        (as OpenSpiel's ``legal_actions_mask``).
        """
        game = self.game
        size = game.max_chance_outcomes if self.to_move == CHANCE else game.num_distinct_actions
        mask = [False] * size
        for action in self.legal_actions():
            mask[action] = True
        return mask

    def play_action(self, action: int) -> Self:
        """The state after the legal move with id ``action``.

        Raises:
            IllegalMoveError: no legal move here has this id.
        """
        return self.play_unchecked(self.action_to_move(action))

    def observation_tensor(self, seat: int) -> list[float]:
        """What ``seat`` sees, as a flat list of floats in the C order of :attr:`Game.observation_shape`.

        The game's docs give the planes (:attr:`Game.observation_planes`): whose pieces, from whose view.

        Raises:
            NotImplementedError: the game has no observation tensor.
            ValueError: ``seat`` is not a seat of the game.
        """
        raise NotImplementedError(f"{self.game.id} has no observation tensor")

    def observation_string(self, seat: int) -> str:
        """What ``seat`` sees, as text; every game here has perfect information, so it is the position.

        Raises:
            ValueError: ``seat`` is not a seat of the game.
        """
        self._check_seat(seat)
        return self.to_text()

    def _check_seat(self, seat: int) -> None:
        """Raise a clear ``ValueError`` unless ``seat`` is a seat of the game."""
        players = self.game.num_players
        if not (isinstance(seat, int) and 0 <= seat < players):
            raise ValueError(f"a seat is an int from 0 to {players - 1}, got {seat!r}")

    def move_themes(self, move: MoveT) -> tuple[str, ...]:
        """What ``move``, a legal move of a seat here, does that a puzzle can be about: theme names.

        Each name is a key of :attr:`Game.move_theme_names` (a push-off in Shobu, a shoo in Shoo, a kill
        in Sho, a point capture in Shogammon), found from the state's facts before and after the move,
        never from text. The puzzles (:mod:`shogames.puzzles`) tag a solution with them. This default
        names none.
        """
        return ()

    def diagram(self) -> str:
        """A picture of the position in plain text for terminals; games draw their own board."""
        return self.to_text()

    def _repr_svg_(self) -> str | None:
        """The board as SVG, which Jupyter shows for a state; ``None`` (text instead) without a drawing.

        See :func:`shogames.drawing.board_svg` for the orientation and the seats' names.
        """
        from shogames.drawing import board_svg, has_drawing  # imported on display only

        return board_svg(self) if has_drawing(self.game) else None

    def evaluate(self) -> tuple[float, ...]:
        """A heuristic estimate of every seat's return, for agents that stop searching before the end.

        A terminal state gives its :meth:`returns`. Otherwise each game gives values strictly between
        :attr:`Game.min_utility` and :attr:`Game.max_utility` (so a won game always scores better than any
        estimate); two-player zero-sum games give opposite values. ``docs/games/<game>.md`` says what each
        game's estimate rewards. This default knows nothing and gives every seat 0.
        """
        if self.is_terminal():
            return self.returns()
        return (0.0,) * self.game.num_players

    def forfeit_returns(self, loser: int) -> tuple[float, ...]:
        """Every seat's return when seat ``loser`` gives up here: resigns, loses on time or abandons.

        The game decides, as it decides its own results. This default gives the loser
        :attr:`Game.min_utility` and every other seat an equal share of the win, so that in a record's
        Result the loser scores 0 and each other seat ``1 / (players - 1)`` (``0-1`` with two players). A
        game with teams or placings gives its own (Sho: the loser's partner loses with it).

        Raises:
            ValueError: ``loser`` is not a seat of the game.
        """
        game = self.game
        players = game.num_players
        if not 0 <= loser < players:
            raise ValueError(f"the seat that gives up must be from 0 to {players - 1}, got {loser}")
        low, high = game.min_utility, game.max_utility
        share = low + (high - low) / max(players - 1, 1)
        return tuple(low if seat == loser else share for seat in range(players))

    def is_truncated(self) -> bool:
        """Whether the game ended because it reached the length cap rather than by the rules."""
        return False

    def termination(self) -> str | None:
        """How the game ended, in a few words (``"normal"``, ``"length cap"``), or ``None`` if not over."""
        if not self.is_terminal():
            return None
        return "length cap" if self.is_truncated() else "normal"

    def chance_outcomes(self) -> Sequence[tuple[MoveT, Fraction]]:
        """At a chance node, every outcome with its exact probability; the probabilities sum to 1.

        Raises:
            ValueError: the state is not a chance node.
        """
        raise ValueError("chance_outcomes() asked of a state whose mover is not CHANCE")

    def is_legal(self, move: MoveT) -> bool:
        """Whether ``move`` is legal in this state."""
        return move in self.legal_moves()

    def count_legal_moves(self) -> int:
        """How many legal moves there are; games may count faster than they generate."""
        return len(self.legal_moves())

    def play(self, move: MoveT) -> Self:
        """The state after ``move``; this state is left unchanged.

        Raises:
            IllegalMoveError: the move is not legal here (the message gives it in notation when it can).
        """
        if not self.is_legal(move):
            if self.is_terminal():
                raise IllegalMoveError(f"the game is over; no move can be played, got {move!r}")
            raise IllegalMoveError(f"move {move!r} is not legal in position {self.to_text()!r}")
        return self.play_unchecked(move)

    def play_text(self, text: str) -> Self:
        """Parse a move in notation and play it.

        Raises:
            NotationError: the text is not a move in this game's notation.
            IllegalMoveError: the move is not legal here.
        """
        return self.play_unchecked(self.parse_move(text))

    def __eq__(self, other: object) -> bool:
        """States are values: equal when they are of one game under equal settings with equal keys.

        :meth:`key` leaves out what does not decide the play from here (a ply counter, Shoo's history of
        earlier positions), so states reached by different move orders can be equal.
        """
        if self is other:
            return True
        if not isinstance(other, State):
            return NotImplemented
        return type(other) is type(self) and other.game == self.game and other.key() == self.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.to_text()!r}>"
