r"""Game records: one plain-text format for every game, in the shape of chess's PGN.

A record is a block of header lines, a blank line, then the moves, one per line::

    [Game "shobu"]
    [Version "1"]
    [Settings "max_turns=300 no_turn=lose"]
    [Black "alice"]
    [White "random"]
    [Date "2026.11.21"]
    [Result "1-0"]
    [Termination "normal"]
    [Seed "42"]

    1. BDa1-a3 WLb1-b3
    2. WDd4-d2 BLc4-c2

This docstring is the format's specification; ``docs/records.md`` says the same for people.

**Lines.** A line ends at ``\n``, ``\r\n`` or ``\r``; lines are numbered from 1. Leading and trailing
whitespace of a line is ignored. A line whose first character (after whitespace) is ``;`` is a comment
and is ignored anywhere. Text before the first record may hold only blank lines and comments.

**Headers.** Each header line is ``[Name "value"]``. A name is one or more words of ASCII letters, digits
and ``_``, separated by single spaces (so a seat called ``Player 1`` can be a header); a value is any text
on one line, with ``"`` written ``\"`` and ``\`` written ``\\`` (no other escapes). Each name appears
at most once per record, and headers keep their order. The headers, in the order the writer puts them:

* ``Game``: the game id (``shobu``). Required.
* ``Version``: the game's rules version, a whole number. Required. Replaying a record written under
  another version is an error.
* ``Settings``: every setting of the game as ``name=value`` pairs separated by spaces. Required.
* one header per seat, named as :attr:`Game.player_names <shogames.core.protocol.Game.player_names>`
  says (``Black``, ``White``), holding the name of whoever played that seat. Required (checked once the
  game is known); ``?`` when unknown.
* ``Date``: ``YYYY.MM.DD``; unknown parts are written as ``?`` (``2026.??.??``). Required.
* ``Result``: ``*`` while the game is unfinished; otherwise each seat's score in seat order joined by
  ``-``. A seat's score is ``(return - min_utility) / (max_utility - min_utility)``, so it lies from 0 to 1,
  written ``1``, ``0`` or a reduced fraction (``1/2``): ``1-0``, ``0-1``, ``1/2-1/2``. After a resignation,
  time forfeit or abandonment the returns are the game's
  :meth:`State.forfeit_returns <shogames.core.protocol.State.forfeit_returns>` (``0-1-0-1`` when Player 1
  of team Sho resigns). Required.
* ``Termination``: how the game ended: ``normal`` or ``length cap`` (from
  :meth:`State.termination <shogames.core.protocol.State.termination>`, which a game may extend),
  ``resignation``, ``time forfeit``, ``abandoned``, ``agreement`` (a draw agreed by the two seats: equal
  returns, ``1/2-1/2``), or ``unterminated`` while Result is ``*``. Required.
* ``Seed``: the random seed the game was played with, a whole number. Optional.
* ``TimeControl``: the time control, as free text. Optional.
* ``Position``: the start position, in the game's position text
  (:meth:`State.to_text <shogames.core.protocol.State.to_text>`), when the game did not start from the
  initial state. Optional.
* any other header: kept, in order, and written back unchanged.

**Moves.** The header block ends at the first blank line. Each following line holds one move (a chance
outcome such as a throw of dice is a move too), written in the game's own notation by
:meth:`State.move_to_text <shogames.core.protocol.State.move_to_text>`; move text may contain spaces.
A move may be preceded by its ply number ``N.``, counting the moves of this record from 1 (also when the
record starts from a ``Position``); the writer always writes it (``12. BDa1-a3 WLb1-b3``). A number that
is not the next ply's is an error. Because of this prefix, a move written *without* its number must not
itself begin with digits followed by a period. Blank lines between moves are ignored.

**Several records.** A header line (a line starting with ``[``) after the moves starts the next record;
the writer separates records with one blank line.

**Checks.** :func:`read_record` checks the syntax: header lines, the required headers, the ply numbers,
and the forms of Version, Date, Result and Seed. :func:`replay` checks the rest against the rules: the
game and its version, the settings, the seat headers, every move, and that Result and Termination fit the
final position. Every problem raises :class:`~shogames.core.errors.NotationError` (or
:class:`~shogames.core.errors.SettingsError` for settings, :class:`~shogames.core.errors.IllegalMoveError`
for an illegal move) with the ``line`` it is on.

>>> record = parse_record('''
... [Game "shobu"]
... [Version "1"]
... [Settings "max_turns=300"]
... [Black "alice"]
... [White "bob"]
... [Date "2026.11.21"]
... [Result "*"]
... [Termination "unterminated"]
...
... 1. BDa1-a3 WLb1-b3
... ''')
>>> record.game_id, record.result, record.moves, record.move_lines
('shobu', '*', ['BDa1-a3 WLb1-b3'], [11])
"""

