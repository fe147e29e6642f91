"""Puzzles (issue "Study in the browser", item 3): every shipped puzzle judged again by the kernel at its
depth, the themes, the Glicko-2 ratings against Glickman's worked example, mining, the command line, the web
app's routes and ratings, and in Chromium one puzzle of each game solved and one failed with its refutation.
"""

# ruff: noqa: F811 (the fixtures server and browser come from test_browser)
from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, expect

import shogames
from cli_runner import run_cli
from shogames.core.chance import sample_chance
from shogames.core.errors import NotationError, SettingsError
from shogames.core.protocol import CHANCE
from shogames.games import BUILTIN_GAMES
from shogames.glicko import Rating, expected_score, update
from shogames.puzzles import (
    KIND_THEMES,
    KINDS,
    WIN,
    Judge,
    MiningOptions,
    Puzzle,
    PuzzleSet,
    check,
    mine,
    puzzle_kind,
    puzzles_text,
    read_puzzles,
    refute,
    shipped_puzzles,
)
from shogames.records import finish_record, start_record, write_record
from shogames.server.app import create_app
from test_browser import browser, click_move, server  # noqa: F401 (fixtures)

GAMES = sorted(BUILTIN_GAMES)
"""Every shipped game ships puzzles."""
BRIEF_THEMES = {"shobu": "push-off", "shoo": "shoo", "sho": "kill", "shogammon": "point-capture"}
"""A theme the issue names, which each game's puzzles must have among them."""


def _puzzles(game: str) -> PuzzleSet:
    puzzle_set = shipped_puzzles(game)
    assert puzzle_set is not None, f"{game} ships no puzzles.jsonl"
    return puzzle_set


# --- Glicko-2 ----------------------------------------------------------------------------------------------


def test_glicko2_matches_glickmans_worked_example() -> None:
    """Glickman's worked example: 1500/200/0.06 beats 1400/30, loses to 1550/100 and 1700/300."""
    games = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    after = update(Rating(1500, 200, 0.06), games)
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_glicko2_moves_the_winner_up_the_loser_down_and_shrinks_the_deviation() -> None:
    puzzle, solver = Rating(1500, 350, 0.06), Rating(1500, 80, 0.06)
    assert expected_score(solver, puzzle) == pytest.approx(0.5)
    solved_puzzle = update(puzzle, [(solver, 0.0)])
    solved_solver = update(solver, [(puzzle, 1.0)])
    assert solved_puzzle.rating < 1500 < solved_solver.rating
    assert solved_puzzle.deviation < 350 and solved_solver.deviation < 80
    # The uncertain puzzle moves far more than the well-known solver.
    assert 1500 - solved_puzzle.rating > 5 * (solved_solver.rating - 1500)
    idle = update(solver, [])
    assert idle.rating == 1500 and idle.deviation > 80
    with pytest.raises(ValueError, match="score"):
        update(solver, [(puzzle, 2.0)])


# --- The shipped puzzles -----------------------------------------------------------------------------------


def test_every_shipped_game_ships_puzzles() -> None:
    for game in GAMES:
        assert len(_puzzles(game).puzzles) >= 200, game


SUITE_SHARE = 4
"""The suite judges every fourth shipped puzzle of each game again (the puzzles are in the order of their
ratings, so these span them all); ``--run-slow`` judges every one."""


def _problems(puzzles: Sequence[Puzzle]) -> dict[str, str]:
    """What :func:`check` finds wrong with each of ``puzzles`` that is not sound, by puzzle id."""
    problems = {puzzle.id: check(puzzle) for puzzle in puzzles}
    return {key: value for key, value in problems.items() if value}


@pytest.mark.parametrize("game", GAMES)
def test_every_fourth_puzzle_has_a_unique_solution_at_its_depth(game: str) -> None:
    """The kernel judges a quarter of the shipped puzzles again: the solution is the one best move, by the
    margin."""
    puzzles = _puzzles(game).puzzles[::SUITE_SHARE]
    assert len(puzzles) >= 50
    assert _problems(puzzles) == {}


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_each_puzzle_has_a_unique_solution_at_its_depth(game: str) -> None:
    """The kernel judges every shipped puzzle again: the solution is the one best move, by the margin."""
    assert _problems(_puzzles(game).puzzles) == {}


