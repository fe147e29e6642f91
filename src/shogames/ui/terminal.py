"""The interactive terminal play loop, kept apart from the command line so tests can drive it.

:class:`TerminalGame` plays one game between people at the keyboard and agents. Reading a line and
writing text are injected functions (``read_line`` and ``write``), so a test passes a scripted reader
and collects the output; the CLI passes :func:`input` and its own ``echo`` (a flushed :func:`print`).

At a person's turn the loop shows the board, the last move and whose turn it is, then reads a line:
a move in the game's notation, or one of the commands in :data:`HELP_TEXT`. Bad input is reported and
the prompt repeats; nothing typed ends the game except ``resign`` and ``quit`` (or the end of input,
which counts as ``quit``). The record is saved when the game ends, and on ``quit`` as abandoned.

>>> from shogames import make
>>> from shogames.agents import RandomAgent
>>> lines = iter(["quit"])
>>> session = TerminalGame(
...     make("shobu"), humans={0}, agents={1: RandomAgent(seed=1)},
...     read_line=lambda prompt: next(lines), write=lambda text: None, save=False,
... )
>>> session.run().status
'quit'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from shogames.agents.base import Agent
from shogames.core.chance import sample_chance
from shogames.core.errors import NotationError, ShogamesError
from shogames.core.protocol import CHANCE, Game, State
from shogames.records import Record, finish_record, start_position_text, start_record, write_record

HELP_TEXT = """\
Type a move in the game's notation, or one of these commands:
  moves, ?      list the legal moves
  undo          take back your last move (and the moves played after it)
  resign        give up the game
  save [FILE]   write the record so far (to FILE, or to this game's record file)
  help          show this text
  quit          stop now; the record is saved as abandoned"""
"""What the ``help`` command prints."""

ABANDONED = "abandoned"
"""The termination written to the record of a game left with ``quit`` or at the end of input."""

_LINE_WIDTH = 100


@dataclass(frozen=True, slots=True)
class TerminalOutcome:
    """How a terminal session ended.

    Attributes:
        state: the last position of the game.
        record: the game's record, finished unless the game was abandoned.
        path: where the record was saved, or ``None`` if it was not saved.
        status: ``"finished"`` (the rules ended the game), ``"resigned"`` or ``"quit"``.
    """

    state: State[Any]
    record: Record
    path: Path | None
    status: str


def default_record_path(game_id: str, when: datetime) -> Path:
    """Name the record file of a game started at ``when``: ``shogames-<game>-<YYYYmmdd-HHMMSS>.sgr``.

    >>> default_record_path("shobu", datetime(2024, 5, 1, 13, 2, 3)).name
    'shogames-shobu-20240501-130203.sgr'
    """
    return Path(f"shogames-{game_id}-{when:%Y%m%d-%H%M%S}.sgr")


def format_columns(items: Sequence[str], width: int = _LINE_WIDTH) -> list[str]:
    """Lay out items in left-aligned columns at least three spaces apart, filling lines across.

    >>> format_columns(["a1", "b22", "c3"], width=12)
    ['a1    b22', 'c3']
    """
    if not items:
        return []
    cell = max(len(item) for item in items) + 3
    per_line = max(1, (width + 3) // cell)
    return [
        "".join(item.ljust(cell) for item in items[start : start + per_line]).rstrip()
        for start in range(0, len(items), per_line)
    ]


def mover_name(game: Game[Any], mover: int | None) -> str:
    """A mover in words: the seat's name, ``chance`` for :data:`CHANCE`, ``nobody`` once the game is over.

    >>> from shogames import make
    >>> mover_name(make("shobu"), 1), mover_name(make("shobu"), CHANCE)
    ('White', 'chance')
    """
    if mover == CHANCE:
        return "chance"
    return "nobody" if mover is None else game.player_names[mover]


class TerminalGame:
    """One game played at a terminal between people and agents.

    Args:
        game: the game (with its settings) to play.
        humans: the seats the people at the keyboard take; every seat for hot-seat, none to watch.
        agents: an agent for every other seat.
        seed: the seed of the chance outcomes (``random.Random(seed)``), written to the record.
        start: the position to start from; the initial state by default.
        players: the players' names for the record, one per seat; ``"human"`` and the agents' names by
            default.
        record_path: where the record goes; ``shogames-<game>-<YYYYmmdd-HHMMSS>.sgr`` in the current
            folder by default.
        read_line: shows a prompt and returns the line typed, without its newline; raises
            :class:`EOFError` at the end of input (:class:`KeyboardInterrupt`, from Ctrl-C, counts the same).
        write: writes one piece of text followed by a newline.
        now: the clock, for the default record name.
        save: whether to save the record when the game ends or is left.
        show_every_position: whether to draw the board after every agent move as well; by default only
            when no person plays (watching agents).

    Raises:
        ValueError: a seat has no player, or both a person and an agent.
    """

    def __init__(
        self,
        game: Game[Any],
        *,
        humans: Collection[int],
        agents: Mapping[int, Agent],
        seed: int | None = None,
        start: State[Any] | None = None,
        players: Sequence[str] | None = None,
        record_path: Path | str | None = None,
        read_line: Callable[[str], str] = input,
        write: Callable[[str], None] = print,
        now: Callable[[], datetime] = datetime.now,
        save: bool = True,
        show_every_position: bool | None = None,
    ) -> None:
        seats = range(game.num_players)
        for seat in seats:
            if (seat in humans) == (seat in agents):
                both_or_none = "both a person and an agent" if seat in humans else "no player"
                raise ValueError(f"seat {game.player_names[seat]} has {both_or_none}")
        if not set(humans) | set(agents) <= set(seats):
            raise ValueError(f"{game.id} has seats 0 to {game.num_players - 1} only")
        self.game = game
        self.humans = frozenset(humans)
        self.agents = dict(agents)
        self.seed = seed
        self.players = (
            list(players)
            if players is not None
            else ["human" if seat in self.humans else self.agents[seat].name for seat in seats]
        )
        if len(self.players) != game.num_players:
            raise ValueError(f"{game.id} needs {game.num_players} player names; got {len(self.players)}")
        first = start if start is not None else game.new_initial_state()
        self.position = start_position_text(first)
        self.states: list[State[Any]] = [first]
        self.moves: list[str] = []
        started = now()
        self.date = started.date()
        self.record_path = (
            Path(record_path) if record_path is not None else default_record_path(game.id, started)
        )
        self.read_line = read_line
        self.write = write
        self.save = save
        self.show_every_position = not self.humans if show_every_position is None else show_every_position
        self._chance_rng = random.Random(seed)

    @property
    def state(self) -> State[Any]:
        """The current position."""
        return self.states[-1]

    def run(self) -> TerminalOutcome:
        """Play the game until it ends, a person resigns or quits, or the input ends.

        Returns:
            The last position, the record, where it was saved, and how the session ended.
        """
        self.write(self._introduction())
        if self.show_every_position:
            self.write(self.state.diagram())
        for agent in self.agents.values():
            agent.reset()
        while True:
            state = self.state
            if state.is_terminal():
                return self._end("finished")
            mover = state.to_move
            if mover is None:
                raise ValueError("a state that is not terminal has no mover")
            if mover == CHANCE:
                outcome = sample_chance(state, self._chance_rng)
                self._push(outcome)
                self.write(f"Chance: {self.moves[-1]}")
            elif mover in self.humans:
                ended = self._human_turn(mover)
                if ended is not None:
                    return ended
            else:
                agent = self.agents[mover]
                self._push(agent.select_move(state))
                if self.show_every_position:
                    self.write("")
                self.write(f"{self._seat(mover)} ({agent.name}) plays {self.moves[-1]}")
                if self.show_every_position and not self.state.is_terminal():
                    self.write(self.state.diagram())

    # -- a person's turn -------------------------------------------------------------------------

    def _human_turn(self, seat: int) -> TerminalOutcome | None:
        """Read lines until the person plays a move (``None``) or ends the session (its outcome)."""
        state = self.state
        self.write("")
        self.write(state.diagram())
        if self.moves:
            last_mover = self.states[-2].to_move
            self.write(f"Last move: {self.moves[-1]} ({self._seat(last_mover)})")
        self.write(f"Ply {state.ply + 1}: {self._seat(seat)} ({self.players[seat]}) to move.")
        while True:
            try:
                line = self.read_line(f"{self._seat(seat)}> ")
            except (EOFError, KeyboardInterrupt):  # the end of input, or Ctrl-C: quit, keeping the record
                self.write("")
                return self._end("quit")
            text = line.strip()
            word, _, argument = text.partition(" ")
            command = word.lower()
            if not text:
                continue
            if command in {"moves", "?"}:
                self._list_moves(state)
            elif command == "help":
                self.write(HELP_TEXT)
            elif command == "undo":
                if self._undo(seat):
                    return None
                self.write(f"Nothing to undo: {self._seat(seat)} has not moved yet.")
            elif command == "resign":
                return self._end("resigned", resigned=seat)
            elif command == "save":
                self._save(self._record(), Path(argument.strip()) if argument.strip() else None)
            elif command in {"quit", "exit"}:
                return self._end("quit")
            else:
                try:
                    move = state.parse_move(text)
                except NotationError as error:
                    self.write(f"Cannot read that move: {error}")
                    self.write("Type 'moves' to list the legal moves, or 'help' for the commands.")
                    continue
                except ShogamesError as error:
                    self.write(f"Not a legal move: {error}")
                    self.write("Type 'moves' to list the legal moves, or 'help' for the commands.")
                    continue
                self._push(move)
                return None

    def _list_moves(self, state: State[Any]) -> None:
        texts = [state.move_to_text(move) for move in state.legal_moves()]
        self.write(f"{len(texts)} legal move{'' if len(texts) == 1 else 's'}:")
        for line in format_columns(texts):
            self.write(line)

    def _undo(self, seat: int) -> bool:
        """Take back the last move of ``seat`` and every move after it; whether there was one."""
        for index in range(len(self.moves) - 1, -1, -1):
            if self.states[index].to_move == seat:
                taken = self.moves[index:]
                del self.states[index + 1 :]
                del self.moves[index:]
                self.write(f"Took back {len(taken)} move{'' if len(taken) == 1 else 's'}: {', '.join(taken)}")
                return True
        return False

    # -- moves, records and the end ----------------------------------------------------------------

    def _push(self, move: Any) -> None:
        state = self.state
        after = state.play(move)  # checked first: move_to_text is only defined for legal moves
        self.moves.append(state.move_to_text(move))
        self.states.append(after)

    def _record(self, *, resigned: int | None = None, termination: str | None = None) -> Record:
        record = start_record(self.game, self.players, seed=self.seed, date=self.date, position=self.position)
        for text in self.moves:
            record.add_move(text)
        if self.state.is_terminal() or resigned is not None or termination is not None:
            finish_record(record, self.state, resigned=resigned, termination=termination)
        return record

    def _save(self, record: Record, path: Path | None = None) -> Path | None:
        target = path if path is not None else self.record_path
        try:
            target.write_text(write_record(record), encoding="utf-8")
        except OSError as error:
            self.write(f"Could not save the record to {target}: {error.strerror or error}")
            return None
        self.write(f"Record saved to {target}")
        return target

    def _end(self, status: str, *, resigned: int | None = None) -> TerminalOutcome:
        state = self.state
        if status == "quit":
            record = self._record(termination=ABANDONED)
            self.write("Game abandoned.")
        else:
            record = self._record(resigned=resigned)
            self.write("")
            self.write(state.diagram())
            if resigned is not None:
                self.write(f"{self._seat(resigned)} resigns.")
            self.write(f"Result: {record.result} ({self._describe_result(state, resigned)})")
            self.write(f"Termination: {record.termination}")
        path = self._save(record) if self.save else None
        return TerminalOutcome(state, record, path, status)

    def _describe_result(self, state: State[Any], resigned: int | None) -> str:
        names = self.game.player_names
        returns = state.returns() if resigned is None else state.forfeit_returns(resigned)
        best = max(returns)
        winners = [names[seat] for seat, value in enumerate(returns) if value == best]
        if len(winners) == len(names):
            return "draw"
        return " and ".join(winners) + (" wins" if len(winners) == 1 else " win")

    def _seat(self, seat: int | None) -> str:
        return mover_name(self.game, seat)

    def _introduction(self) -> str:
        parts = []
        for seat, name in enumerate(self.game.player_names):
            who = "you" if seat in self.humans and len(self.humans) == 1 else self.players[seat]
            parts.append(f"{name}: {who}")
        settings = self.game.settings_text()
        hint = " Type 'help' for the commands." if self.humans else ""
        return f"{self.game.name} ({settings}). {'; '.join(parts)}.{hint}"