from __future__ import annotations

import datetime
import io
import re
import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final, TextIO

from shogames.core.errors import IllegalMoveError, NotationError, SettingsError
from shogames.core.protocol import Game, State
from shogames.core.registry import game_class, make
from shogames.core.settings import parse_settings_text

__all__ = [
    "AGREEMENT",
    "FORFEIT_TERMINATIONS",
    "REQUIRED_HEADERS",
    "Record",
    "Replay",
    "draw_result",
    "finish_record",
    "forfeit_result",
    "game_from_record",
    "parse_record",
    "read_record",
    "read_records",
    "replay",
    "result_for",
    "start_record",
    "write_record",
    "write_records",
]

REQUIRED_HEADERS: Final = ("Game", "Version", "Settings", "Date", "Result", "Termination")
"""Headers every record must have (the seat headers are required too, once the game is known)."""

FORFEIT_TERMINATIONS: Final = ("resignation", "time forfeit", "abandoned")
"""Terminations that end a game before its rules do; only these may give a result to an unfinished game."""

AGREEMENT: Final = "agreement"
"""The Termination of a game the seats agreed to draw before its rules ended it (equal returns)."""

UNFINISHED: Final = "*"
"""The Result of a game that has no result (yet)."""

UNTERMINATED: Final = "unterminated"
"""The Termination of a game that has not ended."""

_NAME = r"[A-Za-z0-9_]+(?: [A-Za-z0-9_]+)*"
_NAME_RE: Final = re.compile(_NAME)
_NAME_ONLY_RE: Final = re.compile(_NAME + r"\Z")
_PLY_RE: Final = re.compile(r"([0-9]+)\.(.*)\Z", re.DOTALL)
_VERSION_RE: Final = re.compile(r"[0-9]{1,9}\Z")
_SEED_RE: Final = re.compile(r"[+-]?[0-9]{1,100}\Z")
_DATE_RE: Final = re.compile(r"([0-9]{4}|\?{4})\.([0-9]{2}|\?{2})\.([0-9]{2}|\?{2})\Z")
_SCORE_RE: Final = re.compile(r"([0-9]{1,9})(?:/([0-9]{1,9}))?\Z")
_LINE_BREAKS: Final = ("\n", "\r")


@dataclass
class Record:
    """One game record: its headers and its moves in the game's notation.

    Records compare equal when their headers and moves are equal; the line numbers that the reader fills
    in take no part.

    Attributes:
        headers: every header by name, in the order written.
        moves: the moves in the game's notation, chance outcomes included, in the order played.
        move_lines: the 1-based line of each move in the text it was read from; empty when built in code.
        header_lines: the 1-based line of each header in the text it was read from; empty when built in
            code.
        start_line: the line of the record's first header in the text it was read from, else ``None``.
    """

    headers: dict[str, str]
    moves: list[str] = field(default_factory=list)
    move_lines: list[int] = field(default_factory=list, compare=False, repr=False)
    header_lines: dict[str, int] = field(default_factory=dict, compare=False, repr=False)
    start_line: int | None = field(default=None, compare=False, repr=False)

    @property
    def game_id(self) -> str:
        """The Game header: the id of the game played."""
        return self.headers["Game"]

    @property
    def result(self) -> str:
        """The Result header: ``*`` while unfinished, else the seats' scores joined by ``-``."""
        return self.headers["Result"]

    @property
    def termination(self) -> str:
        """The Termination header: how the game ended (``normal``, ``resignation``, ...)."""
        return self.headers["Termination"]

    @property
    def seed(self) -> int | None:
        """The Seed header as a number, or ``None`` when the record has none.

        Raises:
            NotationError: the Seed header is not a whole number.
        """
        text = self.headers.get("Seed")
        if text is None:
            return None
        return _parse_seed(text, self.header_lines.get("Seed"))

    def add_move(self, text: str) -> None:
        """Append a move (or chance outcome) written in the game's notation.

        Raises:
            NotationError: the text cannot stand on a record line: it is empty, has a line break, or
                starts or ends with whitespace.
        """
        problem = _move_text_problem(text)
        if problem is not None:
            raise NotationError(f"move {text!r} cannot be written in a record: {problem}")
        self.moves.append(text)

    def line_of(self, header: str) -> int | None:
        """The line a header was read from, else the record's first line (``None`` if built in code)."""
        return self.header_lines.get(header, self.start_line)


