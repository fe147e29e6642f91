"""Game records: writing, reading, errors with their lines, and replay under the rules.

Most tests use the toy dice race; every registered game's random games round-trip through records at the
end (``test_a_random_game_of_every_game_round_trips``).
"""

from __future__ import annotations

import datetime
import io
import random
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shogames.core.chance import sample_chance
from shogames.core.errors import IllegalMoveError, NotationError, SettingsError, ShogamesError
from shogames.core.protocol import CHANCE
from shogames.core.registry import available_games, make
from shogames.records import (
    Record,
    finish_record,
    game_from_record,
    parse_record,
    read_record,
    read_records,
    replay,
    result_for,
    start_record,
    write_record,
    write_records,
)
from toy_games import DiceRaceGame, DiceRaceState

DAY = datetime.date(2026, 11, 21)

# A finished dice race under the "sprint" preset (target 4): Red throws 3 and wins on ply 6.
SPRINT = """\
[Game "toy_dice_race"]
[Version "1"]
[Settings "target=4 max_plies=12"]
[Red "alice"]
[Blue "bob"]
[Date "2026.11.21"]
[Result "1-0"]
[Termination "normal"]
[Seed "42"]

1. d1
2. +1
3. d2
4. +2
5. d3
6. +3
"""


def sprint_lines(**changes: str) -> list[str]:
    """The SPRINT record's lines, with some headers' values replaced."""
    lines = SPRINT.splitlines()
    for name, value in changes.items():
        index = next(i for i, line in enumerate(lines) if line.startswith(f"[{name} "))
        lines[index] = f'[{name} "{value}"]'
    return lines


def play_random(game: DiceRaceGame, seed: int) -> tuple[Record, DiceRaceState]:
    rng = random.Random(seed)
    state = game.new_initial_state()
    record = start_record(game, ["alice", "bob"], seed=seed, date=DAY)
    while not state.is_terminal():
        move = rng.choice(list(state.legal_moves()))
        record.add_move(state.move_to_text(move))
        state = state.play(move)
    finish_record(record, state)
    return record, state


def error_of(kind: type[ShogamesError], action: Callable[[], object]) -> ShogamesError:
    with pytest.raises(kind) as info:
        action()
    return info.value


# --- Writing and reading --------------------------------------------------------------------------------


def test_start_record_headers_in_order() -> None:
    game = make("toy_dice_race", "sprint")
    record = start_record(game, ["alice", "bob"], seed=7, time_control="5+0", date=DAY, position="0,0 0 - 0")
    assert list(record.headers.items()) == [
        ("Game", "toy_dice_race"),
        ("Version", "1"),
        ("Settings", "target=4 max_plies=12"),
        ("Red", "alice"),
        ("Blue", "bob"),
        ("Date", "2026.11.21"),
        ("Result", "*"),
        ("Termination", "unterminated"),
        ("Seed", "7"),
        ("TimeControl", "5+0"),
        ("Position", "0,0 0 - 0"),
    ]
    assert (record.game_id, record.result, record.termination, record.seed) == (
        "toy_dice_race",
        "*",
        "unterminated",
        7,
    )
    assert record.moves == [] and record.move_lines == []


def test_start_record_defaults_to_today_and_no_seed() -> None:
    record = start_record(make("toy_dice_race"), ["a", "b"])
    assert record.headers["Date"] == datetime.date.today().strftime("%Y.%m.%d")
    assert record.seed is None
    assert "Seed" not in record.headers and "Position" not in record.headers


def test_start_record_wants_one_name_per_seat() -> None:
    with pytest.raises(ValueError, match="2 seats"):
        start_record(make("toy_dice_race"), ["alone"])


def test_write_then_read_gives_the_same_text() -> None:
    record = parse_record(SPRINT)
    assert write_record(record) == SPRINT
    assert record.moves == ["d1", "+1", "d2", "+2", "d3", "+3"]
    assert record.move_lines == [11, 12, 13, 14, 15, 16]
    assert record.header_lines["Seed"] == 9
    assert record.seed == 42


def test_played_games_round_trip() -> None:
    game = DiceRaceGame()
    for seed in range(5):
        record, _ = play_random(game, seed)
        text = write_record(record)
        back = parse_record(text)
        assert back == record
        assert write_record(back) == text


