"""The arena (seats, scores, Elo, files), `shogames arena`, `shogames analyse` and `play --vs LEVEL`."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import pytest

from cli_runner import run_cli
from shogames.agents.levels import LEVELS, level_spec
from shogames.analysis import analyse_record
from shogames.arena import (
    PLAYED,
    GameResult,
    GameTask,
    ResumeError,
    elo_ratings,
    pair_scores,
    play_task,
    profile_interval,
    rate,
    read_played,
    run_arena,
    tasks_for,
)
from shogames.games import BUILTIN_GAMES
from shogames.records import read_records, replay


def test_seats_alternate_between_games() -> None:
    task = GameTask("sho", None, (("players", 3),), "a", "b", (0, 1), 0, 0)
    assert task.seats(3) == ["a", "b", "a"]
    odd = GameTask("sho", None, (("players", 3),), "a", "b", (0, 1), 1, 0)
    assert odd.seats(3) == ["b", "a", "b"]
    assert odd.seats(2) == ["b", "a"]


def test_tasks_cover_every_pair() -> None:
    tasks = tasks_for("shobu", ["x", "y", "z"], 3)
    assert len(tasks) == 9
    assert {task.pair for task in tasks} == {(0, 1), (0, 2), (1, 2)}
    with pytest.raises(ValueError, match="at least two agents"):
        tasks_for("shobu", ["x"], 3)


def test_a_game_scores_from_the_first_agents_seats() -> None:
    for number in range(4):
        result = play_task(GameTask("shobu", None, (), "medium", "random", (0, 1), number, 5))
        assert result.score == 1.0  # one-ply greedy beats random at Shobu from either seat
        record = read_records(result.record)[0]
        final = replay(record).final_state
        seat = 0 if number % 2 == 0 else 1
        assert final.returns()[seat] == 1.0
        assert record.headers[("Black", "White")[seat]] == "medium"


def test_elo_of_equal_and_lopsided_pairs() -> None:
    even = elo_ratings(2, {(0, 1): (50.0, 100)})
    assert even == pytest.approx([0.0, 0.0], abs=1e-6)
    strong = elo_ratings(2, {(0, 1): (75.0, 100)})
    assert strong[1] == pytest.approx(-400 * math.log10(75.5 / 25.5), abs=0.5)  # with one virtual draw
    chain = elo_ratings(3, {(0, 1): (50.0, 100), (1, 2): (90.0, 100), (0, 2): (90.0, 100)})
    assert chain[0] == 0.0 and chain[1] == pytest.approx(0.0, abs=1e-6) and chain[2] < -300


def test_the_interval_is_the_profile_likelihood_95_percent() -> None:
    # 75 wins in 100 games: the rating is -189 Elo for the second agent; the standard error of a share of
    # 0.75 over 100 games, 0.0433, is about 40 Elo there, so the 95% interval runs about 80 Elo each way.
    results = [GameResult((0, 1), k, 1.0 if k < 75 else 0.0, 10, "normal", 0.1, "") for k in range(100)]
    first, second = rate(["a", "b"], results)
    assert (first.elo, first.low, first.high) == (0.0, 0.0, 0.0)  # the anchor
    assert second.elo == pytest.approx(-188.6, abs=0.5)
    assert second.low < second.elo < second.high
    assert 55 < second.elo - second.low < 110 and 55 < second.high - second.elo < 110
    # At each end, twice the log-likelihood is 3.84 below its top: the share there is the Wilson-like bound.
    points = {(0, 1): (75.0, 100)}
    low, high = profile_interval(2, points, 1)
    assert (low, high) == (second.low, second.high)
    drawn = [GameResult((0, 1), k, 0.5, 10, "normal", 0.1, "") for k in range(400)]
    even = rate(["a", "b"], drawn)[1]
    assert even.elo == pytest.approx(0.0, abs=1e-6)
    assert even.high == pytest.approx(-even.low, abs=0.5)
    assert 25 < even.high < 45  # 400 draws still leave some doubt


def test_a_perfect_score_has_an_interval_of_real_width() -> None:
    """4 wins in 4 games used to print "+382 to +382": a bootstrap has nothing to resample there."""
    results = [GameResult((0, 1), k, 1.0, 10, "normal", 0.1, "") for k in range(4)]
    second = rate(["a", "b"], results)[1]
    assert second.elo == pytest.approx(-400 * math.log10(4.5 / 0.5), abs=0.5)  # with the virtual draw
    assert second.low < second.elo - 150 and second.high > second.elo + 150
    lopsided = [GameResult((0, 1), k, 1.0, 10, "normal", 0.1, "") for k in range(100)]
    strong = rate(["a", "b"], lopsided)[1]
    assert strong.low < strong.elo < strong.high and strong.high - strong.low < second.high - second.low


def test_intervals_profile_out_the_other_agents() -> None:
    results = [
        *(GameResult((0, 1), k, 1.0 if k % 2 else 0.0, 10, "normal", 0.1, "") for k in range(40)),
        *(GameResult((1, 2), k, 1.0 if k % 4 else 0.0, 10, "normal", 0.1, "") for k in range(40)),
        *(GameResult((0, 2), k, 1.0 if k % 5 else 0.0, 10, "normal", 0.1, "") for k in range(40)),
    ]
    ratings = rate(["a", "b", "c"], results)
    for rating in ratings[1:]:
        assert rating.low < rating.elo < rating.high
    assert ratings[2].elo < ratings[1].elo < 50


def test_pair_scores_count_results_with_an_interval() -> None:
    results = [GameResult((0, 1), k, score, 10, "normal", 0.1, "") for k, score in enumerate([1, 1, 0.5, 0])]
    (pair,) = pair_scores(["a", "b"], results)
    assert (pair.wins, pair.draws, pair.losses, pair.score) == (2, 1, 1, 0.625)
    assert pair.low < 0.625 < pair.high
    # Games 0 and 2 had the first agent move first (seat 0), games 1 and 3 the other agent.
    assert (pair.first_score, pair.second_score) == (0.75, 0.5)
    assert pair.first_low < 0.75 < pair.first_high and pair.second_low < 0.5 < pair.second_high


def test_run_arena_writes_records_tables_and_plot(tmp_path: Path) -> None:
    report = run_arena("shobu", ["easy", "random"], 4, jobs=2, out=tmp_path, seed=3)
    assert [pair.games for pair in report.pairs] == [4]
    assert {rating.agent for rating in report.ratings} == {"easy", "random"}
    records = read_records((tmp_path / "games.txt").read_text())
    assert len(records) == 4
    for record in records:
        replay(record)
    assert json.loads((tmp_path / "results.json").read_text())["games_per_pair"] == 4
    assert "| easy | random | 4 |" in (tmp_path / "results.md").read_text()
    assert (tmp_path / "ratings.png").read_bytes()[:4] == b"\x89PNG"
    again = run_arena("shobu", ["easy", "random"], 4, jobs=1, seed=3)  # same games, whatever the jobs
    assert [p.score for p in again.pairs] == [p.score for p in report.pairs]


def test_arena_command(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = run_cli(
        [
            "arena",
            "shobu",
            "--agents",
            "greedy",
            "random",
            "alphabeta:depth=1",
            "--games",
            "2",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "| greedy | random | 2 |" in result.output
    assert "Elo" in result.output
    assert len(read_records((out / "games.txt").read_text())) == 6
    bad = run_cli(["arena", "shobu", "--agents", "greedy", "nobody", "--out", str(out)])
    assert bad.exit_code == 2 and "unknown agent 'nobody'" in bad.output
    budget = run_cli(
        [
            "arena",
            "shobu",
            "--agents",
            "hard",
            "random",
            "--games",
            "1",
            "--budget",
            "nodes=300",
            "--out",
            str(out),
        ],
    )
    assert budget.exit_code == 0, budget.output
    assert "hard(alphabeta:depth=3,nodes=10000)" not in budget.output  # the spec's own nodes win


_RESUMED = ["random", "greedy", "alphabeta:depth=1"]
"""Cheap agents for the resume tests: three pairs of Shobu, a few milliseconds a game."""


class _StopError(Exception):
    """Raised by a progress callback to stop an arena mid-run, as a kill would."""


def _final_files(out: Path) -> tuple[object, str]:
    """``results.json`` without the seconds a game took (a clock's, not the games') and ``games.txt``."""
    report = json.loads((out / "results.json").read_text())
    for pair in report["pairs"]:
        del pair["seconds_per_game"]
    return report, (out / "games.txt").read_text()


def _resume(out: Path, games: int, jobs: int = 1) -> tuple[list[GameResult], list[tuple[int, int]]]:
    """Resume the :data:`_RESUMED` run (seed 7, 2-ply openings) in ``out`` to ``games`` games a pair.

    Returns the games it played and what ``started`` was called with.
    """
    played: list[GameResult] = []
    starts: list[tuple[int, int]] = []
    run_arena(
        "shobu",
        _RESUMED,
        games,
        seed=7,
        opening=2,
        jobs=jobs,
        out=out,
        resume=True,
        progress=played.append,
        started=lambda done, total: starts.append((done, total)),
    )
    return played, starts


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_arena_stopped_after_some_games_resumes_to_the_same_results(tmp_path: Path, jobs: int) -> None:
    whole = tmp_path / "whole"
    run_arena("shobu", _RESUMED, 4, seed=7, opening=2, out=whole)
    stopped = tmp_path / "stopped"
    seen: list[GameResult] = []

    def stop_after_five(result: GameResult) -> None:
        seen.append(result)
        if len(seen) == 5:
            raise _StopError

    with pytest.raises(_StopError):
        run_arena("shobu", _RESUMED, 4, seed=7, opening=2, jobs=jobs, out=stopped, progress=stop_after_five)
    assert not (stopped / "results.json").exists()  # the final files come at the end only
    description, kept = read_played(stopped / PLAYED)
    assert description["agents"] == _RESUMED and description["seed"] == 7 and description["opening"] == 2
    assert kept == seen  # every game reported was on disk first
    played, starts = _resume(stopped, 4, jobs)
    assert starts == [(5, 12)]
    assert len(played) == 7  # only the games not yet finished were played
    assert {(r.pair, r.number) for r in played}.isdisjoint({(r.pair, r.number) for r in kept})
    assert _final_files(stopped) == _final_files(whole)
    assert len(read_played(stopped / PLAYED)[1]) == 12


def test_a_finished_run_goes_on_to_more_games_as_one_run_of_them_all(tmp_path: Path) -> None:
    """A run's game has seeds of its own (not of the count), so 3 games a pair are the first of 5."""
    whole = tmp_path / "whole"
    run_arena("shobu", _RESUMED, 5, seed=7, opening=2, out=whole)
    longer = tmp_path / "longer"
    run_arena("shobu", _RESUMED, 3, seed=7, opening=2, out=longer)
    first, kept = read_played(longer / PLAYED)
    played, starts = _resume(longer, 5)
    assert starts == [(9, 15)] and len(played) == 6
    assert {(r.pair, r.number) for r in played} == {(p, n) for p in {r.pair for r in kept} for n in (3, 4)}
    assert _final_files(longer) == _final_files(whole)
    description, results = read_played(longer / PLAYED)
    assert description == {**first, "games_per_pair": 5} and len(results) == 15