@dataclass
class Replay:
    """A record played through: the game, every state from the start to the end, and the moves.

    Attributes:
        game: the game the record was played under, built from its Game and Settings headers.
        states: the start state, then the state after each move; ``len(states) == len(moves) + 1``.
        moves: the moves parsed from the record's text, in order.
    """

    game: Game[Any]
    states: list[State[Any]]
    moves: list[Any]

    @property
    def final_state(self) -> State[Any]:
        """The state after the last move."""
        return self.states[-1]


# --- Results -------------------------------------------------------------------------------------------


def _score_text(score: Fraction) -> str:
    return str(score.numerator) if score.denominator == 1 else f"{score.numerator}/{score.denominator}"


def _scores_text(scores: Iterable[Fraction]) -> str:
    return "-".join(_score_text(score) for score in scores)


def _seat_scores(game: Game[Any], returns: Sequence[float]) -> list[Fraction]:
    low, high = Fraction(game.min_utility), Fraction(game.max_utility)
    if high <= low:
        raise ValueError(f"game {game.id!r} has max_utility {high} not above min_utility {low}")
    return [((Fraction(value) - low) / (high - low)).limit_denominator(1000) for value in returns]


def result_for(state: State[Any]) -> str:
    """The Result header for a state: ``*`` if the game is not over, else the seats' scores.

    Each seat scores ``(return - min_utility) / (max_utility - min_utility)``, written ``1``, ``0`` or a
    reduced fraction with a denominator of at most 1000, and the scores are joined by ``-`` in seat
    order.
    """
    if not state.is_terminal():
        return UNFINISHED
    return _scores_text(_seat_scores(state.game, state.returns()))


def forfeit_result(state: State[Any], loser: int) -> str:
    """The Result header when seat ``loser`` gives up in ``state``.

    It comes from the game's :meth:`~shogames.core.protocol.State.forfeit_returns`: with two players
    ``0-1`` or ``1-0``; in team Sho the loser's partner scores 0 too.

    Raises:
        ValueError: ``loser`` is not a seat.
    """
    return _scores_text(_seat_scores(state.game, state.forfeit_returns(loser)))


def draw_result(game: Game[Any]) -> str:
    """The Result header of a game drawn by agreement (``1/2-1/2``).

    Every seat gets the same return, the middle of the game's range.
    """
    middle = (game.min_utility + game.max_utility) / 2
    return _scores_text(_seat_scores(game, [middle] * game.num_players))


def _parse_result(text: str) -> list[Fraction] | None:
    """The scores of a Result value, ``None`` for ``*``; raises ValueError with a reason if malformed."""
    if text == UNFINISHED:
        return None
    scores = []
    for part in text.split("-"):
        match = _SCORE_RE.match(part)
        if match is None:
            raise ValueError(f"score {part!r} is not a number such as 1, 0 or 1/2")
        numerator, denominator = int(match[1]), int(match[2] or 1)
        if denominator == 0:
            raise ValueError(f"score {part!r} divides by zero")
        score = Fraction(numerator, denominator)
        if score > 1:
            raise ValueError(f"score {part!r} is above 1")
        scores.append(score)
    return scores


# --- Building records -------------------------------------------------------------------------------------