@pytest.mark.parametrize("game", GAMES)
def test_the_shipped_file_says_how_it_was_mined_and_its_puzzles_are_sound(game: str) -> None:
    puzzle_set = _puzzles(game)
    game_object = shogames.make(game)
    assert puzzle_set.command.startswith(f"shogames puzzles {game} --mine ")
    assert puzzle_set.settings == game_object.settings_text()
    depth = puzzle_set.parameters["depth"]
    assert f"--depth {depth}" in puzzle_set.command
    puzzles = puzzle_set.puzzles
    assert len({puzzle.id for puzzle in puzzles}) == len(puzzles)
    assert len({puzzle.position for puzzle in puzzles}) == len(puzzles)
    assert [puzzle.rating for puzzle in puzzles] == sorted(puzzle.rating for puzzle in puzzles)
    known = set(KIND_THEMES) | set(game_object.move_theme_names)
    for puzzle in puzzles:
        assert puzzle.kind in KINDS and puzzle.depth == depth and puzzle.moves >= 2
        assert puzzle_kind(puzzle.value, puzzle.second, puzzle.margin) == puzzle.kind
        assert set(puzzle.themes) <= known, puzzle.themes
        first = puzzle.themes[0]
        assert first == puzzle.kind or (puzzle.kind == "win" and first in ("win-in-1", "forced-win"))
        assert 600 <= puzzle.rating <= 2600
    assert any(BRIEF_THEMES[game] in puzzle.themes for puzzle in puzzles), f"no {BRIEF_THEMES[game]} puzzle"


@pytest.mark.parametrize("game", GAMES)
def test_the_themes_say_what_the_solution_does(game: str) -> None:
    """The game's themes, checked against the position after the solution (facts, not the theme code)."""
    for puzzle in _puzzles(game).puzzles:
        state: Any = puzzle.start()  # the game's own state class, with its facts
        move = state.parse_move(puzzle.solution)
        after: Any = state.play(move)
        mover = state.to_move
        assert mover is not None
        if "win-in-1" in puzzle.themes:
            assert after.is_terminal() and after.returns()[mover] > 0
        if "push-off" in puzzle.themes:
            foe = (state.white, after.white) if mover == 0 else (state.black, after.black)
            assert foe[1].bit_count() < foe[0].bit_count()
        if "shoo" in puzzle.themes:
            assert "shoo" in puzzle.solution
        if "kill" in puzzle.themes:
            assert any(
                after.hand[side] > state.hand[side] for side in range(len(state.hand)) if side != state.side
            )
        if "point-capture" in puzzle.themes:
            assert "&" in puzzle.solution


@pytest.mark.parametrize("game", [cls.id for cls in shogames.available_games()])
def test_move_themes_are_named_by_their_game(game: str) -> None:
    """Over random games, every theme a move has is one of its game's ``move_theme_names``."""
    game_object = shogames.make(game)
    named = set(game_object.move_theme_names)
    seen: set[str] = set()
    for seed in range(3):
        rng = random.Random(seed)
        state = game_object.new_initial_state()
        while not state.is_terminal() and state.ply < 150:
            if state.to_move == CHANCE:
                state = state.play(sample_chance(state, rng))
                continue
            moves = state.legal_moves()
            for move in moves:
                seen.update(state.move_themes(move))
            state = state.play(rng.choice(moves))
    assert seen <= named, seen - named
    if game in BRIEF_THEMES:
        assert seen, f"no move of {game} had a theme in three random games"


def test_a_changed_puzzle_fails_its_check() -> None:
    """check() is not a formality: another move, other values or other themes are caught."""
    puzzle = _puzzles("shobu").puzzles[0]
    state = puzzle.start()
    other = next(
        state.move_to_text(move)
        for move in state.legal_moves()
        if state.move_to_text(move) != puzzle.solution
    )
    fields = puzzle.to_json()
    wrong_move = Puzzle.from_json({**fields, "solution": other}, "shobu", puzzle.settings)
    assert check(wrong_move) is not None
    wrong_value = Puzzle.from_json({**fields, "value": puzzle.value - 0.01}, "shobu", puzzle.settings)
    assert "values" in (check(wrong_value) or "")
    wrong_themes = Puzzle.from_json({**fields, "themes": ["advantage"]}, "shobu", puzzle.settings)
    assert check(wrong_themes) is not None


def test_puzzle_kinds() -> None:
    assert puzzle_kind(0.9999, 0.5, 0.3) == "win"
    assert puzzle_kind(0.9999, 0.9997, 0.3) is None  # two moves win
    assert puzzle_kind(-0.2, -0.9998, 0.3) == "defence"
    assert puzzle_kind(0.4, 0.05, 0.3) == "advantage"
    assert puzzle_kind(0.4, 0.2, 0.3) is None  # not clearly better
    assert puzzle_kind(-0.9990, -0.9999, 0.0001) is None  # lost either way
    assert WIN == 0.99