def test_a_game_cut_short_mid_line_is_played_again(tmp_path: Path) -> None:
    whole = tmp_path / "whole"
    run_arena("shobu", _RESUMED, 2, seed=3, out=whole)
    cut = tmp_path / "cut"
    cut.mkdir()
    lines = (whole / PLAYED).read_text().splitlines(keepends=True)
    assert len(lines) == 7 and all(json.loads(line) for line in lines)
    # A kill -9 while the fourth game's line was written: the description, three games and half a line.
    (cut / PLAYED).write_text("".join(lines[:4]) + lines[4][: len(lines[4]) // 2])
    description, kept = read_played(cut / PLAYED)
    assert len(kept) == 3 and description == json.loads(lines[0])["run"]
    played: list[GameResult] = []
    run_arena("shobu", _RESUMED, 2, seed=3, out=cut, resume=True, progress=played.append)
    assert len(played) == 3
    assert _final_files(cut) == _final_files(whole)
    rewritten = (cut / PLAYED).read_text().splitlines()
    assert len(rewritten) == 7 and all(json.loads(line) for line in rewritten)  # the cut line is gone
    # Only the last line may be cut short: a broken line before it is refused, not skipped.
    (cut / PLAYED).write_text("".join(lines[:2]) + "{not json\n" + "".join(lines[3:]))
    with pytest.raises(ResumeError, match="line 3 is not JSON"):
        run_arena("shobu", _RESUMED, 2, seed=3, out=cut, resume=True)


def test_resume_refuses_another_runs_file_and_names_the_field(tmp_path: Path) -> None:
    run_arena("shobu", ["random", "greedy"], 2, seed=1, out=tmp_path)
    before = (tmp_path / PLAYED).read_text()
    with pytest.raises(ValueError, match=r"seed 1 there, 2 asked for"):
        run_arena("shobu", ["random", "greedy"], 2, seed=2, out=tmp_path, resume=True)
    with pytest.raises(
        ResumeError, match=r'agents \["random", "greedy"\] there, \["greedy", "random"\] asked'
    ):
        run_arena("shobu", ["greedy", "random"], 2, seed=1, out=tmp_path, resume=True)
    with pytest.raises(ResumeError, match=r"games_per_pair 2 there, 1 asked for"):
        run_arena("shobu", ["random", "greedy"], 1, seed=1, out=tmp_path, resume=True)
    with pytest.raises(ResumeError, match=r'settings "max_turns=300 no_turn=lose" there, "max_turns=20 '):
        run_arena(
            "shobu", ["random", "greedy"], 2, seed=1, settings={"max_turns": 20}, out=tmp_path, resume=True
        )
    assert (tmp_path / PLAYED).read_text() == before  # a refused resume leaves the file as it was
    with pytest.raises(ResumeError, match=rf"there is no {tmp_path / 'elsewhere' / PLAYED}"):
        run_arena("shobu", ["random", "greedy"], 2, seed=1, out=tmp_path / "elsewhere", resume=True)
    (tmp_path / PLAYED).write_text('{"pair": [0, 1]}\n')
    with pytest.raises(ResumeError, match="does not start with an arena run's description"):
        run_arena("shobu", ["random", "greedy"], 2, seed=1, out=tmp_path, resume=True)
    with pytest.raises(ResumeError, match="without the out folder"):
        run_arena("shobu", ["random", "greedy"], 2, resume=True)


def test_the_spec_of_each_level_is_kept_and_a_changed_one_is_not_resumed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = run_arena("shobu", ["beginner", "random"], 2, seed=1, out=tmp_path)
    spec = level_spec("beginner", "shobu")
    assert report.levels == {"beginner": spec}
    assert json.loads((tmp_path / "results.json").read_text())["levels"] == {"beginner": spec}
    assert f"| beginner | `{spec}` |" in (tmp_path / "results.md").read_text()
    assert read_played(tmp_path / PLAYED)[0]["levels"] == {"beginner": spec}
    changed = replace(LEVELS["beginner"], kernel="kernel-alphabeta:depth=1,noise=0.9", reference="random")
    monkeypatch.setitem(LEVELS, "beginner", changed)
    with pytest.raises(ResumeError, match=rf'levels {{"beginner": "{spec}"}} there, {{"beginner": "'):
        run_arena("shobu", ["beginner", "random"], 2, seed=1, out=tmp_path, resume=True)
    plain = run_arena("shobu", ["random", "greedy"], 2, seed=1, out=tmp_path / "plain")
    assert plain.levels == {} and "levels" not in read_played(tmp_path / "plain" / PLAYED)[0]


def test_a_new_run_replaces_the_played_games_of_an_earlier_one(tmp_path: Path) -> None:
    run_arena("shobu", ["random", "greedy"], 3, seed=1, out=tmp_path)
    run_arena("shobu", ["greedy", "random"], 2, seed=5, out=tmp_path)
    description, results = read_played(tmp_path / PLAYED)
    assert (description["agents"], description["seed"], len(results)) == (["greedy", "random"], 5, 2)


def test_the_arena_command_resumes_and_refuses_what_it_cannot_resume(tmp_path: Path) -> None:
    command = ["arena", "shobu", "--agents", "random", "greedy", "--games", "4", "--seed", "2"]
    alone = run_cli(["arena", "shobu", "--agents", "random", "greedy", "--resume"])
    assert alone.exit_code == 2, alone.output
    assert alone.stderr == "Error: --resume needs --out FOLDER: the folder of the run to go on with\n"
    missing = run_cli([*command, "--out", str(tmp_path / "none"), "--resume"])
    assert missing.exit_code == 2 and "Traceback" not in missing.output
    assert missing.stderr.startswith("Error: cannot resume: there is no ") and missing.stderr.count("\n") == 1
    out = tmp_path / "run"
    first = run_cli([*command, "--out", str(out)])
    assert first.exit_code == 0, first.output
    assert "4/4 games played" in first.stdout  # a line at each tenth of the games, when not at a terminal
    lines = (out / PLAYED).read_text().splitlines()
    (out / PLAYED).write_text("\n".join(lines[:3]) + "\n")  # two of the four games kept
    resumed = run_cli([*command, "--out", str(out), "--resume"])
    assert resumed.exit_code == 0, resumed.output
    assert f"Resuming the arena in {out}: 2 of 4 games already played" in resumed.stdout
    assert "| random | greedy | 4 |" in resumed.stdout
    other = run_cli([*command[:-1], "3", "--out", str(out), "--resume"])
    assert other.exit_code == 2 and "Traceback" not in other.output
    assert "seed 2 there, 3 asked for" in other.stderr and other.stderr.count("\n") == 1


_SHORT = {"shobu": "max_turns=12", "shoo": "max_turns=14", "sho": "max_turns=6"}
"""A length cap per game that keeps these games short; every game's cap is ``max_turns``, 8 by default."""


_STRONG = {"expert", "master"}
"""Levels that think up to seconds a move: they play two turns a side here."""


@pytest.mark.parametrize("game_id", sorted(BUILTIN_GAMES))
@pytest.mark.parametrize("level", list(LEVELS))
def test_play_vs_every_level(game_id: str, level: str, tmp_path: Path) -> None:
    path = tmp_path / "game.sgr"
    result = run_cli(
        [
            "play",
            game_id,
            "--settings",
            "max_turns=2" if level in _STRONG else _SHORT.get(game_id, "max_turns=8"),
            "--seat",
            "none",
            "--vs",
            level,
            "--seed",
            "4",
            "--record",
            str(path),
        ],
    )
    assert result.exit_code == 0, result.output
    record = read_records(path.read_text())[0]
    assert level in record.headers.values()
    assert replay(record).final_state.is_terminal()


def test_analyse_flags_a_missed_win(tmp_path: Path) -> None:
    from shogames.agents import make_agent
    from shogames.core.registry import make
    from shogames.match import play_game

    game = make("shobu")
    _, record = play_game(game, [make_agent("random", 1), make_agent("greedy", 2)], seed=0)
    analysed = analyse_record(record, depth=2, nodes=0)
    assert len(analysed) == len(record.moves)
    assert all(move.loss >= 0 for move in analysed)
    assert any(move.verdict() == "blunder" for move in analysed if move.mover == "Black")
    last = analysed[-1]
    assert last.mover == "White" and last.best_value > 0.99 and last.verdict() == ""
    path = tmp_path / "game.sgr"
    from shogames.records import write_record

    path.write_text(write_record(record))
    result = run_cli(["analyse", str(path), "--depth", "2"])
    assert result.exit_code == 0, result.output
    assert "??" in result.output and "blunder(s)" in result.output
    bad = run_cli(["analyse", str(path), "--game-number", "2"])
    assert bad.exit_code == 2 and "holds 1 record" in bad.output