def _date_text(date: datetime.date) -> str:
    return f"{date.year:04d}.{date.month:02d}.{date.day:02d}"


def start_position_text(state: State[Any]) -> str | None:
    """The ``Position`` header value for a game that starts at ``state``: ``None`` at the initial state.

    Records of games from the usual start carry no Position header; pass the result to
    :func:`start_record`.
    """
    text = state.to_text()
    return None if text == state.game.new_initial_state().to_text() else text


def start_record(
    game: Game[Any],
    players: Sequence[str],
    *,
    seed: int | None = None,
    time_control: str | None = None,
    date: datetime.date | None = None,
    position: str | None = None,
) -> Record:
    """A new record for a game about to be played: headers filled in, no moves, Result ``*``.

    Args:
        game: the game, with its settings.
        players: the name of whoever plays each seat, in seat order.
        seed: the random seed the game is played with, if any.
        time_control: the time control in words, if any.
        date: the day the game is played; today if not given.
        position: the start position in the game's position text, when it is not the initial state.

    Returns:
        A record with the Game, Version, Settings, seat, Date, Result (``*``) and Termination
        (``unterminated``) headers, then Seed, TimeControl and Position when given.

    Raises:
        ValueError: ``players`` does not have one name per seat, or a seat name cannot be a header name
            or clashes with another header.
        NotationError: a name or value has a line break.
    """
    if len(players) != game.num_players:
        raise ValueError(
            f"game {game.id!r} has {game.num_players} seats ({', '.join(game.player_names)}), "
            f"got {len(players)} player names"
        )
    headers = {"Game": game.id, "Version": str(game.version), "Settings": game.settings_text()}
    for seat_name, player in zip(game.player_names, players, strict=True):
        if _NAME_ONLY_RE.match(seat_name) is None or seat_name in REQUIRED_HEADERS or seat_name in headers:
            raise ValueError(f"seat name {seat_name!r} of game {game.id!r} cannot be a record header")
        headers[seat_name] = player
    headers["Date"] = _date_text(date or datetime.date.today())
    headers["Result"] = UNFINISHED
    headers["Termination"] = UNTERMINATED
    if seed is not None:
        headers["Seed"] = str(seed)
    if time_control is not None:
        headers["TimeControl"] = time_control
    if position is not None:
        headers["Position"] = position
    for name, value in headers.items():
        _check_header(name, value)
    return Record(headers)


def finish_record(
    record: Record, state: State[Any], *, resigned: int | None = None, termination: str | None = None
) -> None:
    """Set the Result and Termination headers from the state the game stopped in.

    * A terminal state (with no ``resigned``) gives the computed result and ``state.termination()``.
    * ``resigned`` names the seat that gave up (or lost on time, or abandoned): the result is the game's
      :meth:`~shogames.core.protocol.State.forfeit_returns` (:func:`forfeit_result`): the seat scores 0 and,
      by default, every other seat shares 1 equally (two players: Black resigning gives ``0-1``); in team
      Sho the partners share the outcome (``0-1-0-1``). Termination ``resignation``.
    * ``termination`` replaces the Termination word: ``time forfeit`` or ``abandoned`` with ``resigned``,
      or ``abandoned`` alone for a game stopped with no result.
    * ``termination`` ``agreement`` alone: the seats agreed a draw; every seat gets the same return
      (:func:`draw_result`).
    * A state that is not terminal, with neither, leaves Result ``*`` and Termination ``unterminated``.

    Args:
        record: the record to finish, changed in place.
        state: the state the game stopped in.
        resigned: the seat that lost by resignation, time forfeit or abandonment.
        termination: the Termination word to use instead of the one the rules give.

    Raises:
        ValueError: ``resigned`` is not a seat, or is given for a game already over by its rules, or
            ``termination`` does not fit the state (a word other than the rules' for a terminal state, or
            other than resignation, time forfeit or abandoned for an unfinished one).
    """
    game = state.game
    if state.is_terminal():
        if resigned is not None:
            raise ValueError(f"seat {resigned} cannot resign: the game is already over")
        natural = state.termination() or "normal"
        if termination is not None and termination != natural:
            raise ValueError(f"the game ended by its rules ({natural!r}), not by {termination!r}")
        record.headers["Result"] = result_for(state)
        record.headers["Termination"] = natural
        return
    if resigned is not None:
        if not 0 <= resigned < game.num_players:
            raise ValueError(f"resigned must be a seat from 0 to {game.num_players - 1}, got {resigned}")
        word = termination or "resignation"
        if word not in FORFEIT_TERMINATIONS:
            raise ValueError(
                f"termination after a forfeit must be one of {FORFEIT_TERMINATIONS}, got {word!r}"
            )
        record.headers["Result"] = forfeit_result(state, resigned)
        record.headers["Termination"] = word
        return
    if termination == AGREEMENT:
        record.headers["Result"] = draw_result(game)
        record.headers["Termination"] = AGREEMENT
        return
    if termination not in (None, UNTERMINATED, "abandoned", AGREEMENT):
        raise ValueError(
            f"a game that is not over and has no loser can only be 'abandoned', {AGREEMENT!r} or "
            f"{UNTERMINATED!r}, "
            f"got {termination!r}"
        )
    record.headers["Result"] = UNFINISHED
    record.headers["Termination"] = termination or UNTERMINATED