@pytest.mark.parametrize("game", GAMES)
def test_a_wrong_move_is_refuted(game: str) -> None:
    """A refutation values the wrong move at the puzzle's depth (at most the others' best) and plays on."""
    puzzle = _puzzles(game).puzzles[-1]
    state = puzzle.start()
    wrong = next(
        state.move_to_text(move)
        for move in state.legal_moves()
        if state.move_to_text(move) != puzzle.solution
    )
    refutation = refute(puzzle, wrong)
    assert refutation.move == wrong
    assert refutation.value <= puzzle.second + 1e-6
    assert puzzle.solution in refutation.text and wrong in refutation.text
    assert refutation.line, "the refutation shows how play goes on"
    assert refutation.line[-1][0] != state.to_move or state.play(state.parse_move(wrong)).is_terminal()


# --- Mining and files --------------------------------------------------------------------------------------


def test_mining_is_seeded_and_finds_puzzles_that_pass_their_check(tmp_path: Path) -> None:
    game = shogames.make("shobu")
    options = MiningOptions(count=3, seed=7, depth=3, margin=0.3)
    first = mine(game, options)
    assert len(first) == 3 and mine(game, options) == first
    assert all(check(puzzle) is None for puzzle in first)
    assert all("seed 7, game" in puzzle.source for puzzle in first)
    puzzle_set = PuzzleSet(
        "shobu", game.settings_text(), "shogames puzzles shobu --mine", {"depth": 3}, tuple(first)
    )
    assert read_puzzles(puzzles_text(puzzle_set), "shobu") == puzzle_set


def test_bad_mining_options_and_a_game_without_a_kernel_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    game = shogames.make("shobu")
    with pytest.raises(SettingsError, match="margin"):
        mine(game, MiningOptions(count=1, margin=0.0))
    with pytest.raises(SettingsError, match="1 or more"):
        mine(game, MiningOptions(count=0))
    monkeypatch.setenv("SHOGAMES_KERNELS", "0")
    with pytest.raises(SettingsError, match="compiled alpha-beta"):
        Judge(shogames.make("shobu"), 2)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("not json", "not JSON"),
        ('{"format": "other"}', "not a puzzle file"),
        ('{"format": "shogames-puzzles", "version": 9, "game": "shobu"}', "version"),
        ('{"format": "shogames-puzzles", "version": 1, "game": "shoo"}', "for 'shoo'"),
        ('{"format": "shogames-puzzles", "version": 1, "game": "shobu"}\n[1]', "line 2"),
        ('{"format": "shogames-puzzles", "version": 1, "game": "shobu"}\n{"id": "x"}', "no 'position'"),
    ],
)
def test_a_bad_puzzle_file_is_refused_with_where(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        read_puzzles(text, "shobu")


# --- The command line --------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_the_command_lists_a_games_puzzles_one_a_line(game: str) -> None:
    result = run_cli(["puzzles", game])
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    puzzles = _puzzles(game).puzzles
    assert len(lines) == len(puzzles) >= 200
    for line, puzzle in zip(lines, puzzles, strict=True):
        assert line.split()[:2] == [puzzle.id, str(puzzle.rating)]
        assert puzzle.solution in line and line.endswith(puzzle.position)
    theme = BRIEF_THEMES[game]
    filtered = run_cli(["puzzles", game, "--theme", theme]).stdout.splitlines()
    assert 0 < len(filtered) < len(lines) and all(theme in line.split()[2] for line in filtered)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["puzzles", "chess"], "unknown game"),
        (["puzzles", "shobu", "--theme", "checkmate"], "no theme 'checkmate'"),
        (["puzzles", "shobu", "--mine", "--count", "0"], "0 is not 1 or more"),
        (["puzzles", "shobu", "--mine", "--margin", "x"], "'x' is not a number"),
        (["puzzles", "shobu", "--mine", "--check"], "not allowed with"),
        (["puzzles", "shobu", "--file", "/no/such/file"], "cannot read"),
        (["puzzles", "shobu", "--mine", "--agent", "nobody"], "unknown agent"),
    ],
)
def test_bad_command_lines_get_a_clear_error(arguments: list[str], message: str) -> None:
    result = run_cli(arguments)
    assert result.exit_code == 2
    assert "Error:" in result.stderr and message in result.stderr, result.stderr
    assert "Traceback" not in result.output