def test_header_values_escape_quotes_and_backslashes() -> None:
    record = start_record(make("toy_dice_race"), ['the "best"', "back\\slash"], date=DAY)
    record.headers["Event"] = 'odd ] [ ; "'
    text = write_record(record)
    assert '[Red "the \\"best\\""]' in text
    assert '[Blue "back\\\\slash"]' in text
    back = parse_record(text)
    assert back.headers["Red"] == 'the "best"'
    assert back.headers["Blue"] == "back\\slash"
    assert back.headers["Event"] == 'odd ] [ ; "'
    assert list(back.headers) == list(record.headers)


def test_unknown_headers_keep_their_order() -> None:
    lines = SPRINT.splitlines()
    lines[8:8] = ['[Zeta "z"]', '[Alpha "a"]', '[Player 3 "spectator"]']
    record = parse_record("\n".join(lines))
    assert list(record.headers)[-4:] == ["Zeta", "Alpha", "Player 3", "Seed"]
    assert write_record(record) == "\n".join(lines) + "\n"


def test_reader_is_lenient_about_layout() -> None:
    lines = SPRINT.splitlines()
    text = (
        "; a comment before\n\n"
        + "\r\n".join(lines[:10])
        + "\r\n  d1  \n; note\n\n2.+1\n3.   d2\n+2\nd3\n6. +3"
    )
    record = parse_record(text)
    assert record.moves == ["d1", "+1", "d2", "+2", "d3", "+3"]
    assert record.move_lines == [13, 16, 17, 18, 19, 20]
    assert record.start_line == 3
    assert replay(record).final_state.to_text() == "4,2 1 - 6"


def test_move_text_may_hold_spaces_and_digits() -> None:
    record = start_record(make("toy_dice_race"), ["a", "b"], date=DAY)
    for move in ["BDa1-a3 WLb1-b3", "1. not a number", "[bracket", "; semicolon", "pass"]:
        record.add_move(move)
    assert parse_record(write_record(record)).moves == record.moves


@pytest.mark.parametrize("move", ["", " lead", "trail ", "two\nlines", "cr\rhere"])
def test_add_move_refuses_text_that_cannot_stand_on_a_line(move: str) -> None:
    record = start_record(make("toy_dice_race"), ["a", "b"], date=DAY)
    with pytest.raises(NotationError, match="cannot be written"):
        record.add_move(move)
    record.moves.append(move)  # going round add_move: the writer refuses it too
    with pytest.raises(NotationError, match="ply 1"):
        write_record(record)


def test_writer_refuses_line_breaks_and_missing_headers() -> None:
    record = start_record(make("toy_dice_race"), ["a", "b"], date=DAY)
    record.headers["Event"] = "two\nlines"
    with pytest.raises(NotationError, match="line break"):
        write_record(record)
    del record.headers["Event"]
    del record.headers["Result"]
    with pytest.raises(NotationError, match="Result"):
        write_record(record)


def test_several_records_in_one_text() -> None:
    game = DiceRaceGame()
    records = [play_random(game, seed)[0] for seed in range(3)]
    text = write_records(records)
    back = read_records(text)
    assert back == records
    assert write_records(back) == text
    # Line numbers count from the start of the whole text.
    second_start = len(write_record(records[0]).splitlines()) + 2
    assert back[1].start_line == second_start
    assert back[1].move_lines[0] == second_start + len(records[1].headers) + 1


def test_records_need_no_blank_line_between_them() -> None:
    text = SPRINT + SPRINT.replace('"42"', '"43"')
    first, second = read_records(text)
    assert (first.seed, second.seed) == (42, 43)
    assert second.start_line == 17


def test_read_record_reads_one_at_a_time_from_a_handle() -> None:
    handle = io.StringIO("; file\n" + SPRINT + "\n" + SPRINT)
    first = read_record(handle)
    second = read_record(handle)
    assert first is not None and second is not None
    assert first == second
    assert (first.start_line, second.start_line) == (2, 19)
    assert second.move_lines[0] == 29
    assert read_record(handle) is None
    assert read_record(handle) is None


def test_empty_input_has_no_records() -> None:
    assert read_records("") == []
    assert read_records("\n ; only a comment\n\n") == []
    assert read_record(io.StringIO("")) is None


def test_record_without_moves() -> None:
    record = start_record(make("toy_dice_race"), ["a", "b"], date=DAY)
    text = write_record(record)
    assert text.endswith('[Termination "unterminated"]\n\n')
    back = parse_record(text)
    assert back == record
    assert len(replay(back).states) == 1
    assert parse_record(text.rstrip("\n")) == record  # no blank line: headers run to the end