# --- Writing ------------------------------------------------------------------------------------------


def _move_text_problem(text: str) -> str | None:
    """Why a move text cannot be written on a record line, or ``None`` if it can."""
    if not text:
        return "it is empty"
    if any(mark in text for mark in _LINE_BREAKS):
        return "it has a line break"
    if text != text.strip():
        return "it starts or ends with whitespace"
    return None


def _check_header(name: str, value: str) -> None:
    if _NAME_ONLY_RE.match(name) is None:
        raise NotationError(
            f"header name {name!r} is not words of letters, digits and _ separated by single spaces"
        )
    if any(mark in value for mark in _LINE_BREAKS):
        raise NotationError(f"header {name!r} has a line break in its value {value!r}")


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def write_record(record: Record) -> str:
    """The record as text: header lines, a blank line, then one numbered move per line.

    The text ends with a line break; :func:`read_record` reads it back to an equal record.

    Raises:
        NotationError: a required header is missing, a header name is not allowed, a value has a line
            break, or a move cannot stand on a record line.
    """
    missing = [name for name in REQUIRED_HEADERS if name not in record.headers]
    if missing:
        raise NotationError(f"record lacks the required header(s) {', '.join(missing)}")
    lines = []
    for name, value in record.headers.items():
        _check_header(name, value)
        lines.append(f'[{name} "{_escape(value)}"]')
    lines.append("")
    for ply, move in enumerate(record.moves, start=1):
        problem = _move_text_problem(move)
        if problem is not None:
            raise NotationError(f"ply {ply} {move!r} cannot be written in a record: {problem}")
        lines.append(f"{ply}. {move}")
    return "\n".join(lines) + "\n"


def write_records(records: Iterable[Record]) -> str:
    """Several records as one text, separated by blank lines; :func:`read_records` reads it back."""
    return "\n".join(write_record(record) for record in records)


# --- Reading ------------------------------------------------------------------------------------------


class _Lines:
    """The lines of a handle, numbered, with one line of push-back."""

    def __init__(self, handle: TextIO) -> None:
        self.handle = handle
        self.number = 0
        self.pending: tuple[int, str] | None = None

    def next(self) -> tuple[int, str] | None:
        if self.pending is not None:
            line, self.pending = self.pending, None
            return line
        raw = self.handle.readline()
        if not raw:
            return None
        self.number += 1
        # Handles opened without universal newlines keep "\r\n"; a lone "\r" inside is not a break there.
        return self.number, raw.removesuffix("\n").removesuffix("\r")

    def push_back(self, line: tuple[int, str]) -> None:
        self.pending = line


_SOURCES: weakref.WeakKeyDictionary[TextIO, _Lines] = weakref.WeakKeyDictionary()


