"""Variant studies (:mod:`shogames.explore`): an arena per combination of settings, the same seeds in each."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_runner import run_cli
from shogames.core.errors import SettingsError
from shogames.explore import explore, first_player_score, parse_vary, variants_of


def test_every_combination_of_the_varied_values_is_a_variant() -> None:
    vary = parse_vary(["horses=9,7", "hush=lose-move, shoo-off"])
    assert vary == {"horses": ["9", "7"], "hush": ["lose-move", "shoo-off"]}
    assert variants_of(vary) == [
        {"horses": "9", "hush": "lose-move"},
        {"horses": "9", "hush": "shoo-off"},
        {"horses": "7", "hush": "lose-move"},
        {"horses": "7", "hush": "shoo-off"},
    ]


@pytest.mark.parametrize("text", ["horses", "=9,7", "horses=", "horses=,"])
def test_a_malformed_vary_says_what_is_expected(text: str) -> None:
    with pytest.raises(ValueError, match=r"setting=value\[,value\.\.\.\]|no value"):
        variants_of(parse_vary([text]))


def test_a_setting_varied_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="varied twice"):
        parse_vary(["horses=9", "horses=7"])


def test_the_first_players_score_counts_a_shared_top_as_half() -> None:
    assert first_player_score((1.0, -1.0)) == 1.0
    assert first_player_score((-1.0, 1.0)) == 0.0
    assert first_player_score((0.0, 0.0)) == 0.5
    assert first_player_score((1.0, 1.0, -1.0)) == 0.5  # a team's win
    assert first_player_score((0.5, 1.0, -1.0)) == 0.0


def test_a_bad_value_is_refused_before_any_game_is_played() -> None:
    with pytest.raises(SettingsError):
        explore("shobu", {"no_turn": ["lose", "sideways"]}, ["random"], 2)


def test_a_study_plays_each_variant_with_the_same_seeds(tmp_path: Path) -> None:
    study = explore(
        "shobu", {"no_turn": ["lose", "pass"]}, ["random", "easy"], 4, seed=2, settings={"max_turns": 60}
    )
    assert [variant.settings for variant in study.variants] == [{"no_turn": "lose"}, {"no_turn": "pass"}]
    for variant in study.variants:
        assert variant.games == 4 and variant.fair == 0.5
        assert variant.low <= variant.first_score <= variant.high
        assert sum(variant.endings.values()) == 4
    again = explore(
        "shobu",
        {"no_turn": ["lose", "pass"]},
        ["random", "easy"],
        4,
        seed=2,
        settings={"max_turns": 60},
        jobs=2,
        out=tmp_path,
    )
    assert again.table() == study.table()  # the same games, whatever the processes
    assert "| no_turn | games | first player's score |" in (tmp_path / "results.md").read_text()
    assert (tmp_path / "variants.png").read_bytes()[:4] == b"\x89PNG"
    with pytest.raises(SettingsError, match="both varied and fixed"):
        explore("shobu", {"max_turns": ["50"]}, ["random"], 1, settings={"max_turns": 60})
    with pytest.raises(SettingsError, match="has no setting 'colour'"):
        explore("shobu", {"colour": ["red"]}, ["random"], 1)


def test_values_are_read_as_the_settings_types() -> None:
    study = explore("shobu", {"max_turns": ["4", "6"]}, ["random"], 2)
    assert [variant.mean_plies <= int(variant.settings["max_turns"]) for variant in study.variants] == [
        True
    ] * 2


def test_the_explore_command_prints_a_row_per_variant(tmp_path: Path) -> None:
    result = run_cli(
        [
            "explore",
            "shobu",
            "--vary",
            "no_turn=lose,pass",
            "--agents",
            "random",
            "--games",
            "2",
            "--settings",
            "max_turns=20",
            "--out",
            str(tmp_path),
        ]
    )
    assert result.exit_code == 0, result.output
    assert "| lose | 2 |" in result.output and "| pass | 2 |" in result.output
    assert (tmp_path / "results.md").is_file()
    bad = run_cli(["explore", "shobu", "--vary", "no_turn", "--agents", "random"])
    assert bad.exit_code == 2 and "setting=value" in bad.output
    unknown = run_cli(["explore", "shobu", "--vary", "colour=red", "--agents", "random"])
    assert unknown.exit_code == 2 and "has no setting 'colour'" in unknown.output
    three = run_cli(["explore", "shobu", "--vary", "no_turn=lose", "--agents", "random", "easy", "hard"])
    assert three.exit_code == 2 and "one or two agents" in three.output