def test_parse_record_wants_exactly_one() -> None:
    with pytest.raises(NotationError, match="found 0"):
        parse_record("")
    error = error_of(NotationError, lambda: parse_record(SPRINT + "\n" + SPRINT))
    assert "found 2" in error.message
    assert error.line == 18


# --- Malformed text: each error says what was expected, on which line -----------------------------------


MALFORMED = [
    # (lines to use, line of the error, words in the message)
    ("junk\n" + SPRINT, 1, "to start a record"),
    ('[Game "toy_dice_race"\n', 1, "does not end with ']'"),
    ('[ "x"]\n', 1, "a name of letters"),
    ('[Game-Id "x"]\n', 1, "comes a space and a value in double quotes"),
    ("[Game toy]\n", 1, "comes a space and a value in double quotes"),
    ('[Game"toy"]\n', 1, "comes a space and a value in double quotes"),
    ('[Game "toy]\n', 1, "no closing double quote"),
    ('[Game "t\\oy"]\n', 1, "the escape \\o"),
    ('[Game "toy" extra]\n', 1, "text after its closing quote"),
    ('[Game "a"]\n[Game "b"]\n', 2, "appears twice (first on line 1)"),
    ("\n".join(sprint_lines()[:9]) + "\n1. d1\n", 10, "or a blank line before the moves"),
    (
        "\n".join(line for line in sprint_lines() if "Settings" not in line),
        1,
        "lacks the required header(s) Settings",
    ),
    ("\n".join(sprint_lines(Version="one")), 2, "Version expects a whole number"),
    ("\n".join(sprint_lines(Date="21.11.2026")), 6, "Date expects a date as YYYY.MM.DD"),
    ("\n".join(sprint_lines(Date="2026.02.30")), 6, "Date expects a date as YYYY.MM.DD"),
    ("\n".join(sprint_lines(Result="1:0")), 7, "Result expects '*' or the seats' scores"),
    ("\n".join(sprint_lines(Result="2-0")), 7, "above 1"),
    ("\n".join(sprint_lines(Result="1/0-0")), 7, "divides by zero"),
    ("\n".join(sprint_lines(Termination="")), 8, "Termination expects"),
    ("\n".join(sprint_lines(Seed="forty")), 9, "Seed expects a whole number"),
    (SPRINT.replace("3. d2", "4. d2"), 13, "expected ply number 3., got 4."),
    (SPRINT.replace("3. d2", "3."), 13, "expected a move after the ply number 3."),
    (SPRINT.replace("3. d2", "99999999999999999999. d2"), 13, "expected ply number 3."),
    (SPRINT + "[Bad header\n", 17, "does not end with ']'"),
]


@pytest.mark.parametrize(("text", "line", "words"), MALFORMED)
def test_malformed_text_names_its_line(text: str, line: int, words: str) -> None:
    error = error_of(NotationError, lambda: read_records(text))
    assert error.line == line
    assert words in error.message
    assert str(error).startswith(f"line {line}: ")


def test_dates_may_have_unknown_parts() -> None:
    for date in ["????.??.??", "2026.??.??", "2026.11.??"]:
        assert parse_record("\n".join(sprint_lines(Date=date))).headers["Date"] == date


@given(st.text())
def test_reader_raises_only_our_errors_on_any_text(text: str) -> None:
    try:
        records = read_records(text)
    except ShogamesError as error:
        assert error.line is not None
        return
    for record in records:
        assert len(record.moves) == len(record.move_lines)


@given(
    st.lists(st.sampled_from([*SPRINT.splitlines(), "", "[", "]", '"', "\\", ";", "1.", "x"]), max_size=30)
)
def test_reader_raises_only_our_errors_on_shuffled_record_lines(lines: list[str]) -> None:
    try:
        read_records("\n".join(lines))
    except ShogamesError as error:
        assert error.line is not None and 1 <= error.line <= len(lines)


_header_names = st.from_regex(r"[A-Za-z0-9_]{1,8}( [A-Za-z0-9_]{1,8})?", fullmatch=True)
_one_line = st.text().filter(lambda text: "\n" not in text and "\r" not in text)
_move_texts = _one_line.filter(lambda text: bool(text) and text == text.strip())