def _parse_header(text: str, line: int) -> tuple[str, str]:
    """Read ``[Name "value"]`` (already stripped of surrounding whitespace)."""
    expected = 'expected a header line such as [Name "value"]'
    if not text.endswith("]") or len(text) < 2:
        raise NotationError(f"{expected}, but the line does not end with ']': {text!r}", line=line)
    inner = text[1:-1]
    name_match = _NAME_RE.match(inner)
    if name_match is None:
        raise NotationError(
            f"{expected}: after '[' comes a name of letters, digits and _, got {text!r}", line=line
        )
    name = name_match[0]
    rest = inner[name_match.end() :]
    spaced = rest.lstrip(" \t")
    if not spaced.startswith('"') or len(spaced) == len(rest):
        raise NotationError(
            f"{expected}: after the name {name!r} comes a space and a value in double quotes, got {text!r}",
            line=line,
        )
    value: list[str] = []
    index = 1
    while True:
        if index >= len(spaced):
            raise NotationError(f"header {name!r} has no closing double quote: {text!r}", line=line)
        char = spaced[index]
        if char == '"':
            break
        if char == "\\":
            escaped = spaced[index + 1 : index + 2]
            if escaped not in ('"', "\\"):
                raise NotationError(
                    f'header {name!r} has the escape \\{escaped}; only \\" and \\\\ are allowed', line=line
                )
            value.append(escaped)
            index += 2
            continue
        value.append(char)
        index += 1
    if spaced[index + 1 :]:
        raise NotationError(
            f"header {name!r} has text after its closing quote: {spaced[index + 1 :]!r}", line=line
        )
    return name, "".join(value)


def _parse_seed(text: str, line: int | None) -> int:
    if _SEED_RE.match(text) is None:
        raise NotationError(f"header Seed expects a whole number, got {text!r}", line=line)
    return int(text)


def _check_header_values(record: Record) -> None:
    """Check the required headers are there and the fixed-form ones have their form."""
    missing = [name for name in REQUIRED_HEADERS if name not in record.headers]
    if missing:
        raise NotationError(
            f"record lacks the required header(s) {', '.join(missing)}; every record needs "
            f"{', '.join(REQUIRED_HEADERS)}",
            line=record.start_line,
        )
    headers, lines = record.headers, record.header_lines
    if not headers["Game"]:
        raise NotationError("header Game expects a game id, got ''", line=lines["Game"])
    if _VERSION_RE.match(headers["Version"]) is None:
        raise NotationError(
            f"header Version expects a whole number, got {headers['Version']!r}", line=lines["Version"]
        )
    date = _DATE_RE.match(headers["Date"])
    valid_date = date is not None
    if date is not None and "?" not in headers["Date"]:
        try:
            datetime.date(int(date[1]), int(date[2]), int(date[3]))
        except ValueError:
            valid_date = False
    if not valid_date:
        raise NotationError(
            f"header Date expects a date as YYYY.MM.DD (? for unknown digits), got {headers['Date']!r}",
            line=lines["Date"],
        )
    try:
        _parse_result(headers["Result"])
    except ValueError as error:
        raise NotationError(
            f"header Result expects '*' or the seats' scores joined by '-' (1-0, 1/2-1/2), "
            f"got {headers['Result']!r}: {error}",
            line=lines["Result"],
        ) from None
    if not headers["Termination"]:
        raise NotationError(
            "header Termination expects how the game ended (normal, resignation, ...), got ''",
            line=lines["Termination"],
        )
    if "Seed" in headers:
        _parse_seed(headers["Seed"], lines["Seed"])


