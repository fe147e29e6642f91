"""The ``shogames`` command line and the terminal play loop, driven with real games of Shobu."""

from __future__ import annotations

import random
import re
from collections import deque
from collections.abc import Sequence
from pathlib import Path

import pytest

from cli_runner import CliResult, run_cli
from shogames.agents import RandomAgent, make_agent
from shogames.core.protocol import State
from shogames.core.registry import make
from shogames.match import play_game
from shogames.records import parse_record, read_records, replay
from shogames.ui.terminal import ABANDONED, TerminalGame, TerminalOutcome, format_columns
from toy_games import register_toy_games

PICK = "<pick a listed move>"
"""In a script for :class:`ScriptedPerson`: answer with a move from the last ``moves`` listing."""

_LISTING_HEADER = re.compile(r"\d+ legal moves?:\Z")


def run(*args: str, input: str | None = None) -> CliResult:
    return run_cli(args, input=input)


def assert_usage_error(result: CliResult, *fragments: str) -> None:
    """The command failed cleanly: exit status 2, one ``Error:`` line on stderr, no traceback."""
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.startswith("Error: "), result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output
    for fragment in fragments:
        assert fragment in result.stderr


class ScriptedPerson:
    """A person at the terminal: types the scripted lines, then plays moves read off ``moves`` listings.

    Once the script is used up it answers every prompt by asking for ``moves`` and then typing one of
    the moves listed, chosen with its own seeded generator; so it only ever learns the legal moves the
    way a person does, from the loop's output.
    """

    def __init__(self, script: Sequence[str] = (), seed: int = 0) -> None:
        self.output: list[str] = []
        self.sent: list[str] = []
        self.prompts: list[str] = []
        self.script = deque(script)
        self.rng = random.Random(seed)
        self.listed = False

    def write(self, text: str) -> None:
        self.output.extend(text.split("\n"))

    def last_listing(self) -> list[str]:
        starts = [index for index, line in enumerate(self.output) if _LISTING_HEADER.match(line)]
        assert starts, "no 'moves' listing was printed"
        count = int(self.output[starts[-1]].split()[0])
        moves = [move for line in self.output[starts[-1] + 1 :] for move in re.split(r" {3,}", line)]
        assert len(moves) == count
        return moves

    def read(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if self.script:
            line = self.script.popleft()
            if line == PICK:
                line = self.rng.choice(self.last_listing())
        elif not self.listed:
            line, self.listed = "moves", True
        else:
            line, self.listed = self.rng.choice(self.last_listing()), False
        self.sent.append(line)
        return line

    def text(self) -> str:
        return "\n".join(self.output)


def play_scripted(person: ScriptedPerson, path: Path, *, seed: int, **options: object) -> TerminalOutcome:
    """Play Shobu as Black against the agent the CLI would make for ``--seed seed``."""
    session = TerminalGame(
        make("shobu"),
        humans={0},
        agents={1: make_agent("random", seed + 2)},
        seed=seed,
        record_path=path,
        read_line=person.read,
        write=person.write,
        **options,  # type: ignore[arg-type]
    )
    return session.run()


# --- games, legal, perft -------------------------------------------------------------------------


def test_games_lists_shobu_with_settings_and_presets() -> None:
    result = run("games")
    assert result.exit_code == 0, result.output
    assert "shobu: Shobu (version 1)" in result.stdout
    assert "seats: Black, White" in result.stdout
    assert "max_turns=300" in result.stdout
    assert "no_turn=lose  (one of lose, pass)" in result.stdout
    assert "presets:" in result.stdout


def test_legal_lists_the_232_opening_moves() -> None:
    result = run("legal", "shobu")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 232
    state = make("shobu").new_initial_state()
    assert [state.move_to_text(state.parse_move(line)) for line in lines] == lines


def test_legal_from_a_position_and_at_a_chance_node() -> None:
    state = make("shobu").new_initial_state()
    state = state.play(state.legal_moves()[0])
    result = run("legal", "shobu", "--position", state.to_text())
    assert result.stdout.splitlines() == [state.move_to_text(move) for move in state.legal_moves()]
    register_toy_games()
    result = run("legal", "toy_dice_race", "--preset", "sprint")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == ["d1", "d2", "d3"]


def test_perft_depth_2() -> None:
    result = run("perft", "shobu", "--depth", "2")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == ["50508"]


def test_perft_divide_sums_to_the_total() -> None:
    result = run("perft", "shobu", "--depth", "2", "--divide")
    assert result.exit_code == 0, result.output
    *split, total = result.stdout.splitlines()
    assert total == "50508"
    assert len(split) == 232
    counts = {}
    for line in split:
        move, _, count = line.rpartition(": ")
        counts[move] = int(count)
    assert sum(counts.values()) == 50508
    assert len(counts) == 232


def test_perft_settings_and_preset_are_applied() -> None:
    assert run("perft", "shobu", "--depth", "1", "--settings", "max_turns=5 no_turn=pass").stdout == "232\n"
    assert run("perft", "shobu", "--depth", "1", "--preset", "standard").stdout == "232\n"


# --- bad input -----------------------------------------------------------------------------------


def test_bad_position_is_a_clean_error() -> None:
    assert_usage_error(run("legal", "shobu", "--position", "not a position"), "bad position for shobu")
    assert_usage_error(run("perft", "shobu", "--depth", "1", "--position", "x"), "bad position")


@pytest.mark.parametrize(
    ("settings", "fragment"),
    [
        ("max_turns=0", "max_turns"),
        ("max_turns=many", "expects a whole number"),
        ("no_turn=maybe", "one of lose, pass"),
        ("colour=red", "unknown setting 'colour'"),
        ("max_turns", "expected a setting as name=value"),
    ],
)
def test_bad_settings_are_clean_errors(settings: str, fragment: str) -> None:
    assert_usage_error(run("legal", "shobu", "--settings", settings), fragment)
    assert_usage_error(run("play", "shobu", "--settings", settings, input="quit\n"), fragment)


def test_other_bad_input_is_a_clean_error() -> None:
    assert_usage_error(run("legal", "chess"), "unknown game 'chess'", "shobu")
    assert_usage_error(run("perft", "shobu", "--depth", "1", "--preset", "blitz"), "unknown preset 'blitz'")
    assert_usage_error(run("perft", "shobu", "--depth", "0", "--divide"), "--divide needs a depth")
    assert_usage_error(run("play", "shobu", "--vs", "deep_blue", input=""), "unknown agent", "random")
    assert_usage_error(run("play", "shobu", "--seat", "red", input=""), "--seat 'red'", "Black, White")
    assert_usage_error(run("play", "shobu", "--seat", "3", input=""), "names no seat")
    assert_usage_error(run("play", "shobu", "--seat", "none", "--seat", "1", input=""), "--seat none")


# --- terminal play -------------------------------------------------------------------------------


def test_terminal_game_played_to_the_end_then_replayed(tmp_path: Path) -> None:
    path = tmp_path / "game.sgr"
    person = ScriptedPerson(
        ["nonsense", "BDa2-a3 WLa2-a3", "?", PICK, "undo", "help", "", "moves", PICK], seed=1
    )
    outcome = play_scripted(person, path, seed=11)
    text = person.text()

    assert outcome.status == "finished"
    assert outcome.state.is_terminal()
    assert outcome.path == path
    assert "Cannot read that move: cannot read 'nonsense'" in text
    assert "Not a legal move: 'BDa2-a3 WLa2-a3' is not legal: there is no Black stone on BDa2" in text
    assert "Type 'moves' to list the legal moves" in text
    assert "232 legal moves:" in text
    assert "Took back 2 moves" in text
    assert "undo          take back your last move" in text
    assert re.search(r"White \(random\) plays \S+ \S+", text)
    assert "Last move: " in text
    assert f"Result: {outcome.record.result}" in text
    assert f"Record saved to {path}" in text
    assert person.prompts[0] == "Black> "

    record = parse_record(path.read_text(encoding="utf-8"))
    assert record.result == outcome.record.result != "*"
    assert (record.headers["Black"], record.headers["White"]) == ("human", "random")
    assert record.seed == 11
    assert replay(record).final_state.key() == outcome.state.key()

    result = run("replay", str(path))
    assert result.exit_code == 0, result.output
    assert f"Result: {record.result}" in result.stdout
    assert f"1. Black: {record.moves[0]}" in result.stdout
    assert result.stdout.count("rope") == len(record.moves) + 1  # one diagram per position
    quiet = run("replay", "--quiet", str(path))
    assert quiet.stdout == f"{path} #1: shobu, human vs random, {len(record.moves)} moves, " + (
        f"result {record.result} ({record.termination})\n"
    )


def test_cli_play_matches_the_terminal_loop(tmp_path: Path) -> None:
    person = ScriptedPerson(["?", PICK, "undo"], seed=2)
    outcome = play_scripted(person, tmp_path / "loop.sgr", seed=21)
    assert outcome.status == "finished"
    path = tmp_path / "cli.sgr"
    result = run(
        "play",
        "shobu",
        "--vs",
        "random",
        "--seed",
        "21",
        "--record",
        str(path),
        input="\n".join(person.sent) + "\n",
    )
    assert result.exit_code == 0, result.output
    assert f"Record saved to {path}" in result.stdout
    record = parse_record(path.read_text(encoding="utf-8"))
    assert record.moves == outcome.record.moves
    assert record.result == outcome.record.result


def test_saved_record_with_an_illegal_move_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "game.sgr"
    outcome = play_scripted(ScriptedPerson(seed=3), path, seed=31)
    lines = path.read_text(encoding="utf-8").splitlines()
    first, second = outcome.record.moves[:2]
    index = lines.index(f"2. {second}")
    lines[index] = f"2. {first}"  # Black's move played by White: the passive board is Black's
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run("replay", str(path))
    assert result.exit_code == 2
    assert f"line {index + 1}: ply 2 {first!r}" in result.stderr
    assert "Traceback" not in result.output

    lines[index] = "2. BDz9-q9 WLa1"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert_usage_error(run("replay", "--quiet", str(path)), f"line {index + 1}: ply 2 'BDz9-q9 WLa1'")


def test_replay_reads_every_record_and_rejects_non_records(tmp_path: Path) -> None:
    first, second = tmp_path / "a.sgr", tmp_path / "b.sgr"
    play_scripted(ScriptedPerson(["resign"]), first, seed=1)
    play_scripted(ScriptedPerson(["moves", PICK, "quit"]), second, seed=2)
    both = tmp_path / "both.sgr"
    both.write_text(first.read_text() + "\n" + second.read_text(), encoding="utf-8")
    result = run("replay", "-q", str(both))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].endswith("0 moves, result 0-1 (resignation)")
    assert lines[1].endswith("2 moves, result * (abandoned)")
    junk = tmp_path / "junk.sgr"
    junk.write_text("hello\n", encoding="utf-8")
    assert_usage_error(run("replay", str(junk)), "line 1")
    empty = tmp_path / "empty.sgr"
    empty.write_text("\n", encoding="utf-8")
    assert_usage_error(run("replay", str(empty)), "no game records")