@given(st.dictionaries(_header_names, _one_line, max_size=5), st.lists(_move_texts, max_size=5))
def test_any_record_round_trips(extra: dict[str, str], moves: list[str]) -> None:
    record = start_record(make("toy_dice_race"), ["a", "b"], date=DAY)
    for name, value in extra.items():
        record.headers.setdefault(name, value)
    for move in moves:
        record.add_move(move)
    text = write_record(record)
    back = parse_record(text)
    assert back == record
    assert list(back.headers) == list(record.headers)
    assert write_record(back) == text


# --- Results ----------------------------------------------------------------------------------------


def test_finish_record_from_a_won_game() -> None:
    record, state = play_random(DiceRaceGame(target=4), 1)
    winner = state.winner
    assert winner is not None
    assert record.result == ("1-0" if winner == 0 else "0-1")
    assert record.termination == "normal"


def test_finish_record_from_a_length_cap() -> None:
    record, state = play_random(DiceRaceGame("endless"), 0)
    assert state.is_truncated()
    assert (record.result, record.termination) == ("1/2-1/2", "length cap")


@pytest.mark.parametrize(
    ("seat", "termination", "result", "word"),
    [
        (0, None, "0-1", "resignation"),
        (1, None, "1-0", "resignation"),
        (1, "time forfeit", "1-0", "time forfeit"),
        (0, "abandoned", "0-1", "abandoned"),
    ],
)
def test_finish_record_with_a_loser(seat: int, termination: str | None, result: str, word: str) -> None:
    game = DiceRaceGame()
    state = game.new_initial_state().play(2).play(2)
    record = start_record(game, ["a", "b"], date=DAY)
    record.add_move("d2")
    record.add_move("+2")
    finish_record(record, state, resigned=seat, termination=termination)
    assert (record.result, record.termination) == (result, word)
    assert replay(parse_record(write_record(record))).final_state.key() == state.key()


def test_finish_record_of_an_unfinished_game() -> None:
    game = DiceRaceGame()
    state = game.new_initial_state().play(1)
    record = start_record(game, ["a", "b"], date=DAY)
    record.add_move("d1")
    finish_record(record, state)
    assert (record.result, record.termination) == ("*", "unterminated")
    finish_record(record, state, termination="abandoned")
    assert (record.result, record.termination) == ("*", "abandoned")
    replay(parse_record(write_record(record)))


def test_finish_record_refuses_what_does_not_fit() -> None:
    game = DiceRaceGame(target=2)
    unfinished = game.new_initial_state()
    record = start_record(game, ["a", "b"], date=DAY)
    with pytest.raises(ValueError, match="seat from 0 to 1"):
        finish_record(record, unfinished, resigned=2)
    with pytest.raises(ValueError, match="'normal'"):
        finish_record(record, unfinished, termination="normal")
    with pytest.raises(ValueError, match="must be one of"):
        finish_record(record, unfinished, resigned=0, termination="normal")
    over = unfinished.play(2).play(2)
    assert over.is_terminal()
    with pytest.raises(ValueError, match="already over"):
        finish_record(record, over, resigned=1)
    with pytest.raises(ValueError, match="by its rules"):
        finish_record(record, over, termination="time forfeit")
    assert record.result == "*"


def test_result_scores_are_scaled_and_reduced() -> None:
    class ThirdsState(DiceRaceState):
        def returns(self) -> tuple[float, ...]:
            return (1 / 3, -1 / 3) if self.is_terminal() else (0.0, 0.0)

    game = DiceRaceGame(target=2)
    state = ThirdsState(game, (2, 0), 1, None, 2)
    assert result_for(state) == "2/3-1/3"
    assert result_for(game.new_initial_state()) == "*"


# --- Replay ---------------------------------------------------------------------------------------------


def test_replay_of_a_chance_game() -> None:
    game = DiceRaceGame()
    for seed in range(10):
        record, final = play_random(game, seed)
        replayed = replay(parse_record(write_record(record)))
        assert replayed.final_state.key() == final.key()
        assert len(replayed.states) == len(record.moves) + 1
        assert [state.to_move for state in replayed.states[:-1:2]] == [CHANCE] * len(replayed.states[:-1:2])
        assert replayed.moves == [
            state.parse_move(text) for state, text in zip(replayed.states, record.moves, strict=False)
        ]
        assert replayed.game.settings == game.settings