def _read_from(source: _Lines) -> Record | None:
    # Before the record: blank lines and comments only.
    while True:
        numbered = source.next()
        if numbered is None:
            return None
        line, raw = numbered
        text = raw.strip()
        if not text or text.startswith(";"):
            continue
        if not text.startswith("["):
            raise NotationError(
                f'expected a header line such as [Game "shobu"] to start a record, got {text!r}', line=line
            )
        break
    record = Record({}, start_line=line)
    # Headers, up to the first blank line.
    while True:
        if text.startswith(";"):
            pass
        elif text.startswith("["):
            name, value = _parse_header(text, line)
            if name in record.headers:
                raise NotationError(
                    f"header {name!r} appears twice (first on line {record.header_lines[name]})", line=line
                )
            record.headers[name] = value
            record.header_lines[name] = line
        else:
            raise NotationError(
                f'expected a header line such as [Name "value"], or a blank line before the moves, '
                f"got {text!r}",
                line=line,
            )
        numbered = source.next()
        if numbered is None:
            break
        line, raw = numbered
        text = raw.strip()
        if not text:
            break
    _check_header_values(record)
    # Moves, up to the next record's first header or the end of the input.
    while numbered is not None:
        numbered = source.next()
        if numbered is None:
            break
        line, raw = numbered
        text = raw.strip()
        if not text or text.startswith(";"):
            continue
        if text.startswith("["):
            source.push_back(numbered)
            break
        ply = len(record.moves) + 1
        numbered_move = _PLY_RE.match(text)
        if numbered_move is not None:
            digits, text = numbered_move[1], numbered_move[2].strip()
            if len(digits) > 9 or int(digits) != ply:
                shown = digits if len(digits) <= 12 else digits[:12] + "..."
                raise NotationError(f"expected ply number {ply}., got {shown}.", line=line)
            if not text:
                raise NotationError(f"expected a move after the ply number {ply}.", line=line)
        record.moves.append(text)
        record.move_lines.append(line)
    return record


def read_record(handle: TextIO) -> Record | None:
    """Read the next record from a text handle.

    Successive calls on the same handle read successive records, and line numbers (in errors and in
    :attr:`Record.move_lines`) count from where the first call began. Only the syntax is checked here;
    :func:`replay` checks the moves against the rules.

    Args:
        handle: an open text file, ``io.StringIO`` or any text handle that supports weak references.

    Returns:
        The record, or ``None`` when only blank lines and comments remain.

    Raises:
        NotationError: the text is not a record; the error's ``line`` says where.
    """
    source = _SOURCES.get(handle)
    if source is None:
        source = _Lines(handle)
        _SOURCES[handle] = source
    return _read_from(source)


def read_records(text: str) -> list[Record]:
    """Read every record in a text.

    Raises:
        NotationError: part of the text is not a record; the error's ``line`` says where.
    """
    source = _Lines(io.StringIO(text, newline=None))
    records = []
    while (record := _read_from(source)) is not None:
        records.append(record)
    return records


def parse_record(text: str) -> Record:
    """Read a text that holds exactly one record.

    Raises:
        NotationError: the text is not a record, or holds none or several.
    """
    records = read_records(text)
    if len(records) != 1:
        line = records[1].start_line if len(records) > 1 else None
        raise NotationError(f"expected exactly one record, found {len(records)}", line=line)
    return records[0]


# --- Replaying ----------------------------------------------------------------------------------------


def game_from_record(record: Record) -> Game[Any]:
    """Build the game a record was played under, from its Game, Version and Settings headers.

    Raises:
        NotationError: the game id is unknown, the Version is not the game's current version, or a seat
            header is missing.
        SettingsError: the Settings header names an unknown setting or a value that is not allowed.
    """
    for name in ("Game", "Version", "Settings"):
        if name not in record.headers:
            raise NotationError(f"record lacks the required header {name}", line=record.start_line)
    try:
        cls = game_class(record.game_id)
    except SettingsError as error:
        raise NotationError(error.message, line=record.line_of("Game")) from None
    version = record.headers["Version"]
    if _VERSION_RE.match(version) is None or int(version) != cls.version:
        raise NotationError(
            f"record was written for {cls.id} version {version}, but this program plays version "
            f"{cls.version}",
            line=record.line_of("Version"),
        )
    try:
        settings = parse_settings_text(cls.setting_specs, record.headers["Settings"])
        game = make(cls.id, None, **settings)
    except SettingsError as error:
        raise SettingsError(f"header Settings: {error.message}", line=record.line_of("Settings")) from None
    missing = [seat for seat in game.player_names if seat not in record.headers]
    if missing:
        raise NotationError(
            f"record lacks the seat header(s) {', '.join(missing)}; a {cls.id} record names the player "
            f"of each seat ({', '.join(game.player_names)})",
            line=record.start_line,
        )
    return game