def test_the_command_mines_into_a_file_and_checks_it(tmp_path: Path) -> None:
    out = tmp_path / "mined.jsonl"
    command = ["puzzles", "shobu", "--mine", "--count", "2", "--seed", "3", "--depth", "3", "--out", str(out)]
    result = run_cli(command)
    assert result.exit_code == 0, result.stderr
    assert "2 puzzles of shobu" in result.stdout
    header = json.loads(out.read_text().splitlines()[0])
    assert header["command"].startswith("shogames puzzles shobu --mine --count 2 --seed 3 --depth 3")
    assert header["count"] == 2 and header["parameters"]["seconds"] >= 0
    checked = run_cli(["puzzles", "shobu", "--file", str(out), "--check"])
    assert checked.exit_code == 0 and "2 of 2 puzzles keep their one solution" in checked.stdout
    fields = json.loads(out.read_text().splitlines()[1])
    state = shogames.make("shobu").state_from_text(fields["position"])
    fields["solution"] = next(
        state.move_to_text(move)
        for move in state.legal_moves()
        if state.move_to_text(move) != fields["solution"]
    )
    lines = out.read_text().splitlines()
    out.write_text("\n".join([lines[0], json.dumps(fields), *lines[2:]]) + "\n")
    spoiled = run_cli(["puzzles", "shobu", "--file", str(out), "--check"])
    assert spoiled.exit_code == 2 and "no longer have their one solution" in spoiled.stderr


def test_the_command_mines_the_positions_of_game_records(tmp_path: Path) -> None:
    """A game played on the server, exported as a record, is mined as the games between agents are."""
    shipped = next(puzzle for puzzle in _puzzles("shobu").puzzles if "win-in-1" in puzzle.themes)
    game = shogames.make("shobu")
    record = start_record(game, ["Ann", "Bo"], position=shipped.position)
    state = game.state_from_text(shipped.position)
    record.add_move(shipped.solution)
    finish_record(record, state.play(state.parse_move(shipped.solution)))
    records = tmp_path / "games.sgr"
    records.write_text(write_record(record))
    out = tmp_path / "mined.jsonl"
    depth, margin = str(shipped.depth), str(shipped.margin)
    command = ["puzzles", "shobu", "--mine", "--records", str(records), "--depth", depth, "--margin", margin]
    result = run_cli([*command, "--out", str(out)])
    assert result.exit_code == 0, result.stderr
    (mined,) = read_puzzles(out.read_text(), "shobu").puzzles
    assert (mined.id, mined.solution, mined.kind, mined.value) == (
        shipped.id,
        shipped.solution,
        "win",
        shipped.value,
    )
    assert mined.source == f"record 1, ply {state.ply}"


# --- The web app -------------------------------------------------------------------------------------------


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}")) as test_client:
        yield test_client


def test_the_puzzle_pages_and_api(client: TestClient) -> None:
    index = client.get("/puzzles")
    assert index.status_code == 200
    for game in GAMES:
        assert f'href="/puzzles/{game}"' in index.text
    assert client.get("/puzzles/shobu").status_code == 200
    assert 'href="/puzzles"' in client.get("/").text
    assert client.get("/puzzles/chess").status_code == 404
    listed = {entry["id"]: entry["count"] for entry in client.get("/api/puzzles").json()["games"]}
    assert listed == {game: len(_puzzles(game).puzzles) for game in GAMES}
    first = client.get("/api/puzzles/shobu/next").json()
    puzzles = _puzzles("shobu").puzzles
    assert first["id"] == puzzles[0].id and first["number"] == 1 and first["rating"] == puzzles[0].rating
    assert puzzles[0].solution in {move["text"] for move in first["legal"]}
    second = client.get(f"/api/puzzles/shobu/next?after={first['id']}").json()
    assert second["id"] == puzzles[1].id
    wrapped = client.get(f"/api/puzzles/shobu/next?after={puzzles[-1].id}").json()
    assert wrapped["id"] == puzzles[0].id
    assert client.get(f"/api/puzzles/shobu/{puzzles[5].id}").json()["number"] == 6
    missing = client.get("/api/puzzles/shobu/0000000000")
    assert missing.status_code == 404 and "no puzzle" in missing.json()["error"]
    assert client.get("/api/puzzles/nope/next").status_code == 404
    assert client.get("/api/puzzles/shobu/next", params={"after": "x" * 100}).status_code == 400