def test_replay_from_a_position_header() -> None:
    lines = sprint_lines()
    lines.insert(9, '[Position "3,2 0 - 4"]')
    lines[11:] = ["1. d1", "2. +1"]
    replayed = replay(parse_record("\n".join(lines)))
    assert replayed.states[0].to_text() == "3,2 0 - 4"
    assert replayed.final_state.to_text() == "4,2 1 - 6"


def test_bad_position_header() -> None:
    lines = sprint_lines()
    lines.insert(9, '[Position "nowhere"]')
    error = error_of(NotationError, lambda: replay(parse_record("\n".join(lines))))
    assert error.line == 10
    assert error.message.startswith("header Position: ")


def test_illegal_move_is_named_with_its_line() -> None:
    text = SPRINT.replace("4. +2", "4. +3")
    error = error_of(IllegalMoveError, lambda: replay(parse_record(text)))
    assert error.line == 14
    assert str(error).startswith("line 14: ply 4 '+3': ")
    assert isinstance(error.__cause__, IllegalMoveError)


def test_move_in_bad_notation_is_named_with_its_line() -> None:
    text = SPRINT.replace("5. d3", "5. roll three")
    error = error_of(NotationError, lambda: replay(parse_record(text)))
    assert error.line == 15
    assert str(error).startswith("line 15: ply 5 'roll three': expected a throw")


def test_move_after_the_end_is_illegal() -> None:
    error = error_of(IllegalMoveError, lambda: replay(parse_record(SPRINT + "7. d1\n")))
    assert error.line == 17
    assert "ply 7 'd1'" in error.message
    assert "already over" in error.message


@pytest.mark.parametrize("result", ["0-1", "1/2-1/2", "*"])
def test_result_must_match_a_finished_game(result: str) -> None:
    error = error_of(NotationError, lambda: replay(parse_record("\n".join(sprint_lines(Result=result)))))
    assert error.line == 7
    assert f"header Result is {result!r}" in error.message
    assert "'1-0'" in error.message


def test_termination_must_match_a_finished_game() -> None:
    error = error_of(
        NotationError, lambda: replay(parse_record("\n".join(sprint_lines(Termination="resignation"))))
    )
    assert error.line == 8
    assert "'resignation'" in error.message and "'normal'" in error.message


def test_result_of_an_unfinished_game() -> None:
    lines = sprint_lines(Result="1-0", Termination="normal")[:-1]  # the winning move is missing
    error = error_of(NotationError, lambda: replay(parse_record("\n".join(lines))))
    assert error.line == 7
    assert "not over after ply 5" in error.message
    lines = sprint_lines(Result="*", Termination="normal")[:-1]
    error = error_of(NotationError, lambda: replay(parse_record("\n".join(lines))))
    assert error.line == 8
    assert "expected 'unterminated' or 'abandoned'" in error.message
    lines = sprint_lines(Result="1-0-0", Termination="resignation")[:-1]
    error = error_of(NotationError, lambda: replay(parse_record("\n".join(lines))))
    assert "has 3 scores" in error.message
    for termination in ["resignation", "time forfeit", "abandoned"]:
        lines = sprint_lines(Result="0-1", Termination=termination)[:-1]
        assert len(replay(parse_record("\n".join(lines))).states) == 6


@pytest.mark.parametrize("result", ["1/2-1/2", "1-1", "0-0", "1/3-2/3"])
def test_a_forfeit_result_must_be_the_one_the_game_gives(result: str) -> None:
    # The count of scores is right, but no seat's forfeit gives these values.
    lines = sprint_lines(Result=result, Termination="resignation")[:-1]
    error = error_of(NotationError, lambda: replay(parse_record("\n".join(lines))))
    assert error.line == 7
    assert f"header Result is {result!r}" in error.message
    assert "one of '0-1' (Red gives up), '1-0' (Blue gives up)" in error.message


def test_unknown_game() -> None:
    error = error_of(
        NotationError, lambda: game_from_record(parse_record(SPRINT.replace("toy_dice_race", "chess")))
    )
    assert error.line == 1
    assert "unknown game 'chess'" in error.message


def test_version_mismatch_says_both_versions() -> None:
    error = error_of(NotationError, lambda: replay(parse_record("\n".join(sprint_lines(Version="2")))))
    assert error.line == 2
    assert "version 2" in error.message and "version 1" in error.message


