"""Every registered game is tested by every shared suite, and no shared test names a game (OpenSpiel's
``test_all_games_tested``).

The shared suites are parametrized by the registry, so a new game is tested by registering it. This checks
what pytest really collects: one collection of the shared test files in a fresh process (with the toy games
installed through their entry points by ``conftest.py``, as in every run), then, for each parametrized
shared test, that a case of every game it must cover is among its cases. A case's id starts with its
game's id (``test_game_conforms[shoo-designers]``).

The toy tic-tac-toe (``tests/toy_games/tictactoe``) is the proof: a whole game with a compiled kernel that
the shared suites test, and that no shared test file names.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import shogames
from shogames.core.protocol import Game
from shogames.games import BUILTIN_GAMES
from shogames.server.guides import has_rules

TESTS = Path(__file__).parent
ROOT = TESTS.parent

GameClass = type[Game[Any]]


def _every_game(cls: GameClass) -> bool:
    return True


def _with_kernel(cls: GameClass) -> bool:
    return cls.kernel_module is not None


def _with_view(cls: GameClass) -> bool:
    return cls.view_module is not None


def _with_rules(cls: GameClass) -> bool:
    return has_rules(cls.id)


def _without_rules(cls: GameClass) -> bool:
    return not has_rules(cls.id)


def _shipped(cls: GameClass) -> bool:
    return cls.id in BUILTIN_GAMES


SHARED_SUITES: dict[str, Callable[[GameClass], bool]] = {
    "test_actions.py::test_actions_and_observations_hold_in_random_games": _every_game,
    "test_perft.py::test_every_registered_game_has_a_perft_data_file": _every_game,
    "test_perft.py::test_perft_counts": _every_game,
    "test_perft.py::test_kernel_perft_counts": _with_kernel,
    "test_conformance.py::test_game_conforms": _every_game,
    "test_conformance.py::test_every_setting_value_conforms": _every_game,
    "test_conformance.py::test_states_of_one_position_are_equal_hashable_and_picklable": _every_game,
    "test_kernels.py::test_every_kernel_agrees_with_its_reference": _with_kernel,
    "test_web_views.py::test_clicks_are_distinct_and_prefix_free": _every_game,
    "test_web_views.py::test_last_move_targets_are_the_board_clicks": _every_game,
    "test_web_views.py::test_every_game_has_a_view_and_a_renderer": _every_game,
    "test_web_views.py::test_views_read_the_state_not_its_position_text": _with_view,
    "test_learn.py::test_every_rules_diagram_is_a_real_position": _with_rules,
    "test_learn.py::test_every_lesson_is_a_real_position_with_a_right_and_a_wrong_move": _with_rules,
    "test_learn.py::test_the_lessons_together_cover_every_rule_of_the_default_ruleset": _with_rules,
    "test_learn.py::test_a_lesson_of_each_game_completed_by_clicking": _with_rules,
    "test_learn.py::test_a_game_without_a_guide_has_no_pages": _without_rules,
    "test_records.py::test_a_random_game_of_every_game_round_trips": _every_game,
    "test_browser.py::test_every_game_has_a_position_one_move_from_a_win": _every_game,
    "test_browser.py::test_a_short_game_of_each_game_by_clicking": _every_game,
    "test_browser_play.py::test_on_a_phone_the_board_stays_in_view_after_each_of_ten_moves": _every_game,
    "test_position_fuzz.py::test_seed_texts_are_read_as_written": _every_game,
    "test_position_fuzz.py::test_an_accepted_text_writes_back_equivalent_and_loses_no_piece": _every_game,
    "test_game_packages.py::test_move_kinds_are_named": _every_game,
    "test_rulings_table.py::test_every_shipped_game_has_a_section": _shipped,
    "test_adapter_openspiel.py::test_random_sim_test_passes_with_and_without_serialization": _every_game,
    "test_adapter_openspiel.py::test_the_openspiel_game_is_the_shogames_game": _every_game,
    "test_adapter_openspiel.py::test_every_game_is_registered_with_its_settings_as_parameters": _every_game,
    "test_adapter_openspiel.py::test_playthroughs_replay_as_recorded": _every_game,
    "test_adapter_openspiel.py::test_openspiel_python_mcts_bot_plays_a_whole_game": _every_game,
    "test_adapter_pettingzoo.py::test_pettingzoo_api_test_passes": _every_game,
    "test_adapter_pettingzoo.py::test_pettingzoo_seed_test_passes": _every_game,
    "test_adapter_pettingzoo.py::test_pettingzoo_render_test_passes": _every_game,
    "test_adapter_pettingzoo.py::test_games_end_with_the_returns_and_truncate_at_the_cap": _every_game,
    "test_adapter_pettingzoo.py::test_the_seed_decides_chance_and_illegal_actions_are_refused": _every_game,
    "test_adapter_gymnasium.py::test_gymnasium_check_env_passes": _every_game,
    "test_adapter_gymnasium.py::test_every_game_is_registered_under_its_name": _every_game,
    "test_adapter_gymnasium.py::test_an_illegal_action_loses_the_game": _every_game,
    "test_adapter_gymnasium.py::test_whole_games_end_with_the_seats_return": _every_game,
    "test_adapter_gymnasium.py::test_the_seed_decides_chance_and_the_opponents": _every_game,
}
"""Each parametrized shared test, and which registered games it must have a case of."""

SHARED_FILES = sorted({TESTS / name.partition("::")[0] for name in SHARED_SUITES})
"""The shared test files: every game is tested by them, and none of them names a game it need not name."""

KERNEL_TOY = ("toy_tictactoe", "tictactoe", "TicTacToe")
"""The names of the toy game with a kernel, which no shared test may use."""


@pytest.fixture(scope="module")
def collected() -> dict[str, list[str]]:
    """Each shared test's case ids, as pytest collects them in a fresh process."""
    command = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"]
    result = subprocess.run(
        [*command, *(str(path.relative_to(ROOT)) for path in SHARED_FILES)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    cases: dict[str, list[str]] = {}
    for line in result.stdout.splitlines():
        found = re.fullmatch(r"tests/(\S+?\.py::\w+)(?:\[(.*)\])?", line.strip())
        if found:
            cases.setdefault(found[1], []).append(found[2] or "")
    return cases


def _covers(case_ids: list[str], game_id: str) -> bool:
    return any(case == game_id or case.startswith(f"{game_id}-") for case in case_ids)


@pytest.mark.parametrize("suite", sorted(SHARED_SUITES))
def test_every_registered_game_is_tested_by_each_shared_suite(
    collected: dict[str, list[str]], suite: str
) -> None:
    assert suite in collected, f"{suite} was not collected"
    must = [cls.id for cls in shogames.available_games() if SHARED_SUITES[suite](cls)]
    assert must, f"{suite} covers no registered game"
    missing = [game_id for game_id in must if not _covers(collected[suite], game_id)]
    assert not missing, f"{suite} has no case of {missing}"


def test_the_toy_game_with_a_kernel_is_among_the_registered_games() -> None:
    cls = shogames.game_class("toy_tictactoe")
    assert cls.kernel_module == "toy_games.tictactoe.kernel" and cls.view_module == "toy_games.tictactoe.view"
    assert has_rules(cls.id)


def test_no_shared_test_names_the_toy_game_with_a_kernel() -> None:
    """The shared suites test it although no shared test was edited for it: only its own files name it."""
    for path in [*SHARED_FILES, TESTS / "conftest.py"]:
        text = path.read_text()
        named = [name for name in KERNEL_TOY if name in text]
        assert not named, (
            f"{path.name} names the toy game ({named}): a new game must need no shared test edit"
        )


def test_a_case_belongs_to_the_game_whose_id_begins_it() -> None:
    assert _covers(["shoo-designers", "shobu"], "shobu") and _covers(["shoo-designers"], "shoo")
    assert not _covers(["shoo-designers", "shobu-standard", "shogammon"], "sho")