def test_the_default_opponent_is_the_easy_level(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = run("play", "shobu", "--seat", "White", "--seed", "1", input="")
    assert result.exit_code == 0, result.output
    assert "Black: easy; White: you." in result.stdout


def test_watching_agents_play(tmp_path: Path) -> None:
    path = tmp_path / "watch.sgr"
    result = run(
        "play", "shobu", "--seat", "none", "--vs", "random", "--seed", "4", "--record", str(path), input=""
    )
    assert result.exit_code == 0, result.output
    assert "Black (random) plays" in result.stdout
    assert "White (random) plays" in result.stdout
    assert "> " not in result.stdout  # nobody was asked for a move
    record = parse_record(path.read_text(encoding="utf-8"))
    assert f"Result: {record.result}" in result.stdout
    assert record.termination in result.stdout
    final = replay(record).final_state
    assert final.is_terminal()
    # --seed 4 seeds the agents with 5 and 6 by seat, so play_game replays the very same game
    same_state, same = play_game(make("shobu"), [RandomAgent(seed=5), RandomAgent(seed=6)], seed=4)
    assert same.moves == record.moves
    assert same_state.key() == final.key()


def _random_line(seed: int, plies: int) -> list[str]:
    rng = random.Random(seed)
    state: State[object] = make("shobu").new_initial_state()
    texts = []
    for _ in range(plies):
        move = rng.choice(list(state.legal_moves()))
        texts.append(state.move_to_text(move))
        state = state.play(move)
    return texts


def test_hot_seat(tmp_path: Path) -> None:
    path = tmp_path / "hot.sgr"
    opening = _random_line(seed=7, plies=2)
    game_line = _random_line(seed=8, plies=6)
    typed = [*opening, "undo", *game_line]
    result = run(
        "play", "shobu", "--seat", "black", "--seat", "2", "--settings", "max_turns=6", "--record", str(path),
        input="\n".join(typed) + "\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Black: human; White: human" in result.stdout
    assert "Took back 2 moves" in result.stdout
    assert "White> " in result.stdout
    assert "(random)" not in result.stdout
    record = parse_record(path.read_text(encoding="utf-8"))
    assert record.moves == game_line
    assert record.termination == "length cap"
    assert record.result == "1/2-1/2"


def test_hot_seat_undo_takes_back_the_movers_own_move(tmp_path: Path) -> None:
    line = _random_line(seed=9, plies=3)
    person = ScriptedPerson([line[0], "undo", line[0], line[1], "undo", "quit"])
    session = TerminalGame(
        make("shobu"), humans={0, 1}, agents={}, record_path=tmp_path / "h.sgr",
        read_line=person.read, write=person.write,
    )  # fmt: skip
    outcome = session.run()
    text = person.text()
    assert "Nothing to undo: White has not moved yet." in text
    assert f"Took back 2 moves: {line[0]}, {line[1]}" in text
    assert outcome.status == "quit"
    assert outcome.record.moves == []


def test_end_of_input_quits_and_saves_to_the_default_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = run("play", "shobu", "--seat", "White", "--vs", "random", "--seed", "1", input="")
    assert result.exit_code == 0, result.output
    saved = list(Path().glob("shogames-shobu-*.sgr"))
    assert len(saved) == 1
    assert re.fullmatch(r"shogames-shobu-\d{8}-\d{6}\.sgr", saved[0].name)
    assert f"Record saved to {saved[0].name}" in result.stdout
    assert "Black (random) plays" in result.stdout
    record = parse_record(saved[0].read_text(encoding="utf-8"))
    assert (record.headers["Black"], record.headers["White"]) == ("random", "human")
    assert record.result == "*"
    assert record.termination == ABANDONED
    assert len(record.moves) == 1
    assert run("replay", "-q", str(saved[0])).exit_code == 0


def test_resign_and_save(tmp_path: Path) -> None:
    saved = tmp_path / "snapshot.sgr"
    person = ScriptedPerson(["moves", PICK, f"save {saved}", "resign"], seed=5)
    outcome = play_scripted(person, tmp_path / "final.sgr", seed=6)
    assert outcome.status == "resigned"
    assert outcome.record.result == "0-1"
    assert outcome.record.termination == "resignation"
    assert "Black resigns." in person.text()
    assert "White wins" in person.text()
    snapshot = parse_record(saved.read_text(encoding="utf-8"))
    assert snapshot.result == "*"
    assert snapshot.moves == outcome.record.moves
    assert len(read_records((tmp_path / "final.sgr").read_text(encoding="utf-8"))) == 1


def test_play_from_a_position(tmp_path: Path) -> None:
    state = make("shobu").new_initial_state()
    state = state.play(state.legal_moves()[5])
    path = tmp_path / "p.sgr"
    result = run(
        "play", "shobu", "--position", state.to_text(), "--seat", "white", "--record", str(path),
        input="quit\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    record = parse_record(path.read_text(encoding="utf-8"))
    assert record.headers["Position"] == state.to_text()
    assert record.moves == []


def test_format_columns_keeps_moves_apart() -> None:
    moves = ["BDa1-a2 WLa1-a2", "pass", "BLd1-b3 BDd1-b3"]
    lines = format_columns(moves, width=40)
    assert [move for line in lines for move in re.split(r" {3,}", line)] == moves


# --- bench ---------------------------------------------------------------------------------------


def test_bench_prints_its_figures() -> None:
    result = run("bench", "shobu", "--depth", "1", "--seconds", "0.05", "--games", "2")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "perft depth 1: 232 nodes" in out
    assert "nodes/s" in out
    assert "random playouts: " in out
    assert "games/s" in out
    assert "plies/s" in out
    assert "machine: " in out


def test_a_resignation_in_team_sho_names_the_winning_team(tmp_path: Path) -> None:
    person = ScriptedPerson(["resign"])
    session = TerminalGame(
        make("sho", players=4),
        humans={0},
        agents={seat: make_agent("random", seat) for seat in (1, 2, 3)},
        seed=3,
        record_path=tmp_path / "teams.sgr",
        read_line=person.read,
        write=person.write,
    )
    outcome = session.run()
    assert outcome.record.result == "0-1-0-1"  # Player 3 is Player 1's partner: it loses too
    assert "Result: 0-1-0-1 (Player 2 and Player 4 win)" in person.text()