def test_an_attempt_is_judged_and_a_first_try_rated(client: TestClient) -> None:
    puzzle = _puzzles("shobu").puzzles[0]
    url = f"/api/puzzles/shobu/{puzzle.id}/attempt"
    solver = {"rating": 1500, "deviation": 200, "volatility": 0.06}
    right = client.post(url, json={"move": puzzle.solution, "rated": True, "solver": solver}).json()
    assert right["legal"] and right["right"] and right["move"] == puzzle.solution
    assert right["message"].startswith(f"Right: {puzzle.solution}")
    assert right["puzzle_rating"]["attempts"] == 1 and right["puzzle_rating"]["solved"] == 1
    assert right["puzzle_rating"]["rating"] < puzzle.rating  # solved: the puzzle is easier than thought
    assert right["solver"]["rating"] > 1500 and right["solver"]["deviation"] < 200
    stored = client.get(f"/api/puzzles/shobu/{puzzle.id}").json()
    assert stored["attempts"] == 1 and stored["rating"] == right["puzzle_rating"]["rating"]
    unrated = client.post(url, json={"move": puzzle.solution}).json()
    assert unrated["right"] and "puzzle_rating" not in unrated
    state = puzzle.start()
    wrong_move = next(m for m in state.legal_moves() if state.move_to_text(m) != puzzle.solution)
    wrong = client.post(
        url, json={"move": state.move_to_text(wrong_move), "rated": True, "solver": solver}
    ).json()
    assert wrong["legal"] and not wrong["right"] and wrong["solution"] == puzzle.solution
    assert puzzle.solution in wrong["refutation"]["text"] and wrong["refutation"]["line"]
    assert wrong["puzzle_rating"]["attempts"] == 2 and wrong["solver"]["rating"] < 1500
    illegal = client.post(url, json={"move": "BDa1-a9 BLa1-a9"}).json()
    assert illegal == {"legal": False, "right": False, "message": illegal["message"]}
    assert illegal["message"].startswith("The rules do not allow that")
    assert client.post(url, json={"move": "  "}).status_code == 400
    assert client.post(url, json={"move": 3}).status_code == 400
    assert client.post(url, json={}).status_code == 400
    huge = {"rating": 1e300, "deviation": -5, "volatility": 9}
    clamped = client.post(url, json={"move": puzzle.solution, "rated": True, "solver": huge})
    assert clamped.status_code == 200 and clamped.json()["solver"]["rating"] <= 3600
    assert client.post("/api/puzzles/shobu/0000000000/attempt", json={"move": "x"}).status_code == 404


# --- In Chromium -------------------------------------------------------------------------------------------


def _puzzle_clicks(server: str, game: str, puzzle_id: str) -> dict[str, list[str]]:
    view: dict[str, Any] = httpx.get(f"{server}/api/puzzles/{game}/{puzzle_id}").json()
    return {move["text"]: move["clicks"] for move in view["legal"]}


@pytest.mark.parametrize("game", GAMES)
def test_a_puzzle_of_each_game_solved_and_one_failed_in_chromium(
    server: str, browser: Browser, game: str
) -> None:
    """The first puzzle solved by clicking its solution; the next failed, with the refutation shown."""
    puzzles = _puzzles(game).puzzles
    first, second = puzzles[0], puzzles[1]
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}/puzzles/{game}")
    expect(page.locator("#puzzle-title")).to_have_text("Puzzle 1")
    expect(page.locator("#board svg")).to_be_visible()
    click_move(page, _puzzle_clicks(server, game, first.id)[first.solution])
    expect(page.locator("#verdict")).to_have_class(re.compile("right"))
    expect(page.locator("#verdict")).to_contain_text(f"Right: {first.solution}")
    expect(page.locator("#progress")).to_have_text(f"1 of {len(puzzles)} solved")
    page.locator("#next-puzzle").click()
    expect(page.locator("#puzzle-title")).to_have_text("Puzzle 2")
    clicks = _puzzle_clicks(server, game, second.id)
    wrong = next(text for text in clicks if text != second.solution)
    click_move(page, clicks[wrong])
    expect(page.locator("#verdict")).to_have_class(re.compile("wrong"))
    expect(page.locator("#refutation")).to_be_visible()
    expect(page.locator("#refutation")).to_contain_text(f"the solution, {second.solution}")
    expect(page.locator("#again")).to_be_visible()
    page.reload()  # progress is kept: the puzzle on the board, the one solved, the rating
    expect(page.locator("#puzzle-title")).to_have_text("Puzzle 2")
    expect(page.locator("#progress")).to_have_text(f"1 of {len(puzzles)} solved")
    stored = page.evaluate(f"JSON.parse(localStorage.getItem('shogames:puzzles:{game}'))")
    assert stored["solved"] == [first.id] and set(stored["tried"]) == {first.id, second.id}
    assert errors == []
    context.close()