@pytest.mark.parametrize(
    ("settings", "words"),
    [("target=4 speed=fast", "unknown setting 'speed'"), ("target=1", "target"), ("target", "name=value")],
)
def test_bad_settings(settings: str, words: str) -> None:
    error = error_of(SettingsError, lambda: replay(parse_record("\n".join(sprint_lines(Settings=settings)))))
    assert error.line == 3
    assert words in error.message


def test_missing_seat_header() -> None:
    text = "\n".join(line for line in sprint_lines() if not line.startswith("[Blue"))
    error = error_of(NotationError, lambda: replay(parse_record(text)))
    assert error.line == 1
    assert "seat header(s) Blue" in error.message


def test_records_built_in_code_replay_without_lines() -> None:
    game = DiceRaceGame()
    record = start_record(game, ["a", "b"], date=DAY)
    record.add_move("d2")
    record.add_move("+3")
    error = error_of(IllegalMoveError, lambda: replay(record))
    assert error.line is None
    assert error.message.startswith("ply 2 '+3': ")


@given(st.lists(st.integers(0, 2), max_size=60), st.sampled_from([None, "sprint", "endless"]))
def test_any_random_game_replays(choices: list[int], preset: str | None) -> None:
    game = make("toy_dice_race", preset)
    state = game.new_initial_state()
    record = start_record(game, ["a", "b"], date=DAY)
    for choice in choices:
        if state.is_terminal():
            break
        moves = list(state.legal_moves())
        move = moves[choice % len(moves)]
        record.add_move(state.move_to_text(move))
        state = state.play(move)
    finish_record(record, state)
    replayed = replay(parse_record(write_record(record)))
    assert replayed.final_state.key() == state.key()
    assert replayed.final_state.to_text() == state.to_text()


# --- Every game ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game_id", "preset"),
    [
        pytest.param(cls.id, preset, id=f"{cls.id}-{preset or 'default'}")
        for cls in available_games()
        for preset in (None, *cls.presets)
    ],
)
def test_a_random_game_of_every_game_round_trips(game_id: str, preset: str | None) -> None:
    """Up to 60 plies of a seeded random game, chance outcomes included, then a resignation or the end."""
    game = make(game_id, preset)
    rng = random.Random(5)
    state = game.new_initial_state()
    record = start_record(game, [f"seat {seat}" for seat in range(game.num_players)], seed=5, date=DAY)
    for _ in range(60):
        if state.is_terminal():
            break
        move = sample_chance(state, rng) if state.to_move == CHANCE else rng.choice(list(state.legal_moves()))
        record.add_move(state.move_to_text(move))
        state = state.play(move)
    resigned = None if state.is_terminal() or state.to_move == CHANCE else state.to_move
    finish_record(record, state, resigned=resigned)
    text = write_record(record)
    assert text.startswith(f'[Game "{game_id}"]\n[Version "{type(game).version}"]\n')
    back = parse_record(text)
    assert back == record and write_record(back) == text
    replayed = replay(back)
    assert replayed.final_state.key() == state.key() and replayed.final_state.to_text() == state.to_text()
    assert game_from_record(back) == game


# --- Shobu ------------------------------------------------------------------------------------------


def test_shobu_record_round_trip() -> None:
    game = make("shobu")
    rng = random.Random(3)
    state = game.new_initial_state()
    record = start_record(game, ["alice", "random"], seed=3, date=DAY)
    for _ in range(30):
        if state.is_terminal():
            break
        move = rng.choice(list(state.legal_moves()))
        record.add_move(state.move_to_text(move))
        state = state.play(move)
    finish_record(record, state, resigned=state.to_move if not state.is_terminal() else None)
    text = write_record(record)
    assert text.startswith('[Game "shobu"]\n[Version "')
    assert '[Black "alice"]\n[White "random"]\n' in text
    back = parse_record(text)
    assert back == record
    assert write_record(back) == text
    assert replay(back).final_state.key() == state.key()
    # An illegal Shobu move is named with its line and ply.
    lines = text.splitlines()
    first_move_line = lines.index("") + 2
    lines[first_move_line - 1] = "1. BDa1-a4 WLb1"
    error = error_of(ShogamesError, lambda: replay(parse_record("\n".join(lines))))
    assert error.line == first_move_line
    assert error.message.startswith("ply 1 'BDa1-a4 WLb1': ")