def _check_ending(record: Record, game: Game[Any], state: State[Any]) -> None:
    result = record.headers.get("Result", UNFINISHED)
    termination = record.headers.get("Termination", UNTERMINATED)
    line = record.line_of("Result")
    after = f"after ply {len(record.moves)}"
    if state.is_terminal():
        expected = result_for(state)
        if result != expected:
            raise NotationError(
                f"header Result is {result!r}, but the game is over {after} with result {expected!r}",
                line=line,
            )
        natural = state.termination() or "normal"
        if termination != natural:
            raise NotationError(
                f"header Termination is {termination!r}, but the game ended {after} by {natural!r}",
                line=record.line_of("Termination"),
            )
        return
    try:
        scores = _parse_result(result)
    except ValueError as error:
        raise NotationError(f"header Result {result!r}: {error}", line=line) from None
    if scores is None:
        if termination not in (UNTERMINATED, "abandoned"):
            raise NotationError(
                f"header Termination is {termination!r}, but Result is '*' and the game is not over "
                f"{after}; expected {UNTERMINATED!r} or 'abandoned'",
                line=record.line_of("Termination"),
            )
        return
    if termination == AGREEMENT:
        if scores != _parse_result(draw_result(game)):
            raise NotationError(
                f"header Result is {result!r}, but a game drawn by agreement has {draw_result(game)!r}",
                line=line,
            )
        return
    if termination not in FORFEIT_TERMINATIONS:
        raise NotationError(
            f"header Result is {result!r}, but the game is not over {after} and Termination is "
            f"{termination!r}; expected Result '*', or a Termination of {', '.join(FORFEIT_TERMINATIONS)}, "
            f"or {AGREEMENT!r} with a draw",
            line=line,
        )
    if len(scores) != game.num_players:
        raise NotationError(
            f"header Result {result!r} has {len(scores)} scores; {game.id} has {game.num_players} seats",
            line=line,
        )
    forfeits = [forfeit_result(state, seat) for seat in range(game.num_players)]
    if scores not in [_parse_result(text) for text in forfeits]:
        expected = ", ".join(
            f"{text!r} ({name} gives up)" for text, name in zip(forfeits, game.player_names, strict=True)
        )
        raise NotationError(
            f"header Result is {result!r}, but a game that ends by {termination!r} {after} has the result of "
            f"the seat that gave up: one of {expected}",
            line=line,
        )


def replay(record: Record) -> Replay:
    """Play a record through under its game's rules, checking every move and the result.

    The game comes from :func:`game_from_record`; play starts from the Position header if there is one,
    else from the initial state. Each move is read with ``state.parse_move``. After the last move,
    Result and Termination must fit the final state: a terminal state needs exactly its computed Result
    and its Termination; a state that is not over needs Result ``*`` (Termination ``unterminated`` or
    ``abandoned``) or a Termination of resignation, time forfeit or abandoned with the result the game gives
    when one of the seats gives up (:func:`forfeit_result`).

    Raises:
        NotationError: a move or the Position is not in the game's notation, or Result or Termination
            does not fit the final state (the message gives both), or a header problem from
            :func:`game_from_record`.
        IllegalMoveError: a move is not legal where it is played, or comes after the game ended. Errors
            about a move carry its line and say ``ply N 'text': <reason>``.
        SettingsError: the Settings header is not valid for the game.
    """
    game = game_from_record(record)
    position = record.headers.get("Position")
    state: State[Any]
    if position is None:
        state = game.new_initial_state()
    else:
        try:
            state = game.state_from_text(position)
        except NotationError as error:
            raise NotationError(
                f"header Position: {error.message}", line=record.line_of("Position")
            ) from None
    states, moves = [state], []
    for index, text in enumerate(record.moves):
        ply = index + 1
        line = record.move_lines[index] if index < len(record.move_lines) else None
        if state.is_terminal():
            raise IllegalMoveError(
                f"ply {ply} {text!r}: the game is already over ({state.termination()}, result "
                f"{result_for(state)}) after ply {index}",
                line=line,
            )
        try:
            move = state.parse_move(text)
        except (NotationError, IllegalMoveError) as error:
            raise type(error)(f"ply {ply} {text!r}: {error.message}", line=line) from error
        state = state.play_unchecked(move)
        states.append(state)
        moves.append(move)
    _check_ending(record, game, state)
    return Replay(game, states, moves)
